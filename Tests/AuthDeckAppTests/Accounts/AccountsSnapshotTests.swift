@testable import AuthDeckApp
import AuthAdmin
import Foundation
import SnapshotTesting
import Testing
import TerminalUI

/// The accounts view and its panels at 80×24, as text.
@Suite("Accounts view snapshots")
struct AccountsSnapshotTests {
    typealias F = AccountsFixtures

    static func model(_ change: (inout AccountsFeature) -> Void, access: OperatorAccess = .full) -> ConsoleModel {
        var model = F.opened(total: 3000, access: access)
        model.accounts(change)
        return model
    }

    @Test func tableFilteredWithMarks() {
        var model = Self.model {
            $0.filter = AccountFilter(text: "user00", emailUnverified: true)
            $0.marked = ["u0001", "u0002"]
            $0.selection = 2
            var users = F.users(0..<20)
            users[3] = UserRecord(uid: "anonymous-uid-with-a-long-name", metadata: UserMetadata(creationTime: F.created))
            users[4].multiFactor = [MultiFactorInfo(uid: "m", factorId: .totp)]
            users[5].providerData += [UserInfo(providerId: "google.com"), UserInfo(providerId: "apple.com")]
            users[6] = UserRecord(uid: "phone-user", phoneNumber: "+15555550100", providerData: [UserInfo(providerId: "phone")])
            $0.page = AccountPage(users: users, offset: 0, totalCount: 20)
        }
        model.banner = Banner(.success, "Disabled 2 accounts. Written to the audit log.")
        assertSnapshot(of: render(model), as: .lines)
    }

    /// A filter's first rows, shown while the count of its matches is still on its way.
    @Test func tableCounting() {
        assertSnapshot(of: render(Self.model {
            $0.filter = AccountFilter(text: "u")
            $0.typingFilter = true
            $0.filterField = TextField(text: "u", maxLength: 128)
            $0.page = AccountPage(users: F.users(0..<100), offset: 0, totalCount: nil)
        }), as: .lines)
    }

    @Test func readOnlyTable() {
        assertSnapshot(of: render(Self.model({ _ in }, access: .readOnly)), as: .lines)
    }

    @Test func chipsMenu() {
        assertSnapshot(of: render(Self.model {
            $0.filter = AccountFilter(disabled: true, providerId: "google.com", anonymousOlderThanDays: 30)
            $0.panel = .chips(ChipMenu(selection: 4))
        }), as: .lines)
    }

    @Test func detailWithSecondFactorsAndCart() {
        var user = F.user(0)
        user.phoneNumber = "+15555550100"
        user.displayName = "Ada Lovelace"
        user.multiFactor = [MultiFactorInfo(uid: "mfa-1", factorId: .phone, displayName: "work", phoneNumber: "+15555550123",
                                            enrollmentTime: F.created)]
        user.customClaims = #"{"admin":true}"#
        let record = AccountDetailRecord(user: user, cart: [.init(uid: "u0000", name: "apple", quantity: 2)])
        var detail = AccountDetail(uid: "u0000", record: record)
        detail.scroll = 4
        assertSnapshot(of: render(Self.model { $0.panel = .detail(detail) }), as: .lines)
    }

    @Test func typedCountConfirmation() {
        let uids = (0..<250).map { "u\($0)" }
        var confirmation = AccountsConfirmation(action: .delete, uids: uids, what: "250 marked accounts", returnTo: nil)
        confirmation.typedCount = TextField(text: "25", maxLength: 12)
        assertSnapshot(of: render(Self.model { $0.panel = .confirm(confirmation) }), as: .lines)
    }

    @Test func claimsEditorRefusing() {
        var editor = ClaimsEditor(user: F.user(0), returnTo: nil)
        editor.field = TextField(text: #"{"sub": "someone-else"}"#, maxLength: 4000)
        editor.refusal = "custom claims refused: reserved claim sub"
        var model = Self.model { $0.panel = .claims(editor) }
        model.banner = Banner(.error, "custom claims refused: reserved claim sub. Nothing was sent.")
        let screen = render(model)
        assertSnapshot(of: screen, as: .lines)
        #expect(!screen.contains("refused: custom claims refused"))
        // While the text is being edited, what is wrong with it so far, and no refusal of an earlier text.
        editor.refusal = nil
        editor.field = TextField(text: #"{"role": "edit"#, maxLength: 4000)
        let typing = render(Self.model { $0.panel = .claims(editor) })
        #expect(typing.contains("not valid yet: not valid JSON"))
        #expect(!typing.contains("claims refused"))
    }
}
