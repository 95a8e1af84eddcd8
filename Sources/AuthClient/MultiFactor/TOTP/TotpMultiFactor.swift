import Foundation
import IdentityToolkit

/// An enrolled authenticator app (TOTP).
public struct TotpMultiFactorInfo: Sendable, Equatable, Codable {
    public var uid: String
    public var displayName: String?
    public var enrollmentDate: Date?

    public init(uid: String, displayName: String? = nil, enrollmentDate: Date? = nil) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentDate = enrollmentDate
    }
}

public enum TotpMultiFactorGenerator {
    public static let factorID = "totp"

    /// A new shared secret for the signed-in user, to show as a QR code and as text.
    public static func generateSecret(with session: MultiFactorSession) async throws -> TotpSecret {
        guard case let .enrollment(idToken) = session.kind else {
            throw AuthError(.invalidMultiFactorSession, serverMessage: "a TOTP secret needs an enrollment session")
        }
        let response = try await session.auth.performForCurrentUser(StartMfaEnrollmentRequest(idToken: idToken, totpEnrollmentInfo: TotpEnrollmentInfo()))
        guard let info = response.totpSessionInfo else { throw AuthError.missingField("totpSessionInfo") }
        return TotpSecret(sharedSecretKey: info.sharedSecretKey, hashingAlgorithm: info.hashingAlgorithm, codeLength: info.verificationCodeLength,
                          codeIntervalSeconds: info.periodSec, enrollmentCompletionDeadline: MultiFactorInfo.parseDate(info.finalizeEnrollmentTime),
                          sessionInfo: info.sessionInfo)
    }

    public static func assertionForEnrollment(with secret: TotpSecret, oneTimePassword: String) -> MultiFactorAssertion {
        .totpEnrollment(secret, oneTimePassword: oneTimePassword)
    }

    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> MultiFactorAssertion {
        .totpSignIn(enrollmentID: enrollmentID, oneTimePassword: oneTimePassword)
    }
}

/// A TOTP shared secret on its way to an authenticator app. Its description never shows the key.
public struct TotpSecret: Sendable, Equatable, CustomStringConvertible {
    /// Base32, for typing into an authenticator app by hand.
    public let sharedSecretKey: String
    public let hashingAlgorithm: String
    public let codeLength: Int
    public let codeIntervalSeconds: Int
    /// Enroll before this, or ask for a new secret.
    public let enrollmentCompletionDeadline: Date?
    let sessionInfo: String

    public init(sharedSecretKey: String, hashingAlgorithm: String, codeLength: Int, codeIntervalSeconds: Int,
                enrollmentCompletionDeadline: Date?, sessionInfo: String) {
        self.sharedSecretKey = sharedSecretKey
        self.hashingAlgorithm = hashingAlgorithm
        self.codeLength = codeLength
        self.codeIntervalSeconds = codeIntervalSeconds
        self.enrollmentCompletionDeadline = enrollmentCompletionDeadline
        self.sessionInfo = sessionInfo
    }

    /// The `otpauth://` URI authenticator apps scan (Google's Key Uri Format). Parameters at their
    /// defaults (SHA1, 6 digits, 30 s) are left out: every authenticator assumes them, and the shorter
    /// URI fits a smaller QR code (version 5 for a typical account, which an 80×24 terminal can show).
    public func generateQrCodeUrl(accountName: String, issuer: String) -> String {
        let label = Self.encode(issuer, allowing: "@") + ":" + Self.encode(accountName, allowing: "@")
        var query = "secret=\(sharedSecretKey)&issuer=\(Self.encode(issuer, allowing: ""))"
        if hashingAlgorithm.uppercased() != "SHA1" { query += "&algorithm=\(Self.encode(hashingAlgorithm.uppercased(), allowing: ""))" }
        if codeLength != 6 { query += "&digits=\(codeLength)" }
        if codeIntervalSeconds != 30 { query += "&period=\(codeIntervalSeconds)" }
        return "otpauth://totp/\(label)?\(query)"
    }

    /// Percent-encodes all but RFC 3986's unreserved characters (and `extra`).
    private static func encode(_ text: String, allowing extra: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        allowed.insert(charactersIn: extra)
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    public var description: String {
        "TotpSecret(\(hashingAlgorithm), \(codeLength) digits, \(codeIntervalSeconds) s, key \(Redaction.hide(sharedSecretKey)))"
    }
}
