import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// The hand-written sign-up and refresh answers are what `WireCoding`'s encoder wrote: the same
/// bytes for ordinary values, and the same value read back for any text.
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

    @Test(arguments: JSONWriterTests.nastyStrings)
    func anyNameReadsBackUnchanged(_ name: String) throws {
        let answer = SignUpResponse(localId: "u1", email: "a@example.com", displayName: name, idToken: "h.p.s",
                                    refreshToken: "r", expiresIn: "3600")
        #expect(try WireCoding.decoder().decode(SignUpResponse.self, from: answer.json) == answer)
    }
}
