import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

extension Harness {
    /// Turns email-enumeration protection off, as the emulator's `PATCH …/config` does.
    func disableEnumerationProtection() async throws {
        let response = try await send("PATCH", emulatorPath + "/config", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
        #expect(response.status == 200)
    }

    func emailLinkCode(for email: String) async throws -> String {
        try #require(try await oobCodes().last { $0.email == email && $0.requestType == "EMAIL_SIGNIN" }).oobCode
    }
}

@Suite("Email links and createAuthUri")
struct EmailLinkTests {
    @Test func anEmailLinkCreatesAVerifiedAccountThenSignsInToIt() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let sent = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "Link@Example.com",
                                                                  continueUrl: "https://app.example.com/finish"))
        #expect(sent.email == "link@example.com")
        let message = try #require(try await harness.oobCodes().last)
        #expect(message.requestType == "EMAIL_SIGNIN")
        #expect(message.oobLink.contains("mode=signIn"))
        #expect(message.oobLink.contains("continueUrl=https://app.example.com/finish"))
        // Checking the code does not tell the address: whoever uses it must know it.
        let checked = try await harness.api.call(ResetPasswordRequest(oobCode: message.oobCode))
        #expect(checked.email == nil)
        #expect(checked.requestType == "EMAIL_SIGNIN")

        let signedIn = try await harness.api.call(SignInWithEmailLinkRequest(email: "link@example.com", oobCode: message.oobCode))
        #expect(signedIn.isNewUser == true)
        #expect(signedIn.email == "link@example.com")
        #expect((claims(of: signedIn.idToken)["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        #expect(claims(of: signedIn.idToken)["email_verified"] as? Bool == true)
        let user = try #require(try await harness.lookup(signedIn.idToken))
        #expect(user.emailVerified == true)
        #expect(user.providerUserInfo?.map(\.providerId) == ["password"])
        #expect(user.passwordHash == nil)

        // Single use; then a second link signs in to the same account.
        let reused = await harness.raw(SignInWithEmailLinkRequest.endpoint.emulatorPath,
                                       body: #"{"email":"link@example.com","oobCode":"\#(message.oobCode)"}"#)
        #expect(errorMessage(reused) == "INVALID_OOB_CODE")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "link@example.com"))
        let again = try await harness.api.call(SignInWithEmailLinkRequest(email: "link@example.com",
                                                                           oobCode: try await harness.emailLinkCode(for: "link@example.com")))
        #expect(again.isNewUser == false)
        #expect(again.localId == signedIn.localId)
    }

    @Test func emailLinkErrorsAreTheEmulators() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let path = SignInWithEmailLinkRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(SendOobCodeRequest.endpoint.emulatorPath, body: #"{"requestType":"EMAIL_SIGNIN"}"#)) == "MISSING_EMAIL")
        for type in ["RECOVER_EMAIL", "NOT_A_TYPE"] {
            let refused = await harness.raw(SendOobCodeRequest.endpoint.emulatorPath, body: #"{"requestType":"\#(type)","email":"a@example.com"}"#)
            #expect(refused.status == 400)
            #expect(errorMessage(refused) == "INVALID_REQ_TYPE : \(type) cannot be requested with sendOobCode.")
        }
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "a@example.com"))
        let code = try await harness.emailLinkCode(for: "a@example.com")
        #expect(errorMessage(await harness.raw(path, body: #"{"oobCode":"\#(code)"}"#)) == "MISSING_EMAIL")
        #expect(errorMessage(await harness.raw(path, body: #"{"email":"a@example.com"}"#)) == "MISSING_OOB_CODE")
        #expect(errorMessage(await harness.raw(path, body: #"{"email":"b@example.com","oobCode":"\#(code)"}"#))
            == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        #expect(errorMessage(await harness.raw(path, body: #"{"email":"a@example.com","oobCode":"nope"}"#)) == "INVALID_OOB_CODE")
        // A password-reset code is not a sign-in link.
        _ = try await harness.signUp("c@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .passwordReset, email: "c@example.com"))
        let reset = try #require(try await harness.oobCodes().last { $0.requestType == "PASSWORD_RESET" })
        #expect(errorMessage(await harness.raw(path, body: #"{"email":"c@example.com","oobCode":"\#(reset.oobCode)"}"#)) == "INVALID_OOB_CODE")
        // Expired after an hour.
        harness.clock.advance(3601)
        #expect(errorMessage(await harness.raw(path, body: #"{"email":"a@example.com","oobCode":"\#(code)"}"#)) == "EXPIRED_OOB_CODE")
    }

    @Test func anEmailLinkVerifiesAPasswordAccountAndLinksToTheSignedInUser() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let password = try await harness.signUp("pw@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "pw@example.com"))
        let viaLink = try await harness.api.call(SignInWithEmailLinkRequest(email: "pw@example.com",
                                                                             oobCode: try await harness.emailLinkCode(for: "pw@example.com")))
        #expect(viaLink.localId == password.localId)
        #expect(viaLink.isNewUser == false)
        #expect(try await harness.lookup(viaLink.idToken)?.emailVerified == true)
        // The password still works.
        _ = try await harness.signIn("pw@example.com")

        // Linking the address to an anonymous user keeps its uid; an address of another account is EMAIL_EXISTS.
        let anonymous = try await harness.api.call(SignUpRequest())
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "anon@example.com"))
        let linked = try await harness.api.call(SignInWithEmailLinkRequest(email: "anon@example.com",
                                                                            oobCode: try await harness.emailLinkCode(for: "anon@example.com"),
                                                                            idToken: anonymous.idToken))
        #expect(linked.localId == anonymous.localId)
        #expect(try await harness.lookup(linked.idToken)?.email == "anon@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "pw@example.com"))
        let takenCode = try await harness.emailLinkCode(for: "pw@example.com")
        let taken = await harness.raw(SignInWithEmailLinkRequest.endpoint.emulatorPath,
                                      body: #"{"email":"pw@example.com","oobCode":"\#(takenCode)","idToken":"\#(linked.idToken ?? "")"}"#)
        #expect(errorMessage(taken) == "EMAIL_EXISTS")
    }

    @Test func anEmailLinkToAnAccountWithSecondFactorsAsksForOne() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let user = try await harness.verifiedUser("mfa@example.com")
        _ = try await harness.enrollPhone(try await harness.signIn("mfa@example.com").idToken, "+15555550100")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "mfa@example.com"))
        let pending = try await harness.api.call(SignInWithEmailLinkRequest(email: "mfa@example.com",
                                                                             oobCode: try await harness.emailLinkCode(for: "mfa@example.com")))
        #expect(pending.idToken == nil)
        #expect(pending.localId == user.localId)
        #expect(pending.mfaPendingCredential != nil)
        #expect(pending.mfaInfo?.first?.phoneInfo == "+*******0100")
    }

    @Test func createAuthUriSaysNothingWithProtectionOnAndTheMethodsWithItOff() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("both@example.com")
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "both@example.com"))
        _ = try await harness.api.call(SignInWithEmailLinkRequest(email: "both@example.com",
                                                                   oobCode: try await harness.emailLinkCode(for: "both@example.com")))
        let protected = try await harness.api.call(CreateAuthUriRequest(identifier: "both@example.com"))
        #expect(protected.registered == nil)
        #expect(protected.signinMethods == nil)
        #expect(protected.allProviders == nil)
        #expect(protected.sessionId?.isEmpty == false)

        try await harness.disableEnumerationProtection()
        let known = try await harness.api.call(CreateAuthUriRequest(identifier: "Both@Example.com"))
        #expect(known.registered == true)
        #expect(known.allProviders == ["password"])
        #expect(known.signinMethods == ["password", "emailLink"])
        let unknown = try await harness.api.call(CreateAuthUriRequest(identifier: "nobody@example.com"))
        #expect(unknown.registered == false)
        #expect(unknown.allProviders == [])
        #expect(unknown.signinMethods == [])

        let path = CreateAuthUriRequest.endpoint.emulatorPath
        #expect(errorMessage(await harness.raw(path, body: #"{"continueUri":"http://localhost"}"#)) == "MISSING_IDENTIFIER")
        #expect(errorMessage(await harness.raw(path, body: #"{"identifier":"a@example.com"}"#)) == "MISSING_CONTINUE_URI")
        #expect(errorMessage(await harness.raw(path, body: #"{"identifier":"not-an-email","continueUri":"http://localhost"}"#)) == "INVALID_IDENTIFIER")
        #expect(errorMessage(await harness.raw(path, body: #"{"identifier":"a@example.com","continueUri":"no scheme"}"#)) == "INVALID_CONTINUE_URI")
        let idp = await harness.raw(path, body: #"{"identifier":"a@example.com","continueUri":"http://localhost","providerId":"google.com"}"#)
        #expect(idp.status == 400)
        #expect(errorMessage(idp) == "Sign-in with IDP is not yet supported.")
        // The session id given is echoed.
        #expect(try await harness.api.call(CreateAuthUriRequestWithSession(identifier: "a@example.com", sessionId: "s-1")).sessionId == "s-1")
    }

    @Test func theLegacyNamesReachTheNewEndpoints() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
        #expect((await harness.raw(legacy + "verifyCustomToken", body: #"{"token":"{\"uid\":\"legacy\"}"}"#)).status == 200)
        #expect((await harness.raw(legacy + "createAuthUri", body: #"{"identifier":"a@example.com","continueUri":"http://localhost"}"#)).status == 200)
        _ = try await harness.api.call(SendOobCodeRequest(requestType: .emailSignIn, email: "l@example.com"))
        let code = try await harness.emailLinkCode(for: "l@example.com")
        #expect((await harness.raw(legacy + "emailLinkSignin", body: #"{"email":"l@example.com","oobCode":"\#(code)"}"#)).status == 200)
    }
}

/// `createAuthUri` with a `sessionId`, which the typed request leaves out.
struct CreateAuthUriRequestWithSession: IdentityRequest {
    static let endpoint = CreateAuthUriRequest.endpoint
    typealias Response = CreateAuthUriResponse
    var identifier: String
    var continueUri = "http://localhost"
    var sessionId: String
}
