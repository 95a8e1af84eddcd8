import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Synchronization
import Testing

/// A clock the tests move by hand (the backend's and the console's).
final class MovableClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_750_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(days: Double) { current.withLock { $0 += days * 86_400 } }
}

/// Runs `body` with an `AccountAdmin` on a fresh backend reached through `transport`.
func withAdmin<T>(_ transport: BackendTransport, capability: AccountAdmin.Capability = .authdeck, clock: MovableClock = MovableClock(),
                  _ body: (AccountAdmin, TestBackend) async throws -> T) async throws -> T {
    try await withTestBackend(transport, clock: { clock.now }) { served in
        let admin = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId,
                                 capability: capability, clock: { clock.now })
        return try await body(admin, served)
    }
}

// Generous: in the whole parallel suite these wait behind scrypt-heavy tests for the cooperative pool.
@Suite(.timeLimit(.minutes(5)))
struct AccountAdminTests {
    static let everywhere: [(BackendTransport, AccountAdmin.Capability)] = [
        (.inProcess, .authdeck), (.http, .authdeck), (.inProcess, .firebaseEmulator), (.http, .firebaseEmulator),
    ]

    /// Seven accounts; two anonymous ones 40 and 2 days old, one disabled, one unverified, one with a second factor.
    /// Passwords only where a test signs in: scrypt is the slow part of a parallel suite.
    private func seed(_ admin: AccountAdmin, clock: MovableClock, served: TestBackend, passwords: Bool = false) async throws {
        _ = try await admin.createUser(uid: "anon-old")
        clock.advance(days: 38)
        _ = try await admin.createUser(uid: "anon-new")
        clock.advance(days: 1)
        _ = try await admin.createUser(uid: "u-ann", email: "Ann@example.com", password: passwords ? "secret-ann" : nil, displayName: "Ann", emailVerified: true)
        _ = try await admin.createUser(uid: "u-bob", email: "bob@example.com", displayName: "Bob", disabled: true)
        _ = try await admin.createUser(uid: "u-cat", phoneNumber: "+15555550123")
        _ = try await admin.createUser(uid: "u-dan", email: "annex@example.org", emailVerified: true)
        _ = try await admin.createUser(uid: "u-eve", email: "eve@example.org", emailVerified: true)
        clock.advance(days: 1)
        // A second factor, as the Admin SDK sets one.
        let update = AdminUpdateRequest(projectId: admin.projectId, localId: "u-dan",
                                        mfa: .init(enrollments: [AdminMfaEnrollment(mfaEnrollmentId: "factor-work", displayName: "work", phoneInfo: "+15555550999")]))
        _ = try await served.makeAdministratorTransport().call(update)
    }

