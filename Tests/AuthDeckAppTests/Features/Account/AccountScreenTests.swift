@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// The account screen at 80×24: the ID token's row keeps its parts whole, giving way on purpose.
@Suite("Account screen")
struct AccountScreenTests {
    func tokenRow(provider: String, secondFactor: String? = nil) -> String {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model.token = TokenSummary(shortToken: "eyJhbGciOiJSUzI1…(1170)", signInProvider: provider, signInSecondFactor: secondFactor,
                                   expirationDate: Date(timeIntervalSince1970: 1_790_003_600))
        return render(model).split(separator: "\n").first { $0.contains("ID token") }.map(String.init) ?? ""
    }

    @Test func theTokensRowSaysUntilWhenWhereExpiresDoesNotFit() {
        #expect(tokenRow(provider: "password").hasSuffix("ID token       expires 15:13:20 UTC · via password · eyJhbGciOiJSUzI1…(1170)"))
        // A provider's name one cell too long: "until" keeps the token's length whole.
        #expect(tokenRow(provider: "apple.com").hasSuffix("ID token       until 15:13:20 UTC · via apple.com · eyJhbGciOiJSUzI1…(1170)"))
        // Longer still, the token gives way, whole (the inspector has it); the expiry and the provider stay.
        #expect(tokenRow(provider: "microsoft.com", secondFactor: "phone").hasSuffix("ID token       expires 15:13:20 UTC · via microsoft.com + phone"))
    }

    /// Two factors' names stay whole; "f to manage" gives way to them (f is in the key bar).
    @Test func theSecondFactorsRowKeepsTheirNamesWhole() {
        func row(_ names: [String]) -> String {
            var user = Fixtures.passwordUser()
            user.emailVerified = true
            user.enrolledFactors = names.map { .phone(PhoneMultiFactorInfo(uid: $0, displayName: $0, enrollmentDate: Fixtures.created, phoneNumber: "+15555550100")) }
            return render(Fixtures.signedIn(user)).split(separator: "\n").first { $0.contains("2-step") }.map(String.init) ?? ""
        }
        #expect(row(["Work phone"]).hasSuffix("2-step         on: SMS Work phone · f to manage"))
        #expect(row(["Phone ending 0100", "Authenticator app on my phone"]).hasSuffix("on: SMS Phone ending 0100, SMS Authenticator app on my phone"))
    }
}
