import AuthAdmin
import Foundation
import TerminalUI

/// The accounts view's results: pages, counts, details and what the actions did.
extension AccountsFeature {
    mutating func handle(_ event: Event, in context: ConsoleContext) -> [FlowStep] {
        switch event {
        case let .pageLoaded(answered, result):
            // A page of a filter or sort since left: the newer one is on its way.
            guard answered.filter == filter, answered.sort == sort, answered.project == project, answered.tenant == tenant?.id,
                  answered.allProjects == allProjects else { return [] }
            if pending == answered { pending = nil }
            switch result {
            case let .success(newPage):
                let selectedUid = selectedUser?.uid
                page = newPage
                adopt(lockouts: newPage.lockouts)
                loadError = nil
                for (user, project) in zip(newPage.users, newPage.projects ?? []) { accountProjects[user.uid] = project }
                if let selectedUid, let index = newPage.users.firstIndex(where: { $0.uid == selectedUid }) {
                    selection = newPage.offset + index
                }
                var count: [FlowStep] = []
                // A backend read whole counts with the page; the others are asked once the rows show.
                if newPage.totalCount == nil, countedFilter != filter {
                    countedFilter = filter
                    count = [.run(.accounts(.countMatches(filter)), busy: nil)]
                }
                selection = max(0, min(selection, totalCount - 1))
                return followSelection() + count
            case let .failure(failure):
                loadError = failure.message
                return [.banner(Banner(.error, "The accounts could not be read.", detail: failure.message))]
            }
        case let .matchesCounted(counted, result):
            // The count of a filter since left: the newer filter's count follows its rows.
            guard counted == filter else { return [] }
            switch result {
            case let .success(total):
                matchCount = total
                selection = max(0, min(selection, total - 1))
                return followSelection()
            case let .failure(failure):
                countedFilter = nil
                return [.banner(Banner(.error, "The matching accounts could not be counted.", detail: failure.message))]
            }
        case let .lockoutsCleared(result):
            return lockoutsCleared(result)
        case .refreshDue:
            let reload = pending == nil ? refresh() : []
            return reload + [.run(.accounts(.scheduleRefresh), busy: nil)]
        case let .detailLoaded(uid, result):
            guard case var .detail(detail) = panel, detail.uid == uid else { return [] }
            switch result {
            case let .success(record):
                detail.record = record
                detail.factorSelection = min(detail.factorSelection, max(record.user.multiFactor.count - 1, 0))
                panel = .detail(detail)
                return []
            case let .failure(failure):
                panel = nil
                return [.banner(Banner(.error, "The account could not be read.", detail: failure.message))]
            }
        case let .actionFinished(result):
            switch result {
            case let .success(outcome):
                marked.subtract(outcome.succeeded)
                // The messages pane reads the console's own tenant's outbox (or the project's): a tenant chosen here has another.
                let outbox = tenant != nil && tenant?.id != context.tenant ? "the tenant's outbox (m in a console started with --tenant)" : "the outbox (m)"
                var steps: [FlowStep] = [.banner(Self.report(outcome, outbox: outbox))]
                if case let .detail(detail) = panel {
                    if outcome.action == .delete, outcome.succeeded.contains(detail.uid) {
                        panel = nil
                    } else {
                        steps.append(.run(.accounts(detailEffect(uid: detail.uid)), busy: nil))
                    }
                }
                return steps + refresh()
            case let .failure(failure):
                return [.banner(Banner(.error, "The action was not done.", detail: failure.message))]
            }
        case let .matchingFound(purpose, result):
            switch (purpose, result) {
            case let (.mark, .success(uids)):
                marked.formUnion(uids)
                return [.banner(Banner(.info, "Marked \(Self.count(uids.count)) that match; \(marked.count) marked in all."))]
            case let (.cleanUp(days), .success(uids)):
                guard !uids.isEmpty else {
                    panel = nil
                    return [.banner(Banner(.info, "No anonymous account is older than \(days) days."))]
                }
                panel = .confirm(AccountsConfirmation(action: .delete, uids: uids,
                                                      what: "\(uids.count) anonymous account\(uids.count == 1 ? "" : "s") created more than \(days) days ago",
                                                      returnTo: nil))
                return []
            case let (_, .failure(failure)):
                if case .cleanUp = panel { panel = nil }
                return [.banner(Banner(.error, "The matching accounts could not be read.", detail: failure.message))]
            }
        case let .hashConfigLoaded(result):
            switch result {
            case let .success(parameters):
                hashConfig = parameters
                return []
            case let .failure(failure):
                return [.banner(Banner(.error, "The password-hash parameters could not be read.", detail: failure.message))]
            }
        case let .projectsLoaded(result):
            guard case var .projects(list) = panel else { return [] }
            switch result {
            case let .success(projects):
                list.update { $0.projects = projects }
                panel = .projects(list)
                return []
            case let .failure(failure):
                list.update { $0.projects = [] }
                panel = .projects(list)
                return [.banner(Banner(.error, "The projects could not be read.", detail: failure.message))]
            }
        case let .tenantsLoaded(listing):
            guard case var .projects(list) = panel else { return [] }
            list.update { $0.tenants = listing }
            panel = .projects(list)
            return []
        case let .projectSelected(id, chosenTenant):
            project = id
            tenant = chosenTenant
            allProjects = false
            let named = chosenTenant.map { "Tenant \(ProjectsList.name(of: $0)) of project \(id)." } ?? "Project \(id)."
            return [.banner(Banner(.info, named, detail: nil))] + startOver()
        case let .auditLogLoaded(result):
            guard case let .auditLog(_, selection) = panel else { return [] }
            switch result {
            case let .success(entries):
                panel = .auditLog(entries: entries, selection: min(selection, max(entries.count - 1, 0)))
                return []
            case let .failure(failure):
                panel = .auditLog(entries: [], selection: 0)
                return [.banner(Banner(.error, "The audit log could not be read.", detail: failure.message))]
            }
        }
    }

    /// Every project's accounts in one table, read from the backend's own project.
    mutating func showAllProjects() -> [FlowStep] {
        project = nil
        tenant = nil
        allProjects = true
        return [.banner(Banner(.info, "All projects.", detail: nil))] + startOver()
    }

    /// Another project (or all): marks and counts were of the one left.
    private mutating func startOver() -> [FlowStep] {
        marked = []
        accountProjects = [:]
        lockouts = []
        countedFilter = nil
        matchCount = nil
        return reload()
    }

    /// The banner after an action: what was done to how many, and what failed.
    static func report(_ outcome: AccountActionOutcome, outbox: String = "the outbox (m)") -> Banner {
        let done = count(outcome.succeeded.count)
        var text: String = switch outcome.action {
        case .disable: "Disabled \(done)."
        case .enable: "Enabled \(done)."
        case .delete: "Deleted \(done)."
        case .revokeRefreshTokens: "Signed out \(done) everywhere."
        case .markEmailVerified: "Marked the email of \(done) verified."
        case .sendPasswordReset: "Sent a password-reset email to \(done); it is in \(outbox)."
        case .sendEmailVerification: "Sent a verification email to \(done); it is in \(outbox)."
        case .setCustomClaims: "Set the custom claims of \(done)."
        case .removeSecondFactor: "Removed the second factor of \(done)."
        case .clearLockout: "Cleared the password lock-out of \(done)."
        }
        text += " Written to the audit log."
        guard let (uid, reason) = outcome.failed.sorted(by: { $0.key < $1.key }).first else { return Banner(.success, text) }
        return Banner(.error, "\(text) Failed for \(count(outcome.failed.count)).", detail: "\(uid): \(reason)")
    }
}
