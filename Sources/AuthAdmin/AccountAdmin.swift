import Foundation
import IdentityToolkit

/// Firebase Auth administration for the operator, on any backend: the embedded one, `authdeck
/// serve`, the Firebase Auth Emulator or Google. Pages come from the backend; only the Firebase
/// Auth Emulator (and Google, for filters it lacks) is read whole and filtered here.
public struct AccountAdmin: Sendable {
    /// How much of `accounts:query` the backend understands.
    public enum Capability: Sendable, Equatable {
        /// The embedded backend and `authdeck serve`: every sort and AuthDeck's filters.
        case authdeck
        /// Google's Identity Toolkit: sorts and exact matches; other filters read every account.
        case google
        /// The Firebase Auth Emulator: no query but by uid; everything is read with `batchGet`.
        case firebaseEmulator
    }

    public let projectId: String
    /// The Identity Platform tenant whose accounts these are (`projects/{p}/tenants/{t}/accounts…`); nil for the project's own.
    public let tenantId: String?
    public let capability: Capability
    let backend: any IdentityBackend
    let clock: @Sendable () -> Date

    /// `backend` must send administrator requests with an administrator credential.
    public init(backend: any IdentityBackend, projectId: String, tenantId: String? = nil, capability: Capability,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.backend = backend
        self.projectId = projectId
        self.tenantId = tenantId
        self.capability = capability
        self.clock = clock
    }

    /// Asks the backend a query only AuthDeck answers (a sort by creation time): `authdeck serve`
    /// answers, the Firebase Auth Emulator refuses.
    public static func detectCapability(of backend: any IdentityBackend, projectId: String) async throws -> Capability {
        do {
            _ = try await backend.call(QueryAccountsRequest(projectId: projectId, limit: 1, sortBy: .createdAt,
                                                            authdeckFilter: .init(disabled: true)))
            return .authdeck
        } catch let IdentityToolkitError.server(status, _) where status == 400 || status == 501 || status == 404 {
            return .firebaseEmulator
        } catch {
            throw AuthAdminError.from(error)
        }
    }

    // MARK: Reading

    /// `limit` accounts from `offset` in `sort`, matching `filter`, and how many match in all.
    public func page(filter: AccountFilter, sort: AccountSort, offset: Int, limit: Int) async throws -> AccountPage {
        guard queriesBackend(for: filter) else { return try await rows(filter: filter, sort: sort, offset: offset, limit: limit) }
        async let total = count(matching: filter)
        var page = try await rows(filter: filter, sort: sort, offset: offset, limit: limit)
        page.totalCount = try await total
        return page
    }

    /// `limit` accounts from `offset` in `sort`, matching `filter`, without counting them where the
    /// backend counts apart (a count of most of a million accounts takes far longer than a page).
    public func rows(filter: AccountFilter, sort: AccountSort, offset: Int, limit: Int) async throws -> AccountPage {
        let limit = min(max(limit, 0), QueryAccountsRequest.maximumLimit)
        if queriesBackend(for: filter) {
            let page = try await call(QueryAccountsRequest(projectId: projectId, limit: limit, offset: offset,
                                                           sortBy: Self.wireSort(sort.field), order: sort.descending ? .descending : .ascending,
                                                           authdeckFilter: wireFilter(filter)))
            return AccountPage(users: page.userInfo?.map(UserRecord.init(wire:)) ?? [], offset: offset, totalCount: nil)
        }
        let all = try await matching(filter).sorted(by: sort.areInIncreasingOrder)
        let start = min(offset, all.count)
        return AccountPage(users: Array(all[start..<min(start + limit, all.count)]), offset: offset, totalCount: all.count)
    }

    /// How many accounts match `filter`.
    public func count(matching filter: AccountFilter) async throws -> Int {
        guard queriesBackend(for: filter) else { return try await matching(filter).count }
        return try await Int(call(QueryAccountsRequest(projectId: projectId, returnUserInfo: false, authdeckFilter: wireFilter(filter))).recordsCount ?? "") ?? 0
    }

    /// Whether the backend's `accounts:query` answers `filter`; otherwise every account is read here.
    private func queriesBackend(for filter: AccountFilter) -> Bool {
        capability == .authdeck || (capability == .google && filter.isEmpty)
    }

