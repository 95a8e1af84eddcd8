import AppData
@testable import AuthDeckApp
import AuthAdmin
import AuthClient
import Foundation
import IdentityTestSupport
import Logging
import Synchronization
import Testing

/// The accounts view's effects as the runner performs them, against a real embedded backend in
/// process and over HTTP (the admin API of `authdeck serve`), with a real cart store and audit log.
@Suite("Accounts effects against the embedded backend")
struct AccountsEffectTests {
    static let day: TimeInterval = 86_400

    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func pagesFiltersDetailActionsCleanUpAndTheAuditLog(_ transport: BackendTransport) async throws {
        let clock = TestClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestBackend(transport, clock: clock.read) { served in
            let adminTransport = served.makeAdministratorTransport()
            let projectId = served.backend.projectId
            // Over HTTP the console asks what the backend can do, as it does against `authdeck serve`.
            let capability = transport == .http ? try await AccountAdmin.detectCapability(of: adminTransport, projectId: projectId) : .authdeck
            #expect(capability == .authdeck)
            let admin = AccountAdmin(backend: adminTransport, projectId: projectId, capability: capability, clock: clock.read)
            let audit = AuditLog(path: directory.appendingPathComponent("audit-log.jsonl").path)
            let cart = try CartStore()
            let runner = EffectRunner(auth: Auth(backend: served.makeTransport(), clock: clock.read), cart: cart,
                                      accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: audit),
                                      logger: Logger(label: "test"), send: { _ in })

            _ = try await admin.createUser(uid: "anon-old")
            clock.advance(31 * Self.day)
            _ = try await admin.createUser(uid: "anon-new")
            let ada = try await admin.createUser(email: "Ada@Example.com", password: "correct horse")
            for index in 0..<3 { _ = try await admin.createUser(email: "user\(index)@example.com") }
            try await cart.add("apple", to: ada)

            let all = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100)
            let page = try #require(try await runner.perform(.loadPage(all))?.page(for: all))
            // The rows come without the count (it can take far longer); the count is asked apart.
            #expect(page.totalCount == nil)
            #expect(try await runner.perform(.countMatches(all.filter))?.count(for: all.filter) == 6)
            #expect(page.users.last?.uid == "anon-old")
            // Case-insensitive prefix of the email; a page of 2 from offset 1 of the four `user`/`ada` accounts.
            let byEmail = AccountsQuery(filter: AccountFilter(text: "ada@EX"), sort: AccountSort(), offset: 0, limit: 100)
            #expect(try await runner.perform(.loadPage(byEmail))?.page(for: byEmail)?.users.map(\.uid) == [ada])
            let second = AccountsQuery(filter: AccountFilter(text: "user"), sort: AccountSort(field: .email, descending: false), offset: 1, limit: 2)
            let paged = try #require(try await runner.perform(.loadPage(second))?.page(for: second))
            #expect(paged.users.map(\.email) == ["user1@example.com", "user2@example.com"])
            #expect(try await runner.perform(.countMatches(second.filter))?.count(for: second.filter) == 3)
            // Junk is a prefix like any other: nothing matches, nothing breaks.
            let junk = AccountsQuery(filter: AccountFilter(text: "' OR 1=1; DROP TABLE users; --"), sort: AccountSort(), offset: 0, limit: 100)
            #expect(try await runner.perform(.loadPage(junk))?.page(for: junk)?.users == [])
            #expect(try await runner.perform(.countMatches(junk.filter))?.count(for: junk.filter) == 0)

            guard case let .detailLoaded(_, .success(detail))? = await runner.perform(.loadDetail(uid: ada)) else {
                Issue.record("no detail")
                return
            }
            #expect(detail.user.email == "ada@example.com")
            #expect(detail.user.hasPassword)
            #expect(detail.cart == [CartItem(uid: ada, name: "apple", quantity: 1)])

