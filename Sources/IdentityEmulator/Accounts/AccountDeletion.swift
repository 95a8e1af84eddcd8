import Foundation
import GRDB
import IdentityToolkit

extension EmbeddedBackend {
    /// `accounts:delete`: the signed-in user (after a recent sign-in) or, for administrators, any `localId`.
    func delete(_ body: DeleteBody, context: RequestContext) async throws -> AccountsDeleteResponse {
        let localId: String
        if body.idToken != nil || !context.isAdmin {
            let session = try verifySession(idToken: body.idToken)
            try requireRecentSignIn(session)
            localId = session.user.localId
        } else {
            guard let id = body.localId, !id.isEmpty else { throw BackendFailure.missingLocalId }
            localId = id
        }
        try await store.write { db in
            guard try UserRecord.deleteOne(db, key: localId) else { throw BackendFailure.userNotFound }
            try AccountSessions.endAll(ofDeleted: localId, in: db)
        }
        return AccountsDeleteResponse()
    }
}
