@testable import AuthDeckApp
import AuthAdmin
import Foundation
import Testing
import TerminalUI

/// The accounts view's tenants: `P` lists the console's project's tenants under it, choosing one scopes
/// the table and every action to it, the project's own row leads back, and a refusal to list them is a
/// line of the list. An operator picks one from the sign-in screen the same way.
@Suite("Accounts view tenants")
struct AccountsTenantsFlowTests {
    typealias F = AccountsFixtures

    static let own = ProjectSummary(id: "authdeck-local", accounts: 3000, owner: nil)
    static let visitor = ProjectSummary(id: "visitor-0123456789abcdef", accounts: 2, owner: nil)
    static let teamA = TenantSummary(id: "Zx81Qm0aTeamAlphaTenant00001", displayName: "Team A", accounts: 2)
    static let teamB = TenantSummary(id: "team-b-4k2j9", displayName: nil, accounts: nil)
    static let listing = TenantListing(projectId: "authdeck-local", tenants: [teamA, teamB])

    /// The view of 3,000 accounts with `P`'s list read: the projects, and the tenants as `tenants` answers.
    static func listed(_ tenants: TenantListing) -> FlowStore {
        var store = FlowStore(F.opened(total: 3000))
        store.send(.key(.character("P")), effects: [.accounts(.loadProjects), .accounts(.loadTenants)]) {
            $0.accounts { $0.panel = .projects(ProjectsList()) }
        }
        #expect(render(store.model).contains("reading…"))
        let projects = [own, visitor]
        store.send(.feature(AccountsFeature.Event.projectsLoaded(.success(projects)))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects)) }
        }
        // The projects are choosable before the tenants are read; the line that stands for them, last, is passed over.
        #expect(render(store.model).contains("tenants: reading…"))
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 1, moved: true)) } }
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 2, moved: true)) } }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, selection: 1, moved: true)) } }
        // The tenants arrive under the project: the row selected stays selected.
        store.send(.feature(AccountsFeature.Event.tenantsLoaded(tenants))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: tenants, selection: 1, moved: true)) }
        }
        return store
    }

    @Test func aTenantIsChosenItsAccountsAndActionsAreItsAndTheProjectsRowLeadsBack() {
        var store = Self.listed(Self.listing)
        let projects = [Self.own, Self.visitor]
        let lines = render(store.model).components(separatedBy: "\n")
        // Ids whole at 80 columns: the column widens to a tenant's 28 characters, indented under its project.
        #expect(lines.contains { $0.contains("authdeck-local                 3,000 accounts the backend's own") })
        #expect(lines.contains { $0.contains("  Zx81Qm0aTeamAlphaTenant00001 2 accounts     tenant Team A") })
        #expect(lines.contains { $0.contains("  team-b-4k2j9                 —              tenant (no name)") })
        #expect(lines.contains { $0.contains("visitor-0123456789abcdef       2 accounts     the backend's own") })
        // A long display name keeps its row whole: the indent says it is a tenant.
        var long = store.model
        let europe = TenantSummary(id: "Zx81Qm0aTeamAlphaTenant00001", displayName: "Customers in Europe (test)", accounts: 0)
        long.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: TenantListing(projectId: "authdeck-local", tenants: [europe]))) }
        #expect(render(long).contains("  Zx81Qm0aTeamAlphaTenant00001 0 accounts     Customers in Europe (test)"))
        #expect(store.model.bindings.contains { $0.keys == [.enter] && $0.help == "show this project" })

        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: Self.listing, selection: 2, moved: true)) } }
        #expect(store.model.bindings.contains { $0.keys == [.enter] && $0.help == "show this tenant" })
        store.send(.key(.enter), effects: [.accounts(.selectProject("authdeck-local", tenant: Self.teamA))]) { $0.accounts { $0.panel = nil } }
        let query = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100, project: "authdeck-local", tenant: Self.teamA.id)
        store.send(.feature(AccountsFeature.Event.projectSelected("authdeck-local", tenant: Self.teamA)), effects: [.accounts(.loadPage(query))]) {
            $0.banner = Banner(.info, "Tenant Zx81Qm0aTeamAlphaTenant00001 (Team A) of project authdeck-local.", detail: nil)
            $0.accounts {
                $0.project = "authdeck-local"
                $0.tenant = Self.teamA
                $0.page = nil
                $0.pending = query
            }
        }
        // A page of the project's own accounts, asked before, is not taken for the tenant's.
        let projectsOwn = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: 100, project: "authdeck-local")
        store.send(.feature(AccountsFeature.Event.pageLoaded(projectsOwn, .success(F.page(0..<100, total: 3000)))))
        store.send(.feature(AccountsFeature.Event.pageLoaded(query, .success(F.page(0..<2, total: 2))))) {
            $0.accounts {
                $0.page = F.page(0..<2, total: 2)
                $0.pending = nil
            }
        }
        // The title bar names the tenant as its people know it, the header by its id whole: the sort gives way at 80 columns.
        let screen = render(store.model).components(separatedBy: "\n")
        #expect(screen[0].hasPrefix(" AuthDeck · Accounts of tenant Team A "))
        #expect(screen[2].trimmingCharacters(in: .whitespaces) == "2 accounts in all · no filter · tenant Zx81Qm0aTeamAlphaTenant00001")
        #expect(render(store.model, size: Size(width: 100, height: 24)).contains("tenant Zx81Qm0aTeamAlphaTenant00001 · sort: created ↓"))

        // The lock-outs are the tenant's.
        var lockouts = store.model
        lockouts.accounts { $0.panel = .lockouts(LockoutList(rows: [])) }
        #expect(render(lockouts).contains("Lock-outs in tenant Team A: addresses locked by wrong passwords"))

        // An action goes where the view's calls go: the connection holds the tenant, so no project is named per account.
        store.send(.key(.character("e")), effects: [.accounts(.perform(.enable, uids: ["u0000"]))]) {
            $0.banner = nil
            $0.busy = "Enable: 1 account…"
        }
        let outcome = AccountActionOutcome(action: .enable, succeeded: ["u0000"], failed: [:])
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(outcome))), effects: [.accounts(.loadPage(query))]) {
            $0.busy = nil
            $0.banner = Banner(.success, "Enabled 1 account. Written to the audit log.")
            $0.accounts { $0.pending = query }
        }

        // The messages pane reads the console's own outbox: the banner says where a tenant's email is.
        let sent = AccountActionOutcome(action: .sendPasswordReset, succeeded: ["u0000"], failed: [:])
        store.send(.feature(AccountsFeature.Event.actionFinished(.success(sent))), effects: [.accounts(.loadPage(query))]) {
            $0.banner = Banner(.success, "Sent a password-reset email to 1 account; it is in the tenant's outbox (m in a console started with --tenant). "
                               + "Written to the audit log.")
        }

        // Back to the project's own accounts: its row in the same list, above the tenant's, where the selection starts.
        let shown = Self.teamA.id
        store.send(.key(.character("P")), effects: [.accounts(.loadProjects), .accounts(.loadTenants)]) {
            $0.banner = nil
            $0.accounts { $0.panel = .projects(ProjectsList(shownTenant: shown)) }
        }
        store.send(.feature(AccountsFeature.Event.projectsLoaded(.success(projects)))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, shownTenant: shown)) }
        }
        store.send(.feature(AccountsFeature.Event.tenantsLoaded(Self.listing))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: Self.listing, selection: 2, shownTenant: shown)) }
        }
        store.send(.key(.up)) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: Self.listing, selection: 1, shownTenant: shown, moved: true)) }
        }
        store.send(.key(.enter), effects: [.accounts(.selectProject("authdeck-local"))]) { $0.accounts { $0.panel = nil } }
        store.send(.feature(AccountsFeature.Event.projectSelected("authdeck-local")), effects: [.accounts(.loadPage(projectsOwn))]) {
            $0.banner = Banner(.info, "Project authdeck-local.", detail: nil)
            $0.accounts {
                $0.tenant = nil
                $0.page = nil
                $0.pending = projectsOwn
            }
        }
        // The tenant's page, late, is not taken for the project's.
        store.send(.feature(AccountsFeature.Event.pageLoaded(query, .success(F.page(0..<2, total: 2)))))
    }

    @Test func aRefusalToListTenantsIsALineOfTheListAndTheProjectsStayChoosable() {
        let refused = TenantListing(projectId: "authdeck-local", tenants: [],
                                    unavailable: "INSUFFICIENT_PERMISSION")
        var store = Self.listed(refused)
        let projects = [Self.own, Self.visitor]
        #expect(render(store.model).contains("    tenants not listed: INSUFFICIENT_PERMISSION"))
        // Down skips the line; it is not a row to choose.
        store.send(.key(.down)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: refused, selection: 3, moved: true)) } }
        store.send(.key(.down))
        store.send(.key(.up)) { $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: refused, selection: 1, moved: true)) } }
        // Were the selection on the line, enter would choose nothing, and a move leaves it for a row.
        var onNote = ProjectsList(projects: projects, tenants: refused, selection: 2)
        var feature = AccountsFeature()
        #expect(feature.performInProjects(.choose, list: onNote) == [])
        onNote.move(by: 1)
        #expect(onNote.selection == 3)

        // A project without tenants says so.
        let none = TenantListing(projectId: "authdeck-local", tenants: [])
        store.send(.feature(AccountsFeature.Event.tenantsLoaded(none))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: projects, tenants: none, selection: 1, moved: true)) }
        }
        #expect(render(store.model).contains("    no tenants"))
    }

    @Test func anOperatorPicksATenantFromTheSignInScreenAndAVisitorCannot() {
        var store = FlowStore(F.console())
        #expect(store.model.bindings.contains { $0.keys == [.character("P")] && $0.help == "projects and tenants" })
        store.send(.key(.character("P")), effects: [.accounts(.loadPage(F.firstQuery)), .accounts(.scheduleRefresh),
                                                    .accounts(.loadProjects), .accounts(.loadTenants)]) {
            var feature = AccountsFeature()
            feature.pending = F.firstQuery
            feature.panel = .projects(ProjectsList())
            $0.screen = .accounts(feature)
        }
        // esc leaves the list for the console's own accounts.
        store.send(.key(.escape)) { $0.accounts { $0.panel = nil } }
        #expect(render(store.model).contains("reading… · no filter · sort"))

        var visitor = FlowStore(F.console(nil))
        #expect(!visitor.model.bindings.contains { $0.keys.contains(.character("P")) })
        visitor.send(.key(.character("P")))
    }

    @Test func aConsoleGivenATenantNamesItInTheHeaderUntilAnotherIsChosen() {
        var model = F.opened(total: 2)
        model.tenant = "team-a-4k2j9"
        #expect(render(model).contains("2 accounts in all · no filter · tenant team-a-4k2j9 · sort"))
        // P starts on the console's tenant, once the tenants are read.
        var store = FlowStore(model)
        let shown = "team-a-4k2j9"
        store.send(.key(.character("P")), effects: [.accounts(.loadProjects), .accounts(.loadTenants)]) {
            $0.accounts { $0.panel = .projects(ProjectsList(shownTenant: shown)) }
        }
        let tenants = TenantListing(projectId: "authdeck-local", tenants: [TenantSummary(id: "team-a-4k2j9", accounts: 2)])
        store.send(.feature(AccountsFeature.Event.tenantsLoaded(tenants))) {
            $0.accounts { $0.panel = .projects(ProjectsList(tenants: tenants, shownTenant: shown)) }
        }
        store.send(.feature(AccountsFeature.Event.projectsLoaded(.success([Self.own])))) {
            $0.accounts { $0.panel = .projects(ProjectsList(projects: [Self.own], tenants: tenants, selection: 2, shownTenant: shown)) }
        }
        model.accounts { $0.project = "authdeck-local" }
        #expect(render(model).contains("2 accounts in all · no filter · project authdeck-local · sort"))
    }
}
