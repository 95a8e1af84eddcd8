import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:delete`: the signed-in user (after a recent sign-in) or, for administrators, any `localId`
    /// (an administrator names it even when an `idToken` is sent, as in the emulator).
    func delete(_ body: DeleteBody, context: RequestContext) async throws -> AccountsDeleteResponse {
        let session: VerifiedSession?
        let localId: String
        if !context.isAdmin {
            let verified = try verifySession(idToken: body.idToken)
            try requireRecentSignIn(verified)
            session = verified
            localId = verified.user.localId
        } else {
            guard let id = body.localId, !id.isEmpty else { throw BackendFailure.missingLocalId }
            session = nil
            localId = id
        }
        try await store.write { db in
            // A token revoked since it was checked deletes nothing.
            if let session { _ = try currentUser(of: session, in: db) }
            guard try StoredAccount.deleteOne(db, key: localId) else { throw BackendFailure.userNotFound }
            try AccountSessions.endAll(ofDeleted: localId, in: db)
        }
        return AccountsDeleteResponse()
    }
}
