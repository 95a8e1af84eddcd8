@testable import AuthDeckApp
import Testing
import TerminalUI

/// What a follower of a screen receives: the screen as drawn, less what would hand a secret to the room.
@Suite struct RoomPublisherTests {
    @Test func aFollowedTotpEnrolmentShowsNeitherTheQRCodeNorTheKey() {
        var model = Fixtures.signedIn(MfaFixtures.verifiedUser())
        model.screen = .secondFactorEnrollment(SecondFactorEnrollmentFeature(accountName: "ada@example.com", step: .scanning(MfaFixtures.secret)))
        let size = Size(width: 80, height: 24)
        #expect(render(model, size: size).contains("JBSW Y3DP EHPK 3PXP"))
        let rows = RoomPublisher.frameRows(model, size: size)
        let text = rows.joined(separator: "\n")
        #expect(rows.count == 24)
        #expect(!text.contains("JBSW") && text.contains("••••••••••••••••••• "))
        #expect(text.contains("▒▒▒▒▒▒▒▒"))
        #expect(!["█", "▀", "▄"].contains { text.contains($0) })
        #expect(text.contains("TOTP") || text.contains("authenticator"))
    }

    @Test func anyOtherScreenIsSentAsDrawn() {
        let model = Fixtures.signedIn(Fixtures.passwordUser())
        let size = Size(width: 100, height: 30)
        #expect(RoomPublisher.frameRows(model, size: size).joined(separator: "\n") == render(model, size: size))
    }
}
