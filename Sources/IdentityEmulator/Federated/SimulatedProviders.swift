import Crypto
import Foundation
import Synchronization

/// The identity providers the embedded backend simulates, each with the real provider's token
/// format: issuer, audience (the app's client id at the provider), subject format and lifetimes.
struct SimulatedProvider: Sendable {
    enum Kind: Sendable { case apple, google, microsoft, facebook }

    let kind: Kind
    let id: String

    static let apple = SimulatedProvider(kind: .apple, id: "apple.com")
    static let google = SimulatedProvider(kind: .google, id: "google.com")
    static let microsoft = SimulatedProvider(kind: .microsoft, id: "microsoft.com")
    static let facebook = SimulatedProvider(kind: .facebook, id: "facebook.com")

    static func named(_ providerId: String?) -> SimulatedProvider? {
        switch providerId?.lowercased() {
        case apple.id: apple
        case google.id: google
        case microsoft.id: microsoft
        case facebook.id: facebook
        default: nil
        }
    }

    /// The tenant of personal Microsoft accounts (outlook.com, hotmail.com, live.com).
    static let microsoftConsumerTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    static let microsoftPersonalDomains: Set<String> = ["outlook.com", "hotmail.com", "live.com", "msn.com", "passport.com"]

    /// Parameters the app's SDK sets itself; an app may not pass them as custom parameters.
    static let reservedParameters: Set<String> = ["client_id", "response_type", "redirect_uri", "state", "scope", "response_mode"]

    /// Facebook's classic login gives an access token only; the others give an OpenID Connect ID token.
    var issuesIdToken: Bool { kind != .facebook }
    /// Google, Microsoft and Facebook also give an access token for their APIs.
    var issuesAccessToken: Bool { kind != .apple }
    /// Firebase demands a nonce with Apple ID tokens and accepts each one only once.
    var requiresNonce: Bool { kind == .apple }
    var singleUseIdTokens: Bool { kind == .apple }
    /// Whether the provider vouches for the email: Apple and Google do; Microsoft's `email` claim
    /// and Facebook's email are not verified, so Firebase treats them as unverified.
    var verifiesEmail: Bool { kind == .apple || kind == .google }

    var idTokenLifetime: Int64 { kind == .apple ? 600 : 3600 }
    var accessTokenLifetime: Int64 { kind == .facebook ? 2 * 3600 : 3600 }

    /// The `iss` of its ID tokens; Microsoft's names the account's directory.
    func issuer(tenantId: String?) -> String {
        switch kind {
        case .apple: "https://appleid.apple.com"
        case .google: "https://accounts.google.com"
        case .microsoft: "https://login.microsoftonline.com/\(tenantId ?? "{tenantid}")/v2.0"
        case .facebook: "https://www.facebook.com"
        }
    }

    /// The app's id at the provider, as the Firebase console keeps it per provider; stable per project.
    func clientId(projectId: String) -> String {
        switch kind {
        case .apple: "dev.authdeck.\(projectId)"
        case .google: "\(Self.digits(12, from: "google:" + projectId))-\(projectId).apps.googleusercontent.com"
        case .microsoft: Self.derivedUUID("microsoft-app:" + projectId)
        case .facebook: Self.digits(15, from: "facebook:" + projectId)
        }
    }

    /// Scopes the provider knows; Apple has only these two.
    func unsupportedScope(in scopes: [String]) -> String? {
        guard kind == .apple else { return nil }
        return scopes.first { $0 != "name" && $0 != "email" }
    }

    /// A new subject in the provider's own format.
    func newSubject(email: String) -> (subject: String, accountType: String?, tenantId: String?) {
        switch kind {
        case .apple:
            return (Self.randomDigits(6) + "." + Self.randomHex(32) + "." + Self.randomDigits(4), nil, nil)
        case .google:
            return ("1" + Self.randomDigits(20), nil, nil)
        case .facebook:
            return ("10" + Self.randomDigits(14), nil, nil)
        case .microsoft:
            let domain = email.split(separator: "@").last.map(String.init) ?? ""
            if Self.microsoftPersonalDomains.contains(domain) {
                // Personal accounts: the oid is the 64-bit account id padded into a GUID.
                let puid = Self.randomHex(16)
                let oid = "00000000-0000-0000-\(puid.prefix(4))-\(puid.dropFirst(4))"
                return (oid, "personal", Self.microsoftConsumerTenant)
            }
            return (UUID().uuidString.lowercased(), "work", Self.derivedUUID("microsoft-tenant:" + Self.microsoftDirectory(ofDomain: domain)))
        }
    }

    /// The directory (Entra tenant) a work domain belongs to. A directory answers to its initial
    /// `NAME.onmicrosoft.com` name and to the custom domains verified in it; here a custom domain
    /// belongs to the directory named by its organisation's label (`contoso.com`, `eu.contoso.com`,
    /// `contoso.co.uk` and `contoso.onmicrosoft.com` are one directory, `contoso`).
    static func microsoftDirectory(ofDomain domain: String) -> String {
        let labels = domain.lowercased().split(separator: ".").map(String.init)
        if labels.count >= 3, labels.suffix(2) == ["onmicrosoft", "com"] { return labels[labels.count - 3] }
        guard labels.count >= 2 else { return domain.lowercased() }
        // Second-level public suffixes (co.uk, com.au, ac.jp …): the organisation is the label before them.
        let secondLevel: Set<String> = ["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"]
        if labels.count >= 3, secondLevel.contains(labels[labels.count - 2]) { return labels[labels.count - 3] }
        return labels[labels.count - 2]
    }

    static func derivedUUID(_ seed: String) -> String {
        let hex = SHA256.hash(data: Data(seed.utf8)).hexadecimal
        let h = Array(hex.prefix(32))
        return "\(String(h[0..<8]))-\(String(h[8..<12]))-\(String(h[12..<16]))-\(String(h[16..<20]))-\(String(h[20..<32]))"
    }

    private static func digits(_ count: Int, from seed: String) -> String {
        let bytes = Array(SHA256.hash(data: Data(seed.utf8)))
        return String(1 + bytes[0] % 9) + (1..<count).map { String(bytes[$0 % bytes.count] % 10) }.joined()
    }

    private static func randomDigits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    static func randomHex(_ count: Int) -> String {
        String(SecureRandom.bytes((count + 1) / 2).hexadecimal.prefix(count))
    }
}

/// One RSA signing key per simulated provider, `idp-keys/<providerId>.pem` (0600) with its
/// self-signed certificate beside it (as Google publishes its keys), made on first use so a
/// backend that never simulates a provider never pays for its key.
final class SimulatedProviderKeys: Sendable {
    private let directory: URL
    private let signers = Mutex<[String: TokenSigner]>([:])

    init(directory: URL) { self.directory = directory }

    func signer(for provider: SimulatedProvider) throws -> TokenSigner {
        try signers.withLock { signers in
            if let signer = signers[provider.id] { return signer }
            let signer = try TokenSigner(keyPath: directory.appendingPathComponent("\(provider.id).pem").path,
                                         certificatePath: directory.appendingPathComponent("\(provider.id).crt").path)
            signers[provider.id] = signer
            return signer
        }
    }
}
