import Crypto
import Foundation
import GRDB
import Synchronization
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// Refresh tokens that carry their session (`RefreshTokenSession`), and the revocations an account
/// keeps of them (`AccountSessions`, `SessionCuts`).
@Suite struct RefreshTokenSessionTests {
    private static let key = SymmetricKey(size: .bits256)
    private static let full = RefreshTokenSession(
        localId: "user-1", seal: -42, number: 7, createdAt: 1_750_000_000, authTime: 1_749_999_000, signInProvider: "custom",
        secondFactor: SecondFactor(factor: .totp, mfaEnrollmentId: "enrollment-1"), extraClaims: #"{"tier":"gold ✓"}"#)
    private static let bare = RefreshTokenSession(localId: "u", seal: 0, number: 0, createdAt: 0, authTime: 0, signInProvider: "anonymous")

    @Test func aTokenCarriesItsSessionWhole() {
        for session in [Self.full, Self.bare] {
            let token = session.token(projectId: "demo-project", key: Self.key)
            #expect(RefreshTokenSession(token: token, projectId: "demo-project", key: Self.key) == session)
        }
    }

    @Test func anyChangedByteOrAnotherProjectOrKeyIsRefused() throws {
        let token = Self.full.token(projectId: "demo-project", key: Self.key)
        let bytes = [UInt8](try #require(Data(base64URLEncoded: token)))
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(RefreshTokenSession(token: Base64URL.encode(changed), projectId: "demo-project", key: Self.key) == nil)
        }
        #expect(RefreshTokenSession(token: Base64URL.encode(bytes.dropLast()), projectId: "demo-project", key: Self.key) == nil)
        #expect(RefreshTokenSession(token: token + "AA", projectId: "demo-project", key: Self.key) == nil)
        #expect(RefreshTokenSession(token: token, projectId: "other-project", key: Self.key) == nil)
        #expect(RefreshTokenSession(token: token, projectId: "demo-project", key: SymmetricKey(size: .bits256)) == nil)
        for junk in ["", "x", String(repeating: "A", count: 64), String(repeating: "_", count: 9000), "not base64!", "\u{FFFD}\u{0}"] {
            #expect(RefreshTokenSession(token: junk, projectId: "demo-project", key: Self.key) == nil)
        }
    }

    /// Foundation's base64 decoder also takes padding and `+`/`/`: a token has one spelling, the one issued.
    @Test func aTokenSpelledAnotherWayIsRefused() throws {
        var session = Self.full
        // A token whose base64 holds both `-` and `_`, so that both substitutions change it.
        while true {
            let token = session.token(projectId: "demo-project", key: Self.key)
            if token.contains("-") && token.contains("_") && token.count % 4 != 0 { break }
            session.number += 1
        }
        let token = session.token(projectId: "demo-project", key: Self.key)
        #expect(RefreshTokenSession(token: token, projectId: "demo-project", key: Self.key) == session)
        let padded = token + String(repeating: "=", count: (4 - token.count % 4) % 4)
        for variant in [padded, token.replacingOccurrences(of: "-", with: "+"), token.replacingOccurrences(of: "_", with: "/")] {
            #expect(RefreshTokenSession(token: variant, projectId: "demo-project", key: Self.key) == nil, "\(variant)")
        }
    }

    /// A uid is at most 128 characters, as in Firebase, wherever one is chosen: a refresh token carries it.
    @Test func aChosenUidLongerThan128CharactersIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let longest = String(repeating: "u", count: 128)
        let signedIn = try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"\#(longest)"}"#))
        #expect(try await harness.refresh(signedIn.refreshToken).userId == longest)
        await #expect(throws: server("INVALID_CUSTOM_TOKEN : The uid must be at most 128 characters.")) {
            try await harness.api.call(SignInWithCustomTokenRequest(token: #"{"uid":"\#(longest)v"}"#))
        }
        let refused = try await harness.send("POST", harness.projectPath + "/accounts", ["localId": longest + "v"])
        #expect(refused.status == 400 && errorMessage(refused) == "INVALID_LOCAL_ID : The uid must be at most 128 characters.")
        let created = try await harness.send("POST", harness.projectPath + "/accounts", ["localId": "w" + longest.dropFirst()])
        #expect(created.status == 200)
    }

