import Foundation
import GRDB
import IdentityToolkit

struct CreateAuthUriBody: Decodable {
    var identifier: String?
    var continueUri: String?
    var providerId: String?
    var sessionId: String?
}

extension BackendFailure {
    static let missingContinueUri = badRequest("MISSING_CONTINUE_URI")
    static let invalidIdentifier = badRequest("INVALID_IDENTIFIER")
}

extension EmbeddedBackend {
    /// `accounts:createAuthUri`: whether an email has an account and how it signs in (the SDKs'
    /// `fetchSignInMethodsForEmail`). With email-enumeration protection on, as in production, the
    /// answer carries only a session id, whatever the address.
    func createAuthUri(_ body: CreateAuthUriBody) throws -> CreateAuthUriResponse {
        let sessionId = body.sessionId.flatMap { $0.isEmpty ? nil : $0 } ?? SecureRandom.localId()
        if let providerId = body.providerId, !providerId.isEmpty { throw BackendFailure.idpAuthUriUnsupported }
        guard let identifier = body.identifier, !identifier.isEmpty else { throw BackendFailure.missingIdentifier }
        guard let continueUri = body.continueUri, !continueUri.isEmpty else { throw BackendFailure.missingContinueUri }
        guard let email = EmailAddress.normalized(identifier) else { throw BackendFailure.invalidIdentifier }
        guard let url = URL(string: continueUri), url.scheme != nil else { throw BackendFailure.invalidContinueUri }
        if try isEmailEnumerationProtected() { return CreateAuthUriResponse(sessionId: sessionId) }

        let found = try store.read { db -> (StoredAccount, [ProviderRecord])? in
            let owner = try StoredAccount.find(email: email, in: db)
                ?? ProviderRecord.filter(Column("email") == email).fetchOne(db).flatMap { try StoredAccount.fetchOne(db, key: $0.localId) }
            return try owner.map { ($0, try $0.providers(in: db)) }
        }
        var allProviders: [String] = []
        var signinMethods: [String] = []
        if let (user, providers) = found {
            for provider in providers where provider.providerId != "phone" {
                allProviders.append(provider.providerId)
                guard provider.providerId == "password" else {
                    signinMethods.append(provider.providerId)
                    continue
                }
                if user.passwordHash != nil { signinMethods.append("password") }
                if user.emailLinkSignin { signinMethods.append("emailLink") }
            }
        }
        return CreateAuthUriResponse(registered: found != nil, allProviders: allProviders, sessionId: sessionId, signinMethods: signinMethods)
    }
}
