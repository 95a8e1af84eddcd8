@testable import AuthDeckApp
import AuthAdmin
import Foundation
import TerminalUI

/// Accounts for the accounts view's flow tests and snapshots.
enum AccountsFixtures {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    static func user(_ index: Int) -> UserRecord {
        UserRecord(uid: String(format: "u%04d", index), email: String(format: "user%04d@example.com", index), emailVerified: index % 3 == 0,
                   disabled: index % 7 == 1,
                   metadata: UserMetadata(creationTime: created.addingTimeInterval(Double(index) * 86_400),
                                          lastSignInTime: index % 2 == 0 ? created.addingTimeInterval(Double(index) * 90_000) : nil),
                   providerData: [UserInfo(providerId: "password", uid: String(format: "user%04d@example.com", index))],
                   hasPassword: true)
    }

    static func users(_ range: Range<Int>) -> [UserRecord] { range.map(user) }

    static func page(_ range: Range<Int>, total: Int) -> AccountPage {
        AccountPage(users: users(range), offset: range.lowerBound, totalCount: total)
    }

    static let firstQuery = AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: 0, limit: AccountsFeature.pageSize)

    static func query(offset: Int) -> AccountsQuery {
        AccountsQuery(filter: AccountFilter(), sort: AccountSort(), offset: offset, limit: AccountsFeature.pageSize)
    }

    /// A signed-out console whose operator may see the accounts view.
    static func console(_ access: OperatorAccess? = .full) -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded", operatorAccess: access)
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        return model
    }

    /// The accounts view open with the first page of `total` accounts on screen.
    static func opened(total: Int, access: OperatorAccess = .full) -> ConsoleModel {
        var model = console(access)
        var feature = AccountsFeature()
        feature.page = page(0..<min(total, AccountsFeature.pageSize), total: total)
        model.screen = .accounts(feature)
        return model
    }
}

extension ConsoleModel {
    /// The accounts view's state, for expectations: `model.accounts { $0.selection = 3 }`.
    mutating func accounts(_ change: (inout AccountsFeature) -> Void) {
        guard case var .accounts(feature) = screen else { fatalError("not on the accounts view") }
        change(&feature)
        screen = .accounts(feature)
    }

    var accountsView: AccountsFeature? {
        if case let .accounts(feature) = screen { return feature }
        return nil
    }
}
