import Foundation
import GRDB

extension EmbeddedBackend {
    /// An administrator's `linkProviderUserInfo`: a federated identity needs its provider and its id
    /// there; passwords and phone numbers have fields of their own.
    static func validatedLinkedProvider(_ body: LinkProviderBody) throws -> LinkProviderBody {
        guard let providerId = body.providerId, !providerId.isEmpty else { throw BackendFailure.missingProviderId }
        guard let rawId = body.rawId, !rawId.isEmpty else { throw BackendFailure.missingRawId }
        guard providerId != "password", providerId != "phone" else { throw BackendFailure.invalidProviderId }
        return body
    }

    /// Attaches (or refreshes) the identity; one that belongs to another account is refused.
    func linkProvider(_ body: LinkProviderBody, to localId: String, in db: Database) throws {
        guard let providerId = body.providerId, let rawId = body.rawId else { throw BackendFailure.missingProviderId }
        if let owner = try ProviderRecord.filter(ProviderRecord.Columns.providerId == providerId && Column("rawId") == rawId).fetchOne(db),
           owner.localId != localId {
            throw BackendFailure.federatedUserIdAlreadyLinked
        }
        try ProviderRecord.filter(ProviderRecord.Columns.localId == localId && ProviderRecord.Columns.providerId == providerId).deleteAll(db)
        try ProviderRecord(localId: localId, providerId: providerId, rawId: rawId,
                           federatedId: providerId == SimulatedProvider.google.id ? "https://accounts.google.com/\(rawId)" : rawId,
                           email: body.email.flatMap(EmailAddress.normalized), displayName: body.displayName, photoUrl: body.photoUrl).insert(db)
    }
}
