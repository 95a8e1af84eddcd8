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

    /// Every project's accounts: the project column is cut at 80 columns (the detail names it whole).
    @Test func allProjectsTable() {
        assertSnapshot(of: render(Self.model {
            $0.allProjects = true
            $0.selection = 1
            $0.marked = ["u0002"]
            $0.page = AccountPage(users: F.users(0..<4), offset: 0, totalCount: 4,
                                  projects: ["authdeck-local", "visitor-0123456789abcdef", "visitor-0123456789abcdef", "guest-3"])
            for (user, project) in zip($0.page?.users ?? [], $0.page?.projects ?? []) { $0.accountProjects[user.uid] = project }
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

    /// At 80 columns the dates keep their time (the year gives way); a wider table shows both.
    @Test func theTableShowsWhenAccountsSignedInAt80ColumnsAndTheYearWhenWider() {
        let model = Self.model { $0.page = AccountPage(users: F.users(0..<20), offset: 0, totalCount: 20) }
        let narrow = render(model)
        assertSnapshot(of: narrow, as: .lines, named: "80")
        #expect(narrow.contains("09-21 14:13 09-21 14:13"))
        let wide = render(model, size: Size(width: 120, height: 24))
        assertSnapshot(of: wide, as: .lines, named: "120")
        #expect(wide.contains("2026-09-21 14:13 2026-09-21 14:13"))
        #expect(wide.contains("user0000@example.com"))
    }

    /// A second factor's id is whole (wrapped onto the next row), and "↓ more" has a row of its own.
    @Test func theDetailWrapsWhatIsTooLongAndKeepsMoreOffTheText() {
        var user = F.user(0)
        user.multiFactor = [
            MultiFactorInfo(uid: "CkaQ3mJ0xV7bT2pLr9sWz4Hn8yUe", factorId: .phone, displayName: "work phone", phoneNumber: "+15555550123",
                            enrollmentTime: F.created),
            MultiFactorInfo(uid: "Tq8Zr2LmX5vN0cPb7sYw3JkH6fDa", factorId: .totp, displayName: "Authenticator app", enrollmentTime: F.created),
        ]
        user.customClaims = #"{"admin":true,"plan":"gold","region":"eu-west","teams":["a","b","c"]}"#
        user.providerData.append(UserInfo(providerId: "google.com", uid: "112233445566778899001", federatedId: "https://accounts.google.com/112233445566778899001",
                                          email: "ada.lovelace@example.com", displayName: "Ada Lovelace"))
        let record = AccountDetailRecord(user: user, cart: [.init(uid: "u0000", name: "apple", quantity: 2)])
        var detail = AccountDetail(uid: "u0000", record: record)
        detail.scroll = 6
        let text = render(Self.model { $0.panel = .detail(detail) })
        assertSnapshot(of: text, as: .lines)
        #expect(text.contains("CkaQ3mJ0xV7bT2pLr9sWz4Hn8yUe"))
        #expect(text.contains("Tq8Zr2LmX5vN0cPb7sYw3JkH6fDa"))
        // The first row keeps its columns; the rest goes under it.
        #expect(text.contains("google.com     raw id 112233445566778899001"))
        #expect(text.contains("https://accounts.google.com/112233445566778899001"))
        let moreRow = try? #require(text.split(separator: "\n").first { $0.contains("↓ more") })
        #expect(moreRow?.trimmingCharacters(in: .whitespaces) == "↓ more")
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
        // A trailing comma is refused, and the reason is whole, on a second row if it needs one.
        editor.field = TextField(text: #"{"admin": true,}"#, maxLength: 4000)
        let trailing = render(Self.model { $0.panel = .claims(editor) }).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(trailing.contains("not valid yet: not valid JSON: a trailing comma before } at character 15, which JSON does not allow"))
        #expect(!trailing.contains("As it will be stored"))
    }
}

/// The lock-outs: the locked rows and their count, the panel that lists every locked address, the yes to clear them all.
@Suite("Accounts view lock-out snapshots")
struct LockoutSnapshotTests {
    typealias F = AccountsFixtures

    static let lockouts = [
        EmailLockout(email: "user0002@example.com", failures: 5, lockedUntil: F.created.addingTimeInterval(900)),
        EmailLockout(email: "someone-with-a-rather-long-address@example-company.com", failures: 6, lockedUntil: F.created.addingTimeInterval(960)),
    ]

    static func model(_ change: (inout AccountsFeature) -> Void) -> ConsoleModel {
        var model = F.opened(total: 3000)
        model.accounts {
            $0.lockouts = lockouts
            change(&$0)
        }
        return model
    }

    @Test func lockedRows() {
        assertSnapshot(of: render(Self.model { _ in }), as: .lines)
    }

    @Test func lockoutsPanel() {
        assertSnapshot(of: render(Self.model { $0.panel = .lockouts(LockoutList(rows: Self.lockouts, selection: 1)) }), as: .lines)
    }

    @Test func lockoutsPanelOfEveryProject() {
        let rows = Self.lockouts.enumerated().map { index, lockout in
            var lockout = lockout
            lockout.project = index == 0 ? "authdeck-local" : "visitor-0123456789abcdef"
            return lockout
        }
        assertSnapshot(of: render(Self.model {
            $0.allProjects = true
            $0.lockouts = rows
            $0.panel = .lockouts(LockoutList(rows: rows))
        }), as: .lines)
    }

    @Test func clearAllConfirmation() {
        assertSnapshot(of: render(Self.model {
            $0.project = "visitor-0123"
            $0.panel = .lockouts(LockoutList(rows: Self.lockouts, confirmingAll: true))
        }), as: .lines)
    }
}