    @Test(arguments: everywhere)
    func pagesFiltersAndSortsOnEveryBackend(_ transport: BackendTransport, _ capability: AccountAdmin.Capability) async throws {
        let clock = MovableClock()
        try await withAdmin(transport, capability: capability, clock: clock) { admin, served in
            try await seed(admin, clock: clock, served: served)
            let all = try await admin.page(filter: .none, sort: AccountSort(field: .createdAt, descending: false), offset: 0, limit: 3)
            #expect(all.totalCount == 7)
            #expect(all.users.map(\.uid) == ["anon-old", "anon-new", "u-ann"])
            let next = try await admin.page(filter: .none, sort: AccountSort(field: .createdAt, descending: false), offset: 3, limit: 3)
            #expect(next.users.map(\.uid) == ["u-bob", "u-cat", "u-dan"])
            let byEmail = try await admin.page(filter: .none, sort: AccountSort(field: .email, descending: true), offset: 0, limit: 2)
            #expect(byEmail.users.map(\.uid) == ["u-eve", "u-bob"])

            func uids(_ filter: AccountFilter) async throws -> [String] {
                try await admin.page(filter: filter, sort: AccountSort(field: .uid, descending: false), offset: 0, limit: 50).users.map(\.uid)
            }
            #expect(try await uids(AccountFilter(text: "ANN")) == ["u-ann", "u-dan"])
            #expect(try await uids(AccountFilter(text: "+1555")) == ["u-cat"])
            #expect(try await uids(AccountFilter(text: "u-e")) == ["u-eve"])
            #expect(try await uids(AccountFilter(anonymous: true)) == ["anon-new", "anon-old"])
            #expect(try await uids(AccountFilter(disabled: true)) == ["u-bob"])
            #expect(try await uids(AccountFilter(emailUnverified: true)) == ["u-bob"])
            #expect(try await uids(AccountFilter(hasSecondFactor: true)) == ["u-dan"])
            #expect(try await uids(AccountFilter(providerId: "phone")) == ["u-cat"])
            #expect(try await uids(AccountFilter(anonymousOlderThanDays: 30)) == ["anon-old"])
            #expect(try await uids(AccountFilter(text: "'; DROP TABLE user; --")) == [])
            #expect(try await admin.page(filter: AccountFilter(text: "ann"), sort: AccountSort(), offset: 0, limit: 1).totalCount == 2)
            // The rows alone: counted with them only where every account is read here anyway.
            let rows = try await admin.rows(filter: AccountFilter(text: "ann"), sort: AccountSort(field: .uid, descending: false), offset: 1, limit: 1)
            #expect(rows.users.map(\.uid) == ["u-dan"])
            #expect(rows.totalCount == (capability == .authdeck ? nil : 2))
            #expect(try await admin.count(matching: AccountFilter(text: "ann")) == 2)
            #expect(try await admin.count(matching: .none) == 7)
            #expect(try await admin.count(matching: AccountFilter(text: "'; DROP TABLE user; --")) == 0)
            #expect(try await admin.uids(matching: AccountFilter(anonymous: true)).sorted() == ["anon-new", "anon-old"])
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func actionsChangeWhatTheAdminAPISays(_ transport: BackendTransport) async throws {
        let clock = MovableClock()
        try await withAdmin(transport, clock: clock) { admin, served in
            try await seed(admin, clock: clock, served: served, passwords: true)
            try await admin.setDisabled(true, uid: "u-ann")
            #expect(try await admin.user(uid: "u-ann").disabled)
            try await admin.setDisabled(false, uid: "u-ann")
            #expect(try await !admin.user(uid: "u-ann").disabled)

            try await admin.setEmailVerified(uid: "u-bob")
            #expect(try await admin.user(uid: "u-bob").emailVerified)

            try await admin.setCustomClaims(#"{"role": "admin", "level": 3}"#, uid: "u-ann")
            #expect(try await admin.user(uid: "u-ann").customClaims == #"{"level":3,"role":"admin"}"#)
            try await admin.setCustomClaims("{}", uid: "u-ann")
            #expect(try await admin.user(uid: "u-ann").customClaims == nil)

            // Revocation: a session started before it can no longer refresh.
            let client = served.makeTransport()
            let session = try await client.call(SignInWithPasswordRequest(email: "ann@example.com", password: "secret-ann"))
            clock.advance(days: 0.01)
            try await admin.revokeRefreshTokens(uid: "u-ann")
            await #expect(throws: IdentityToolkitError.self) {
                _ = try await client.call(SecureTokenRequest(refreshToken: session.refreshToken ?? ""))
            }
            #expect(try await admin.user(uid: "u-ann").tokensValidAfterTime == Date(timeIntervalSince1970: clock.now.timeIntervalSince1970.rounded(.down)))

            let dan = try await admin.user(uid: "u-dan")
            let factor = try #require(dan.multiFactor.first)
            #expect(factor.maskedPhoneNumber == "+1••••••0999")
            try await admin.removeSecondFactor(factor.uid, uid: "u-dan")
            #expect(try await admin.user(uid: "u-dan").multiFactor.isEmpty)

            try await admin.sendEmail(.passwordReset, to: "ann@example.com")
            let outbox = try await client.call(ListOobCodesRequest(projectId: admin.projectId))
            #expect(outbox.oobCodes.contains { $0.email == "ann@example.com" && $0.requestType == "PASSWORD_RESET" })

            #expect(try await admin.delete(uids: ["u-ann", "u-bob", "nobody"]).isEmpty)
            try await admin.delete(uid: "u-cat")
            await #expect(throws: AuthAdminError.notFound(uid: "u-ann")) { try await admin.user(uid: "u-ann") }
            #expect(try await admin.page(filter: .none, sort: AccountSort(), offset: 0, limit: 50).totalCount == 4)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func claimsFirebaseWouldRefuseAreNeverSent(_ transport: BackendTransport) async throws {
        try await withTestBackend(transport) { served in
            let exchanges = ExchangeLog()
            let admin = AccountAdmin(backend: served.makeAdministratorTransport(exchanges: exchanges), projectId: served.backend.projectId,
                                     capability: .authdeck)
            _ = try await admin.createUser(uid: "u-1")
            let sent = await exchanges.entries.count
            for (claims, reason) in [
                ("{not json", "not valid JSON: expected a name in double quotes at character 2"), ("[1, 2]", "must be a JSON object"),
                (#"{"admin": true,}"#, "not valid JSON: a trailing comma before } at character 15, which JSON does not allow"), (#"{"sub": "x"}"#, "reserved claim sub"),
                (#"{"firebase": {}, "aud": 1}"#, "reserved claim aud, firebase"),
                (#"{"big": "\#(String(repeating: "x", count: 1000))"}"#, "1010 bytes, more than Firebase's 1000"),
            ] {
                await #expect(throws: AuthAdminError.invalidClaims(reason)) { try await admin.setCustomClaims(claims, uid: "u-1") }
            }
            #expect(await exchanges.entries.count == sent)
        }
    }

    @Test(arguments: BackendTransport.allCases)
    func hashParametersAreTheBackendsScrypt(_ transport: BackendTransport) async throws {
        try await withAdmin(transport) { admin, _ in
            let hash = try await admin.passwordHashParameters()
            #expect(hash.algorithm == "SCRYPT")
            #expect(Data(base64Encoded: hash.signerKey)?.count == 64)
            #expect((1...8).contains(hash.rounds))
            #expect((1...14).contains(hash.memoryCost))
        }
    }

    @Test func detectsWhatTheServedBackendAnswers() async throws {
        try await withTestBackend(.http) { served in
            let capability = try await AccountAdmin.detectCapability(of: served.makeAdministratorTransport(), projectId: served.backend.projectId)
            #expect(capability == .authdeck)
        }
    }

    @Test func withoutTheAdministratorCredentialNothingIsListed() async throws {
        try await withTestBackend(.http, configuration: EmbeddedBackendConfiguration(adminToken: "0123456789abcdef")) { served in
            let wrong = AccountAdmin(backend: served.makeAdministratorTransport(), projectId: served.backend.projectId, capability: .authdeck)
            await #expect(throws: AuthAdminError.self) { _ = try await wrong.page(filter: .none, sort: AccountSort(), offset: 0, limit: 5) }
            let right = AccountAdmin(backend: served.makeAdministratorTransport(StaticAdministratorCredential(token: "0123456789abcdef")),
                                     projectId: served.backend.projectId, capability: .authdeck)
            let page = try await right.page(filter: .none, sort: AccountSort(), offset: 0, limit: 5)
            #expect(page.totalCount == 0)
        }
    }
}
