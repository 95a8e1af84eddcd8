@testable import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing

@Suite("A visitor's outbox shows only what their session controls")
struct VisitorOutboxTests {
    static let outbox = Outbox(
        emails: [
            .init(to: "ada@example.com", action: .resetPassword, oobCode: "a1", link: "http://x/a1"),
            .init(to: "Victim@Example.com", action: .resetPassword, oobCode: "v1", link: "http://x/v1"),
            .init(to: "ada@example.com", action: .verifyEmail, oobCode: "a2", link: "http://x/a2"),
        ],
        texts: [
            .init(to: "+15555550100", code: "111111", verificationID: "s1"),
            .init(to: "+15555550199", code: "999999", verificationID: "s2"),
        ])

    /// The outbox pane filters; the inspector showed the raw reads, every visitor's addresses in them.
    @Test func aVisitorsInspectorLeavesOutTheOutboxReads() {
        func exchange(_ method: String, _ path: String) -> BackendExchange {
            BackendExchange(date: Date(timeIntervalSince1970: 0), method: method, path: path, status: 200, latency: 0,
                            requestBody: Data(), responseBody: Data(#"{"oobCodes":[{"email":"victim@example.com"}]}"#.utf8))
        }
        let exchanges = [
            exchange("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp"),
            exchange("GET", "/emulator/v1/projects/demo/oobCodes"),
            exchange("GET", "/emulator/v1/projects/demo/verificationCodes"),
            exchange("POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup"),
        ]
        #expect(SessionControl(audience: .visitor).inspectable(exchanges).map(\.path)
            == ["/identitytoolkit.googleapis.com/v1/accounts:signUp", "/identitytoolkit.googleapis.com/v1/accounts:lookup"])
        #expect(SessionControl(audience: .everyone).inspectable(exchanges) == exchanges)
    }

    @Test func everyoneSeesEverything() {
        #expect(Self.outbox.visible(to: .everyone, controlling: ControlledAddresses()) == Self.outbox)
    }

    @Test func aVisitorWhoControlsNothingSeesNothing() {
        #expect(Self.outbox.visible(to: .visitor, controlling: ControlledAddresses()) == Outbox())
    }

    @Test func aVisitorSeesMessagesForTheirAccountsEmailAndNumber() {
        var controlled = ControlledAddresses()
        controlled.adopt(User(uid: "u1", isAnonymous: false, email: "ADA@example.com", phoneNumber: "+15555550100"))
        let visible = Self.outbox.visible(to: .visitor, controlling: controlled)
        #expect(visible.emails.map(\.oobCode) == ["a1", "a2"])
        #expect(visible.texts.map(\.verificationID) == ["s1"])
    }

    @Test func aLinkedProvidersEmailDoesNotCount() {
        var controlled = ControlledAddresses()
        var user = User(uid: "u1", isAnonymous: false)
        user.providerData = [UserInfo(providerID: "google.com", uid: "g1", email: "victim@example.com")]
        controlled.adopt(user)
        #expect(Self.outbox.visible(to: .visitor, controlling: controlled) == Outbox())
    }

    @Test func aNumberBeingEnrolledAsASecondFactorCounts() {
        var controlled = ControlledAddresses()
        controlled.enrolling(phoneNumber: "+15555550199")
        #expect(Self.outbox.visible(to: .visitor, controlling: controlled).texts.map(\.code) == ["999999"])
    }

    @Test func theRecordKeepsEveryAccountOfTheSession() {
        let control = SessionControl(audience: .visitor)
        control.adopt(User(uid: "u1", isAnonymous: false, email: "ada@example.com"))
        control.adopt(nil)
        control.adopt(User(uid: "u2", isAnonymous: true))
        #expect(control.filter(Self.outbox).emails.map(\.oobCode) == ["a1", "a2"])
        #expect(SessionControl(audience: .everyone).filter(Self.outbox) == Self.outbox)
    }
}
