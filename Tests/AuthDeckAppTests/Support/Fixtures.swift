import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

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

    static func signedIn(_ user: User, focus: AccountFeature = AccountFeature()) -> ConsoleModel {
        var model = ConsoleModel(backendName: "embedded")
        model.user = user
        model.screen = .account(focus)
        return model
    }

    static func form(_ purpose: CredentialFormFeature.Purpose, email: String, password: String, focus: CredentialFormFeature.Field = .password) -> CredentialFormFeature {
        var form = CredentialFormFeature(purpose: purpose)
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