            guard case let .actionFinished(.success(disabled))? = await runner.perform(.perform(.disable, uids: [ada])) else {
                Issue.record("not disabled")
                return
            }
            #expect(disabled.succeeded == [ada])
            #expect(try await admin.user(uid: ada).disabled)

            guard case let .actionFinished(.failure(refused))? = await runner.perform(.perform(.setCustomClaims(#"{"aud":"x"}"#), uids: [ada])) else {
                Issue.record("reserved claims were not refused")
                return
            }
            #expect(refused.message == "custom claims refused: reserved claim aud")
            #expect(try await admin.user(uid: ada).customClaims == nil)

            // The clean-up finds the anonymous accounts past 30 days only, then deletes them and their app data.
            try await cart.add("pear", to: "anon-old")
            let old = AccountFilter(anonymousOlderThanDays: 30)
            guard case let .matchingFound(.cleanUp(30), .success(uids))? = await runner.perform(.findMatching(old, purpose: .cleanUp(days: 30))) else {
                Issue.record("no clean-up count")
                return
            }
            #expect(uids == ["anon-old"])
            guard case let .actionFinished(.success(deleted))? = await runner.perform(.perform(.delete, uids: uids)) else {
                Issue.record("not deleted")
                return
            }
            #expect(deleted.succeeded == ["anon-old"])
            #expect(try await served.backend.accountExists(uid: "anon-old") == false)
            #expect(try await served.backend.accountExists(uid: "anon-new"))
            #expect(try await cart.items(of: "anon-old").isEmpty)

            guard case let .hashConfigLoaded(.success(hash))? = await runner.perform(.loadHashConfig) else {
                Issue.record("no hash parameters")
                return
            }
            #expect(hash.algorithm == "SCRYPT")
            #expect(Data(base64Encoded: hash.signerKey)?.isEmpty == false)

            guard case let .auditLogLoaded(.success(entries))? = await runner.perform(.loadAuditLog) else {
                Issue.record("no audit log")
                return
            }
            // Newest first; the refused claims sent nothing and are not in the log.
            #expect(entries.map(\.action) == ["delete", "disable"])
            #expect(entries.map(\.uids) == [["anon-old"], [ada]])
            #expect(entries.allSatisfy { $0.operator == "ops" })
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func readOnlyAndVisitorConsolesChangeNothing(_ transport: BackendTransport) async throws {
        try await withTestBackend(transport) { served in
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            let uid = try await admin.createUser(email: "bob@example.com")
            let readOnly = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(),
                                        accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: nil, access: .readOnly),
                                        logger: Logger(label: "test"), send: { _ in })
            #expect(await readOnly.perform(.perform(.delete, uids: [uid])) == .actionFinished(.failure(AccountsFailure("read-only: no action is allowed"))))
            let query = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 10)
            #expect(try await readOnly.perform(.loadPage(query))?.page(for: query)?.users.map(\.uid) == [uid])

            let visitor = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(), logger: Logger(label: "test"), send: { _ in })
            let refusal = AccountsFailure("this console has no access to the accounts")
            #expect(await visitor.perform(.loadPage(query)) == .pageLoaded(query, .failure(refusal)))
            #expect(await visitor.perform(.countMatches(query.filter)) == .matchesCounted(query.filter, .failure(refusal)))
            #expect(await visitor.perform(.perform(.delete, uids: [uid])) == .actionFinished(.failure(refusal)))
            #expect(try await served.backend.accountExists(uid: uid))
        }
    }
}