    private func matching(_ filter: AccountFilter) async throws -> [UserRecord] {
        let now = clock()
        return try await everyAccount().filter { filter.matches($0, now: now) }
    }

    /// The uids of every account that matches, in pages (for "mark all that match" and the clean-up).
    public func uids(matching filter: AccountFilter) async throws -> [String] {
        guard capability == .authdeck else { return try await matching(filter).map(\.uid) }
        var uids: [String] = []
        while true {
            let page = try await call(QueryAccountsRequest(projectId: projectId, limit: QueryAccountsRequest.maximumLimit, offset: uids.count,
                                                           sortBy: .userId, authdeckFilter: wireFilter(filter)))
            let found = page.userInfo?.map(\.localId) ?? []
            uids += found
            if found.count < QueryAccountsRequest.maximumLimit { return uids }
        }
    }

    public func user(uid: String) async throws -> UserRecord {
        guard let info = try await call(AdminLookupRequest(projectId: projectId, localId: [uid])).users?.first else {
            throw AuthAdminError.notFound(uid: uid)
        }
        return UserRecord(wire: info)
    }

    /// Every account in the export format (hash and salt included), `batchGet` page by page.
    public func exportPages(pageSize: Int = 1000) -> AsyncThrowingStream<[ExportedUser], any Error> {
        let pages = accountInfoPages(pageSize: pageSize)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await page in pages { continuation.yield(page.map(ExportedUser.init(wire:))) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func accountInfoPages(pageSize: Int = 1000) -> AsyncThrowingStream<[AccountInfo], any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var token: String?
                    repeat {
                        let page = try await call(BatchGetAccountsRequest(projectId: projectId, maxResults: pageSize, nextPageToken: token))
                        let users = page.users ?? []
                        if !users.isEmpty { continuation.yield(users) }
                        token = users.isEmpty ? nil : page.nextPageToken
                    } while token != nil
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func everyAccount() async throws -> [UserRecord] {
        var users: [UserRecord] = []
        for try await page in accountInfoPages() { users += page.map(UserRecord.init(wire:)) }
        return users
    }

    public func passwordHashParameters() async throws -> PasswordHashParameters {
        let config: ProjectConfig
        do {
            config = try await call(ProjectConfigRequest(projectId: projectId))
        } catch AuthAdminError.backend(404, _) where tenantId != nil {
            // A tenant hashes with parameters of its own, which a backend without its config cannot show.
            throw AuthAdminError.backend(status: 404, message: "this backend does not show a tenant's password-hash parameters")
        }
        guard let hash = config.signIn?.hashConfig, let key = hash.signerKey, let rounds = hash.rounds, let memoryCost = hash.memoryCost else {
            throw AuthAdminError.backend(status: 404, message: "the backend does not show its password-hash parameters")
        }
        return PasswordHashParameters(algorithm: hash.algorithm ?? "SCRYPT", signerKey: key, saltSeparator: hash.saltSeparator ?? "",
                                      rounds: rounds, memoryCost: memoryCost)
    }

    // MARK: Changing

    public func createUser(uid: String? = nil, email: String? = nil, password: String? = nil, phoneNumber: String? = nil,
                           displayName: String? = nil, emailVerified: Bool? = nil, disabled: Bool? = nil) async throws -> String {
        try await call(AdminCreateAccountRequest(projectId: projectId, localId: uid, email: email, password: password, displayName: displayName,
                                                 phoneNumber: phoneNumber, emailVerified: emailVerified, disabled: disabled)).localId
    }

    public func setDisabled(_ disabled: Bool, uid: String) async throws {
        _ = try await call(AdminUpdateRequest(projectId: projectId, localId: uid, disableUser: disabled))
    }

    public func setEmailVerified(uid: String) async throws {
        _ = try await call(AdminUpdateRequest(projectId: projectId, localId: uid, emailVerified: true))
    }

    /// Ends every session: refresh tokens and ID tokens issued before now stop working.
    public func revokeRefreshTokens(uid: String) async throws {
        let seconds = Int64(clock().timeIntervalSince1970.rounded(.down))
        _ = try await call(AdminUpdateRequest(projectId: projectId, localId: uid, validSince: String(seconds)))
    }

    /// Whether wrong passwords have locked `email`'s password sign-in, and until when; nil from a backend
    /// that keeps no lock-outs (only AuthDeck's do).
    public func passwordLockout(email: String) async throws -> PasswordLockout? {
        guard capability == .authdeck else { return nil }
        return PasswordLockout(try await call(QueryLockoutRequest(projectId: projectId, email: email)))
    }

    /// Lifts `email`'s lock-out and forgets its wrong passwords.
    public func clearPasswordLockout(email: String) async throws {
        guard capability == .authdeck else { throw Self.noLockouts }
        _ = try await call(ClearLockoutRequest(projectId: projectId, email: email))
    }

    /// Every address of the project locked now (an account's or not), soonest unlocked first; none
    /// from a backend that keeps no lock-outs.
    public func passwordLockouts() async throws -> [EmailLockout] {
        guard capability == .authdeck else { return [] }
        return try await call(ListLockoutsRequest(projectId: projectId)).lockouts.compactMap(EmailLockout.init)
    }

    /// Lifts the lock-outs of `emails` (nil: every one of the project), writes it to `audit` as
    /// `operator`, and answers the addresses lifted.
    public func clearPasswordLockouts(_ emails: [String]?, audit: AuditLog?, operator who: String) async throws -> [String] {
        guard capability == .authdeck else { throw Self.noLockouts }
        var cleared: [String] = []
        if let emails {
            for email in emails { cleared.append(try await call(ClearLockoutRequest(projectId: projectId, email: email)).email) }
        } else {
            cleared = try await call(ClearAllLockoutsRequest(projectId: projectId)).lockouts.map(\.email)
        }
        try await audit?.record(AuditEntry(date: Date(), operator: who, action: AccountAction.clearLockout.name, project: projectId,
                                           tenant: tenantId, uids: [], emails: cleared, failed: 0))
        return cleared
    }

    private static let noLockouts = AuthAdminError.backend(status: 501, message: "this backend keeps no lock-outs")

    /// Checks the claims (JSON object, 1000 bytes, no reserved name) and sets them; `{}` clears them.
    public func setCustomClaims(_ json: String, uid: String) async throws {
        let claims = try CustomClaims.validated(json)
        _ = try await call(AdminUpdateRequest(projectId: projectId, localId: uid, customAttributes: claims))
    }

    /// Removes one second factor and keeps the others as they are.
    public func removeSecondFactor(_ factorUid: String, uid: String) async throws {
        let user = try await user(uid: uid)
        let kept = user.multiFactor.filter { $0.uid != factorUid }
        guard kept.count < user.multiFactor.count else { throw AuthAdminError.notFound(uid: factorUid) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let enrollments = kept.map {
            AdminMfaEnrollment(mfaEnrollmentId: $0.uid, displayName: $0.displayName, phoneInfo: $0.phoneNumber,
                               enrolledAt: $0.enrollmentTime.map(formatter.string(from:)), totpInfo: $0.factorId == .totp ? .init() : nil)
        }
        _ = try await call(AdminUpdateRequest(projectId: projectId, localId: uid, mfa: .init(enrollments: enrollments)))
    }

    public func delete(uid: String) async throws {
        _ = try await call(AdminDeleteRequest(projectId: projectId, localId: uid))
    }

    /// Deletes in batches of 1000 (`batchDelete` with `force`); returns the uids that failed, with why.
    public func delete(uids: [String]) async throws -> [(uid: String, message: String)] {
        var failures: [(uid: String, message: String)] = []
        for start in stride(from: 0, to: uids.count, by: 1000) {
            let batch = Array(uids[start..<min(start + 1000, uids.count)])
            let answer = try await call(BatchDeleteAccountsRequest(projectId: projectId, localIds: batch, force: true))
            failures += (answer.errors ?? []).map { (batch[$0.index], $0.message) }
        }
        return failures
    }

    /// Sends a password-reset (`PASSWORD_RESET`) or verification (`VERIFY_EMAIL`) email to the account's address.
    public func sendEmail(_ kind: EmailKind, to email: String) async throws {
        _ = try await call(AdminSendOobCodeRequest(projectId: projectId, requestType: kind.rawValue, email: email))
    }

    public enum EmailKind: String, Sendable {
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
    }

    /// Imports up to 1000 users in one call; the backend reports refused users by index.
    func importBatch(_ users: [ExportedUser], hash: PasswordHashParameters?) async throws -> [(index: Int, message: String)] {
        let webSafe = { (text: String) in text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        let request = BatchCreateAccountsRequest(
            projectId: projectId, users: users.map(\.wire), hashAlgorithm: hash?.algorithm, signerKey: hash.map { webSafe($0.signerKey) },
            saltSeparator: hash.map { webSafe($0.saltSeparator) }, rounds: hash?.rounds, memoryCost: hash?.memoryCost)
        return try await call(request).error?.map { ($0.index, $0.message) } ?? []
    }

    // MARK: Wire

    /// An account request goes to the tenant's path when there is a tenant.
    private func call<R: AdministratorRequest>(_ request: R) async throws -> R.Response {
        guard let tenantId else { return try await send(request) }
        return try await send(TenantAdministratorRequest(request, tenantId: tenantId))
    }

    /// A lock-out request goes to the tenant's path too.
    private func call<R: EmulatorAdministratorRequest>(_ request: R) async throws -> R.Response {
        guard let tenantId else { return try await send(request) }
        return try await send(TenantEmulatorRequest(request, projectId: projectId, tenantId: tenantId))
    }

    private func call<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        try await send(request)
    }

    private func send<R: IdentityRequest>(_ request: R) async throws -> R.Response {
        do {
            return try await backend.call(request)
        } catch {
            throw AuthAdminError.from(error)
        }
    }

    private func wireFilter(_ filter: AccountFilter) -> QueryAccountsRequest.Filter? {
        guard capability == .authdeck, !filter.isEmpty else { return nil }
        let text = filter.trimmedText
        return QueryAccountsRequest.Filter(
            prefix: text.isEmpty ? nil : text, anonymous: filter.anonymous || filter.anonymousOlderThanDays != nil ? true : nil,
            disabled: filter.disabled ? true : nil, emailVerified: filter.emailUnverified ? false : nil,
            hasSecondFactor: filter.hasSecondFactor ? true : nil, providerId: filter.providerId,
            createdBefore: filter.createdBefore(now: clock()).map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded(.down))) },
            locked: filter.locked ? true : nil)
    }

