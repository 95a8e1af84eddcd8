import Foundation
import IdentityToolkit

/// An ID token with its claims read out (Firebase's `AuthTokenResult`).
public struct IDTokenResult: Sendable, Equatable {
    public var token: String
    public var claims: [String: JSONValue]

    public init?(token: String) {
        guard let claims = UnverifiedJWT.claims(of: token) else { return nil }
        self.token = token
        self.claims = claims
    }

    public var expirationDate: Date? { date("exp") }
    public var issuedAtDate: Date? { date("iat") }
    public var authDate: Date? { date("auth_time") }
    public var signInProvider: String? { claims["firebase"]?["sign_in_provider"]?.stringValue }
    public var signInSecondFactor: String? { claims["firebase"]?["sign_in_second_factor"]?.stringValue }

    /// The token with all but its first `count` characters hidden, for showing on screen.
    public func shortenedToken(keeping count: Int) -> String { Redaction.shorten(token, keep: count) }

    private func date(_ claim: String) -> Date? {
        claims[claim]?.numberValue.map { Date(timeIntervalSince1970: $0) }
    }
}
