import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// What clients see instead of the password hash (production's base64 of "REDACTED").
    static let redactedPasswordHash = "UkVEQUNURUQ="
    /// What production accepts in one administrator lookup (the Admin SDKs' `get_users` limit).
    static let maxLookupIdentifiers = 100

    /// `accounts:lookup`: the caller's own account by `idToken`, or — for administrators — by id, email or phone.
    func lookup(_ body: LookupBody, context: RequestContext) throws -> AccountsLookupResponse {
        if body.idToken != nil || !context.isAdmin {
            let claims = try verifiedClaims(idToken: body.idToken)
            let info = try store.read { db in
                let user = try verifySession(claims, in: db).user
                return try accountInfo(user, providers: user.providers(in: db), enrollments: user.enrollments(in: db), redacted: true)
            }
            return AccountsLookupResponse(users: [info])
        }
        let identifierCount = [body.localId?.count, body.email?.count, body.phoneNumber?.count, body.federatedUserId?.count]
            .reduce(0) { $0 + ($1 ?? 0) }
        guard identifierCount <= Self.maxLookupIdentifiers else {
            throw BackendFailure.invalidArgument("((at most \(Self.maxLookupIdentifiers) identifiers per lookup))")
        }
        let users = try store.read { db -> [AccountInfo] in
            var found: [String: StoredAccount] = [:]
            for localId in body.localId ?? [] {
                if let user = try StoredAccount.fetchOne(db, key: localId) { found[user.localId] = user }
            }
            for email in body.email ?? [] {
                if let normalized = EmailAddress.normalized(email), let user = try StoredAccount.find(email: normalized, in: db) {
                    found[user.localId] = user
                }
            }
            for phone in body.phoneNumber ?? [] {
                if let user = try StoredAccount.filter(StoredAccount.Columns.phoneNumber == phone).fetchOne(db) { found[user.localId] = user }
            }
            for federated in body.federatedUserId ?? [] {
                guard let providerId = federated.providerId, let rawId = federated.rawId,
                      let link = try ProviderRecord.filter(ProviderRecord.Columns.providerId == providerId && Column("rawId") == rawId).fetchOne(db),
                      let user = try StoredAccount.fetchOne(db, key: link.localId) else { continue }
                found[user.localId] = user
            }
            return try found.values.sorted { $0.localId < $1.localId }.map {
                try accountInfo($0, providers: $0.providers(in: db), enrollments: $0.enrollments(in: db), redacted: false)
            }
        }
        return AccountsLookupResponse(users: users.isEmpty ? nil : users)
    }

    /// The REST API's `UserInfo`: timestamps as strings in ms (validSince in seconds), hashes web-safe base64.
    func accountInfo(_ user: StoredAccount, providers: [ProviderRecord], enrollments: [MfaEnrollmentRecord] = [], redacted: Bool) -> AccountInfo {
        let lastRefresh = user.lastRefreshAt.map(Self.rfc3339(milliseconds:))
        return AccountInfo(
            localId: user.localId, email: user.email, emailVerified: user.email == nil ? nil : user.emailVerified,
            displayName: user.displayName, photoUrl: user.photoUrl, phoneNumber: user.phoneNumber,
            disabled: user.disabled ? true : nil,
            providerUserInfo: providers.isEmpty ? nil : providers.map(\.wire),
            passwordHash: user.passwordHash.map { redacted ? Self.redactedPasswordHash : $0.base64URLEncodedString() },
            salt: redacted ? nil : user.salt.map { $0.base64URLEncodedString() },
            passwordUpdatedAt: user.passwordUpdatedAt.map(Double.init), validSince: String(user.validSince),
            createdAt: String(user.createdAt), lastLoginAt: user.lastLoginAt.map(String.init), lastRefreshAt: lastRefresh,
            customAttributes: user.customAttributes,
            mfaInfo: enrollments.isEmpty ? nil : enrollments.map { $0.wire(maskingPhone: false) },
            emailLinkSignin: user.emailLinkSignin ? true : nil, initialEmail: user.initialEmail, tenantId: tenantId)
    }
}

extension ProviderRecord {
    var wire: ProviderUserInfo {
        ProviderUserInfo(providerId: providerId, rawId: rawId, federatedId: federatedId, email: email,
                         displayName: displayName, photoUrl: photoUrl, phoneNumber: phoneNumber)
    }
}
