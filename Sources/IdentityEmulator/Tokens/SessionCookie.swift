import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    static let sessionCookieDurations: ClosedRange<Int64> = 300...(14 * 24 * 3600)

    /// `projects/{projectId}:createSessionCookie`: the claims of a valid ID token, re-issued for
    /// `validDuration` seconds (five minutes to two weeks; two weeks when absent) under the session
    /// issuer, and signed by the same key, so verifiers check it with the published ID-token keys.
    func createSessionCookie(_ body: SessionCookieBody) throws -> CreateSessionCookieResponse {
        guard let idToken = body.idToken, !idToken.isEmpty else { throw BackendFailure.missingIdToken }
        let duration = body.validDuration.map(\.value).flatMap { $0 == 0 ? nil : $0 } ?? Self.sessionCookieDurations.upperBound
        guard Self.sessionCookieDurations.contains(duration) else { throw BackendFailure.invalidDuration }
        _ = try verifySession(idToken: idToken)
        guard let payload = signer.verifiedPayload(of: idToken),
              var claims = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else { throw BackendFailure.invalidIdToken }
        let now = nowSeconds
        claims["iss"] = "https://session.firebase.google.com/\(projectId)"
        claims["iat"] = now
        claims["exp"] = now + duration
        return CreateSessionCookieResponse(sessionCookie: try signer.sign(claims: claims))
    }
}
