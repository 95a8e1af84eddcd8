import Crypto
import Foundation
import GRDB

// Refresh tokens issued before they carried their session: 48 random bytes, base64url, whose
// session is a row of `RefreshTokenRecord` found by the token's SHA-256.
extension RefreshTokenRecord {
    static let tokenLength = 64

    static func fetchOne(token: String, in db: Database) throws -> RefreshTokenRecord? {
        guard token.utf8.count == tokenLength else { return nil }
        return try fetchOne(db.cachedStatement(sql: "SELECT * FROM \(databaseTableName) WHERE tokenHash = ?"), arguments: [tokenHash(token)])
    }

    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexadecimal
    }

    /// Ends the legacy sessions of one account that started at or before `second` (`AccountSessions.revokeAll`).
    static func revokeAll(localId: String, startedUpTo second: Int64, in db: Database) throws {
        try RefreshTokenRecord.filter(Columns.localId == localId && Column("createdAt") <= second).updateAll(db, Columns.revoked.set(to: true))
    }

    /// The row's session; its seal and number mean nothing (a legacy session's revocation is its row's flag).
    var session: RefreshTokenSession {
        var claimed: SecondFactor?
        if let factor = secondFactor.flatMap(MfaEnrollmentRecord.Factor.init(rawValue:)), let secondFactorIdentifier {
            claimed = SecondFactor(factor: factor, mfaEnrollmentId: secondFactorIdentifier)
        }
        return RefreshTokenSession(localId: localId, seal: 0, number: 0, createdAt: createdAt, authTime: authTime, signInProvider: signInProvider,
                                   secondFactor: claimed, extraClaims: extraClaims)
    }
}
