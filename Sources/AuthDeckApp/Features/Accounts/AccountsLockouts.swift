import AuthAdmin
import Foundation
import TerminalUI

/// The lock-outs panel (`K`): every address wrong passwords have locked in the project shown (or in
/// every project), whether an account has it or not; `u` lifts one, `U` all of them after a yes.
public struct LockoutList: Equatable, Sendable {
    /// Soonest unlocked first, as the backend lists them; read again with every page of the table.
    public var rows: [EmailLockout]
    public var selection = 0
    /// `U` waits for the operator's yes.
    public var confirmingAll = false

    public init(rows: [EmailLockout], selection: Int = 0, confirmingAll: Bool = false) {
        self.rows = rows
        self.selection = selection
        self.confirmingAll = confirmingAll
    }

    var selected: EmailLockout? { rows.indices.contains(selection) ? rows[selection] : nil }

    func bindings(access: OperatorAccess?) -> [KeyBinding<KeyIntent<AccountsFeature.Action>>] {
        if confirmingAll {
            return [KeyBinding([.enter, .character("y")], "y", "yes, clear them all", .confirm),
                    KeyBinding([.escape, .character("n")], "esc/n", "cancel", .cancel)]
        }
        var keys: [KeyBinding<KeyIntent<AccountsFeature.Action>>] = [.moveUp(), .moveDown()]
        if access == .full, !rows.isEmpty {
            keys += [.char("u", "clear this lock-out", .command(.clearLockout)), .char("U", "clear all", .command(.clearAllLockouts))]
        }
        return keys + [.back(), .help]
    }
}

extension AccountsFeature {
    /// Whether the row's email is locked out, in the row's own project when every project is shown.
    func isLocked(_ user: UserRecord, at index: Int) -> Bool {
        guard let email = user.email?.lowercased() else { return false }
        let project = project(at: index)
        return lockouts.contains { $0.email.lowercased() == email && (!allProjects || $0.project == project) }
    }

    /// `K`: the list as the last page read it, and the table read again so it is fresh.
    mutating func openLockouts() -> [FlowStep] {
        panel = .lockouts(LockoutList(rows: lockouts))
        return [.banner(nil)] + refresh()
    }

    /// The lock-outs read with a page: the table's marks, and the panel's rows when it is open.
    mutating func adopt(lockouts newLockouts: [EmailLockout]) {
        lockouts = newLockouts
        guard case var .lockouts(list) = panel else { return }
        let kept = list.selected
        list.rows = newLockouts
        list.selection = kept.flatMap { kept in newLockouts.firstIndex { $0.email == kept.email && $0.project == kept.project } }
            ?? max(0, min(list.selection, newLockouts.count - 1))
        panel = .lockouts(list)
    }

    mutating func performInLockouts(_ action: Action, list: LockoutList, access: OperatorAccess?) -> [FlowStep] {
        var list = list
        if list.confirmingAll {
            switch action {
            case .confirm, .choose:
                list.confirmingAll = false
                panel = .lockouts(list)
                return [.banner(nil), .run(.accounts(.clearLockouts(list.rows, all: true)), busy: "Clearing \(Self.lockoutCount(list.rows.count))…")]
            case .cancel, .back:
                list.confirmingAll = false
                panel = .lockouts(list)
                return [.banner(Banner(.info, "Nothing was done."))]
            case .up, .down, .submit, .toggle, .command:
                return []
            }
        }
        switch action {
        case .up: list.selection = max(list.selection - 1, 0)
        case .down: list.selection = min(list.selection + 1, max(list.rows.count - 1, 0))
        case .back, .cancel:
            panel = nil
            return [.banner(nil)]
        case .command(.clearLockout):
            guard access == .full, let lockout = list.selected else { return [] }
            return [.banner(nil), .run(.accounts(.clearLockouts([lockout], all: false)), busy: "Clearing the lock-out of \(lockout.email)…")]
        case .command(.clearAllLockouts):
            guard access == .full, !list.rows.isEmpty else { return [] }
            list.confirmingAll = true
        case .choose, .submit, .confirm, .toggle, .command:
            return []
        }
        panel = .lockouts(list)
        return []
    }

