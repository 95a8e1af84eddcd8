import AppData
import AuthClient
import Foundation
import RoomChannel

/// What crosses screens, as features read it.
struct ConsoleContext: Sendable {
    var user: User?
    var token: TokenSummary?
    var cart: [CartItem]
    var outbox: Outbox
    /// What the operator may do in the accounts view; nil: this console never shows it.
    var operatorAccess: OperatorAccess? = nil
    /// Whether this console runs under `authdeck ssh` with a room channel.
    var inRoom = false
    /// What the change-password and change-email screens say a recent sign-in is.
    var recentLoginWindow = RecentLoginWindow.firebase
    /// The room's latest snapshot, on an operator's console in a room.
    var roomSnapshot: RoomSnapshot? = nil
    /// The Identity Platform tenant the console signs in to (`--tenant`); nil for the project's own users.
    var tenant: String? = nil

    /// The account when signed in, the sign-in methods otherwise: where a finished or cancelled step lands.
    var home: Screen { user == nil ? .signInMethods(SignInMethodsFeature(selection: 0)) : .account(AccountFeature()) }
}
