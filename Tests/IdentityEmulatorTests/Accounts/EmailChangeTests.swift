import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite("Email change")
struct EmailChangeTests {
    @Test func changingTheEmailSendsARecoverMessageToTheFirstAddressWhichUndoesIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("first@example.com")
        let changed = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, email: "second@example.com"))
        #expect(changed.email == "second@example.com")
        #expect(changed.newEmail == "second@example.com")
        #expect(changed.idToken != nil)
        let stored = try #require(try harness.stored(signedUp.localId))
        #expect(stored.initialEmail == "first@example.com")
        let recover = try #require(try await harness.oobCodes().last)
        #expect(recover.requestType == "RECOVER_EMAIL")
        #expect(recover.email == "first@example.com")
        #expect(recover.oobLink.contains("mode=recoverEmail"))

        // A second change keeps the first address as the one to recover.
        _ = try await harness.api.call(AccountsUpdateRequest(idToken: changed.idToken, email: "third@example.com"))
        #expect(try harness.stored(signedUp.localId)?.initialEmail == "first@example.com")

        harness.clock.advance(1)
        let restored = try await harness.api.call(ApplyActionCodeRequest(oobCode: recover.oobCode))
        #expect(restored.email == "first@example.com")
        #expect(restored.emailVerified == true)
        // Sessions ended with the recovery; the password signs in under the old address.
        #expect(await errorMessageOf { try await harness.lookup(changed.idToken) } == "TOKEN_EXPIRED")
        _ = try await harness.signIn("first@example.com")
        #expect(errorMessage(await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath, body: #"{"oobCode":"\#(recover.oobCode)"}"#))
            == "INVALID_OOB_CODE")
    }

    @Test func anAnonymousUserGivingAnEmailGetsNoRecoveryMessage() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        _ = try await harness.api.call(AccountsUpdateRequest(idToken: anonymous.idToken, email: "anon@example.com"))
        #expect(try harness.stored(anonymous.localId)?.initialEmail == nil)
        #expect(try await harness.oobCodes().isEmpty)
    }

    @Test func verifyAndChangeEmailChangesOnlyWhenTheNewAddressOpensTheLink() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("old@example.com")
        _ = try await harness.signUp("taken@example.com")
        let sent = try await harness.api.call(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: signedUp.idToken,
                                                                  newEmail: "New@Example.com"))
        #expect(sent.email == "old@example.com")
        #expect(try await harness.lookup(signedUp.idToken)?.email == "old@example.com")
        let message = try #require(try await harness.oobCodes().last)
        #expect(message.requestType == "VERIFY_AND_CHANGE_EMAIL")
        #expect(message.oobLink.contains("mode=verifyAndChangeEmail"))
        let checked = try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode))
        #expect(checked.newEmail == "new@example.com")

        let applied = try await harness.api.call(ApplyActionCodeRequest(oobCode: message.oobCode))
        #expect(applied.email == "new@example.com")
        #expect(applied.newEmail == "new@example.com")
        #expect(applied.emailVerified == true)
        _ = try await harness.signIn("new@example.com")

        let oob = SendOobCodeRequest.endpoint.emulatorPath
        let fresh = try await harness.signIn("new@example.com")
        for (body, message) in [
            (#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(fresh.idToken ?? "")"}"#, "MISSING_NEW_EMAIL"),
            (#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","newEmail":"x@example.com"}"#, "MISSING_ID_TOKEN"),
            (#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(fresh.idToken ?? "")","newEmail":"taken@example.com"}"#, "EMAIL_EXISTS"),
        ] {
            #expect(errorMessage(await harness.raw(oob, body: body)) == message, "\(body)")
        }
        // An administrator's link for an unknown account.
        let admin = try await harness.send("POST", oob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "ghost@example.com",
                                                 "newEmail": "g2@example.com", "returnOobLink": true])
        #expect(errorMessage(admin) == "USER_NOT_FOUND")
    }

    @Test func aVerifyAndChangeCodeWhoseNewAddressWasTakenMeanwhileIsEmailExists() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("a@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: signedUp.idToken, newEmail: "b@example.com"))
        let code = try #require(try await harness.oobCodes().last).oobCode
        _ = try await harness.signUp("b@example.com")
        #expect(errorMessage(await harness.raw(AccountsUpdateRequest.endpoint.emulatorPath, body: #"{"oobCode":"\#(code)"}"#)) == "EMAIL_EXISTS")
        #expect(try harness.stored(signedUp.localId)?.email == "a@example.com")
    }
}

func errorMessageOf(_ body: () async throws -> Any?) async -> String? {
    do {
        _ = try await body()
        return nil
    } catch let IdentityToolkitError.server(_, message) {
        return message
    } catch {
        return "\(error)"
    }
}

@Suite("The outbox's email-change and sign-in links")
struct EmailChangeLinkTests {
    func open(_ harness: Harness, _ link: String) async -> WireResponse {
        let url = URLComponents(string: link)!
        return await harness.backend.handle(WireRequest(method: "GET", path: url.path + "?" + (url.percentEncodedQuery ?? "")))
    }

    @Test func openingTheLinksChangesRestoresOrExplains() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("one@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: signedUp.idToken, newEmail: "two@example.com"))
        let change = try #require(try await harness.oobCodes().last)
        let changed = await open(harness, change.oobLink)
        #expect(changed.status == 200)
        let changedOutcome = try #require(try JSONSerialization.jsonObject(with: changed.body) as? [String: [String: String]])
        #expect(changedOutcome["authEmulator"] == ["success": "The email has been successfully changed.", "newEmail": "two@example.com"])

        let fresh = try await harness.signIn("two@example.com")
        _ = try await harness.api.call(AccountsUpdateRequest(idToken: fresh.idToken, email: "three@example.com"))
        let recover = try #require(try await harness.oobCodes().last { $0.requestType == "RECOVER_EMAIL" })
        // As in the emulator, a verified change does not set the address to recover; the first direct change does.
        #expect(recover.email == "two@example.com")
        let restored = await open(harness, recover.oobLink)
        let restoredOutcome = try #require(try JSONSerialization.jsonObject(with: restored.body) as? [String: [String: String]])
        #expect(restoredOutcome["authEmulator"] == ["success": "The email has been successfully reset.", "email": "two@example.com"])
        #expect(try harness.stored(signedUp.localId)?.email == "two@example.com")

        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "two@example.com"))
        let signIn = try #require(try await harness.oobCodes().last { $0.requestType == "EMAIL_SIGNIN" })
        let explained = await open(harness, signIn.oobLink)
        #expect(explained.status == 200)
        #expect(String(decoding: explained.body, as: UTF8.self).contains("accounts:signInWithEmailLink"))
        // Opening it did not use it.
        _ = try await harness.api.call(SignInWithEmailLinkRequest(email: "two@example.com", oobCode: signIn.oobCode))
    }
}
