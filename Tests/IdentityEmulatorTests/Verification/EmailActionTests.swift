import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct EmailActionTests {
    @Test func verifyingTheEmailThroughTheOutbox() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("ada@example.com")
        #expect(try await harness.oobCodes().isEmpty)
        let sent = try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        #expect(sent.email == "ada@example.com")
        #expect(sent.oobCode == nil && sent.oobLink == nil)

        let outbox = try await harness.oobCodes()
        let message = try #require(outbox.first)
        #expect(outbox.count == 1)
        #expect(message.email == "ada@example.com")
        #expect(message.requestType == "VERIFY_EMAIL")
        #expect(message.oobLink.contains("mode=verifyEmail"))
        #expect(message.oobLink.contains("oobCode=\(message.oobCode)"))

        let applied = try await harness.api.call(ApplyActionCodeRequest(oobCode: message.oobCode))
        #expect(applied.emailVerified == true)
        #expect(try await harness.lookup(signedUp.idToken)?.emailVerified == true)
        #expect(try await harness.oobCodes().isEmpty)
        await #expect(throws: server("INVALID_OOB_CODE")) { try await harness.api.call(ApplyActionCodeRequest(oobCode: message.oobCode)) }
        await #expect(throws: server("INVALID_OOB_CODE")) { try await harness.api.call(ApplyActionCodeRequest(oobCode: "made-up")) }
    }

    @Test func theOutboxSaysWhenEachMessageWasSentInSendingOrder() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("ada@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "ada@example.com"))
        harness.clock.advance(61.25)
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "ada@example.com"))
        _ = try await harness.api.call(SendVerificationCodeRequest(phoneNumber: "+15555550142"))
        let emails = try await harness.oobCodes()
        #expect(emails.map(\.sentAt) == ["2025-06-15T15:06:40.000Z", "2025-06-15T15:07:41.250Z"])
        #expect(try await harness.verificationCodes().map(\.sentAt) == ["2025-06-15T15:07:41.250Z"])
        #expect(try harness.backend.messageCount() == 3)
    }

    @Test func emailActionsExpire() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.oobCodeLifetime = 60
        let harness = try Harness(configuration: configuration)
        defer { harness.remove() }
        let signedUp = try await harness.signUp("bo@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        let code = try #require(try await harness.oobCodes().first?.oobCode)
        harness.clock.advance(61)
        #expect(try await harness.oobCodes().isEmpty)
        await #expect(throws: server("EXPIRED_OOB_CODE")) { try await harness.api.call(ApplyActionCodeRequest(oobCode: code)) }
        #expect(try await harness.lookup(harness.signIn("bo@example.com").idToken)?.emailVerified == false)
    }

    @Test func forgottenPasswordEndToEnd() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("cy@example.com")
        // Enumeration protection: an unknown address gets the same answer and nothing is sent.
        #expect(try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com")).email == "nobody@example.com")
        #expect(try await harness.oobCodes().isEmpty)
        for _ in 0..<5 { _ = try? await harness.signIn("cy@example.com", "wrong-one") }
        await #expect(throws: (any Error).self) { try await harness.signIn("cy@example.com") }

        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "CY@example.com"))
        let message = try #require(try await harness.oobCodes().first)
        #expect(message.requestType == "PASSWORD_RESET")
        #expect(message.oobLink.contains("mode=resetPassword"))
        let checked = try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode))
        #expect(checked.email == "cy@example.com")
        #expect(checked.requestType == "PASSWORD_RESET")
        await #expect(throws: server("WEAK_PASSWORD : Password should be at least 6 characters")) {
            try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode, newPassword: "short"))
        }
        harness.clock.advance(1)
        _ = try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode, newPassword: "brand-new"))
        await #expect(throws: server("INVALID_OOB_CODE")) {
            try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode, newPassword: "another1"))
        }
        // Every older session ends, the lockout is lifted, and reading the email verified it.
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        let again = try await harness.signIn("cy@example.com", "brand-new")
        #expect(try await harness.lookup(again.idToken)?.emailVerified == true)
        await #expect(throws: server("MISSING_OOB_CODE")) { try await harness.api.call(ResetPasswordRequest(oobCode: "")) }
    }

    @Test func codesOnlyDoWhatTheyWereSentFor() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("di@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "di@example.com"))
        let outbox = try await harness.oobCodes()
        let verify = try #require(outbox.first { $0.requestType == "VERIFY_EMAIL" }?.oobCode)
        let reset = try #require(outbox.first { $0.requestType == "PASSWORD_RESET" }?.oobCode)
        await #expect(throws: server("INVALID_OOB_CODE")) { try await harness.api.call(ResetPasswordRequest(oobCode: verify, newPassword: "brand-new")) }
        await #expect(throws: server("INVALID_OOB_CODE")) { try await harness.api.call(ApplyActionCodeRequest(oobCode: reset)) }
        await #expect(throws: server("MISSING_REQ_TYPE")) {
            try await harness.raw(SendOobCodeRequest.endpoint.emulatorPath, body: #"{"email":"di@example.com"}"#).throwIfError()
        }
        await #expect(throws: server("INVALID_ID_TOKEN")) { try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: "nope")) }
    }

    @Test func withoutEnumerationProtectionAnUnknownEmailIsSaid() async throws {
        var configuration = EmbeddedBackendConfiguration()
        configuration.emailEnumerationProtection = false
        let harness = try Harness(configuration: configuration)
        defer { harness.remove() }
        await #expect(throws: server("EMAIL_NOT_FOUND")) {
            try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com"))
        }
        // The emulator config endpoint's privacy switch applies here too, not only to sign-in.
        let patch = await harness.backend.handle(WireRequest(method: "PATCH", path: "/emulator/v1/projects/\(harness.backend.projectId)/config",
                                                             body: Data(#"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#.utf8)))
        #expect(patch.status == 200)
        #expect(try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com")).email == "nobody@example.com")
    }

    /// What the Admin SDK's generate_password_reset_link / generate_email_verification_link send.
    @Test func administratorsGetTheLinkBack() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("eve@example.com")
        await #expect(throws: server("INSUFFICIENT_PERMISSION")) {
            try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "eve@example.com", returnOobLink: true))
        }
        let projectPath = "/identitytoolkit.googleapis.com/v1/projects/\(harness.backend.projectId)/accounts:sendOobCode"
        for requestType in ["PASSWORD_RESET", "VERIFY_EMAIL"] {
            let response = await harness.raw(projectPath, body: #"{"requestType":"\#(requestType)","email":"eve@example.com","returnOobLink":true}"#,
                                             headers: ["Authorization": "Bearer owner"])
            let answer = try WireCoding.decode(SendOobCodeResponse.self, from: response)
            let code = try #require(answer.oobCode)
            #expect(answer.email == "eve@example.com")
            #expect(answer.oobLink?.contains("oobCode=\(code)") == true)
        }
        let verify = try await harness.admin(SendOobCodeRequest(requestType: .verifyEmail, email: "eve@example.com", returnOobLink: true))
        _ = try await harness.api.call(ApplyActionCodeRequest(oobCode: try #require(verify.oobCode)))
        #expect(try await harness.lookup(harness.signIn("eve@example.com").idToken)?.emailVerified == true)
        await #expect(throws: server("USER_NOT_FOUND")) {
            try await harness.admin(SendOobCodeRequest(requestType: .verifyEmail, email: "nobody@example.com", returnOobLink: true))
        }
        await #expect(throws: server("EMAIL_NOT_FOUND")) {
            try await harness.admin(SendOobCodeRequest(requestType: .passwordReset, email: "nobody@example.com", returnOobLink: true))
        }
        let otherProject = await harness.raw("/identitytoolkit.googleapis.com/v1/projects/someone-else/accounts:sendOobCode",
                                             body: #"{"requestType":"PASSWORD_RESET","email":"eve@example.com","returnOobLink":true}"#,
                                             headers: ["Authorization": "Bearer owner"])
        #expect(otherProject.status == 400)
    }

    /// Opening an email's link: the path and query of `oobLink`, as a browser would GET it.
    @Test func theLinksInEmailsWork() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        harness.backend.setActionLinkOrigin(host: "127.0.0.1", port: 4321)
        let signedUp = try await harness.signUp("gil@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: signedUp.idToken))
        let verifyEmail = try #require(try await harness.oobCodes().first)
        let verifyLink = try #require(URLComponents(string: verifyEmail.oobLink))
        #expect(verifyLink.host == "127.0.0.1" && verifyLink.port == 4321)
        func open(_ link: URLComponents, adding extra: String = "") async -> WireResponse {
            await harness.backend.handle(WireRequest(method: "GET", path: link.path + "?" + (link.percentEncodedQuery ?? "") + extra))
        }
        let verified = await open(verifyLink)
        #expect(verified.status == 200)
        #expect(String(decoding: verified.body, as: UTF8.self).contains("The email has been successfully verified."))
        #expect(try await harness.lookup(signedUp.idToken)?.emailVerified == true)
        #expect(errorMessage(await open(verifyLink)) == "INVALID_OOB_CODE")

        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "gil@example.com"))
        let resetEmail = try #require(try await harness.oobCodes().first)
        let resetLink = try #require(URLComponents(string: resetEmail.oobLink))
        let instructions = await open(resetLink)
        #expect(String(decoding: instructions.body, as: UTF8.self).contains("newPassword"))
        #expect(errorMessage(await open(resetLink, adding: "&newPassword=tiny")) == "WEAK_PASSWORD : Password should be at least 6 characters")
        harness.clock.advance(1)
        let reset = await open(resetLink, adding: "&newPassword=fresh-secret")
        #expect(String(decoding: reset.body, as: UTF8.self).contains("The password has been successfully updated."))
        _ = try await harness.signIn("gil@example.com", "fresh-secret")
        #expect(errorMessage(await open(resetLink, adding: "&newPassword=fresh-secret-2")) == "INVALID_OOB_CODE")

        let noCode = await harness.backend.handle(WireRequest(method: "GET", path: "/emulator/action?mode=verifyEmail"))
        #expect(errorMessage(noCode) == "MISSING_OOB_CODE")
        let badMode = await harness.backend.handle(WireRequest(method: "GET", path: "/emulator/action?mode=signIn&oobCode=x"))
        #expect(badMode.status == 400)
    }

    @Test func theOutboxesAreEmulatorEndpoints() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let user = try await harness.signUp("fay@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .verifyEmail, idToken: user.idToken))
        let path = "/emulator/v1/projects/\(harness.backend.projectId)/oobCodes"
        let unauthenticated = await harness.backend.handle(WireRequest(method: "GET", path: path))
        #expect(unauthenticated.status == 200)
        #expect(try WireCoding.decode(ListOobCodesResponse.self, from: unauthenticated).oobCodes.count == 1)
        let elsewhere = await harness.backend.handle(WireRequest(method: "GET", path: "/emulator/v1/projects/other/oobCodes"))
        #expect(elsewhere.status == 400)
        let posted = await harness.backend.handle(WireRequest(method: "POST", path: path))
        #expect(posted.status == 404)
        let sms = await harness.backend.handle(WireRequest(method: "GET", path: "/emulator/v1/projects/\(harness.backend.projectId)/verificationCodes"))
        #expect(try WireCoding.decode(ListVerificationCodesResponse.self, from: sms).verificationCodes.isEmpty)
    }
}

extension WireResponse {
    func throwIfError() throws {
        _ = try WireCoding.decode(JSONValueProbe.self, from: self)
    }
}

struct JSONValueProbe: Decodable {}
