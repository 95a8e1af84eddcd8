import Foundation
import GRDB
import IdentityToolkit

struct EmailLinkSignInBody: Decodable {
    var email: String?
    var oobCode: String?
    var idToken: String?
}

extension BackendFailure {
    static let emailLinkAddressMismatch = badRequest("INVALID_EMAIL : The email provided does not match the sign-in email address.")
}

extension EmbeddedBackend {
    /// `accounts:signInWithEmailLink`: the code of an `EMAIL_SIGNIN` message and the address it went
    /// to sign in to that address's account, creating it when there is none; with `idToken` the
    /// address is linked to the signed-in user instead. Opening the message proves the address:
    /// it counts as verified. The session's provider is `password`, as in Firebase.
    func signInWithEmailLink(_ body: EmailLinkSignInBody) async throws -> SignInWithEmailLinkResponse {
        let linking = try body.idToken.map { try verifySession(idToken: $0) }
        guard let rawEmail = body.email, !rawEmail.isEmpty else { throw BackendFailure.missingEmail }
        guard let email = EmailAddress.normalized(rawEmail) else { throw BackendFailure.invalidEmail }
        guard let code = body.oobCode, !code.isEmpty else { throw BackendFailure.missingOobCode }
        let record = try liveOobCode(code)
        guard record.requestType == SendOobCodeRequest.RequestType.emailSignIn.rawValue else { throw BackendFailure.invalidOobCode }
        guard record.email == email else { throw BackendFailure.emailLinkAddressMismatch }

        let (user, isNewUser) = try await store.write { db -> (StoredAccount, Bool) in
            guard try OobCodeRecord.deleteOne(db, key: code) else { throw BackendFailure.invalidOobCode }
            let owner = try StoredAccount.find(email: email, in: db)
            let signedIn = try linking.map { try currentUser(of: $0, in: db) }
            guard var user = signedIn ?? owner else {
                let now = nowMilliseconds
                let user = StoredAccount(localId: SecureRandom.localId(), email: email, emailVerified: true, validSince: nowSeconds,
                                      createdAt: now, emailLinkSignin: true, sessionSeal: StoredAccount.newSessionSeal())
                try user.insert(db)
                try ProviderRecord.password(localId: user.localId, email: email).insert(db)
                return (user, true)
            }
            guard !user.disabled else { throw BackendFailure.userDisabled }
            if let signedIn, let owner, signedIn.localId != owner.localId { throw BackendFailure.emailExists }
            user.email = email
            user.emailVerified = true
            user.emailLinkSignin = true
            try user.update(db)
            // An email-link account shows the `password` provider too (its address), without a password.
            try ProviderRecord.movePassword(of: user.localId, to: email, creating: true, in: db)
            return (user, false)
        }

        if let challenge = try secondFactorChallenge(for: user, signInProvider: "password") {
            return SignInWithEmailLinkResponse(email: email, localId: user.localId, isNewUser: isNewUser,
                                               mfaPendingCredential: challenge.mfaPendingCredential, mfaInfo: challenge.mfaInfo)
        }
        let tokens = try await store.write { db -> IssuedTokens in
            guard var current = try StoredAccount.fetchOne(db, key: user.localId) else { throw BackendFailure.userNotFound }
            current.lastLoginAt = nowMilliseconds
            try current.update(db)
            return try startSession(for: current, signInProvider: "password", authTime: nowSeconds, in: db)
        }
        return SignInWithEmailLinkResponse(email: email, localId: user.localId, isNewUser: isNewUser, idToken: try tokens.idToken,
                                           refreshToken: try tokens.refreshToken, expiresIn: IssuedTokens.expiresIn)
    }
}