/// Lock-outs as the accounts view reads and lifts them: with each page, in one call; an address with no
/// account as an account's; each lift written to the audit log with the addresses.
@Suite("Accounts lock-out effects against the embedded backend")
struct AccountsLockoutEffectTests {
    @Test(.timeLimit(.minutes(3)), arguments: BackendTransport.allCases)
    func pagesBringTheLockoutsAndTheyAreClearedOneOrAllAudited(_ transport: BackendTransport) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-lockouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestBackend(transport) { served in
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            let audit = AuditLog(path: directory.appendingPathComponent("audit-log.jsonl").path)
            let runner = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(),
                                      accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: audit),
                                      logger: Logger(label: "test"), send: { _ in })
            let ada = try await admin.createUser(email: "ada@example.com", password: "correct horse")
            _ = try await admin.createUser(email: "bob@example.com", password: "correct horse")
            let client = Auth(backend: served.makeTransport())
            for email in ["ada@example.com", "ghost@example.com"] {
                for _ in 0..<5 { _ = try? await client.signIn(email: email, password: "wrong") }
            }
            let all = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100)
            let page = try #require(try await runner.perform(.loadPage(all))?.page(for: all))
            #expect(page.lockouts.map(\.email) == ["ada@example.com", "ghost@example.com"])
            #expect(page.lockouts.allSatisfy { $0.failures == 5 && $0.project == nil })
            let locked = AccountsQuery(filter: AccountFilter(locked: true), sort: AccountSort(), offset: 0, limit: 100)
            #expect(try await runner.perform(.loadPage(locked))?.page(for: locked)?.users.map(\.uid) == [ada])
            #expect(try await runner.perform(.countMatches(locked.filter))?.count(for: locked.filter) == 1)

            let ghost = try #require(page.lockouts.last)
            #expect(await runner.perform(.clearLockouts([ghost], all: false)) == .lockoutsCleared(.success(1)))
            #expect(try await runner.perform(.loadPage(all))?.page(for: all)?.lockouts.map(\.email) == ["ada@example.com"])
            #expect(await runner.perform(.clearLockouts(page.lockouts, all: true)) == .lockoutsCleared(.success(1)))
            #expect(try await runner.perform(.loadPage(all))?.page(for: all)?.lockouts.isEmpty == true)
            _ = try await client.signIn(email: "ada@example.com", password: "correct horse")

            let entries = try await audit.entries()
            #expect(entries.map(\.action) == ["clear password lock-out", "clear password lock-out"])
            #expect(entries.map(\.emails) == [["ada@example.com"], ["ghost@example.com"]])
            #expect(entries.allSatisfy { $0.operator == "ops" && $0.uids.isEmpty })

            let readOnly = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(),
                                        accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: nil, access: .readOnly),
                                        logger: Logger(label: "test"), send: { _ in })
            #expect(await readOnly.perform(.clearLockouts([ghost], all: true)) == .lockoutsCleared(.failure(AccountsFailure("read-only: no action is allowed"))))
        }
    }
}

/// The refresh timer: a new one replaces the one waiting, so the view never refreshes twice as often.
@Suite("Accounts refresh timer")
struct AccountsRefreshTimerTests {
    @Test(.timeLimit(.minutes(1)))
    func aNewTimerReplacesTheOneWaiting() async throws {
        try await withTestBackend(.inProcess) { served in
            let events = Mutex<[ConsoleEvent]>([])
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            let runner = EffectRunner(auth: Auth(backend: served.makeTransport()), cart: try CartStore(),
                                      accounts: AccountsConnection(admin: admin, operatorName: "ops", audit: nil),
                                      accountsRefreshInterval: .milliseconds(300), logger: Logger(label: "test"),
                                      send: { event in events.withLock { $0.append(event) } })
            #expect(await runner.perform(AccountsFeature.Effect.scheduleRefresh) == nil)
            #expect(await runner.perform(AccountsFeature.Effect.scheduleRefresh) == nil)
            // The first tick, however busy the machine; then well past both deadlines, no second one.
            while events.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .seconds(1))
            #expect(events.withLock { $0 } == [.feature(AccountsFeature.Event.refreshDue)])
        }
    }
}

extension AccountsFeature.Event {
    /// The page, when this is the answer to `query`.
    func page(for query: AccountsQuery) throws -> AccountPage? {
        guard case let .pageLoaded(answered, result) = self, answered == query else { return nil }
        return try result.get()
    }

    func count(for filter: AccountFilter) throws -> Int? {
        guard case let .matchesCounted(counted, result) = self, counted == filter else { return nil }
        return try result.get()
    }
}
