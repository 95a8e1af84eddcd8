import Foundation
import GRDB
import IdentityToolkit

/// Why one user of an import was refused; the others are imported all the same.
private struct ImportRejection: Error {
    let message: String
}

extension EmbeddedBackend {
    static let maxImportBatch = 1000

    /// `projects/{projectId}/accounts:batchCreate` (the Admin SDK's `import_users`). Password hashes
    /// must be Firebase SCRYPT; they are stored with the parameters given in the request and
    /// re-hashed with this project's on each user's first successful sign-in. Problems with one
    /// user are reported in `error[]` by index; problems with the request refuse it whole.
    func batchCreate(_ body: BatchCreateBody) async throws -> UploadAccountResponse {
        guard let users = body.users, !users.isEmpty else { throw BackendFailure.missingUserAccount }
        guard users.count <= Self.maxImportBatch else {
            throw BackendFailure.invalidArgument("((at most \(Self.maxImportBatch) users per batchCreate))")
        }
        let hashParameters = try importHashParameters(body, needed: users.contains { $0.passwordHash != nil })
        let allowOverwrite = body.allowOverwrite == true
        if body.sanityCheck == true { try Self.checkImportSanity(users) }
        // Clear passwords are hashed before the write, which must not wait on scrypt.
        var rawPasswordHashes: [(hash: Data, salt: Data)?] = []
        for user in users {
            guard user.passwordHash == nil, let password = user.rawPassword, !password.isEmpty else {
                rawPasswordHashes.append(nil)
                continue
            }
            let salt = user.salt.flatMap(Data.init(base64URLEncoded:)) ?? SecureRandom.bytes(16)
            rawPasswordHashes.append((try await store.scrypt.hash(password: password, salt: salt), salt))
        }
        if !allowOverwrite {
            var seen = Set<String>()
            for user in users {
                let localId = user.localId ?? ""
                guard seen.insert(localId).inserted else { throw BackendFailure.duplicateLocalIdInRequest(localId) }
            }
        }

        let errors = try await store.write { db -> [BatchAccountError] in
            var errors: [BatchAccountError] = []
            for (index, imported) in users.enumerated() {
                do {
                    // A savepoint per user, so a refused user leaves nothing half-written.
                    try db.inSavepoint {
                        try importUser(imported, rawPasswordHash: rawPasswordHashes[index], hashParameters: hashParameters,
                                       allowOverwrite: allowOverwrite, in: db)
                        return .commit
                    }
                } catch let rejection as ImportRejection {
                    errors.append(BatchAccountError(index: index, message: rejection.message))
                }
            }
            return errors
        }
        if errors.count < users.count { logger.notice("accounts imported", metadata: ["count": "\(users.count - errors.count)"]) }
        return UploadAccountResponse(error: errors)
    }

    /// The scrypt parameters of the request, checked only when some user brings a hash.
    private func importHashParameters(_ body: BatchCreateBody, needed: Bool) throws -> ScryptParameters? {
        guard needed else { return nil }
        guard let algorithm = body.hashAlgorithm, !algorithm.isEmpty else {
            throw BackendFailure.invalidArgument("((hashAlgorithm is required to import password hashes))")
        }
        guard algorithm.uppercased() == "SCRYPT" else { throw BackendFailure.unsupportedHashAlgorithm(algorithm) }
        guard let key = body.signerKey.flatMap(Data.init(base64URLEncoded:)), !key.isEmpty else {
            throw BackendFailure.invalidArgument("((SCRYPT needs signerKey, the project's base64 signer key))")
        }
        let separator = try body.saltSeparator.map { text -> Data in
            guard let separator = Data(base64URLEncoded: text) else {
                throw BackendFailure.invalidArgument("((saltSeparator is not base64))")
            }
            return separator
        } ?? Data()
        guard let rounds = body.rounds, (1...8).contains(rounds) else {
            throw BackendFailure.invalidArgument("((SCRYPT rounds must be 1 to 8))")
        }
        guard let memoryCost = body.memoryCost, (1...14).contains(memoryCost) else {
            throw BackendFailure.invalidArgument("((SCRYPT memoryCost must be 1 to 14))")
        }
        return ScryptParameters(signerKey: key, saltSeparator: separator, rounds: rounds, memCost: memoryCost)
    }

    /// `sanityCheck`: an email (one account per email) or a provider identity twice in the request refuses it whole.
    private static func checkImportSanity(_ users: [ImportedUser]) throws {
        var emails = Set<String>()
        var identities = Set<String>()
        for user in users {
            if let email = user.email, !email.isEmpty, !emails.insert(email).inserted { throw BackendFailure.duplicateEmailInRequest(email) }
            for provider in user.providerUserInfo ?? [] {
                let (providerId, rawId) = (provider.providerId ?? "", provider.rawId ?? "")
                guard identities.insert(providerId + ":" + rawId).inserted else {
                    throw BackendFailure.duplicateRawIdInRequest(providerId: providerId, rawId: rawId)
                }
            }
        }
    }

