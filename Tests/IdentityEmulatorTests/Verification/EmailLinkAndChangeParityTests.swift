import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// What an account shows of its email-link sign-ins and email changes, as the Firebase Auth
/// Emulator shows it (with its settings: enumeration protection off).
@Suite struct EmailLinkAndChangeParityTests {
    private func signInWithLink(_ harness: Harness, _ email: String, idToken: String? = nil) async throws -> SignInWithEmailLinkResponse {
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: email))
        let code = try #require(try await harness.oobCodes().last { $0.requestType == "EMAIL_SIGNIN" && $0.email == email }?.oobCode)
        return try await harness.api.call(SignInWithEmailLinkRequest(email: email, oobCode: code, idToken: idToken))
    }

    private func lookupJSON(_ harness: Harness, _ idToken: String?) async throws -> [String: Any] {
        let answer = await harness.raw(AccountsLookupRequest.endpoint.emulatorPath, body: #"{"idToken":"\#(idToken ?? "")"}"#)
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return try #require((object?["users"] as? [[String: Any]])?.first)
    }

    @Test func anEmailLinkSignInMarksTheAccountAndAddsTheEmailLinkMethod() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.disableEnumerationProtection()

        let created = try await signInWithLink(harness, "alice@example.com")
        #expect(try await lookupJSON(harness, created.idToken)["emailLinkSignin"] as? Bool == true)
        var methods = try await harness.api.call(CreateAuthUriRequest(identifier: "alice@example.com"))
        #expect(methods.signinMethods == ["emailLink"])

        let bob = try await harness.signUp("bob@example.com")
        #expect(try await lookupJSON(harness, bob.idToken)["emailLinkSignin"] == nil)
        _ = try await signInWithLink(harness, "bob@example.com")
        #expect(try await lookupJSON(harness, bob.idToken)["emailLinkSignin"] as? Bool == true)
        #expect(try await harness.lookup(bob.idToken)?.emailLinkSignin == true)
        methods = try await harness.api.call(CreateAuthUriRequest(identifier: "bob@example.com"))
        #expect(methods.signinMethods == ["password", "emailLink"])
        let admin = try await harness.adminLookup(["localId": [bob.localId]]).first
        #expect(admin?.emailLinkSignin == true)

        // A phone account that links an address by its link signs in with the link alone.
        let sent = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "+15555550100"))
        let phone = try await harness.api.call(SignInWithPhoneNumberRequest(sessionInfo: sent.sessionInfo, code: try await harness.smsCode(for: sent.sessionInfo)))
        _ = try await signInWithLink(harness, "carol@example.com", idToken: phone.idToken)
        methods = try await harness.api.call(CreateAuthUriRequest(identifier: "carol@example.com"))
        #expect(methods.signinMethods == ["emailLink"])
    }

    @Test func theFirstEmailChangeSetsInitialEmailAndLookupShowsIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("alice@example.com", "notasecret")
        #expect(try await lookupJSON(harness, signedUp.idToken)["initialEmail"] == nil)
        let changed = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, email: "bob@example.com"))
        #expect(try await lookupJSON(harness, changed.idToken)["initialEmail"] as? String == "alice@example.com")
        let again = try await harness.api.call(AccountsUpdateRequest(idToken: changed.idToken, email: "carol@example.com"))
        #expect(try await harness.lookup(again.idToken)?.initialEmail == "alice@example.com")
        #expect(try await harness.adminLookup(["localId": [signedUp.localId]]).first?.initialEmail == "alice@example.com")
    }

    @Test func theOutboxShowsTheNewEmailAndAFailedChangeSpendsItsCode() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("old@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: signedUp.idToken, newEmail: "new@example.com"))
        let message = try #require(try await harness.oobCodes().last)
        #expect(message.requestType == "VERIFY_AND_CHANGE_EMAIL")
        #expect(message.email == "old@example.com")
        #expect(message.newEmail == "new@example.com")
        let outbox = await harness.backend.handle(WireRequest(method: "GET", path: harness.emulatorPath + "/oobCodes", headers: [:], body: Data()))
        let entries = (try JSONSerialization.jsonObject(with: outbox.body) as? [String: Any])?["oobCodes"] as? [[String: Any]]
        #expect(entries?.last?["newEmail"] as? String == "new@example.com")

        // Someone takes the address before the link is opened: the change fails, and the code is spent.
        _ = try await harness.signUp("new@example.com")
        let update = AccountsUpdateRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(update, body: #"{"oobCode":"\#(message.oobCode)"}"#)) == "EMAIL_EXISTS")
        #expect(try await harness.oobCodes().contains { $0.oobCode == message.oobCode } == false)
        #expect(errorMessage(await harness.raw(update, body: #"{"oobCode":"\#(message.oobCode)"}"#)) == "INVALID_OOB_CODE")
        #expect(try await harness.lookup(signedUp.idToken)?.email == "old@example.com")

        // A code of another kind is not this call's to spend.
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "old@example.com"))
        let reset = try #require(try await harness.oobCodes().last { $0.requestType == "PASSWORD_RESET" })
        #expect(errorMessage(await harness.raw(update, body: #"{"oobCode":"\#(reset.oobCode)"}"#)) == "INVALID_OOB_CODE")
        #expect(try await harness.oobCodes().contains { $0.oobCode == reset.oobCode })
    }
}
