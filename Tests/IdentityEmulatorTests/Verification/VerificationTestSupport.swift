import Foundation
import IdentityToolkit
@testable import IdentityEmulator

extension Harness {
    /// The SMS outbox, read the way any client of the emulator reads it.
    func verificationCodes() async throws -> [ListVerificationCodesResponse.VerificationCode] {
        try await api.call(ListVerificationCodesRequest(projectId: backend.projectId)).verificationCodes
    }

    func oobCodes() async throws -> [ListOobCodesResponse.OobCode] {
        try await api.call(ListOobCodesRequest(projectId: backend.projectId)).oobCodes
    }

    func smsCode(for sessionInfo: String) async throws -> String {
        let code = try await verificationCodes().first { $0.sessionInfo == sessionInfo }?.code
        guard let code else { throw HarnessError.noSuchMessage }
        return code
    }

    /// A password account whose email is verified through the outbox, as MFA requires.
    func verifiedUser(_ email: String, _ password: String = "secret-1") async throws -> SignUpResponse {
        let signedUp = try await signUp(email, password)
        _ = try await api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        let code = try await oobCodes().last { $0.email == email && $0.requestType == "VERIFY_EMAIL" }?.oobCode
        guard let code else { throw HarnessError.noSuchMessage }
        _ = try await api.call(ApplyActionCodeRequest(oobCode: code))
        return signedUp
    }

    /// Enrolls `phone` as an SMS factor; returns the new tokens.
    func enrollPhone(_ idToken: String?, _ phone: String, name: String = "My phone") async throws -> MfaTokensResponse {
        let started = try await api.call(StartMfaEnrollmentRequest(idToken: idToken ?? "", phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phone)))
        let sessionInfo = try started.phoneSessionInfo.map(\.sessionInfo) ?? { throw HarnessError.noSuchMessage }()
        let code = try await smsCode(for: sessionInfo)
        return try await api.call(FinalizeMfaEnrollmentRequest(idToken: idToken ?? "", displayName: name,
                                                               phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: code)))
    }

    /// Enrolls a TOTP factor; returns the tokens and the secret (as an authenticator app would keep it).
    func enrollTotp(_ idToken: String?, name: String = "Authenticator") async throws -> (MfaTokensResponse, Data) {
        let started = try await api.call(StartMfaEnrollmentRequest(idToken: idToken ?? "", totpEnrollmentInfo: TotpEnrollmentInfo()))
        guard let info = started.totpSessionInfo, let secret = base32Decode(info.sharedSecretKey) else { throw HarnessError.noSuchMessage }
        let code = Totp.code(secret: secret, at: Int64(clock.seconds))
        let tokens = try await api.call(FinalizeMfaEnrollmentRequest(
            idToken: idToken ?? "", displayName: name, totpVerificationInfo: TotpVerificationInfo(sessionInfo: info.sessionInfo, verificationCode: code)))
        return (tokens, secret)
    }
}

enum HarnessError: Error { case noSuchMessage }

/// RFC 4648 Base32, decoded independently of the backend's encoder.
func base32Decode(_ text: String) -> Data? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    var bytes = [UInt8]()
    var buffer = 0
    var bits = 0
    for character in text.uppercased() where character != "=" {
        guard let value = alphabet.firstIndex(of: character) else { return nil }
        buffer = (buffer << 5) | value
        bits += 5
        if bits >= 8 {
            bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
            bits -= 8
        }
    }
    return Data(bytes)
}

func firebaseClaims(of token: String?) -> [String: Any] {
    claims(of: token)["firebase"] as? [String: Any] ?? [:]
}