    private func importUser(_ imported: ImportedUser, rawPasswordHash: (hash: Data, salt: Data)?, hashParameters: ScryptParameters?,
                            allowOverwrite: Bool, in db: Database) throws {
        guard let localId = imported.localId, !localId.isEmpty else { throw ImportRejection(message: "localId is missing") }
        guard localId.count <= StoredAccount.maximumLocalIdLength else { throw ImportRejection(message: "localId is longer than \(StoredAccount.maximumLocalIdLength) characters") }
        let email = try imported.email.map { raw -> String in
            guard let email = EmailAddress.normalized(raw) else { throw ImportRejection(message: "email is invalid") }
            return email
        }
        let secondFactors: [RequestedSecondFactor]
        do {
            secondFactors = try requestedSecondFactors(imported.mfaInfo ?? [], field: "users.mfa_info")
        } catch let failure as BackendFailure {
            throw ImportRejection(message: failure.message)
        }
        if !secondFactors.isEmpty {
            guard email != nil else { throw ImportRejection(message: "Second factor account requires email to be presented.") }
            guard imported.emailVerified == true else { throw ImportRejection(message: "Second factor account requires email to be verified.") }
        }
        let phone = try imported.phoneNumber.map { raw -> String in
            guard let phone = E164PhoneNumber.validated(raw) else { throw ImportRejection(message: "phone number format is invalid") }
            return phone
        }
        let customAttributes: String?
        do {
            customAttributes = try imported.customAttributes.flatMap(Self.validatedCustomAttributes)
        } catch let failure as BackendFailure {
            throw ImportRejection(message: Self.importClaimsMessage(failure))
        }
        let passwordHash = try imported.passwordHash.map { text -> Data in
            guard let hash = Data(base64URLEncoded: text), !hash.isEmpty else { throw ImportRejection(message: "passwordHash is not base64") }
            return hash
        } ?? rawPasswordHash?.hash
        let salt = try rawPasswordHash.map { $0.salt } ?? imported.salt.map { text -> Data in
            guard let salt = Data(base64URLEncoded: text) else { throw ImportRejection(message: "salt is not base64") }
            return salt
        }
        let providers = try (imported.providerUserInfo ?? []).compactMap { provider -> ProviderRecord? in
            // Password and phone links follow from the email, hash and phone number.
            if provider.providerId == "password" || provider.providerId == "phone" { return nil }
            guard let providerId = provider.providerId, !providerId.isEmpty, let rawId = provider.rawId, !rawId.isEmpty else {
                throw ImportRejection(message: "federatedId or (providerId & rawId) is required")
            }
            return ProviderRecord(localId: localId, providerId: providerId, rawId: rawId, federatedId: provider.federatedId,
                                  email: provider.email.flatMap(EmailAddress.normalized), displayName: provider.displayName,
                                  photoUrl: provider.photoUrl, phoneNumber: provider.phoneNumber)
        }
        // One link per provider: a second would break the store's key and fail the whole batch.
        var linkedProviderIds = Set<String>()
        for provider in providers where !linkedProviderIds.insert(provider.providerId).inserted {
            throw ImportRejection(message: "((\(provider.providerId) is linked more than once))")
        }

        if try StoredAccount.exists(db, key: localId) {
            guard allowOverwrite else { throw ImportRejection(message: "localId belongs to an existing account - can not overwrite.") }
            _ = try StoredAccount.deleteOne(db, key: localId)
            try AccountSessions.endAll(ofDeleted: localId, in: db)
        }
        if let email, try StoredAccount.find(email: email, in: db) != nil {
            throw ImportRejection(message: "email exists in other account in database")
        }
        if let phone, try StoredAccount.filter(StoredAccount.Columns.phoneNumber == phone).fetchOne(db) != nil {
            throw ImportRejection(message: "phone number exists in other account in database")
        }
        for provider in providers {
            let linked = ProviderRecord.filter(ProviderRecord.Columns.providerId == provider.providerId && Column("rawId") == provider.rawId)
            if try linked.fetchCount(db) > 0 { throw ImportRejection(message: "raw id exists in other account in database") }
        }

        let now = nowMilliseconds
        let user = StoredAccount(
            localId: localId, email: email, emailVerified: imported.emailVerified ?? false,
            displayName: imported.displayName.flatMap { $0.isEmpty ? nil : $0 }, photoUrl: imported.photoUrl.flatMap { $0.isEmpty ? nil : $0 },
            phoneNumber: phone, passwordHash: passwordHash, salt: passwordHash.map { _ in salt ?? Data() },
            passwordUpdatedAt: passwordHash.map { _ in now }, disabled: imported.disabled ?? false,
            customAttributes: customAttributes, validSince: nowSeconds,
            createdAt: imported.createdAt?.value ?? now, lastLoginAt: imported.lastLoginAt?.value, sessionSeal: StoredAccount.newSessionSeal())
        try user.insert(db)
        if let email, passwordHash != nil { try ProviderRecord.password(localId: localId, email: email).insert(db) }
        if let phone { try Self.phoneProvider(localId: localId, phoneNumber: phone).insert(db) }
        for provider in providers { try provider.insert(db) }
        do {
            try replaceSecondFactors(of: localId, with: secondFactors, in: db)
        } catch let failure as BackendFailure {
            throw ImportRejection(message: failure.message)
        }
        if rawPasswordHash == nil, let passwordHash, let hashParameters, !hashParameters.isSame(as: store.scrypt) {
            try ImportedPasswordHashRecord(localId: localId, passwordHash: passwordHash, parameters: hashParameters).insert(db)
        }
    }

    /// The wording production uses for claims problems inside an import.
    private static func importClaimsMessage(_ failure: BackendFailure) -> String {
        switch failure {
        case .claimsTooLarge: "Custom claims provided are too large."
        case .invalidClaims: "Invalid custom claims provided."
        default: "Custom claims provided include a reserved claim."
        }
    }
}
