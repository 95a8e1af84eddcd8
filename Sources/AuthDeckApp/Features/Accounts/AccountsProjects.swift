import AuthAdmin
import Foundation
import TerminalUI

/// The `P` list: every project's accounts in one table, the backend's projects, and under the
/// console's project its Identity Platform tenants, each chosen with enter; the project's own row
/// leads back from a tenant. A project whose tenants may not be listed says so in a line of its own.
public struct ProjectsList: Equatable, Sendable {
    public enum Row: Equatable, Sendable {
        case allProjects
        case project(ProjectSummary)
        case tenant(TenantSummary, project: String)
        /// What stands for a project's tenants when there are none to choose: read, none, or refused.
        case note(String)

        var isChoosable: Bool {
            switch self {
            case .allProjects, .project, .tenant: true
            case .note: false
            }
        }
    }

    /// Nil while they are read.
    public var projects: [ProjectSummary]?
    /// Nil while they are read.
    public var tenants: TenantListing?
    public var selection = 0
    /// The tenant the table shows, where the selection goes once its row is read, so that an operator in
    /// a tenant sees where they are; nil: it starts on "All projects", as it always has.
    public var shownTenant: String?
    /// Once the operator moves, rows read later keep their choice instead of going to the tenant shown.
    public var moved = false

    public init(projects: [ProjectSummary]? = nil, tenants: TenantListing? = nil, selection: Int = 0, shownTenant: String? = nil,
                moved: Bool = false) {
        self.projects = projects
        self.tenants = tenants
        self.selection = selection
        self.shownTenant = shownTenant
        self.moved = moved
    }

    /// "All projects", then each project, the tenants under theirs (or the line that stands for them).
    var rows: [Row] {
        guard let projects else { return [.allProjects] }
        var rows: [Row] = [.allProjects]
        var placed = false
        for project in projects {
            rows.append(.project(project))
            if project.id == tenants?.projectId {
                rows += tenantRows
                placed = true
            }
        }
        // Tenants of a project the listing left out (the projects could not be read), or still read.
        return placed ? rows : rows + tenantRows
    }

    private var tenantRows: [Row] {
        guard let tenants else { return [.note("tenants: reading…")] }
        if let reason = tenants.unavailable { return [.note("tenants not listed: \(reason)")] }
        if tenants.tenants.isEmpty { return [.note("no tenants")] }
        return tenants.tenants.map { .tenant($0, project: tenants.projectId) }
    }

    var selected: Row? {
        let rows = rows
        return rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// Up or down to the next row that can be chosen; none further: where it is.
    mutating func move(by step: Int) {
        let rows = rows
        var index = selection + step
        while rows.indices.contains(index) {
            if rows[index].isChoosable {
                selection = index
                moved = true
                return
            }
            index += step
        }
    }

    /// A change to what is listed keeps the row selected, wherever it moves to; until the operator
    /// moves, the selection goes to the tenant shown as soon as its row is read.
    mutating func update(_ change: (inout ProjectsList) -> Void) {
        let kept = selected
        change(&self)
        let rows = rows
        if !moved, let index = rows.firstIndex(where: isShown) {
            selection = index
            return
        }
        selection = kept.flatMap { kept in rows.firstIndex { Self.sameRow($0, kept) } } ?? min(selection, rows.count - 1)
    }

    private func isShown(_ row: Row) -> Bool {
        guard case let .tenant(tenant, _) = row else { return false }
        return tenant.id == shownTenant
    }

    /// The same project or tenant, whatever its count now.
    private static func sameRow(_ a: Row, _ b: Row) -> Bool {
        switch (a, b) {
        case (.allProjects, .allProjects): true
        case let (.project(x), .project(y)): x.id == y.id
        case let (.tenant(x, xProject), .tenant(y, yProject)): x.id == y.id && xProject == yProject
        case let (.note(x), .note(y)): x == y
        case (.allProjects, _), (.project, _), (.tenant, _), (.note, _): false
        }
    }

    /// A tenant as the header and banners name it: its id, and its display name after it.
    static func name(of tenant: TenantSummary) -> String {
        tenant.displayName.map { "\(tenant.id) (\($0))" } ?? tenant.id
    }

    func bindings() -> [KeyBinding<KeyIntent<AccountsFeature.Action>>] {
        var keys: [KeyBinding<KeyIntent<AccountsFeature.Action>>] = [.moveUp(), .moveDown()]
        switch selected {
        case .allProjects: keys.append(KeyBinding([.enter], "enter", "show every project", .choose))
        case .project: keys.append(KeyBinding([.enter], "enter", "show this project", .choose))
        case .tenant: keys.append(KeyBinding([.enter], "enter", "show this tenant", .choose))
        case .note, nil: break
        }
        return keys + [.back(), .help]
    }
}

extension AccountsFeature {
    /// `P`: the list, read afresh: the projects, then the tenants (a refusal of those leaves the projects).
    /// `consoleTenant`: the tenant of a console given one, shown until another is chosen.
    mutating func openProjectsList(consoleTenant: String?) -> [FlowStep] {
        let shown = allProjects ? nil : tenant?.id ?? (project == nil ? consoleTenant : nil)
        panel = .projects(ProjectsList(shownTenant: shown))
        return [.banner(nil), .run(.accounts(.loadProjects), busy: nil), .run(.accounts(.loadTenants), busy: nil)]
    }

