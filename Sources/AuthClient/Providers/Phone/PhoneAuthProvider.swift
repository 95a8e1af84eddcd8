import Foundation
import IdentityToolkit

/// Proof of a phone number: a texted code with its verification ID, or the temporary proof the
/// backend hands back when a link finds the number on another account.
public struct PhoneAuthCredential: Sendable, Equatable, CustomStringConvertible {
    enum Proof: Sendable, Equatable {
        case code(verificationID: String, verificationCode: String)
        case temporaryProof(String, phoneNumber: String)
    }

    let proof: Proof

    /// The number, when the credential carries it (a temporary proof does; a code does not).
    public var phoneNumber: String? {
        if case let .temporaryProof(_, phoneNumber) = proof { return phoneNumber }
        return nil
    }

    public var description: String {
        switch proof {
        case .code: "PhoneAuthCredential(code)"
        case let .temporaryProof(_, phoneNumber): "PhoneAuthCredential(temporary proof for \(phoneNumber))"
        }
    }
}

/// Firebase's `PhoneAuthProvider`: texts a code and turns it into a credential.
public struct PhoneAuthProvider: Sendable {
    public static let id = "phone"

    let auth: Auth

    public static func provider(auth: Auth) -> PhoneAuthProvider { PhoneAuthProvider(auth: auth) }

    /// Texts a code to `phoneNumber` (E.164) and returns the verification ID to present it with.
    /// With an enrollment session (`MultiFactor.session()`), the number is to become a second factor.
    public func verifyPhoneNumber(_ phoneNumber: String, multiFactorSession: MultiFactorSession? = nil) async throws -> String {
        switch multiFactorSession?.kind {
        case nil:
            return try await auth.perform(SendVerificationCodeRequest(phoneNumber: phoneNumber)).sessionInfo
        case let .enrollment(idToken):
            let response = try await auth.performForCurrentUser(
                StartMfaEnrollmentRequest(idToken: idToken, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phoneNumber)))
            guard let sessionInfo = response.phoneSessionInfo?.sessionInfo else { throw AuthError.missingField("phoneSessionInfo") }
            return sessionInfo
        case .signIn:
            throw AuthError(.missingMultiFactorInfo, serverMessage: "a sign-in session needs the hint of an enrolled factor")
        }
    }

    /// Texts a code to an enrolled phone factor, during a second-factor sign-in.
    public func verifyPhoneNumber(with hint: PhoneMultiFactorInfo, multiFactorSession: MultiFactorSession) async throws -> String {
        guard case let .signIn(pendingCredential) = multiFactorSession.kind else {
            throw AuthError(.invalidMultiFactorSession, serverMessage: "an enrollment session cannot start a second-factor sign-in")
        }
        let response = try await auth.perform(StartMfaSignInRequest(mfaPendingCredential: pendingCredential, mfaEnrollmentId: hint.uid))
        guard let sessionInfo = response.phoneResponseInfo?.sessionInfo else { throw AuthError.missingField("phoneResponseInfo") }
        return sessionInfo
    }

    public static func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(proof: .code(verificationID: verificationID, verificationCode: verificationCode))
    }
}

extension AuthError {
    static func missingField(_ name: String) -> AuthError {
        AuthError(.internalError, serverMessage: "the backend's answer has no \(name)")
    }
}
