import Foundation
import IdentityToolkit

/// Firebase's `MultiFactorInfo`: one enrolled second factor.
public enum MultiFactorInfo: Sendable, Equatable, Codable {
    case phone(PhoneMultiFactorInfo)
    case totp(TotpMultiFactorInfo)

    public var uid: String {
        switch self {
        case let .phone(info): info.uid
        case let .totp(info): info.uid
        }
    }

    public var displayName: String? {
        switch self {
        case let .phone(info): info.displayName
        case let .totp(info): info.displayName
        }
    }

    public var enrollmentDate: Date? {
        switch self {
        case let .phone(info): info.enrollmentDate
        case let .totp(info): info.enrollmentDate
        }
    }

    /// `phone` or `totp`, as in `firebase.sign_in_second_factor`.
    public var factorID: String {
        switch self {
        case .phone: PhoneMultiFactorGenerator.factorID
        case .totp: TotpMultiFactorGenerator.factorID
        }
    }

    /// The factor an `mfaInfo` entry describes; nil for kinds this client does not know (email).
    init?(_ wire: MfaEnrollment) {
        let date = wire.enrolledAt.flatMap(Self.parseDate)
        if let phone = wire.phoneInfo {
            self = .phone(PhoneMultiFactorInfo(uid: wire.mfaEnrollmentId, displayName: wire.displayName, enrollmentDate: date, phoneNumber: phone))
        } else if wire.totpInfo != nil {
            self = .totp(TotpMultiFactorInfo(uid: wire.mfaEnrollmentId, displayName: wire.displayName, enrollmentDate: date))
        } else {
            return nil
        }
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// Proof that the first factor passed (sign-in), or the signed-in user's token (enrollment).
/// Opaque; never printed.
public struct MultiFactorSession: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case enrollment(idToken: String)
        case signIn(mfaPendingCredential: String)
    }

    let kind: Kind
    let auth: Auth

    public static func == (lhs: MultiFactorSession, rhs: MultiFactorSession) -> Bool {
        lhs.kind == rhs.kind && lhs.auth === rhs.auth
    }

    public var description: String {
        switch kind {
        case .enrollment: "MultiFactorSession(enrollment)"
        case .signIn: "MultiFactorSession(sign-in)"
        }
    }
}

/// What proves a second factor, for enrollment or sign-in.
public enum MultiFactorAssertion: Sendable, Equatable {
    case phone(PhoneAuthCredential)
    case totpEnrollment(TotpSecret, oneTimePassword: String)
    case totpSignIn(enrollmentID: String, oneTimePassword: String)

    public var factorID: String {
        switch self {
        case .phone: PhoneMultiFactorGenerator.factorID
        case .totpEnrollment, .totpSignIn: TotpMultiFactorGenerator.factorID
        }
    }
}

/// What a second-factor sign-in waits on, as plain values: the enrolled factors (hints) and the
/// first factor's pending credential. A `secondFactorRequired` error carries it; an app keeps it in
/// its state while the user chooses a factor, and turns it into a resolver on its `Auth` to finish
/// (`Auth.multiFactorResolver(for:)`, the JS SDK's `getMultiFactorResolver`).
public struct MultiFactorChallenge: Sendable, Equatable, CustomStringConvertible {
    public let hints: [MultiFactorInfo]
    /// The first factor's provider (`password`, `google.com`, …).
    public let firstFactorProviderID: String
    let mfaPendingCredential: String
    /// Set when the first factor was a reauthentication: the result must be the same user.
    let reauthenticatingUID: String?

    public init(hints: [MultiFactorInfo], firstFactorProviderID: String, mfaPendingCredential: String, reauthenticatingUID: String? = nil) {
        self.hints = hints
        self.firstFactorProviderID = firstFactorProviderID
        self.mfaPendingCredential = mfaPendingCredential
        self.reauthenticatingUID = reauthenticatingUID
    }

    /// The pending credential is a credential: never printed.
    public var description: String {
        "MultiFactorChallenge(\(hints.map(\.factorID)), first factor \(firstFactorProviderID))"
    }
}

/// Firebase's `MultiFactorResolver`: the hints of a `secondFactorRequired` error, and how to
/// finish the sign-in — or the reauthentication — with one of them.
public struct MultiFactorResolver: Sendable, Equatable {
    public let challenge: MultiFactorChallenge
    public let session: MultiFactorSession

    init(challenge: MultiFactorChallenge, auth: Auth) {
        self.challenge = challenge
        session = MultiFactorSession(kind: .signIn(mfaPendingCredential: challenge.mfaPendingCredential), auth: auth)
    }

    public var hints: [MultiFactorInfo] { challenge.hints }
    public var firstFactorProviderID: String { challenge.firstFactorProviderID }

    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        try await session.auth.resolveSecondFactor(self, with: assertion)
    }
}

