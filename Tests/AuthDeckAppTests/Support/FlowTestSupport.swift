import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

/// The TestStore pattern: send one event, then assert the whole next state and the effects.
struct FlowStore {
    var model: ConsoleModel

    init(_ model: ConsoleModel) { self.model = model }

    mutating func send(_ event: ConsoleEvent, effects expectedEffects: [ConsoleEffect] = [],
                       sourceLocation: SourceLocation = #_sourceLocation,
                       _ update: (inout ConsoleModel) -> Void = { _ in }) {
        var expected = model
        update(&expected)
        let effects = model.handle(event)
        #expect(effects == expectedEffects, sourceLocation: sourceLocation)
        #expect(model == expected, sourceLocation: sourceLocation)
    }

    mutating func type(_ text: String) {
        for character in text { _ = model.handle(.key(.character(character))) }
    }
}

enum Fixtures {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    /// What a feature sees of the console when nobody is signed in.
    static let signedOut = ConsoleContext(user: nil, token: nil, cart: [], outbox: Outbox())

    static let anonymous = User(uid: "anonUID0000000000000000000001", isAnonymous: true,
                                metadata: UserMetadata(creationDate: created, lastSignInDate: created))

    static func passwordUser(uid: String = "pwUID00000000000000000000001", email: String = "ada@example.com", extraProviders: [UserInfo] = []) -> User {
        User(uid: uid, isAnonymous: false, email: email,
             providerData: [UserInfo(providerID: "password", uid: email, email: email)] + extraProviders,
             metadata: UserMetadata(creationDate: created, lastSignInDate: created))
    }

    static func signedIn(_ user: User, focus: AccountFocus = AccountFocus()) -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded")
        model.user = user
        model.screen = .account(focus)
        return model
    }

    static func form(_ purpose: CredentialForm.Purpose, email: String, password: String, focus: CredentialForm.Field = .password) -> CredentialForm {
        var form = CredentialForm(purpose: purpose)
        form.email = TextField(text: email, maxLength: 254)
        form.password = TextField(text: password, maxLength: 128, isSecure: true)
        form.focus = focus
        return form
    }
}

extension AuthError {
    static func server(_ message: String) -> AuthError {
        let code = message.split(separator: ":").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? message
        return AuthError(AuthErrorCode(serverCode: code), serverMessage: message)
    }
}
