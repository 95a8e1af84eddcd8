import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `projects/{projectId}/accounts`: an administrator creates a user. Unlike `accounts:signUp`
    /// from an app, it may choose the uid, set verified/disabled/phone, and it returns no tokens.
    func createAccount(_ body: CreateAccountBody) async throws -> SignUpResponse {
        // The Admin SDKs refuse a longer uid before they call; a refresh token carries it whole.
        guard (body.localId?.count ?? 0) <= StoredAccount.maximumLocalIdLength else { throw BackendFailure.localIdTooLong }
        let secondFactors = try newSecondFactors(body.mfaInfo ?? [])
        let email = try body.email.map { raw -> String in
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            return email
        }
        let phone = try body.phoneNumber.map { raw -> String in
            guard let phone = E164PhoneNumber.validated(raw) else { throw BackendFailure.malformedPhoneNumber }
            return phone
        }
        var password: (hash: Data, salt: Data)?
        if let clear = body.password {
            try checkPasswordStrength(clear)
            let salt = SecureRandom.bytes(16)
            password = (try await store.scrypt.hash(password: clear, salt: salt), salt)
        }
        let localId = body.localId.flatMap { $0.isEmpty ? nil : $0 } ?? SecureRandom.localId()

        let user = try await store.write { db in
            guard try StoredAccount.fetchOne(db, key: localId) == nil else { throw BackendFailure.duplicateLocalId }
            if let email, try StoredAccount.find(email: email, in: db) != nil { throw BackendFailure.emailExists }
            if let phone, try StoredAccount.filter(StoredAccount.Columns.phoneNumber == phone).fetchOne(db) != nil {
                throw BackendFailure.phoneNumberTaken
            }
            let user = StoredAccount(
                localId: localId, email: email, emailVerified: body.emailVerified ?? false,
                displayName: body.displayName.flatMap { $0.isEmpty ? nil : $0 }, photoUrl: body.photoUrl.flatMap { $0.isEmpty ? nil : $0 },
                phoneNumber: phone, passwordHash: password?.hash, salt: password?.salt,
                passwordUpdatedAt: password.map { _ in nowMilliseconds }, disabled: body.disabled ?? false,
                validSince: nowSeconds, createdAt: nowMilliseconds, sessionSeal: StoredAccount.newSessionSeal())
            try user.insert(db)
            if let email, password != nil { try ProviderRecord.password(localId: localId, email: email).insert(db) }
            if let phone { try Self.phoneProvider(localId: localId, phoneNumber: phone).insert(db) }
            try replaceSecondFactors(of: localId, with: secondFactors, in: db)
            return user
        }
        return SignUpResponse(localId: user.localId, email: user.email, displayName: user.displayName)
    }

    /// `projects/{projectId}/accounts:batchGet`: users in ascending `localId` order after `nextPageToken`.
    /// `maxResults` defaults to 20 and is capped at 1000; a negative value returns every user (as the emulator does).
    /// The answer is `DownloadAccountResponse` as JSON, written as the rows are read: decoding
    /// records and encoding `AccountInfo`s would take most of the time of exporting 100,000 accounts.
    func batchGet(query: [URLQueryItem], body: Data) throws -> Data {
        struct PagingBody: Decodable {
            var maxResults: Int64Text?
            var nextPageToken: String?
        }
        let posted = try decode(PagingBody.self, body)
        let pageToken = query.first { $0.name == "nextPageToken" }?.value ?? posted.nextPageToken
        var maxResults = posted.maxResults.map { Int(clamping: $0.value) } ?? 0
        if let text = query.first(where: { $0.name == "maxResults" })?.value {
            guard let parsed = Int(text) else { throw BackendFailure.invalidArgument("Invalid value at 'max_results' (TYPE_INT32), \"\(text)\"") }
            maxResults = parsed
        }
        let limit = maxResults == 0 ? 20 : min(maxResults, 1000)

        return try store.read { db in
            // The page's localIds, as a subquery: its providers and second factors in one query each.
            var range = ""
            var arguments: StatementArguments = []
            if let pageToken, !pageToken.isEmpty {
                range += " WHERE localId > ?"
                arguments = [pageToken]
            }
            range += " ORDER BY localId"
            if limit >= 0 { range += " LIMIT \(limit)" }
            let page = "SELECT localId FROM \(StoredAccount.databaseTableName)\(range)"
            let providers = try ProviderRecord.fetchAll(
                db, sql: "SELECT * FROM \(ProviderRecord.databaseTableName) WHERE localId IN (\(page)) ORDER BY providerId", arguments: arguments)
            let providersByUser = Dictionary(grouping: providers, by: \.localId)
            // Second factors travel with the export, so that batchCreate can bring them back.
            let enrollments = try MfaEnrollmentRecord.fetchAll(
                db, sql: "SELECT * FROM \(MfaEnrollmentRecord.databaseTableName) WHERE localId IN (\(page)) ORDER BY enrolledAt", arguments: arguments)
            let enrollmentsByUser = Dictionary(grouping: enrollments, by: \.localId)

            var json = JSONWriter(capacity: 1024 + 400 * max(limit, 0))
            json.beginObject()
            json.field("kind", "identitytoolkit#DownloadAccountResponse")
            json.key("users")
            json.beginArray()
            var count = 0, last: String?
            let users = try Row.fetchCursor(db, sql: """
                SELECT localId, email, emailVerified, displayName, photoUrl, phoneNumber, disabled, passwordHash, salt,
                       passwordUpdatedAt, validSince, createdAt, lastLoginAt, lastRefreshAt, customAttributes,
                       emailLinkSignin, initialEmail
                FROM \(StoredAccount.databaseTableName)\(range)
                """, arguments: arguments)
            while let row = try users.next() {
                let localId: String = row[0]
                try writeAccount(row, localId: localId, providers: providersByUser[localId] ?? [],
                                 enrollments: enrollmentsByUser[localId] ?? [], to: &json)
                count += 1
                last = localId
            }
            json.endArray()
            if limit >= 0, count >= limit { json.field("nextPageToken", last) }
            json.endObject()
            return Data(json.bytes)
        }
    }

    /// One user as `accountInfo(_:providers:enrollments:redacted: false)` describes it; `row` holds
    /// the columns `batchGet` selects, in its order.
    private func writeAccount(_ row: Row, localId: String, providers: [ProviderRecord], enrollments: [MfaEnrollmentRecord],
                              to json: inout JSONWriter) throws {
        json.beginObject()
        json.field("localId", localId)
        if let email: String = row[1] {
            json.field("email", email)
            json.field("emailVerified", row[2] as Bool)
        }
        json.field("displayName", row[3] as String?)
        json.field("photoUrl", row[4] as String?)
        json.field("phoneNumber", row[5] as String?)
        if row[6] as Bool { json.field("disabled", true) }
        if !providers.isEmpty {
            json.key("providerUserInfo")
            json.beginArray()
            for provider in providers {
                json.beginObject()
                json.field("providerId", provider.providerId)
                json.field("rawId", provider.rawId)
                json.field("federatedId", provider.federatedId)
                json.field("email", provider.email)
                json.field("displayName", provider.displayName)
                json.field("photoUrl", provider.photoUrl)
                json.field("phoneNumber", provider.phoneNumber)
                json.endObject()
            }
            json.endArray()
        }
        if let hash: Data = row[7] { json.field("passwordHash", hash.base64URLEncodedString()) }
        if let salt: Data = row[8] { json.field("salt", salt.base64URLEncodedString()) }
        if let updated: Int64 = row[9] { json.field("passwordUpdatedAt", updated) }
        json.field("validSince", String(row[10] as Int64))
        json.field("createdAt", String(row[11] as Int64))
        json.field("lastLoginAt", (row[12] as Int64?).map(String.init))
        json.field("lastRefreshAt", (row[13] as Int64?).map(Self.rfc3339(milliseconds:)))
        json.field("customAttributes", row[14] as String?)
        if row[15] as Bool { json.field("emailLinkSignin", true) }
        json.field("initialEmail", row[16] as String?)
        if !enrollments.isEmpty {
            json.key("mfaInfo")
            json.raw(try encode(enrollments.map { $0.wire(maskingPhone: false) }))
        }
        json.field("tenantId", tenantId)
        json.endObject()
    }

    /// `projects/{projectId}/accounts:batchDelete`: enabled accounts stay unless `force` is set
    /// (`NOT_DISABLED`); ids that do not exist count as deleted.
    func batchDelete(_ body: BatchDeleteBody) async throws -> BatchDeleteAccountsResponse {
        guard let localIds = body.localIds, (1...1000).contains(localIds.count) else { throw BackendFailure.localIdListExceedsLimit }
        let errors = try await store.write { db -> [BatchAccountError] in
            var errors: [BatchAccountError] = []
            for (index, localId) in localIds.enumerated() {
                guard let user = try StoredAccount.fetchOne(db, key: localId) else { continue }
                guard user.disabled || body.force == true else {
                    errors.append(BatchAccountError(index: index, localId: localId, message: "NOT_DISABLED : Disable the account before batch deletion."))
                    continue
                }
                try user.delete(db)
                try AccountSessions.endAll(ofDeleted: localId, in: db)
            }
            return errors
        }
        return BatchDeleteAccountsResponse(errors: errors.isEmpty ? nil : errors)
    }

    /// The phone provider row as Firebase shows it: the number is the rawId.
    static func phoneProvider(localId: String, phoneNumber: String) -> ProviderRecord {
        ProviderRecord(localId: localId, providerId: "phone", rawId: phoneNumber, phoneNumber: phoneNumber)
    }
}
