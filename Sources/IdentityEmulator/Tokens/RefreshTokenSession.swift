import Crypto
import Foundation

/// A session carried by its refresh token, which is MAC'd with a key derived from the signing key:
/// a sign-in writes no row of its own. A table of sessions cost each sign-up a row and two index
/// entries under random keys, about a tenth of its CPU time. What a session needs from the
/// database, whether it was revoked, lives on its account (`AccountSessions`).
struct RefreshTokenSession: Equatable {
    var localId: String
    /// The `sessionSeal` of the account instance: an account deleted and made again under the same
    /// localId has another, so the old instance's tokens stay revoked.
    var seal: Int64
    /// The account's `sessionCount` when the session started; revocations name sessions by it.
    var number: Int64
    /// Seconds since 1970.
    var createdAt: Int64
    /// Seconds since 1970 of the sign-in that started the session; kept across refreshes.
    var authTime: Int64
    var signInProvider: String
    var secondFactor: SecondFactor?
    /// The developer claims of a custom token (a JSON object), in every ID token of the session.
    var extraClaims: String?
    /// The tenant whose database holds the account; nil for the project's own. Written in the token
    /// (and MAC'd with it), since the token endpoint's body names no tenant: it is how the server finds the database.
    var tenantId: String?
}

extension RefreshTokenSession {
    private static let version: UInt8 = 1
    /// 128 bits of HMAC-SHA256.
    static let macLength = 16
    private static let hasSecondFactor: UInt8 = 1
    private static let hasExtraClaims: UInt8 = 2
    private static let hasTenant: UInt8 = 4

    /// The token: base64url of the fields and their MAC. The project is MAC'd too (not written), so that
    /// a token of one data directory's project is nobody's in another.
    func token(projectId: String, key: SymmetricKey) -> String {
        var bytes: [UInt8] = [Self.version, (secondFactor == nil ? 0 : Self.hasSecondFactor) | (extraClaims == nil ? 0 : Self.hasExtraClaims)
                                | (tenantId == nil ? 0 : Self.hasTenant)]
        for value in [seal, number, createdAt, authTime] { bytes.appendBigEndian(value) }
        var strings = [localId, signInProvider]
        if let secondFactor { strings += [secondFactor.factor.rawValue, secondFactor.mfaEnrollmentId] }
        if let extraClaims { strings.append(extraClaims) }
        if let tenantId { strings.append(tenantId) }
        for string in strings { Self.append(string, to: &bytes) }
        bytes += Self.mac(of: bytes, projectId: projectId, key: key)
        return Base64URL.encode(bytes)
    }

    /// The session of a token this project issued; nil for anything else (a legacy token, a forged or
    /// damaged one, junk). Nothing is read from the bytes before their MAC is checked.
    init?(token: String, projectId: String, key: SymmetricKey) {
        guard token.utf8.count <= 8192, let data = Data(base64URLEncoded: token), data.count > 2 + 32 + Self.macLength else { return nil }
        let bytes = [UInt8](data)
        // One spelling per token (Foundation's decoder also takes padding and `+`/`/`): the token answered is the one issued.
        guard Base64URL.encode(bytes) == token else { return nil }
        let fields = bytes.dropLast(Self.macLength)
        let expected = Self.mac(of: fields, projectId: projectId, key: key)
        // In constant time: how many leading bytes of a guess were right must not show in the answer's timing.
        guard zip(expected, bytes.suffix(Self.macLength)).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }

        var reader = Reader(bytes: fields)
        guard reader.byte() == Self.version, let flags = reader.byte(), flags & ~(Self.hasSecondFactor | Self.hasExtraClaims | Self.hasTenant) == 0,
              let seal = reader.int64(), let number = reader.int64(), let createdAt = reader.int64(), let authTime = reader.int64(),
              let localId = reader.string(), let signInProvider = reader.string() else { return nil }
        var secondFactor: SecondFactor?
        if flags & Self.hasSecondFactor != 0 {
            guard let kind = reader.string(), let factor = MfaEnrollmentRecord.Factor(rawValue: kind), let enrollmentId = reader.string() else {
                return nil
            }
            secondFactor = SecondFactor(factor: factor, mfaEnrollmentId: enrollmentId)
        }
        var extraClaims: String?
        if flags & Self.hasExtraClaims != 0 {
            guard let claims = reader.string() else { return nil }
            extraClaims = claims
        }
        var tenantId: String?
        if flags & Self.hasTenant != 0 {
            guard let tenant = reader.string() else { return nil }
            tenantId = tenant
        }
        guard reader.isAtEnd else { return nil }
        self.init(localId: localId, seal: seal, number: number, createdAt: createdAt, authTime: authTime,
                  signInProvider: signInProvider, secondFactor: secondFactor, extraClaims: extraClaims, tenantId: tenantId)
    }

    private static func mac(of fields: some Collection<UInt8>, projectId: String, key: SymmetricKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Array(projectId.utf8) + [0])
        hmac.update(data: Array(fields))
        return Array(hmac.finalize().prefix(macLength))
    }

    /// A length (two bytes, big-endian) and the UTF-8.
    private static func append(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8.prefix(Int(UInt16.max)))
        bytes += [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)]
        bytes += utf8
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var offset: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        var isAtEnd: Bool { offset == bytes.endIndex }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard bytes.endIndex - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func byte() -> UInt8? { take(1)?.first }

        mutating func int64() -> Int64? { take(8).map(Int64.init(bigEndianBytes:)) }

        mutating func string() -> String? {
            guard let length = take(2), let utf8 = take(Int(length.first!) << 8 | Int(length.last!)) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}

/// A session's refresh token, made inside the transaction that started the session and sealed once it
/// has committed (as `UnsignedIdToken`): the key is the signing key's, which a new data directory may
/// still be making, and a transaction must not wait for it.
struct UnsealedRefreshToken {
    let session: RefreshTokenSession
    fileprivate let projectId: String
    fileprivate let signer: TokenSigner

    func sealed() throws -> String { session.token(projectId: projectId, key: try signer.refreshTokenKey) }
}

extension EmbeddedBackend {
    func unsealedRefreshToken(for session: RefreshTokenSession) -> UnsealedRefreshToken {
        var session = session
        session.tenantId = tenantId
        return UnsealedRefreshToken(session: session, projectId: projectId, signer: signer)
    }
}
