import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `projects/{projectId}/accounts`: an administrator creates a user. Unlike `accounts:signUp`
    /// from an app, it may choose the uid, set verified/disabled/phone, and it returns no tokens.
    func createAccount(_ body: CreateAccountBody) throws -> SignUpResponse {
        let secondFactors = try requestedSecondFactors(body.mfaInfo ?? [], field: "mfa_info")
        let email = try body.email.map { raw -> String in
            guard let email = EmailAddress.normalized(raw) else { throw BackendFailure.invalidEmail }
            return email
        }
        let phone = try body.phoneNumber.map { raw -> String in
            guard let phone = E164PhoneNumber.validated(raw) else { throw BackendFailure.malformedPhoneNumber }
            return phone
        }
        let password = try body.password.map { password -> (hash: Data, salt: Data) in
            try checkPasswordStrength(password)
            let salt = SecureRandom.bytes(16)
            return (try store.scrypt.hash(password: password, salt: salt), salt)
        }
        let localId = body.localId.flatMap { $0.isEmpty ? nil : $0 } ?? SecureRandom.localId()

        let user = try store.write { db in
            guard try UserRecord.fetchOne(db, key: localId) == nil else { throw BackendFailure.duplicateLocalId }
            if let email, try UserRecord.find(email: email, in: db) != nil { throw BackendFailure.emailExists }
            if let phone, try UserRecord.filter(UserRecord.Columns.phoneNumber == phone).fetchOne(db) != nil {
                throw BackendFailure.phoneNumberTaken
            }
            let user = UserRecord(
                localId: localId, email: email, emailVerified: body.emailVerified ?? false,
                displayName: body.displayName.flatMap { $0.isEmpty ? nil : $0 }, photoUrl: body.photoUrl.flatMap { $0.isEmpty ? nil : $0 },
                phoneNumber: phone, passwordHash: password?.hash, salt: password?.salt,
                passwordUpdatedAt: password.map { _ in nowMilliseconds }, disabled: body.disabled ?? false,
                validSince: nowSeconds, createdAt: nowMilliseconds)
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
    func batchGet(query: [URLQueryItem], body: Data) throws -> DownloadAccountResponse {
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
            var request = UserRecord.order(UserRecord.Columns.localId)
            if let pageToken, !pageToken.isEmpty { request = request.filter(UserRecord.Columns.localId > pageToken) }
            if limit >= 0 { request = request.limit(limit) }
            let users = try request.fetchAll(db)
            let localIds = users.map(\.localId)
            let providerRequest = ProviderRecord.order(ProviderRecord.Columns.providerId)
            let providers = try (limit >= 0 ? providerRequest.filter(localIds.contains(ProviderRecord.Columns.localId)) : providerRequest)
                .fetchAll(db)
            let providersByUser = Dictionary(grouping: providers, by: \.localId)
            // Second factors travel with the export, so that batchCreate can bring them back.
            let enrollmentRequest = MfaEnrollmentRecord.order(MfaEnrollmentRecord.Columns.enrolledAt)
            let enrollments = try (limit >= 0 ? enrollmentRequest.filter(localIds.contains(MfaEnrollmentRecord.Columns.localId)) : enrollmentRequest)
                .fetchAll(db)
            let enrollmentsByUser = Dictionary(grouping: enrollments, by: \.localId)
            let next = limit >= 0 && users.count >= limit ? users.last?.localId : nil
            return DownloadAccountResponse(
                users: users.map {
                    accountInfo($0, providers: providersByUser[$0.localId] ?? [], enrollments: enrollmentsByUser[$0.localId] ?? [], redacted: false)
                },
                nextPageToken: next)
        }
    }

    /// `projects/{projectId}/accounts:batchDelete`: enabled accounts stay unless `force` is set
    /// (`NOT_DISABLED`); ids that do not exist count as deleted.
    func batchDelete(_ body: BatchDeleteBody) throws -> BatchDeleteAccountsResponse {
        guard let localIds = body.localIds, (1...1000).contains(localIds.count) else { throw BackendFailure.localIdListExceedsLimit }
        let errors = try store.write { db -> [BatchAccountError] in
            var errors: [BatchAccountError] = []
            for (index, localId) in localIds.enumerated() {
                guard let user = try UserRecord.fetchOne(db, key: localId) else { continue }
                guard user.disabled || body.force == true else {
                    errors.append(BatchAccountError(index: index, localId: localId, message: "NOT_DISABLED : Disable the account before batch deletion."))
                    continue
                }
                try user.delete(db)
                try RefreshTokenRecord.revokeAll(localId: localId, in: db)
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
