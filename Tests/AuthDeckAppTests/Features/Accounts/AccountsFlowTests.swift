@testable import AuthDeckApp
import AuthAdmin
import Foundation
import Testing
import TerminalUI

/// The accounts view as the console drives it: keys in, the whole next state and the effects out.
@Suite("Accounts view flows")
struct AccountsFlowTests {
    typealias F = AccountsFixtures

    @Test func aOpensTheViewWithItsFirstPageAndTheRefreshTimer() {
        var store = FlowStore(F.console())
        #expect(store.model.bindings.contains { $0.keys == [.character("A")] && $0.inBar })
        store.send(.key(.character("A")), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh)]) {
            var feature = AccountsFeature()
            feature.pending = F.firstQuery
            $0.screen = .accounts(feature)
        }
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(F.page(0..<100, total: 3000))))) {
            $0.accounts {
                $0.pending = nil
                $0.page = F.page(0..<100, total: 3000)
            }
        }
        #expect(render(store.model).contains("3,000 accounts in all · no filter · sort: created ↓"))
        // esc leaves for where the view was opened from; a late tick of the timer is then dropped.
        store.send(.key(.escape)) { $0.screen = .signInMethods(SignInMethodsFeature(selection: 0)) }
        store.send(.feature(AccountsFeature.Event.refreshDue))
    }

    @Test func aVisitorNeverSeesTheView() {
        var store = FlowStore(F.console(nil))
        #expect(!store.model.bindings.contains { $0.keys.contains(.character("A")) })
        #expect(!render(store.model).contains("accounts"))
        store.send(.key(.character("A")))
        var account = Fixtures.signedIn(Fixtures.passwordUser())
        account.screen = .account(AccountFeature())
        store = FlowStore(account)
        #expect(!store.model.bindings.contains { $0.keys.contains(.character("A")) })
        store.send(.key(.character("A")))
    }

    @Test func theAccountScreenOpensItForAnOperator() {
        var model = Fixtures.signedIn(Fixtures.passwordUser())
        model = ConsoleModel(backendName: "embedded", operatorAccess: .readOnly)
        model.user = Fixtures.passwordUser()
        model.screen = .account(AccountFeature())
        var store = FlowStore(model)
        store.send(.key(.character("A")), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh)]) {
            var feature = AccountsFeature()
            feature.pending = F.firstQuery
            $0.screen = .accounts(feature)
        }
        // Back on the account screen, not the sign-in methods: the operator is signed in.
        store.send(.key(.escape)) { $0.screen = .account(AccountFeature()) }
    }

    @Test func movingPastTheLoadedRowsLoadsTheirPage() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.down)) { $0.accounts { $0.selection = 1 } }
        store.send(.key(.end), effects: [.accounts(.loadPage(AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 2940, limit: 100)))]) {
            $0.accounts {
                $0.selection = 2999
                $0.pending = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 2940, limit: 100)
            }
        }
        let last = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 2940, limit: 100)
        store.send(.feature(AccountsFeature.Event.pageLoaded(last, .success(F.page(2940..<3000, total: 3000))))) {
            $0.accounts {
                $0.pending = nil
                $0.page = F.page(2940..<3000, total: 3000)
            }
        }
        #expect(store.model.accountsView?.selectedUser?.uid == "u2999")
        // Page up stays within the loaded rows; home goes back to the first page.
        store.send(.key(.pageUp)) { $0.accounts { $0.selection = 2999 - AccountsFeature.visibleRows } }
        store.send(.key(.character("g")), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.accounts {
                $0.selection = 0
                $0.pending = F.firstQuery
            }
        }
    }

    @Test func slashFiltersAsYouTypeAndEscClears() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("/"))) { $0.accounts { $0.typingFilter = true } }
        // `q` and `?` are typed, not taken as commands.
        let a = AccountsQuery(filter: AccountFilter(text: "q"), sort: AccountSort(), offset: 0, limit: 100)
        let ad = AccountsQuery(filter: AccountFilter(text: "q?"), sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.character("q")), effects: [.accounts(.loadPage(a))]) {
            $0.accounts {
                $0.filterField = TextField(text: "q", maxLength: 128)
                $0.filter.text = "q"
                $0.page = nil
                $0.pending = a
            }
        }
        store.send(.key(.character("?")), effects: [.accounts(.loadPage(ad))]) {
            $0.accounts {
                $0.filterField = TextField(text: "q?", maxLength: 128)
                $0.filter.text = "q?"
                $0.pending = ad
            }
        }
        // The first keystroke's page arrives late: it is for a filter since left, and ignored.
        store.send(.feature(AccountsFeature.Event.pageLoaded(a, .success(F.page(0..<5, total: 5)))))
        store.send(.feature(AccountsFeature.Event.pageLoaded(ad, .success(AccountPage(users: [], offset: 0, totalCount: 0))))) {
            $0.accounts {
                $0.pending = nil
                $0.page = AccountPage(users: [], offset: 0, totalCount: 0)
            }
        }
        #expect(render(store.model).contains("No account matches the filter (esc clears it)."))
        // Pasted junk is one more prefix, sent as a bound value; control characters are dropped.
        let junk = AccountsQuery(filter: AccountFilter(text: "q?' OR 1=1; --"), sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.paste("' OR 1=1; --\u{1b}[31m\nmore")), effects: [.accounts(.loadPage(junk))]) {
            $0.accounts {
                $0.filterField = TextField(text: "q?' OR 1=1; --", maxLength: 128)
                $0.filter.text = "q?' OR 1=1; --"
                $0.page = nil
                $0.pending = junk
            }
        }
        let cleared = F.firstQuery
        store.send(.key(.escape), effects: [.accounts(.loadPage(cleared))]) {
            $0.accounts {
                $0.typingFilter = false
                $0.filterField = TextField(maxLength: 128)
                $0.filter.text = ""
                $0.page = nil
                $0.pending = cleared
            }
        }
    }

    @Test func chipsAndSortReloadFromTheFirstRow() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("f"))) { $0.accounts { $0.panel = .chips(ChipMenu()) } }
        store.send(.key(.down)) { $0.accounts { $0.panel = .chips(ChipMenu(selection: 1)) } }
        let disabled = AccountsQuery(filter: AccountFilter(disabled: true), sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.character(" ")), effects: [.accounts(.loadPage(disabled))]) {
            $0.accounts {
                $0.filter.disabled = true
                $0.page = nil
                $0.pending = disabled
            }
        }
        // The provider chip cycles through the providers, then off.
        store.send(.key(.down))  { $0.accounts { $0.panel = .chips(ChipMenu(selection: 2)) } }
        store.send(.key(.down))  { $0.accounts { $0.panel = .chips(ChipMenu(selection: 3)) } }
        store.send(.key(.down))  { $0.accounts { $0.panel = .chips(ChipMenu(selection: 4)) } }
        let google = AccountsQuery(filter: AccountFilter(disabled: true, providerId: "password"), sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.enter), effects: [.accounts(.loadPage(google))]) {
            $0.accounts {
                $0.filter.providerId = "password"
                $0.pending = google
            }
        }
        // "Anonymous older than N days": N typed on its row.
        store.send(.key(.down)) { $0.accounts { $0.panel = .chips(ChipMenu(selection: 5)) } }
        var old = google.filter
        old.anonymousOlderThanDays = 4
        store.send(.key(.character("4")), effects: [.accounts(.loadPage(AccountsQuery(filter: old, sort: AccountSort(), offset: 0, limit: 100)))]) {
            $0.accounts {
                $0.filter.anonymousOlderThanDays = 4
                $0.pending = AccountsQuery(filter: old, sort: AccountSort(), offset: 0, limit: 100)
            }
        }
        #expect(render(store.model).contains("filter: disabled + password + anonymous > 4 days"))
        store.send(.key(.escape)) { $0.accounts { $0.panel = nil } }

        store.send(.key(.character("s"))) { $0.accounts { $0.panel = .sort(selection: 0) } }
        store.send(.key(.down)) { $0.accounts { $0.panel = .sort(selection: 1) } }
        let bySignIn = AccountsQuery(filter: old, sort: AccountSort(field: .lastSignIn, descending: true), offset: 0, limit: 100)
        store.send(.key(.enter), effects: [.accounts(.loadPage(bySignIn))]) {
            $0.accounts {
                $0.panel = nil
                $0.sort = AccountSort(field: .lastSignIn, descending: true)
                $0.pending = bySignIn
            }
        }
        // The same field again reverses it.
        store.send(.key(.character("s"))) { $0.accounts { $0.panel = .sort(selection: 1) } }
        let reversed = AccountsQuery(filter: old, sort: AccountSort(field: .lastSignIn, descending: false), offset: 0, limit: 100)
        store.send(.key(.enter), effects: [.accounts(.loadPage(reversed))]) {
            $0.accounts {
                $0.panel = nil
                $0.sort = AccountSort(field: .lastSignIn, descending: false)
                $0.pending = reversed
            }
        }
        // esc clears every chip at once.
        var cleared = F.firstQuery
        cleared.sort = AccountSort(field: .lastSignIn, descending: false)
        store.send(.key(.escape), effects: [.accounts(.loadPage(cleared))]) {
            $0.accounts {
                $0.filter = AccountFilter()
                $0.pending = cleared
            }
        }
    }

    @Test func marksAndBulkDisableWithOneConfirmationStatingTheCount() {
        var store = FlowStore(F.opened(total: 3000))
        for index in 0..<3 {
            store.send(.key(.character(" "))) {
                $0.accounts {
                    $0.marked.insert(String(format: "u%04d", index))
                    $0.selection = index + 1
                }
            }
        }
        // Unmarking: space again on a marked row.
        store.send(.key(.up)) { $0.accounts { $0.selection = 2 } }
        store.send(.key(.character(" "))) {
            $0.accounts {
                $0.marked.remove("u0002")
                $0.selection = 3
            }
        }
        store.send(.key(.up)) { $0.accounts { $0.selection = 2 } }
        store.send(.key(.character(" "))) {
            $0.accounts {
                $0.marked.insert("u0002")
                $0.selection = 3
            }
        }
        let uids = ["u0000", "u0001", "u0002"]
        store.send(.key(.character("d"))) {
            $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: .disable, uids: uids, what: "3 marked accounts", returnTo: nil)) }
        }
        #expect(render(store.model).contains("Disable 3 marked accounts?"))
        // The safe button is the default.
        store.send(.key(.enter)) {
            $0.accounts { $0.panel = nil }
            $0.banner = Banner(.info, "Nothing was done.")
        }
        store.send(.key(.character("d"))) {
            $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: .disable, uids: uids, what: "3 marked accounts", returnTo: nil)) }
            $0.banner = nil
        }
        store.send(.key(.character("y")), effects: [.accounts(.perform(.disable, uids: uids))]) {
            $0.accounts { $0.panel = nil }
            $0.busy = "Disable: 3 accounts…"
        }
        let outcome = AccountActionOutcome(action: .disable, succeeded: ["u0000", "u0002"], failed: ["u0001": "USER_NOT_FOUND"])
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(outcome))), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.error, "Disabled 2 accounts. Written to the audit log. Failed for 1 account.", detail: "u0001: USER_NOT_FOUND")
            $0.accounts {
                $0.marked = ["u0001"]
                $0.pending = F.firstQuery
            }
        }
    }

    @Test func markAllThatMatchAndTypeTheCountPastTwenty() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("a")), effects: [.accounts(.findMatching(AccountFilter(), purpose: .mark))]) {
            $0.busy = "Finding every account that matches…"
        }
        let all = (0..<3000).map { String(format: "u%04d", $0) }
        store.send(.feature(AccountsFeature.Event.matchingFound(.mark, .success(all)))) {
            $0.busy = nil
            $0.banner = Banner(.info, "Marked 3,000 accounts that match; 3000 marked in all.")
            $0.accounts { $0.marked = Set(all) }
        }
        store.send(.key(.character("D"))) {
            $0.banner = nil
            $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: .delete, uids: all, what: "3000 marked accounts", returnTo: nil)) }
        }
        #expect(store.model.screen.editsText)
        #expect(render(store.model).contains("Type 3000 to confirm:"))
        // `y` is typed, not a yes; a wrong count is refused; nothing runs.
        store.send(.key(.character("y"))) {
            $0.accounts { $0.panel = .confirm(Self.typed("y", all)) }
        }
        store.send(.key(.enter)) { $0.banner = Banner(.error, "Type 3000 to confirm, or esc to cancel.") }
        store.send(.key(.backspace)) { $0.accounts { $0.panel = .confirm(Self.typed("", all)) } }
        store.type("3000") { $0.accounts { $0.panel = .confirm(Self.typed("3000", all)) } }
        store.send(.key(.enter), effects: [.accounts(.perform(.delete, uids: all))]) {
            $0.banner = nil
            $0.busy = "Delete: 3,000 accounts…"
            $0.accounts { $0.panel = nil }
        }
    }

    static func typed(_ text: String, _ uids: [String]) -> AccountsConfirmation {
        var confirmation = AccountsConfirmation(action: .delete, uids: uids, what: "\(uids.count) marked accounts", returnTo: nil)
        confirmation.typedCount = TextField(text: text, maxLength: 12)
        return confirmation
    }

    @Test func singleActionsAskWhenDestructiveOnly() {
        var store = FlowStore(F.opened(total: 3000))
        // Enabling, marking verified and sending emails undo nothing: they run at once.
        store.send(.key(.character("e")), effects: [.accounts(.perform(.enable, uids: ["u0000"]))]) { $0.busy = "Enable: 1 account…" }
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(AccountActionOutcome(action: .enable, succeeded: ["u0000"], failed: [:])))),
                   effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Enabled 1 account. Written to the audit log.")
            $0.accounts { $0.pending = F.firstQuery }
        }
        store.send(.key(.character("p")), effects: [.accounts(.perform(.sendPasswordReset, uids: ["u0000"]))]) {
            $0.busy = "Send password reset: 1 account…"
            $0.banner = nil
        }
        store.send(.feature(AccountsFeature.Event.actionFinished(.failure(AccountsFailure("network down"))))) {
            $0.busy = nil
            $0.banner = Banner(.error, "The action was not done.", detail: "network down")
        }
        for (key, action) in [("D", AccountAction.delete), ("d", .disable), ("o", .revokeRefreshTokens)] {
            store.send(.key(.character(Character(key)))) {
                $0.banner = nil
                $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: action, uids: ["u0000"], what: "the account user0000@example.com", returnTo: nil)) }
            }
            store.send(.key(.escape)) {
                $0.banner = Banner(.info, "Nothing was done.")
                $0.accounts { $0.panel = nil }
            }
        }
        store.send(.key(.character("v")), effects: [.accounts(.perform(.markEmailVerified, uids: ["u0000"]))]) {
            $0.banner = nil
            $0.busy = "Mark email verified: 1 account…"
        }
    }

    /// The table of 3,000 with the first account's detail opened (enter) and `record` read into it.
    private static func detailOpened(with record: AccountDetailRecord) -> FlowStore {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.enter), effects: [.accounts(.loadDetail(uid: "u0000"))]) {
            $0.busy = "Reading the account…"
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0000")) }
        }
        store.send(.feature(AccountsFeature.Event.detailLoaded(uid: "u0000", .success(record)))) {
            $0.busy = nil
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0000", record: record)) }
        }
        return store
    }

    /// A locked account's detail says until when; `u` clears it, audited as the other actions are.
    @Test func theDetailShowsALockoutAndUClearsIt() {
        let locked = PasswordLockout(failures: 5, lockedUntil: F.created.addingTimeInterval(900))
        let record = AccountDetailRecord(user: F.user(0), cart: [], lockout: locked)
        var store = Self.detailOpened(with: record)
        let screen = render(store.model)
        #expect(screen.contains("password lock-out   LOCKED until 14:28:20 UTC (5 wrong passwords)"))
        #expect(screen.contains("u clear lock-out"))
        let detail = AccountDetail(uid: "u0000", record: record)
        // Lifting a lock-out takes nothing away: it runs at once, as enabling does.
        store.send(.key(.character("u")), effects: [.accounts(.perform(.clearLockout, uids: ["u0000"]))]) {
            $0.banner = nil
            $0.busy = "Clear password lock-out: 1 account…"
            $0.accounts { $0.panel = .detail(detail) }
        }
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(AccountActionOutcome(action: .clearLockout, succeeded: ["u0000"], failed: [:])))),
                   effects: [.accounts(.loadDetail(uid: "u0000")), .accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Cleared the password lock-out of 1 account. Written to the audit log.")
            $0.accounts { $0.pending = F.firstQuery }
        }
        // Unlocked, the key is not offered.
        let open = AccountDetailRecord(user: F.user(0), cart: [], lockout: PasswordLockout(failures: 0, lockedUntil: nil))
        let unlocked = render(Self.detailOpened(with: open).model)
        #expect(!unlocked.contains("password lock-out"))
        #expect(!unlocked.contains("clear lock-out"))
    }

    @Test func theDetailShowsEveryFieldAndActsOnItsAccount() {
        var user = F.user(0)
        user.phoneNumber = "+15555550100"
        user.customClaims = #"{"admin":true,"tier":"gold"}"#
        user.multiFactor = [MultiFactorInfo(uid: "mfa-1", factorId: .phone, displayName: "work phone", phoneNumber: "+15555550123"),
                            MultiFactorInfo(uid: "mfa-2", factorId: .totp, displayName: "app")]
        let record = AccountDetailRecord(user: user, cart: [])
        var store = Self.detailOpened(with: record)
        let screen = render(store.model)
        #expect(screen.contains("work phone · SMS  +1••••••0123 · id mfa-1"))
        #expect(!screen.contains("+15555550123"))
        #expect(screen.contains("password hash       present (never shown)"))
        // Below the fold: the claims, indented, and the cart.
        let lines = AccountDetailScreen.lines(AccountDetail(uid: "u0000", record: record)).map(\.0)
        #expect(lines.contains("    \"admin\" : true,"))
        #expect(lines.contains("    \"tier\" : \"gold\""))
        #expect(lines.suffix(2) == ["App data (cart)", "  empty"])
        // tab picks the second factor, x removes it after a confirmation, and the detail comes back.
        var detail = AccountDetail(uid: "u0000", record: record)
        detail.factorSelection = 1
        store.send(.key(.tab)) { $0.accounts { $0.panel = .detail(detail) } }
        let remove = AccountsConfirmation(action: .removeSecondFactor("mfa-2"), uids: ["u0000"], what: "the account user0000@example.com (app)",
                                          returnTo: .detail(detail))
        store.send(.key(.character("x"))) {
            $0.banner = nil
            $0.accounts { $0.panel = .confirm(remove) }
        }
        store.send(.key(.character("y")), effects: [.accounts(.perform(.removeSecondFactor("mfa-2"), uids: ["u0000"]))]) {
            $0.busy = "Remove second factor mfa-2: 1 account…"
            $0.accounts { $0.panel = .detail(detail) }
        }
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(AccountActionOutcome(action: .removeSecondFactor("mfa-2"), succeeded: ["u0000"], failed: [:])))),
                   effects: [.accounts(.loadDetail(uid: "u0000")), .accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Removed the second factor of 1 account. Written to the audit log.")
            $0.accounts { $0.pending = F.firstQuery }
        }
        // Deleting from the detail closes it once done.
        store.send(.key(.character("D"))) {
            $0.banner = nil
            $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: .delete, uids: ["u0000"], what: "the account user0000@example.com", returnTo: .detail(detail))) }
        }
        store.send(.key(.character("y")), effects: [.accounts(.perform(.delete, uids: ["u0000"]))]) {
            $0.busy = "Delete: 1 account…"
            $0.accounts { $0.panel = .detail(detail) }
        }
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(AccountActionOutcome(action: .delete, succeeded: ["u0000"], failed: [:])))),
                   effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Deleted 1 account. Written to the audit log.")
            $0.accounts { $0.panel = nil }
        }
    }

    /// A disabled account's detail offers to enable it, not to disable it again (`d` on a disabled
    /// account does nothing).
    @Test func theDetailOffersEnableOrDisableByTheAccountsState() {
        var user = F.user(0)
        user.disabled = true
        let record = AccountDetailRecord(user: user, cart: [])
        var store = Self.detailOpened(with: record)
        let bar = render(store.model).split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.hasPrefix(" e enable · D delete"))
        store.send(.key(.character("d")))
        store.send(.key(.character("e")), effects: [.accounts(.perform(.enable, uids: ["u0000"]))]) {
            $0.banner = nil
            $0.busy = "Enable: 1 account…"
        }
        user.disabled = false
        let enabled = AccountDetailRecord(user: user, cart: [])
        #expect(AccountsPanel.detail(AccountDetail(uid: "u0000", record: enabled)).bindings(access: .full).map(\.label).prefix(3)
            == ["↑/k", "↓/j", "d"])
        #expect(!AccountsPanel.detail(AccountDetail(uid: "u0000", record: enabled)).bindings(access: .full).contains { $0.label == "e" })
    }

    @Test(arguments: [
        (#"{"admin": tru"#, "custom claims refused: not valid JSON: expected a value at character 11"),
        (#"{"admin": true,}"#, "custom claims refused: not valid JSON: a trailing comma before } at character 15, which JSON does not allow"),
        (#"["admin"]"#, "custom claims refused: must be a JSON object"),
        (#"{"sub": "x", "firebase": {}}"#, "custom claims refused: reserved claim firebase, sub"),
        (#"{"blob": ""# + String(repeating: "x", count: 1000) + #""}"#, "custom claims refused: 1011 bytes, more than Firebase's 1000"),
    ])
    func theClaimsEditorRefusesBadClaimsAndSendsNothing(_ text: String, _ reason: String) {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("c"))) { $0.accounts { $0.panel = .claims(ClaimsEditor(user: F.user(0), returnTo: nil)) } }
        var editor = ClaimsEditor(user: F.user(0), returnTo: nil)
        editor.field = TextField(text: "", maxLength: 4000)
        store.send(.key(.control("u"))) { $0.accounts { $0.panel = .claims(editor) } }
        editor.field = TextField(text: text, maxLength: 4000)
        store.send(.key(.paste(text))) { $0.accounts { $0.panel = .claims(editor) } }
        editor.refusal = reason
        store.send(.key(.enter)) {
            $0.accounts { $0.panel = .claims(editor) }
            $0.banner = Banner(.error, "\(reason). Nothing was sent.")
        }
        // An edit takes the refusal away: it was of the text before, and must not stay above a valid one.
        editor.field = TextField(text: text + " ", maxLength: 4000)
        editor.refusal = nil
        store.send(.key(.character(" "))) { $0.accounts { $0.panel = .claims(editor) } }
    }

    @Test func validClaimsAreCompactedConfirmedAndSent() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("c"))) { $0.accounts { $0.panel = .claims(ClaimsEditor(user: F.user(0), returnTo: nil)) } }
        var editor = ClaimsEditor(user: F.user(0), returnTo: nil)
        editor.field = TextField(text: "{} { \"tier\" : \"gold\" }", maxLength: 4000)
        store.send(.key(.paste(" { \"tier\" : \"gold\" }"))) { $0.accounts { $0.panel = .claims(editor) } }
        editor.refusal = "custom claims refused: not valid JSON: more text after the JSON at character 4"
        store.send(.key(.enter)) {
            $0.accounts { $0.panel = .claims(editor) }
            $0.banner = Banner(.error, "custom claims refused: not valid JSON: more text after the JSON at character 4. Nothing was sent.")
        }
        editor.field = TextField(text: "", maxLength: 4000)
        editor.refusal = nil
        store.send(.key(.control("u"))) { $0.accounts { $0.panel = .claims(editor) } }
        editor.field = TextField(text: " { \"tier\" : \"gold\" }", maxLength: 4000)
        store.send(.key(.paste(" { \"tier\" : \"gold\" }"))) { $0.accounts { $0.panel = .claims(editor) } }
        let set = AccountAction.setCustomClaims(#"{"tier":"gold"}"#)
        store.send(.key(.enter)) {
            $0.banner = nil
            $0.accounts { $0.panel = .confirm(AccountsConfirmation(action: set, uids: ["u0000"], what: "the account user0000@example.com", returnTo: nil)) }
        }
        store.send(.key(.character("y")), effects: [.accounts(.perform(set, uids: ["u0000"]))]) {
            $0.busy = "Set custom claims: 1 account…"
            $0.accounts { $0.panel = nil }
        }
    }

    @Test func cleanUpCountsFirstThenDeletesAfterTheTypedCount() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("C"))) { $0.accounts { $0.panel = .cleanUp(days: TextField(text: "30", maxLength: 5)) } }
        // Letters are not days.
        store.send(.key(.character("x")))
        let thirty = AccountFilter(anonymousOlderThanDays: 30)
        store.send(.key(.enter), effects: [.accounts(.findMatching(thirty, purpose: .cleanUp(days: 30)))]) {
            $0.busy = "Counting anonymous accounts older than 30 days…"
        }
        store.send(.feature(AccountsFeature.Event.matchingFound(.cleanUp(days: 30), .success([])))) {
            $0.busy = nil
            $0.banner = Banner(.info, "No anonymous account is older than 30 days.")
            $0.accounts { $0.panel = nil }
        }
        store.send(.key(.character("C"))) {
            $0.banner = nil
            $0.accounts { $0.panel = .cleanUp(days: TextField(text: "30", maxLength: 5)) }
        }
        store.send(.key(.enter), effects: [.accounts(.findMatching(thirty, purpose: .cleanUp(days: 30)))]) {
            $0.busy = "Counting anonymous accounts older than 30 days…"
        }
        let old = (0..<25).map { "anon\($0)" }
        let confirmation = AccountsConfirmation(action: .delete, uids: old, what: "25 anonymous accounts created more than 30 days ago", returnTo: nil)
        store.send(.feature(AccountsFeature.Event.matchingFound(.cleanUp(days: 30), .success(old)))) {
            $0.busy = nil
            $0.accounts { $0.panel = .confirm(confirmation) }
        }
        #expect(render(store.model).contains("Type 25 to confirm:"))
        var typed = confirmation
        typed.typedCount = TextField(text: "25", maxLength: 12)
        store.type("25") { $0.accounts { $0.panel = .confirm(typed) } }
        store.send(.key(.enter), effects: [.accounts(.perform(.delete, uids: old))]) {
            $0.busy = "Delete: 25 accounts…"
            $0.accounts { $0.panel = nil }
        }
    }

    @Test func readOnlyShowsEverythingAndOffersNoAction() {
        var store = FlowStore(F.opened(total: 3000, access: .readOnly))
        let keys = Set(store.model.bindings.flatMap(\.keys))
        for action in ["d", "D", "e", "o", "v", "p", "V", "c", "C"] { #expect(!keys.contains(.character(Character(action)))) }
        #expect(!store.model.barHints.contains { $0.label.contains("disable") || $0.label.contains("delete") })
        #expect(render(store.model).contains("READ-ONLY"))
        store.send(.key(.character("d")))
        store.send(.key(.character("D")))
        store.send(.key(.enter), effects: [.accounts(.loadDetail(uid: "u0000"))]) {
            $0.busy = "Reading the account…"
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0000")) }
        }
        let record = AccountDetailRecord(user: F.user(0), cart: [])
        store.send(.feature(AccountsFeature.Event.detailLoaded(uid: "u0000", .success(record)))) {
            $0.busy = nil
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0000", record: record)) }
        }
        #expect(!Set(store.model.bindings.flatMap(\.keys)).contains(.character("D")))
        store.send(.key(.character("D")))
    }

    @Test func theRowsShowFirstAndTheCountFollows() {
        var store = FlowStore(F.console())
        store.send(.key(.character("A")), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh)]) {
            var feature = AccountsFeature()
            feature.pending = F.firstQuery
            $0.screen = .accounts(feature)
        }
        // A backend that counts apart answers the rows alone: they show, and the count is asked after them.
        let rows = AccountPage(users: F.users(0..<100), offset: 0, totalCount: nil)
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(rows))), effects: [.accounts(.countMatches(AccountFilter()))]) {
            $0.accounts {
                $0.pending = nil
                $0.page = rows
                $0.countedFilter = AccountFilter()
            }
        }
        #expect(render(store.model).contains("counting… · no filter · sort: created ↓"))
        #expect(render(store.model).contains("u0000"))
        // Until the count arrives the selection reaches the rows read, no further.
        store.send(.key(.character("G"))) { $0.accounts { $0.selection = 99 } }
        store.send(.feature(AccountsFeature.Event.matchesCounted(AccountFilter(), .success(3000)))) { $0.accounts { $0.matchCount = 3000 } }
        #expect(render(store.model).contains("3,000 accounts in all · no filter"))
        store.send(.key(.character("G")), effects: [.accounts(.loadPage(F.query(offset: 2940)))]) {
            $0.accounts {
                $0.selection = 2999
                $0.pending = F.query(offset: 2940)
            }
        }
    }

    @Test func aCountOfAFilterSinceLeftNeverOverwritesTheNewerOne() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("/"))) { $0.accounts { $0.typingFilter = true } }
        let u = AccountFilter(text: "u"), us = AccountFilter(text: "us")
        let qu = AccountsQuery(filter: u, sort: AccountSort(), offset: 0, limit: 100)
        let qus = AccountsQuery(filter: us, sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.character("u")), effects: [.accounts(.loadPage(qu))]) {
            $0.accounts {
                $0.filterField = TextField(text: "u", maxLength: 128)
                $0.filter = u
                $0.page = nil
                $0.pending = qu
            }
        }
        let rows = AccountPage(users: F.users(0..<100), offset: 0, totalCount: nil)
        store.send(.feature(AccountsFeature.Event.pageLoaded(qu, .success(rows))), effects: [.accounts(.countMatches(u))]) {
            $0.accounts {
                $0.pending = nil
                $0.page = rows
                $0.countedFilter = u
            }
        }
        store.send(.key(.character("s")), effects: [.accounts(.loadPage(qus))]) {
            $0.accounts {
                $0.filterField = TextField(text: "us", maxLength: 128)
                $0.filter = us
                $0.page = nil
                $0.pending = qus
            }
        }
        store.send(.feature(AccountsFeature.Event.pageLoaded(qus, .success(rows))), effects: [.accounts(.countMatches(us))]) {
            $0.accounts {
                $0.pending = nil
                $0.page = rows
                $0.countedFilter = us
            }
        }
        // The slow count of `u` arrives after `us` was typed: it is dropped; `us`'s own count shows.
        store.send(.feature(AccountsFeature.Event.matchesCounted(u, .success(900_000))))
        #expect(render(store.model).contains("counting… · filter: \"us\""))
        store.send(.feature(AccountsFeature.Event.matchesCounted(us, .success(700_000)))) { $0.accounts { $0.matchCount = 700_000 } }
        #expect(render(store.model).contains("700,000 accounts match · filter: \"us\""))
        // Another character: the old count goes at once, never shown for the new filter.
        let qusx = AccountsQuery(filter: AccountFilter(text: "usx"), sort: AccountSort(), offset: 0, limit: 100)
        store.send(.key(.character("x")), effects: [.accounts(.loadPage(qusx))]) {
            $0.accounts {
                $0.filterField = TextField(text: "usx", maxLength: 128)
                $0.filter.text = "usx"
                $0.page = nil
                $0.pending = qusx
                $0.matchCount = nil
            }
        }
        store.send(.feature(AccountsFeature.Event.matchesCounted(us, .success(700_000))))
        #expect(store.model.accountsView?.matchCount == nil)
    }

    @Test func aRefreshCountsAgainAndKeepsTheOldCountUntilThen() {
        var store = FlowStore(F.console())
        store.send(.key(.character("A")), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh)]) {
            var feature = AccountsFeature()
            feature.pending = F.firstQuery
            $0.screen = .accounts(feature)
        }
        let rows = AccountPage(users: F.users(0..<100), offset: 0, totalCount: nil)
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(rows))), effects: [.accounts(.countMatches(AccountFilter()))]) {
            $0.accounts {
                $0.pending = nil
                $0.page = rows
                $0.countedFilter = AccountFilter()
            }
        }
        store.send(.feature(AccountsFeature.Event.matchesCounted(AccountFilter(), .success(3000)))) { $0.accounts { $0.matchCount = 3000 } }
        // `r` reads the rows again and then counts again; the old count shows until the new one.
        store.send(.key(.character("r")), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.accounts {
                $0.pending = F.firstQuery
                $0.countedFilter = nil
            }
        }
        #expect(render(store.model).contains("3,000 accounts in all"))
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(rows))), effects: [.accounts(.countMatches(AccountFilter()))]) {
            $0.accounts {
                $0.pending = nil
                $0.countedFilter = AccountFilter()
            }
        }
        store.send(.feature(AccountsFeature.Event.matchesCounted(AccountFilter(), .failure(AccountsFailure("database is locked"))))) {
            $0.banner = Banner(.error, "The matching accounts could not be counted.", detail: "database is locked")
            $0.accounts { $0.countedFilter = nil }
        }
        #expect(render(store.model).contains("3,000 accounts in all"))
    }

    @Test func theRefreshKeepsTheSelectedAccountSelected() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.down)) { $0.accounts { $0.selection = 1 } }
        store.send(.feature(AccountsFeature.Event.refreshDue), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh)]) {
            $0.accounts { $0.pending = F.firstQuery }
        }
        // Two new accounts arrived at the top (newest first): u0001 is now the fourth row.
        var users = [F.user(9001), F.user(9002)] + F.users(0..<98)
        users[0].uid = "new-1"
        users[1].uid = "new-2"
        let newPage = AccountPage(users: users, offset: 0, totalCount: 3002)
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(newPage)))) {
            $0.accounts {
                $0.pending = nil
                $0.page = newPage
                $0.selection = 3
            }
        }
        #expect(store.model.accountsView?.selectedUser?.uid == "u0001")
        // While a page is on its way, the tick only schedules the next one.
        store.send(.key(.character("r")), effects: [.accounts(.loadPage(F.firstQuery))]) { $0.accounts { $0.pending = F.firstQuery } }
        store.send(.feature(AccountsFeature.Event.refreshDue), effects: [.accounts(.scheduleRefresh)])
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .failure(AccountsFailure("connection refused"))))) {
            $0.banner = Banner(.error, "The accounts could not be read.", detail: "connection refused")
            $0.accounts {
                $0.pending = nil
                $0.loadError = "connection refused"
            }
        }
    }

    @Test func theAuditLogAndTheHashParametersAreShown() throws {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("L")), effects: [.accounts(.loadAuditLog)]) { $0.accounts { $0.panel = .auditLog(entries: nil, selection: 0) } }
        let entries = [AuditEntry(date: F.created, operator: "ops", action: "delete", uids: ["u1", "u2"], failed: 1)]
        store.send(.feature(AccountsFeature.Event.auditLogLoaded(.success(entries)))) { $0.accounts { $0.panel = .auditLog(entries: entries, selection: 0) } }
        #expect(render(store.model).contains("2026-09-21 14:13  delete  2 accounts, 1 failed  by ops"))
        // At 80 columns an operator named by key comment and fingerprint still leaves the action, its target and project.
        let named = [AuditEntry(date: F.created, operator: "alice@laptop (SHA256:b3BlcmF0b3JrZXlmaW5nZXJwcmludGhlcmVpc2xvbmc)", action: "disable",
                                project: "visitor-5bfb13851a6f2559", uids: ["u1"], failed: 0)]
        store.send(.feature(AccountsFeature.Event.auditLogLoaded(.success(named)))) { $0.accounts { $0.panel = .auditLog(entries: named, selection: 0) } }
        for size in [Size(width: 80, height: 24), Size(width: 132, height: 40)] {
            let screen = render(store.model, size: size)
            #expect(screen.contains("2026-09-21 14:13  disable  1 account  in visitor-5bfb13851a6f2559  by ali"))
            #expect(screen.contains("by alice@laptop (SHA256:b3BlcmF0b3Jr"))
        }
        store.send(.key(.escape)) { $0.accounts { $0.panel = nil } }
        store.send(.key(.character("H")), effects: [.accounts(.loadHashConfig)]) { $0.accounts { $0.panel = .hashConfig } }
        let hash = PasswordHashParameters(signerKey: "c2lnbmVy", saltSeparator: "Bw==", rounds: 8, memoryCost: 14)
        store.send(.feature(AccountsFeature.Event.hashConfigLoaded(.success(hash)))) { $0.accounts { $0.hashConfig = hash } }
        let screen = render(store.model)
        #expect(screen.contains("signer key       c2lnbmVy"))
        #expect(screen.contains("memory cost      14"))
        // A real signer key (64 bytes, 88 characters of base64) is longer than the row: it goes on, whole, on the next.
        let key = Data((0..<64).map { UInt8($0 * 7 % 256) }).base64EncodedString()
        let long = PasswordHashParameters(signerKey: key, saltSeparator: "Bw==", rounds: 8, memoryCost: 14)
        store.send(.feature(AccountsFeature.Event.hashConfigLoaded(.success(long)))) { $0.accounts { $0.hashConfig = long } }
        let rows = render(store.model).split(separator: "\n").map(String.init)
        let first = try #require(rows.firstIndex { $0.contains("signer key") })
        let cut = key.index(key.startIndex, offsetBy: 57)
        #expect(rows[first].contains("signer key       \(key[..<cut])"))
        #expect(rows[first + 1].contains("                 \(key[cut...])"))
        #expect(rows[first + 2].contains("salt separator   Bw=="))
    }

    @Test func aVisitorsProjectIsChosenAndTheTableShowsItsAccounts() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("P")), effects: [.accounts(.loadProjects), .accounts(.loadTenants)]) { $0.accounts { $0.panel = .projects(ProjectsList()) } }
        let seen = F.created
        let projects = [ProjectSummary(id: "authdeck-local", accounts: 3000, owner: nil),
                        ProjectSummary(id: "visitor-0123456789abcdef", accounts: 2,
                                       owner: .init(key: "SHA256:abcdefghijklmnopqrstuvwxyz", name: "ada", address: "10.0.0.7", lastSeen: seen, leftAt: nil)),
                        ProjectSummary(id: "visitor-fedcba9876543210", accounts: 1,
                                       owner: .init(key: nil, name: "grace-hopper", address: "192.168.100.200", lastSeen: seen, leftAt: seen))]
        store.send(.feature(AccountsFeature.Event.projectsLoaded(.success(projects)))) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 0)) } }
        let listed = render(store.model).components(separatedBy: "\n")
        // At 80 columns: the id whole, the name, then whether they are there; the key and the address give way, whole.
        #expect(listed.contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix("visitor-0123456789abcdef 2 accounts     ada          connected 10.0.0.7") })
        #expect(listed.contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix("visitor-fedcba9876543210 1 account      grace-hopper left 09-21 14:13") })
        // Wider, the key's start too.
        #expect(render(store.model, size: Size(width: 100, height: 24)).contains("ada          connected 10.0.0.7 SHA256:abcd…"))
        #expect(listed.contains { $0.contains("authdeck-local           3,000 accounts the backend's own") })
        // "All projects" comes first, then the backend's own.
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 1, moved: true)) } }
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 2, moved: true)) } }
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 3, moved: true)) } }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 2, moved: true)) } }
        store.send(.key(.enter), effects: [.accounts(.selectProject("visitor-0123456789abcdef"))]) { $0.accounts { $0.panel = nil } }
        let query = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100, project: "visitor-0123456789abcdef")
        store.send(.feature(AccountsFeature.Event.projectSelected("visitor-0123456789abcdef")), effects: [.accounts(.loadPage(query))]) {
            $0.banner = Banner(.info, "Project visitor-0123456789abcdef.", detail: nil)
            $0.accounts {
                $0.project = "visitor-0123456789abcdef"
                $0.page = nil
                $0.pending = query
            }
        }
        // A page of the project left behind is not taken.
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(F.page(0..<100, total: 3000)))))
        store.send(.feature(AccountsFeature.Event.pageLoaded(query, .success(F.page(0..<2, total: 2))))) {
            $0.accounts {
                $0.page = F.page(0..<2, total: 2)
                $0.pending = nil
            }
        }
        #expect(render(store.model).contains("2 accounts in all · no filter · project visitor-0123456789abcdef"))
    }

    @Test func allProjectsShowsEachAccountsProjectAndAnActionGoesToIt() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("P")), effects: [.accounts(.loadProjects), .accounts(.loadTenants)]) { $0.accounts { $0.panel = .projects(ProjectsList()) } }
        let visitor = "visitor-0123456789abcdef"
        let projects = [ProjectSummary(id: "authdeck-local", accounts: 1, owner: nil), ProjectSummary(id: visitor, accounts: 2, owner: nil)]
        store.send(.feature(AccountsFeature.Event.projectsLoaded(.success(projects)))) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 0)) } }
        #expect(render(store.model).contains("▸ All projects (every project's accounts in one table)"))
        let query = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100, allProjects: true)
        store.send(.key(.enter), effects: [.accounts(.loadPage(query))]) {
            $0.banner = Banner(.info, "All projects.", detail: nil)
            $0.accounts {
                $0.panel = nil
                $0.allProjects = true
                $0.page = nil
                $0.pending = query
            }
        }
        let page = AccountPage(users: F.users(0..<3), offset: 0, totalCount: 3, projects: ["authdeck-local", visitor, visitor])
        store.send(.feature(AccountsFeature.Event.pageLoaded(query, .success(page)))) {
            $0.accounts {
                $0.page = page
                $0.pending = nil
                $0.accountProjects = ["u0000": "authdeck-local", "u0001": visitor, "u0002": visitor]
            }
        }
        let screen = render(store.model)
        #expect(screen.contains("3 accounts in all · no filter · all projects"))
        #expect(screen.contains("uid       project    email / phone"))
        #expect(screen.contains("u0000     authdeck-… user0000@exampl…"))
        #expect(screen.contains("u0001     visitor-0… user0001@exampl…"))

        // A marked account of a visitor's project is enabled there.
        store.send(.key(.down)) { $0.accounts { $0.selection = 1 } }
        store.send(.key(.character(" "))) {
            $0.accounts {
                $0.marked = ["u0001"]
                $0.selection = 2
            }
        }
        store.send(.key(.character("e")), effects: [.accounts(.perform(.enable, uids: ["u0001"], projects: ["u0001": visitor]))]) {
            $0.banner = nil
            $0.busy = "Enable: 1 account…"
        }
        let outcome = AccountActionOutcome(action: .enable, succeeded: ["u0001"], failed: [:])
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(outcome))), effects: [.accounts(.loadPage(query))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Enabled 1 account. Written to the audit log.")
            $0.accounts {
                $0.marked = []
                $0.pending = query
            }
        }

        // The detail is read from the account's project and names it in full.
        store.send(.key(.enter), effects: [.accounts(.loadDetail(uid: "u0002", project: visitor))]) {
            $0.banner = nil
            $0.busy = "Reading the account…"
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0002", project: visitor)) }
        }
        store.send(.feature(AccountsFeature.Event.detailLoaded(uid: "u0002", .success(AccountDetailRecord(user: F.user(2), cart: []))))) {
            $0.busy = nil
            $0.accounts { $0.panel = .detail(AccountDetail(uid: "u0002", record: AccountDetailRecord(user: F.user(2), cart: []), project: visitor)) }
        }
        #expect(render(store.model).contains("project             visitor-0123456789abcdef"))

        // Marking every match asks for one project: its uids are read per project.
        store.send(.key(.escape)) { $0.accounts { $0.panel = nil } }
        store.send(.key(.character("a"))) { $0.banner = Banner(.info, "Mark all works in one project: choose it with P.") }
    }
}
