import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// The hand-written sign-up and refresh answers are what `WireCoding`'s encoder wrote: the same
/// bytes, whatever the text.
struct WrittenAnswersTests {
    private func encoded(_ value: some Encodable) throws -> Data { try WireCoding.encoder().encode(value) }

    @Test func aSignUpAnswerIsTheEncodersBytes() throws {
        let full = SignUpResponse(localId: "u1", email: "a@example.com", displayName: "Ada", idToken: "h.p.s",
                                  refreshToken: "r", expiresIn: "3600")
        #expect(full.json == (try encoded(full)))
        let anonymous = SignUpResponse(localId: "u2", idToken: "h.p.s", refreshToken: "r", expiresIn: "3600")
        #expect(anonymous.json == (try encoded(anonymous)))
        let bare = SignUpResponse(kind: nil, localId: "u3")
        #expect(bare.json == (try encoded(bare)))
    }

    @Test func aRefreshAnswerIsTheEncodersBytes() throws {
        let withProject = SecureTokenResponse(idToken: "h.p.s", refreshToken: "r", expiresIn: "3600", userId: "u1", projectId: "demo")
        #expect(withProject.json == (try encoded(withProject)))
        let withoutProject = SecureTokenResponse(idToken: "h.p.s", refreshToken: "r", expiresIn: "3600", userId: "u1", projectId: nil)
        #expect(withoutProject.json == (try encoded(withoutProject)))
    }

    @Test func aLookupAnswerIsTheEncodersBytes() throws {
        let full = AccountInfo(
            localId: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoUrl: "https://example.com/a.png",
            phoneNumber: "+15555550100", disabled: false,
            providerUserInfo: [
                ProviderUserInfo(providerId: "google.com", rawId: "g-1", federatedId: "fed-1", email: "ada@gmail.com", displayName: "Ada G",
                                 photoUrl: "https://example.com/g.png", phoneNumber: "+15555550101", screenName: "ada"),
                ProviderUserInfo(providerId: "password", rawId: "ada@example.com"),
            ],
            passwordHash: "aGFzaA==", salt: "c2FsdA==", passwordUpdatedAt: 1_764_000_000_123, validSince: "1764000000",
            createdAt: "1764000000000", lastLoginAt: "1764000000100", lastRefreshAt: "2026-11-25T12:00:00.000Z",
            customAttributes: #"{"admin":true}"#,
            mfaInfo: [
                MfaEnrollment(mfaEnrollmentId: "m1", displayName: "phone", enrolledAt: "2026-11-25T12:00:00.000Z", phoneInfo: "+15555550102",
                              unobfuscatedPhoneInfo: "+15555550102"),
                MfaEnrollment(mfaEnrollmentId: "m2", enrolledAt: "2026-11-25T12:00:01.000Z", totpInfo: MfaEnrollment.TotpInfo()),
            ], tenantId: "room-1")
        let bare = AccountInfo(localId: "u2", createdAt: "1764000000000")
        for answer in [AccountsLookupResponse(users: [full, bare]), AccountsLookupResponse(users: [bare]), AccountsLookupResponse(users: nil),
                       AccountsLookupResponse(users: [])] {
            #expect(answer.json == (try encoded(answer)), "\(String(decoding: answer.json, as: UTF8.self))")
        }
    }

    @Test(arguments: JSONWriterTests.nastyStrings)
    func anyNameIsTheEncodersBytes(_ name: String) throws {
        let answer = SignUpResponse(localId: "u1", email: "a@example.com", displayName: name, idToken: "h.p.s",
                                    refreshToken: "r", expiresIn: "3600")
        #expect(answer.json == (try encoded(answer)), "\(String(decoding: answer.json, as: UTF8.self))")
    }
}
