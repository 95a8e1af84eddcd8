import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// `targetProjectId` in a body names the project an administrator acts on; an app (API key)
    /// may not name one, and no other project than the served one is here.
    func checkTargetProject(of body: Data, context: RequestContext) throws {
        struct Target: Decodable { var targetProjectId: String? }
        guard let target = (try? WireCoding.decoder().decode(Target.self, from: body))?.targetProjectId, !target.isEmpty else { return }
        guard context.isAdmin else { throw BackendFailure.targetProjectNeedsAdministrator }
        try requireServedProject(target)
    }
}
