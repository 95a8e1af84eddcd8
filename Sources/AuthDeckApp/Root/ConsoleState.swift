import AppData
import AuthClient
import Foundation
import TerminalUI

/// An operation the backend refuses without a recent sign-in; kept while the user reauthenticates
/// so it can run again by itself afterwards.
public enum SensitiveOperation: Equatable, Sendable {
    case updatePassword(String)
    case deleteAccount
    case unenroll(MultiFactorInfo)
    /// The link conflict's "Switch + merge + delete this": the account switched from, whose own
    /// sign-in was too old to delete it (it is confirmed on its own session, not the console's).
    case deletePreviousAccount(AccountSnapshot)
    /// `updateEmail`: at once; the previous address (known when it was asked: the user changes
    /// before the answer arrives) gets a message that undoes it.
    case updateEmail(String, previous: String?)
    /// `verifyBeforeUpdateEmail`: a link to the new address, which changes the email when opened.
    case verifyBeforeUpdateEmail(String)

    var title: String {
        switch self {
        case .updatePassword: "change the password"
        case let .updateEmail(email, _): "change the email to \(email)"
        case let .verifyBeforeUpdateEmail(email): "send a link that changes the email to \(email)"
        case .deleteAccount: "delete the account"
        case let .unenroll(factor): "remove the second factor \"\(factor.displayName ?? factor.factorID)\""
        case let .deletePreviousAccount(previous): "delete \(previous.email ?? previous.uid), the account you switched from"
        }
    }
}

/// A message under the screen: what just happened, or what went wrong and why.
public struct Banner: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, error }
    public var kind: Kind
    public var text: String
    /// For errors: the code and the raw server message, for developers.
    public var detail: String?

    public init(_ kind: Kind, _ text: String, detail: String? = nil) {
        self.kind = kind
        self.text = text
        self.detail = detail
    }

    static func error(_ error: AuthError) -> Banner {
        var detail = "\(error.code) (\(error.code.rawValue))"
        if let server = error.serverMessage {
            // When the sentence is the server's own words, the detail keeps only their code.
            let wordsShown = error.message != error.code.localizedDescription
            detail += " · " + (wordsShown ? String(server.prefix { $0 != ":" }).trimmingCharacters(in: .whitespaces) : server)
        }
        return Banner(.error, error.message, detail: detail)
    }
}

public enum Overlay: Equatable, Sendable {
    case help
    /// `scroll`: the first line of the selected call's detail that shows.
    case inspector(selection: Int, scroll: Int = 0)
    /// The inspector's own keys, over it; closing returns to it as it was.
    case inspectorHelp(selection: Int, scroll: Int)
    /// The emulator's outboxes: emails (verification, password reset) and texts (codes).
    case outbox(selection: Int)
    /// The SDK code of the step just taken; `scroll`: its first row that shows.
    case teaching(scroll: Int)
}

extension Overlay {
    var isInspectorHelp: Bool {
        if case .inspectorHelp = self { return true }
        return false
    }
}

/// The ID token of the signed-in user, as the account screen shows it.
public struct TokenSummary: Equatable, Sendable {
    public var shortToken: String
    public var signInProvider: String?
    public var signInSecondFactor: String?
    public var expirationDate: Date?

    public init(shortToken: String, signInProvider: String?, signInSecondFactor: String? = nil, expirationDate: Date?) {
        self.shortToken = shortToken
        self.signInProvider = signInProvider
        self.signInSecondFactor = signInSecondFactor
        self.expirationDate = expirationDate
    }

    init(_ result: IDTokenResult) {
        self.init(shortToken: result.shortenedToken(keeping: 16), signInProvider: result.signInProvider,
                  signInSecondFactor: result.signInSecondFactor, expirationDate: result.expirationDate)
    }
}