    mutating func performInProjects(_ action: Action, list: ProjectsList) -> [FlowStep] {
        var list = list
        switch action {
        case .up: list.move(by: -1)
        case .down: list.move(by: 1)
        case .back:
            panel = nil
            return []
        case .choose:
            switch list.selected {
            case .allProjects:
                panel = nil
                return showAllProjects()
            case let .project(project):
                panel = nil
                return [.run(.accounts(.selectProject(project.id)), busy: nil)]
            case let .tenant(tenant, project):
                panel = nil
                return [.run(.accounts(.selectProject(project, tenant: tenant)), busy: nil)]
            case .note, nil:
                return []
            }
        case .submit, .confirm, .cancel, .toggle, .command:
            return []
        }
        panel = .projects(list)
        return []
    }
}

extension AccountsScreen {
    /// The backend's projects: its own first, then each visitor's with their name, when they were last
    /// there, their address and key (or none); the console's project's tenants under it, indented, with
    /// their display names. At 80 columns ids stay whole and what gives way is the key, then the address.
    static func drawProjects(_ list: ProjectsList, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        canvas.put(TextWidth.truncate("Projects: this backend's own and its visitors', and their tenants", toCells: frame.width - 2),
                   row: frame.row, column: column, style: .title)
        guard let projects = list.projects else {
            canvas.put("reading…", row: frame.row + 2, column: column, style: .dim)
            return
        }
        let rows = frame.height - 4
        let top = (list.selection / max(rows, 1)) * max(rows, 1)
        let tenants = list.tenants?.tenants ?? []
        // Ids whole: a tenant's (indented by two) or a project's longer than the usual column widens it.
        let idWidth = min(max(24, projects.map { TextWidth.cells($0.id) }.max() ?? 0, (tenants.map { TextWidth.cells($0.id) }.max() ?? 0) + 2),
                          frame.width / 2)
        // The names make a column as wide as the longest, up to a room name's usual length.
        let nameWidth = min(projects.compactMap { $0.owner.map { TextWidth.cells($0.name ?? "—") } }.max() ?? 0, 12)
        // After the id and the count, less the selection mark and the list's scroll marks.
        let whoRoom = frame.width - 5 - (idWidth + 16)
        let items = list.rows.map { row -> ListView.Item in
            let text: String
            switch row {
            case .allProjects:
                text = "All projects (every project's accounts in one table)"
            case let .project(project):
                let count = project.unavailable == nil ? AccountsFeature.count(project.accounts) : "unavailable"
                text = "\(TextWidth.pad(project.id, toCells: idWidth)) \(TextWidth.pad(count, toCells: 14)) \(who(project, nameWidth: nameWidth, room: whoRoom))"
            case let .tenant(tenant, _):
                let count = tenant.accounts.map(AccountsFeature.count) ?? "—"
                let id = "  " + TextWidth.truncate(tenant.id, toCells: idWidth - 2)
                // "tenant" where it leaves the name whole; the indent under the project says it too.
                let name = tenant.displayName ?? "(no name)"
                let label = TextWidth.cells("tenant " + name) <= whoRoom ? "tenant " + name : name
                text = "\(TextWidth.pad(id, toCells: idWidth)) \(TextWidth.pad(count, toCells: 14)) \(label)"
            case let .note(note):
                return ListView.Item(TextWidth.truncate("  " + note, toCells: frame.width - 4), isDim: true)
            }
            return ListView.Item(TextWidth.truncate(text, toCells: frame.width - 2))
        }.dropFirst(top).prefix(rows)
        ListView(items: Array(items), selection: list.selection - top)
            .draw(on: canvas, in: Rect(row: frame.row + 2, column: column, width: frame.width - 2, height: rows), focused: true)
    }

    /// Whose project it is: the backend's own, or a visitor's name, presence, address and key as they fit.
    private static func who(_ project: ProjectSummary, nameWidth: Int, room: Int) -> String {
        guard let owner = project.owner else { return "the backend's own" }
        var who = TextWidth.pad(TextWidth.truncate(owner.name ?? "—", toCells: nameWidth), toCells: nameWidth) + " "
            + (owner.leftAt.map { "left " + ConsoleView.dateText($0).dropFirst(5).prefix(11) } ?? "connected")
        // The address and the key where they fit whole: half an address would read as another.
        let parts = [owner.address ?? "", owner.key.map { String($0.prefix(11)) + "…" } ?? "no key"]
        for part in parts where TextWidth.cells(who) + 1 + TextWidth.cells(part) <= room { who += " " + part }
        return who
    }
}