    mutating func lockoutsCleared(_ result: Result<Int, AccountsFailure>) -> [FlowStep] {
        switch result {
        case let .success(count):
            return [.banner(Banner(.success, "Cleared \(Self.lockoutCount(count)). Written to the audit log."))] + refresh()
        case let .failure(failure):
            return [.banner(Banner(.error, "The lock-outs were not cleared.", detail: failure.message))]
        }
    }

    static func lockoutCount(_ n: Int) -> String { n == 1 ? "1 password lock-out" : "\(n) password lock-outs" }

    /// Where the listed lock-outs are, in the confirmation's words.
    var lockoutsScope: String {
        if allProjects { return "every project" }
        if let tenant { return "tenant \(tenant.displayName ?? tenant.id)" }
        return project.map { "project \($0)" } ?? "this project"
    }
}

extension AccountsScreen {
    static func drawLockouts(_ list: LockoutList, of feature: AccountsFeature, on canvas: any Canvas, in frame: Rect) {
        let column = frame.column + 1
        let width = frame.width - 2
        canvas.put(TextWidth.truncate("Lock-outs in \(feature.lockoutsScope): addresses locked by wrong passwords", toCells: width),
                   row: frame.row, column: column, style: .title)
        canvas.put(TextWidth.truncate("An address with no account is locked the same way; it shows here only.", toCells: width),
                   row: frame.row + 1, column: column, style: .dim)
        let projectWidth = feature.allProjects ? 16 : 0
        let emailWidth = max(16, width - 2 - 15 - 16 - projectWidth)
        func cell(_ text: String, _ cells: Int) -> String { TextWidth.pad(TextWidth.truncate(text, toCells: cells - 1), toCells: cells) }
        canvas.put(TextWidth.truncate("  " + cell("email", emailWidth) + cell("locked until", 15) + cell("wrong passwords", 16)
                                          + (feature.allProjects ? "project" : ""), toCells: width), row: frame.row + 3, column: column, style: .dim)
        guard let selected = list.selected else {
            canvas.put("No address is locked out.", row: frame.row + 4, column: column + 2, style: .dim)
            return
        }
        let rows = max(1, frame.height - 6)
        let top = (list.selection / rows) * rows
        let items = list.rows.dropFirst(top).prefix(rows).map { lockout in
            ListView.Item(cell(lockout.email, emailWidth) + cell(ConsoleView.timeText(lockout.lockedUntil), 15) + cell("\(lockout.failures)", 16)
                          + (feature.allProjects ? TextWidth.truncate(lockout.project ?? "—", toCells: projectWidth) : ""))
        }
        ListView(items: Array(items), selection: list.selection - top).draw(on: canvas, in: Rect(row: frame.row + 4, column: column, width: width, height: rows), focused: true)
        // The selected lock-out whole: what the columns cut.
        let whole = [selected.email, selected.project.map { "project \($0)" }].compactMap { $0 }.joined(separator: " · ")
        for (index, line) in TextWidth.wrap(whole, width: width).prefix(2).enumerated() {
            canvas.put(line, row: frame.row + frame.height - 2 + index, column: column, style: .accent)
        }
        if list.confirmingAll {
            Dialog(title: "Clear \(AccountsFeature.lockoutCount(list.rows.count))?",
                   message: "Lift every lock-out in \(feature.lockoutsScope) (\(list.rows.count) listed, and any locked since)? "
                       + "Those addresses can sign in with a password again at once. Written to the audit log.",
                   buttons: ["Cancel (esc)", "Clear all (y)"], selection: 1).draw(on: canvas)
        }
    }
}
