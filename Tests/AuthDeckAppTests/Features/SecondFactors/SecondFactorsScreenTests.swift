@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// The list of second factors at 80×24: a factor's name is what tells it apart, so it stays whole
/// where the row has room.
@Suite("Second factors screen")
struct SecondFactorsScreenTests {
    @Test func aLongFactorNameStaysWholeAt80Columns() {
        var user = Fixtures.passwordUser()
        user.emailVerified = true
        user.enrolledFactors = [
            .phone(PhoneMultiFactorInfo(uid: "p", displayName: "Work phone in the blue case", enrollmentDate: Fixtures.created, phoneNumber: "+15555550100")),
            .phone(PhoneMultiFactorInfo(uid: "q", displayName: "Home", enrollmentDate: Fixtures.created, phoneNumber: "+15555550101")),
        ]
        var model = Fixtures.signedIn(user)
        model.screen = .secondFactors(SecondFactorsFeature(selection: 0))
        let text = render(model)
        #expect(text.contains("SMS   Work phone in the blue case +*******0100       enrolled 2026-09-21"))
        #expect(text.contains("SMS   Home                        +*******0101       enrolled 2026-09-21"))
    }
}
