import AuthClient
import Foundation
import TerminalUI

/// The inspector's lines about the last consent: the nonce, its hash, and the provider's claims.
enum FederatedInspector {
    static func lines(_ authorization: ProviderAuthorization, additionalUserInfo: AdditionalUserInfo?, width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = [("Last consent at the simulated \(authorization.credential.provider):", .title)]
        if let raw = authorization.rawNonce, let hash = authorization.hashedNonce {
            let claim = authorization.idTokenClaims?["nonce"]?.stringValue
            lines.append(("raw nonce  \(raw)", .accent))
            lines.append(("SHA-256    \(hash)", .accent))
            lines.append((claim == hash ? "the ID token's nonce claim matches the SHA-256" : "the ID token's nonce claim DOES NOT MATCH: \(claim ?? "none")", .accent))
        } else {
            lines.append(("no nonce: an access token has nothing to bind it to", .dim))
        }
        if !authorization.grantedScopes.isEmpty {
            lines.append(("granted scopes: \(authorization.grantedScopes.joined(separator: " "))", .normal))
        }
        lines = lines.map { (TextWidth.truncate($0.0, toCells: width), $0.1) }
        if let claims = authorization.idTokenClaims {
            lines.append(("Provider ID token claims:", .title))
            for key in claims.keys.sorted() {
                lines += TextWidth.wrap("\(key): \(claims[key]?.compactText ?? "")", width: width).map { ($0, .accent) }
            }
        }
        if let info = additionalUserInfo, let profile = info.profile, info.providerID == authorization.credential.provider {
            lines.append(("Additional user info (\(info.providerID ?? ""), isNewUser \(info.isNewUser)):", .title))
            for key in profile.keys.sorted() {
                lines += TextWidth.wrap("\(key): \(profile[key]?.compactText ?? "")", width: width).map { ($0, .normal) }
            }
        }
        return lines
    }
}

extension BackendExchange {
    /// The calls whose story the last consent tells: the provider's answer and the sign-in with it.
    var isFederatedStep: Bool {
        path.hasSuffix("simulatedIdp:authorize") || path.hasSuffix("accounts:signInWithIdp")
    }
}