    private static func wireSort(_ field: AccountSort.Field) -> QueryAccountsRequest.SortBy {
        switch field {
        case .createdAt: .createdAt
        case .lastSignIn: .lastLoginAt
        case .email: .userEmail
        case .uid: .userId
        case .name: .name
        }
    }
}

extension UserRecord {
    init(wire info: AccountInfo) {
        func milliseconds(_ text: String?) -> Date? { text.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } }
        let rfc3339 = ISO8601DateFormatter()
        rfc3339.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        self.init(
            uid: info.localId, email: info.email, emailVerified: info.emailVerified ?? false, displayName: info.displayName,
            photoURL: info.photoUrl, phoneNumber: info.phoneNumber, disabled: info.disabled ?? false,
            metadata: UserMetadata(creationTime: milliseconds(info.createdAt), lastSignInTime: milliseconds(info.lastLoginAt),
                                   lastRefreshTime: info.lastRefreshAt.flatMap(rfc3339.date(from:))),
            providerData: (info.providerUserInfo ?? []).map {
                UserInfo(providerId: $0.providerId, uid: $0.rawId, federatedId: $0.federatedId, email: $0.email,
                         displayName: $0.displayName, phoneNumber: $0.phoneNumber, photoURL: $0.photoUrl)
            },
            customClaims: info.customAttributes.flatMap { $0.isEmpty || $0 == "{}" ? nil : $0 },
            tokensValidAfterTime: info.validSince.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) },
            multiFactor: (info.mfaInfo ?? []).map {
                MultiFactorInfo(uid: $0.mfaEnrollmentId, factorId: $0.totpInfo != nil ? .totp : .phone, displayName: $0.displayName,
                                phoneNumber: $0.phoneInfo, enrollmentTime: $0.enrolledAt.flatMap(rfc3339.date(from:)))
            },
            hasPassword: info.passwordHash != nil)
    }
}
