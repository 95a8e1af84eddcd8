import Foundation
import IdentityToolkit

/// A sign-in response: tokens, or — for an account with second factors — a pending credential and
/// hints. `Auth.firstFactorTokens` reads every one of them, so any sign-in method gets
/// `secondFactorRequired` without code of its own.
protocol FirstFactorResponse {
    var localId: String? { get }
    var idToken: String? { get }
    var refreshToken: String? { get }
    var expiresIn: String? { get }
    var isNewUser: Bool? { get }
    var mfaPendingCredential: String? { get }
    var mfaInfo: [MfaEnrollment]? { get }
}

extension SignInWithPasswordResponse: FirstFactorResponse {
    var isNewUser: Bool? { false }
}

/// Phone sign-in never asks for a second factor (a phone first factor cannot have one).
extension SignInWithPhoneNumberResponse: FirstFactorResponse {
    var mfaPendingCredential: String? { nil }
    var mfaInfo: [MfaEnrollment]? { nil }
}

extension PhoneAuthCredential {
    func signInRequest(idToken: String?) -> SignInWithPhoneNumberRequest {
        switch proof {
        case let .code(verificationID, verificationCode):
            SignInWithPhoneNumberRequest(sessionInfo: verificationID, code: verificationCode, idToken: idToken)
        case let .temporaryProof(proof, phoneNumber):
            SignInWithPhoneNumberRequest(temporaryProof: proof, phoneNumber: phoneNumber, idToken: idToken)
        }
    }
}

extension Auth {
    /// Links a verified phone number. A number another account owns fails with
    /// `credentialAlreadyInUse` and a temporary-proof credential that signs in to that account.
    func linkPhone(_ credential: PhoneAuthCredential, idToken: String) async throws -> AuthDataResult {
        let response = try await performForCurrentUser(credential.signInRequest(idToken: idToken))
        if response.idToken == nil, let proof = response.temporaryProof, let phoneNumber = response.phoneNumber {
            var error = AuthError(.credentialAlreadyInUse, serverMessage: "the phone number \(phoneNumber) belongs to another account")
            error.updatedCredential = .phone(PhoneAuthCredential(proof: .temporaryProof(proof, phoneNumber: phoneNumber)))
            throw error
        }
        guard let newToken = response.idToken, let refresh = response.refreshToken else { throw AuthError.missingField("idToken") }
        adoptTokens(idToken: newToken, refreshToken: refresh, expiresIn: response.expiresIn)
        let user = try await reload()
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: PhoneAuthProvider.id, isNewUser: false))
    }
}

extension SignInWithIdpResponse: FirstFactorResponse {}
