@testable import AuthDeckApp
import AuthAdmin
import Foundation
import Testing
import TerminalUI

/// Lock-outs in the accounts view: the locked marker read with each page, the "locked" chip, and the
/// lock-outs panel (`K`) that lists every locked address, an account's or not, and lifts one or all.
@Suite("Accounts view lock-outs")
struct LockoutsFlowTests {
    typealias F = AccountsFixtures

    static let until = F.created.addingTimeInterval(900)
    static let accountLock = EmailLockout(email: "user0002@example.com", failures: 5, lockedUntil: until)
    static let strangerLock = EmailLockout(email: "nobody@example.com", failures: 5, lockedUntil: until.addingTimeInterval(60))

    static func pageWithLockouts(_ lockouts: [EmailLockout]) -> AccountPage {
        var page = F.page(0..<100, total: 3000)
        page.lockouts = lockouts
        return page
    }

    /// The view with a page read and its lock-outs.
    static func withLockouts(_ lockouts: [EmailLockout], access: OperatorAccess = .full) -> FlowStore {
        var model = F.opened(total: 3000, access: access)
        model.accounts {
            $0.page = pageWithLockouts(lockouts)
            $0.lockouts = lockouts
        }
        return FlowStore(model)
    }

    @Test func aPageBringsItsLockoutsAndTheLockedRowIsMarked() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("r")), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.accounts { $0.pending = F.firstQuery }
        }
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(Self.pageWithLockouts([Self.accountLock, Self.strangerLock]))))) {
            $0.accounts {
                $0.pending = nil
                $0.page = Self.pageWithLockouts([Self.accountLock, Self.strangerLock])
                $0.lockouts = [Self.accountLock, Self.strangerLock]
            }
        }
        let feature = store.model.accountsView
        #expect(feature?.isLocked(F.user(2), at: 2) == true)
        #expect(feature?.isLocked(F.user(1), at: 1) == false)
        let screen = render(store.model)
        #expect(screen.contains("2 locked out (K)"))
        #expect(screen.contains("u0002          user0002@example.com  pw       09-23 14:13 09-23 16:13 ··U·L"))
        #expect(screen.contains("L locked"))
        // The next page without them: the marker goes.
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(F.page(0..<100, total: 3000))))) {
            $0.accounts {
                $0.page = F.page(0..<100, total: 3000)
                $0.lockouts = []
            }
        }
        #expect(!render(store.model).contains("locked out (K)"))
    }

    /// Where every project is shown, a lock-out marks only the row of its own project.
    @Test func everyProjectsLockoutsMarkTheirOwnProjectsRows() {
        var feature = AccountsFeature()
        feature.allProjects = true
        feature.page = AccountPage(users: [F.user(2), F.user(2)], offset: 0, totalCount: 2, projects: ["visitor-a", "visitor-b"])
        feature.accountProjects = ["u0002": "visitor-b"]
        var lock = Self.accountLock
        lock.project = "visitor-b"
        feature.lockouts = [lock]
        #expect(feature.isLocked(F.user(2), at: 0))
        lock.project = "visitor-a"
        feature.lockouts = [lock]
        #expect(!feature.isLocked(F.user(2), at: 0))
        feature.allProjects = false
        #expect(feature.isLocked(F.user(2), at: 0))
    }

    @Test func theLockedChipFiltersAndTheHeaderCountsTheMatches() {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("f"))) { $0.accounts { $0.panel = .chips(ChipMenu()) } }
        for selection in 1...6 {
            store.send(.key(.down)) { $0.accounts { $0.panel = .chips(ChipMenu(selection: selection)) } }
        }
        let locked = AccountFilter(locked: true)
        let query = AccountsQuery(filter: locked, sort: AccountSort(), offset: 0, limit: AccountsFeature.pageSize)
        store.send(.key(.enter), effects: [.accounts(.loadPage(query))]) {
            $0.accounts {
                $0.filter = locked
                $0.page = nil
                $0.matchCount = nil
                $0.pending = query
            }
        }
        #expect(render(store.model).contains("[x] locked out by wrong passwords"))
        store.send(.key(.escape)) { $0.accounts { $0.panel = nil } }
        let page = AccountPage(users: [F.user(2)], offset: 0, totalCount: nil, lockouts: [Self.accountLock, Self.strangerLock])
        store.send(.feature(AccountsFeature.Event.pageLoaded(query, .success(page))), effects: [.accounts(.countMatches(locked))]) {
            $0.accounts {
                $0.pending = nil
                $0.page = page
                $0.lockouts = page.lockouts
                $0.countedFilter = locked
            }
        }
        store.send(.feature(AccountsFeature.Event.matchesCounted(locked, .success(1)))) { $0.accounts { $0.matchCount = 1 } }
        let screen = render(store.model)
        #expect(screen.contains("1 account matches · filter: locked · sort: created ↓ · 2 locked out (K)"))
        #expect(AccountsScreen.filterText(locked) == "locked")
    }

    @Test func kListsEveryLockoutAndUClearsOneAtOnce() {
        var store = Self.withLockouts([Self.accountLock, Self.strangerLock])
        #expect(store.model.bindings.contains { $0.keys == [.character("K")] && !$0.inBar })
        var help = store.model
        help.overlay = .help
        #expect(render(help, size: Size(width: 80, height: 50)).contains("K       lock-outs (any address)"))
        store.send(.key(.character("K")), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.accounts {
                $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock]))
                $0.pending = F.firstQuery
            }
        }
        let screen = render(store.model)
        #expect(screen.contains("Lock-outs in this project: addresses locked by wrong passwords"))
        #expect(screen.contains("nobody@example.com"))
        #expect(screen.contains("14:29:20 UTC"))
        #expect(screen.contains("u clear this lock-out"))
        store.send(.key(.down)) { $0.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock], selection: 1)) } }
        store.send(.key(.down))
        store.send(.key(.character("u")), effects: [.accounts(.clearLockouts([Self.strangerLock], all: false))]) {
            $0.busy = "Clearing the lock-out of nobody@example.com…"
        }
        store.send(.feature(AccountsFeature.Event.lockoutsCleared(.success(1))), effects: [.accounts(.loadPage(F.firstQuery))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Cleared 1 password lock-out. Written to the audit log.")
        }
        // The page read again without it: the list follows, the selection moves to the row left.
        store.send(.feature(AccountsFeature.Event.pageLoaded(F.firstQuery, .success(Self.pageWithLockouts([Self.accountLock]))))) {
            $0.accounts {
                $0.pending = nil
                $0.page = Self.pageWithLockouts([Self.accountLock])
                $0.lockouts = [Self.accountLock]
                $0.panel = .lockouts(LockoutList(rows: [Self.accountLock], selection: 0))
            }
        }
        store.send(.key(.escape)) {
            $0.banner = nil
            $0.accounts { $0.panel = nil }
        }
    }

    @Test func bigUClearsThemAllAfterAYesThatNamesTheCount() {
        var store = Self.withLockouts([Self.accountLock, Self.strangerLock])
        store.model.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock])) }
        store.send(.key(.character("U"))) {
            $0.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock], confirmingAll: true)) }
        }
        let screen = render(store.model)
        #expect(screen.contains("Clear 2 password lock-outs?"))
        #expect(screen.contains("Clear all (y)"))
        store.send(.key(.character("n"))) {
            $0.banner = Banner(.info, "Nothing was done.")
            $0.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock])) }
        }
        store.send(.key(.character("U"))) {
            $0.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock], confirmingAll: true)) }
        }
        store.send(.key(.character("y")), effects: [.accounts(.clearLockouts([Self.accountLock, Self.strangerLock], all: true))]) {
            $0.banner = nil
            $0.busy = "Clearing 2 password lock-outs…"
            $0.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.accountLock, Self.strangerLock])) }
        }
        store.send(.feature(AccountsFeature.Event.lockoutsCleared(.failure(AccountsFailure("backend down"))))) {
            $0.busy = nil
            $0.banner = Banner(.error, "The lock-outs were not cleared.", detail: "backend down")
        }
    }

    @Test func readOnlyListsTheLockoutsAndOffersNoClearing() {
        var store = Self.withLockouts([Self.strangerLock], access: .readOnly)
        store.model.accounts { $0.panel = .lockouts(LockoutList(rows: [Self.strangerLock])) }
        #expect(!store.model.bindings.contains { $0.keys == [.character("u")] || $0.keys == [.character("U")] })
        store.send(.key(.character("u")))
        store.send(.key(.character("U")))
        #expect(render(store.model).contains("nobody@example.com"))
    }

    @Test func anEmptyListSaysSoAndOffersNoClearing() {
        var store = Self.withLockouts([])
        store.model.accounts { $0.panel = .lockouts(LockoutList(rows: [])) }
        #expect(render(store.model).contains("No address is locked out."))
        store.send(.key(.character("U")))
        store.send(.key(.character("u")))
    }
}