    /// The ID token behind a write is checked before the write's transaction; a revocation that commits
    /// in between must stop the write (a new session above all), so the account is checked again inside it.
    @Test func aSessionRevokedAfterItsCheckIsRefusedInsideTheWrite() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("zoe@example.com")
        let session = try harness.backend.verifySession(idToken: signedUp.idToken)
        #expect(try await harness.backend.store.write { db in try harness.backend.currentUser(of: session, in: db).localId } == signedUp.localId)
        harness.clock.advance(5)
        _ = try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, validSince: String(harness.clock.seconds)))
        await #expect(throws: BackendFailure.tokenExpired) {
            try await harness.backend.store.write { db in try harness.backend.currentUser(of: session, in: db) }
        }
        _ = try await harness.admin(AccountsUpdateRequest(localId: signedUp.localId, disableUser: true))
        await #expect(throws: BackendFailure.userDisabled) {
            try await harness.backend.store.write { db in try harness.backend.currentUser(of: session, in: db) }
        }
    }

    /// A password sign-in checks the hash it read before its write: sign-ins with the old password racing a
    /// password change must not leave a session the change did not end.
    @Test func noSessionFromTheOldPasswordOutlivesAChangeItRacedWith() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let owner = try await harness.signUp("ari@example.com", "old-secret")
        harness.clock.advance(1)
        let changed = Flag()
        let sessions = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var tokens: [String] = []
                    // Until well after the change: the sign-ins that began before it are the ones that race it.
                    var afterChange = 0
                    while afterChange < 3 {
                        if changed.isRaised { afterChange += 1 }
                        guard let signedIn = try? await harness.signIn("ari@example.com", "old-secret") else { continue }
                        tokens.append(try #require(signedIn.refreshToken))
                    }
                    return tokens
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(150))
                _ = try await harness.api.call(AccountsUpdateRequest(idToken: owner.idToken, password: "new-secret"))
                changed.raise()
                return []
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(!sessions.isEmpty)
        for token in sessions {
            await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(token) }
        }
    }

    @Test func aCutCoversTheSessionsBelowItsNumberUpToItsSecond() {
        var cuts = SessionCuts(nil)
        #expect(!cuts.covers(number: 0, createdAt: 0))
        cuts.add(SessionCuts.Cut(below: 3, upTo: 100))
        #expect(cuts.covers(number: 2, createdAt: 100))
        #expect(!cuts.covers(number: 3, createdAt: 100), "a session started after the cut")
        #expect(!cuts.covers(number: 2, createdAt: 101), "a session started after the cut's second")
        // validSince moved back: the earlier cut still holds the sessions it ended.
        cuts.add(SessionCuts.Cut(below: 5, upTo: 50))
        #expect(cuts.covers(number: 2, createdAt: 100) && cuts.covers(number: 4, createdAt: 50) && !cuts.covers(number: 4, createdAt: 51))
        #expect(cuts.cuts.count == 2)
        // Every session so far: the others are covered by it, and go.
        cuts.add(SessionCuts.Cut(below: 6, upTo: .max))
        #expect(cuts.cuts == [SessionCuts.Cut(below: 6, upTo: .max)])
        cuts.add(SessionCuts.Cut(below: 6, upTo: 10))
        #expect(cuts.cuts == [SessionCuts.Cut(below: 6, upTo: .max)], "a cut inside another adds nothing")
        #expect(SessionCuts(cuts.data) == cuts)
        #expect(SessionCuts(nil).data == nil)
    }

    @Test func damagedCutsEndEverySession() {
        let damaged = SessionCuts(Data([1, 2, 3]))
        #expect(damaged.covers(number: 0, createdAt: 0) && damaged.covers(number: .max - 1, createdAt: .max))
    }

    @Test func theMigrationGivesEveryAccountItsOwnSeal() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.create(table: StoredAccount.databaseTableName) { t in t.primaryKey("localId", .text) }
            for index in 0..<50 { try db.execute(sql: "INSERT INTO user (localId) VALUES (?)", arguments: ["user-\(index)"]) }
            try AccountSessions.migrate(db)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT sessionSeal) FROM user") == 50)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE sessionCount = 1 AND sessionCuts IS NULL") == 50)
        }
    }

    @Test func anAccountMadeAgainUnderTheSameLocalIdRefusesTheOldTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let first = try await harness.signUp("uma@example.com")
        let localId = try #require(first.localId)
        _ = try await harness.admin(AccountsDeleteRequest(localId: localId))
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(first.refreshToken) }

        let _: SignUpResponse = try await harness.adminCall("/accounts", ["localId": localId, "email": "uma@example.com", "password": "secret-1"])
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(first.refreshToken) }
        let again = try await harness.signIn("uma@example.com")
        #expect(try await harness.refresh(again.refreshToken).userId == localId)
    }

    /// An administrator's `validSince` ends the sessions that started up to that second, those of that
    /// very second too, but not one started after it in the same second; moved back, it brings none back.
    @Test func validSinceCutsAtItsSecondAndMovedBackRevivesNothing() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("vic@example.com")
        let localId = signedUp.localId
        let second = harness.clock.seconds
        _ = try await harness.admin(AccountsUpdateRequest(localId: localId, validSince: String(second)))
        let after = try await harness.signIn("vic@example.com")
        #expect(harness.clock.seconds == second)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        _ = try await harness.refresh(after.refreshToken)

        _ = try await harness.admin(AccountsUpdateRequest(localId: localId, validSince: String(second - 100)))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        _ = try await harness.refresh(after.refreshToken)
    }

    /// A password change revokes every session so far and starts the caller's next one in the same
    /// transaction: the new one lives, the others end.
    @Test func aRevocationSparesTheSessionStartedAfterItInTheSameTransaction() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("wes@example.com")
        let other = try await harness.signIn("wes@example.com")
        let changed = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, password: "new-secret"))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(signedUp.refreshToken) }
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(other.refreshToken) }
        let refreshed = try await harness.refresh(changed.refreshToken)
        #expect(claims(of: refreshed.idToken)["sub"] as? String == signedUp.localId)
    }

    /// A refresh token from before tokens carried their session is still a row: it refreshes with its
    /// session's claims, and is revoked as it was.
    @Test func aLegacyTokenStillRefreshesAndIsRevoked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.signUp("xia@example.com")
        let localId = signedUp.localId
        let legacy = SecureRandom.bytes(48).base64URLEncodedString()
        let record = RefreshTokenRecord(tokenHash: RefreshTokenRecord.tokenHash(legacy), localId: localId, signInProvider: "password",
                                        authTime: Int64(harness.clock.seconds - 60), createdAt: Int64(harness.clock.seconds), secondFactor: "totp",
                                        secondFactorIdentifier: "enrollment-9", extraClaims: #"{"tier":2}"#)
        try await harness.backend.store.write { db in try record.insert(db) }

        let refreshed = try await harness.refresh(legacy)
        let refreshedClaims = claims(of: refreshed.idToken)
        #expect(int(refreshedClaims["auth_time"]) == harness.clock.seconds - 60)
        #expect(int(refreshedClaims["tier"]) == 2)
        let firebase = refreshedClaims["firebase"] as? [String: Any]
        #expect(firebase?["sign_in_second_factor"] as? String == "totp")
        #expect(firebase?["second_factor_identifier"] as? String == "enrollment-9")

        _ = try await harness.api.call(AccountsUpdateRequest(idToken: signedUp.idToken, password: "new-secret"))
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(legacy) }
        await #expect(throws: server("INVALID_REFRESH_TOKEN")) { try await harness.refresh(SecureRandom.bytes(48).base64URLEncodedString()) }
    }

    /// A sign-in numbers its session in the account and writes no other row.
    @Test func aSignInWritesNoSessionRow() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let anonymous = try await harness.api.call(SignUpRequest())
        let signedUp = try await harness.signUp("yan@example.com")
        _ = try await harness.signIn("yan@example.com")
        let counts = try harness.backend.store.read { db in
            try Int.fetchAll(db, sql: "SELECT sessionCount FROM user WHERE localId IN (?, ?) ORDER BY localId = ?",
                             arguments: [anonymous.localId, signedUp.localId, signedUp.localId])
        }
        // The anonymous account's first session was number 0; the other's two were 1 and 2.
        #expect(counts == [1, 3])
        #expect(try harness.backend.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM refreshToken") } == 0)
        #expect(try await harness.refresh(anonymous.refreshToken).userId == anonymous.localId)
    }
}

private final class Flag: Sendable {
    private let raised = Mutex(false)
    var isRaised: Bool { raised.withLock { $0 } }
    func raise() { raised.withLock { $0 = true } }
}