extension Auth {
    /// The resolver that finishes `challenge` on this client.
    public nonisolated func multiFactorResolver(for challenge: MultiFactorChallenge) -> MultiFactorResolver {
        MultiFactorResolver(challenge: challenge, auth: self)
    }

    /// The resolver of a `secondFactorRequired` error; nil for any other error.
    public nonisolated func multiFactorResolver(for error: AuthError) -> MultiFactorResolver? {
        error.multiFactorChallenge.map(multiFactorResolver(for:))
    }
}

/// Firebase's `MultiFactor`: the signed-in user's second factors.
public struct MultiFactor: Sendable {
    let auth: Auth

    public var enrolledFactors: [MultiFactorInfo] {
        get async { await auth.currentUser?.enrolledFactors ?? [] }
    }

    /// A session to enroll a new factor with (for `PhoneAuthProvider` or `TotpMultiFactorGenerator`).
    public func session() async throws -> MultiFactorSession {
        MultiFactorSession(kind: .enrollment(idToken: try await auth.idToken()), auth: auth)
    }

    /// Enrolls the factor the assertion proves; the session continues with tokens that name it.
    @discardableResult
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws -> User {
        try await auth.enrollSecondFactor(assertion, displayName: displayName)
    }

    /// Needs a recent sign-in (`requiresRecentLogin` otherwise). Other sessions of the account end.
    @discardableResult
    public func unenroll(with factor: MultiFactorInfo) async throws -> User {
        try await auth.withdrawSecondFactor(factor.uid)
    }

    @discardableResult
    public func unenroll(withFactorUID uid: String) async throws -> User {
        try await auth.withdrawSecondFactor(uid)
    }
}

extension Auth {
    public nonisolated var multiFactor: MultiFactor { MultiFactor(auth: self) }

    func enrollSecondFactor(_ assertion: MultiFactorAssertion, displayName: String?) async throws -> User {
        _ = try requireUser()
        let idToken = try await validIDToken()
        let request: FinalizeMfaEnrollmentRequest
        switch assertion {
        case let .phone(credential):
            guard case let .code(verificationID, code) = credential.proof else {
                throw AuthError(.missingMultiFactorInfo, serverMessage: "enrollment needs a texted code, not a temporary proof")
            }
            request = FinalizeMfaEnrollmentRequest(idToken: idToken, displayName: displayName,
                                                   phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: verificationID, code: code))
        case let .totpEnrollment(secret, oneTimePassword):
            request = FinalizeMfaEnrollmentRequest(idToken: idToken, displayName: displayName,
                                                   totpVerificationInfo: TotpVerificationInfo(sessionInfo: secret.sessionInfo, verificationCode: oneTimePassword))
        case .totpSignIn:
            throw AuthError(.missingMultiFactorInfo, serverMessage: "a sign-in assertion cannot enroll a factor")
        }
        let response = try await performForCurrentUser(request)
        adoptTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil)
        return try await reload()
    }

    func withdrawSecondFactor(_ enrollmentID: String) async throws -> User {
        let current = try requireUser()
        guard current.enrolledFactors.contains(where: { $0.uid == enrollmentID }) else { throw AuthError(.multiFactorInfoNotFound) }
        let idToken = try await validIDToken()
        let response = try await performForCurrentUser(WithdrawMfaRequest(idToken: idToken, mfaEnrollmentId: enrollmentID))
        adoptTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil)
        return try await reload()
    }

    /// Finishes a sign-in (or reauthentication) that `secondFactorRequired` interrupted.
    func resolveSecondFactor(_ resolver: MultiFactorResolver, with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        guard case let .signIn(pendingCredential) = resolver.session.kind else {
            throw AuthError(.invalidMultiFactorSession, serverMessage: "an enrollment session cannot finish a sign-in")
        }
        let request: FinalizeMfaSignInRequest
        switch assertion {
        case let .phone(credential):
            guard case let .code(verificationID, code) = credential.proof else {
                throw AuthError(.missingMultiFactorInfo, serverMessage: "a second factor needs a texted code, not a temporary proof")
            }
            request = FinalizeMfaSignInRequest(mfaPendingCredential: pendingCredential,
                                               phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: verificationID, code: code))
        case let .totpSignIn(enrollmentID, oneTimePassword):
            request = FinalizeMfaSignInRequest(mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentID,
                                               totpVerificationInfo: TotpVerificationInfo(verificationCode: oneTimePassword))
        case .totpEnrollment:
            throw AuthError(.missingMultiFactorInfo, serverMessage: "an enrollment assertion cannot finish a sign-in")
        }
        let response = try await perform(request)
        if let expected = resolver.challenge.reauthenticatingUID {
            guard IDTokenResult(token: response.idToken)?.claims["sub"]?.stringValue == expected else { throw AuthError(.userMismatch) }
        }
        let user = try await establishSession(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil, anonymous: false)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: resolver.firstFactorProviderID, isNewUser: false))
    }
}
