import Foundation
import GRDB

/// What an account keeps of its sessions, in columns of the user table: `sessionSeal` (StoredAccount's,
/// set once per account instance), `sessionCount` (sessions numbered so far) and `sessionCuts`
/// (revocations). Only these statements write the last two: StoredAccount leaves them out, so that the
/// `update` of a record read earlier in the same transaction cannot undo a revocation.
enum AccountSessions {
    static let migrationName = "sessions carried by their refresh tokens"

    static func migrate(_ db: Database) throws {
        try db.alter(table: StoredAccount.databaseTableName) { t in
            t.add(column: "sessionSeal", .integer).notNull().defaults(to: 0)
            // A new account's first session is number 0: an anonymous sign-up makes it before its insert.
            t.add(column: "sessionCount", .integer).notNull().defaults(to: 1)
            t.add(column: "sessionCuts", .blob)
        }
        // Any distinct values do: a seal is compared, never guessed at (the token's MAC covers it).
        try db.execute(sql: "UPDATE \(StoredAccount.databaseTableName) SET sessionSeal = random()")
    }

    /// Numbers a new session of `localId` and records the sign-in as a refresh (`lastRefreshAt`, as
    /// Firebase counts it), in one statement; the session's number and the account's seal.
    static func start(localId: String, at milliseconds: Int64, in db: Database) throws -> (number: Int64, seal: Int64) {
        let sql = """
            UPDATE \(StoredAccount.databaseTableName) SET sessionCount = sessionCount + 1, lastRefreshAt = ? WHERE localId = ?
            RETURNING sessionCount - 1, sessionSeal
            """
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [milliseconds, localId]) else {
            throw BackendFailure.userNotFound
        }
        return (row[0], row[1])
    }

    /// Ends every session of the account started so far (password or email change, disable, delete), or
    /// those of them that started at or before `second` (an administrator's `validSince`). A session
    /// started later, in the same transaction too, is not touched.
    static func revokeAll(localId: String, startedUpTo second: Int64 = .max, in db: Database) throws {
        try RefreshTokenRecord.revokeAll(localId: localId, startedUpTo: second, in: db)
        let select = "SELECT sessionCount, sessionCuts FROM \(StoredAccount.databaseTableName) WHERE localId = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: select), arguments: [localId]) else { return }
        var cuts = SessionCuts(row[1] as Data?)
        cuts.add(SessionCuts.Cut(below: row[0], upTo: second))
        try db.cachedStatement(sql: "UPDATE \(StoredAccount.databaseTableName) SET sessionCuts = ? WHERE localId = ?")
            .execute(arguments: [cuts.data, localId])
    }

    /// The sessions of an account deleted: its seal went with its row, so its tokens are refused (as
    /// unknown, or as revoked by an account made again under its localId); legacy rows are revoked.
    static func endAll(ofDeleted localId: String, in db: Database) throws {
        try RefreshTokenRecord.revokeAll(localId: localId, startedUpTo: .max, in: db)
    }

    /// Whether the account ended `session`: a seal of another instance, or a cut that covers it.
    static func revoked(_ session: RefreshTokenSession, of user: StoredAccount, cuts: SessionCuts) -> Bool {
        session.seal != user.sessionSeal || cuts.covers(number: session.number, createdAt: session.createdAt)
    }
}

/// An account's revocations: each ends the sessions numbered below `below` that started at or before
/// `upTo`. A session is revoked when any cut covers it, so a later cut never brings one back.
struct SessionCuts: Equatable {
    struct Cut: Equatable {
        var below: Int64
        /// Seconds since 1970; `Int64.max` for every session so far.
        var upTo: Int64
    }

    private(set) var cuts: [Cut] = []

    /// Pairs of big-endian Int64s; nil is none. Damaged bytes cut every session: a revocation must not be lost.
    init(_ data: Data?) {
        guard let data else { return }
        guard data.count % 16 == 0 else {
            cuts = [Cut(below: .max, upTo: .max)]
            return
        }
        let bytes = [UInt8](data)
        cuts = stride(from: 0, to: bytes.count, by: 16).map { offset in
            Cut(below: Int64(bigEndianBytes: bytes[offset..<offset + 8]), upTo: Int64(bigEndianBytes: bytes[offset + 8..<offset + 16]))
        }
    }

    var data: Data? {
        guard !cuts.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for cut in cuts {
            bytes.appendBigEndian(cut.below)
            bytes.appendBigEndian(cut.upTo)
        }
        return Data(bytes)
    }

    func covers(number: Int64, createdAt: Int64) -> Bool {
        cuts.contains { number < $0.below && createdAt <= $0.upTo }
    }

    /// Cuts come with `below` never smaller than before (sessions are only ever added), so a new cut
    /// covers every earlier one that reaches no later second; the rest stay. An account's list stays as
    /// short as the times an administrator moved `validSince` back in between sign-ins.
    mutating func add(_ cut: Cut) {
        if cuts.contains(where: { $0.below >= cut.below && $0.upTo >= cut.upTo }) { return }
        cuts.removeAll { $0.below <= cut.below && $0.upTo <= cut.upTo }
        cuts.append(cut)
    }
}
