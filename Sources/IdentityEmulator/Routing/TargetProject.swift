import Foundation
import IdentityToolkit

extension EmbeddedBackend {
    /// `targetProjectId` in a body names the project an administrator acts on; an app (API key)
    /// may not name one, and no other project than the served one is here.
    func checkTargetProject(of body: Data, context: RequestContext) throws {
        struct Target: Decodable { var targetProjectId: String? }
        // Most bodies name no target: one without the key and without escapes (a key could be
        // spelt with them) is not decoded a second time.
        guard Self.mayNameTarget(body) else { return }
        guard let target = (try? WireCoding.decoder().decode(Target.self, from: body))?.targetProjectId, !target.isEmpty else { return }
        guard context.isAdmin else { throw BackendFailure.targetProjectNeedsAdministrator }
        try requireServedProject(target)
    }

    private static let targetProjectKey = Array("targetProjectId".utf8)

    /// C's byte searches: `Data`'s generic ones cost a tenth of a lookup.
    static func mayNameTarget(_ body: Data) -> Bool {
        body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            if memchr(base, Int32(UInt8(ascii: "\\")), bytes.count) != nil { return true }
            var offset = 0
            while offset + targetProjectKey.count <= bytes.count,
                  let found = memchr(base + offset, Int32(targetProjectKey[0]), bytes.count - offset) {
                offset = base.distance(to: found)
                if offset + targetProjectKey.count <= bytes.count, memcmp(found, targetProjectKey, targetProjectKey.count) == 0 { return true }
                offset += 1
            }
            return false
        }
    }
}
