import AuthAdmin
import Foundation

extension EffectRunner {
    /// The accounts view's work, on the `AccountAdmin` (the backend's admin API) and the cart store.
    func perform(_ effect: AccountsFeature.Effect) async -> AccountsFeature.Event? {
        guard let accounts else {
            return Self.refused(effect)
        }
        switch effect {
        case let .loadPage(query):
            return .pageLoaded(query, await adminResult {
                if query.allProjects {
                    return try await accounts.accountAdmin(in: nil).rowsInEveryProject(filter: query.filter, sort: query.sort, offset: query.offset, limit: query.limit)
                }
                return try await accounts.accountAdmin(in: query.project, tenant: query.tenant).rowsAndLockouts(filter: query.filter, sort: query.sort, offset: query.offset, limit: query.limit)
            })
        case let .countMatches(filter):
            return .matchesCounted(filter, await adminResult { try await accounts.accountAdmin().count(matching: filter) })
        case let .loadDetail(uid, project):
            return .detailLoaded(uid: uid, await adminResult {
                let admin = try await accounts.accountAdmin(orChosen: project)
                let user = try await admin.user(uid: uid)
                var lockout: PasswordLockout?
                if let email = user.email { lockout = try await admin.passwordLockout(email: email) }
                return AccountDetailRecord(user: user, cart: try await self.cart.items(of: uid), lockout: lockout)
            })
        case let .perform(action, uids, projects):
            guard accounts.access == .full else { return .actionFinished(.failure(AccountsFailure("read-only: no action is allowed"))) }
            return .actionFinished(await adminResult {
                var outcome = AccountActionOutcome(action: action, succeeded: [], failed: [:])
                // Each account's own project does the action; nil groups those of the chosen project.
                let groups = Dictionary(grouping: uids) { projects[$0] }
                for project in groups.keys.sorted(by: { ($0 ?? "") < ($1 ?? "") }) {
                    let admin = try await accounts.accountAdmin(orChosen: project)
                    let done = try await admin.perform(action, on: groups[project] ?? [], audit: accounts.audit, operator: accounts.operatorName)
                    outcome.succeeded += done.succeeded
                    outcome.failed.merge(done.failed) { first, _ in first }
                }
                // A deleted account's app data goes with it, as when its owner deletes it.
                if action == .delete { for uid in outcome.succeeded { try await self.cart.removeAll(of: uid) } }
                return outcome
            })
        case let .findMatching(filter, purpose):
            return .matchingFound(purpose, await adminResult { try await accounts.accountAdmin().uids(matching: filter) })
        case .loadHashConfig:
            return .hashConfigLoaded(await adminResult { try await accounts.accountAdmin().passwordHashParameters() })
        case .loadAuditLog:
            return .auditLogLoaded(await adminResult {
                guard let audit = accounts.audit else { return [] }
                return try await audit.entries()
            })
        case .loadProjects:
            // The project's own count, in a console given a tenant too.
            return .projectsLoaded(await adminResult { try await accounts.accountAdmin(in: nil).inTenant(nil).projects() })
        case .loadTenants:
            do {
                return .tenantsLoaded(try await accounts.accountAdmin(in: nil).tenants())
            } catch {
                return .tenantsLoaded(TenantListing(projectId: "", tenants: [], unavailable: String(describing: error)))
            }
        case let .selectProject(id, tenant):
            await accounts.select(project: id, tenant: tenant?.id)
            return .projectSelected(id, tenant: tenant)
        case .scheduleRefresh:
            let send = send
            let interval = accountsRefreshInterval
            let timer = Task {
                do { try await Task.sleep(for: interval) } catch { return }
                send(.feature(AccountsFeature.Event.refreshDue))
            }
            refreshTimer.withLock { previous in
                previous?.cancel()
                previous = timer
            }
            return nil
        case let .clearLockouts(lockouts, all):
            guard accounts.access == .full else { return .lockoutsCleared(.failure(AccountsFailure("read-only: no action is allowed"))) }
            return .lockoutsCleared(await adminResult {
                let groups = Dictionary(grouping: lockouts, by: \.project)
                var cleared = 0
                for project in groups.keys.sorted(by: { ($0 ?? "") < ($1 ?? "") }) {
                    let admin = try await accounts.accountAdmin(orChosen: project)
                    let emails = all ? nil : groups[project]?.map(\.email)
                    cleared += try await admin.clearPasswordLockouts(emails, audit: accounts.audit, operator: accounts.operatorName).count
                }
                return cleared
            })
        }
    }

    /// A console without the admin API answers every accounts effect with a refusal.
    private static func refused(_ effect: AccountsFeature.Effect) -> AccountsFeature.Event? {
        let failure = AccountsFailure("this console has no access to the accounts")
        switch effect {
        case let .loadPage(query): return .pageLoaded(query, .failure(failure))
        case let .countMatches(filter): return .matchesCounted(filter, .failure(failure))
        case let .loadDetail(uid, _): return .detailLoaded(uid: uid, .failure(failure))
        case .perform: return .actionFinished(.failure(failure))
        case let .findMatching(_, purpose): return .matchingFound(purpose, .failure(failure))
        case .loadHashConfig: return .hashConfigLoaded(.failure(failure))
        case .loadAuditLog: return .auditLogLoaded(.failure(failure))
        case .loadProjects: return .projectsLoaded(.failure(failure))
        case .loadTenants: return .tenantsLoaded(TenantListing(projectId: "", tenants: [], unavailable: failure.message))
        case .selectProject: return nil
        case .scheduleRefresh: return nil
        case .clearLockouts: return .lockoutsCleared(.failure(failure))
        }
    }

    private func adminResult<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, AccountsFailure> {
        do {
            return .success(try await body())
        } catch {
            return .failure(AccountsFailure(String(describing: error)))
        }
    }
}
