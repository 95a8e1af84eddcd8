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

    /// A body's `tenantId` must name this backend's tenant: a server of tenants (`BackendProjects`) sends
    /// each request to the database of the tenant it names, so another here is a body that contradicts
    /// its path; a backend of no tenant serves none.
    func checkTenant(in body: Data) throws {
        struct Tenant: Decodable { var tenantId: String? }
        guard Self.mayContain(Self.tenantKey, body) else { return }
        guard let named = try decode(Tenant.self, body).tenantId, !named.isEmpty, named != tenantId else { return }
        throw tenantId == nil ? BackendFailure.tenantNotFound : BackendFailure.tenantIdMismatch
    }

    private static let targetProjectKey = Array("targetProjectId".utf8)
    private static let tenantKey = Array("tenantId".utf8)

    static func mayNameTarget(_ body: Data) -> Bool { mayContain(targetProjectKey, body) }
    static func mayNameTenant(_ body: Data) -> Bool { mayContain(tenantKey, body) }

    /// Whether `key` may be in the body: it is there, or an escape could spell it. C's byte searches:
    /// `Data`'s generic ones cost a tenth of a lookup.
    private static func mayContain(_ key: [UInt8], _ body: Data) -> Bool {
        body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            if memchr(base, Int32(UInt8(ascii: "\\")), bytes.count) != nil { return true }
            var offset = 0
            while offset + key.count <= bytes.count,
                  let found = memchr(base + offset, Int32(key[0]), bytes.count - offset) {
                offset = base.distance(to: found)
                if offset + key.count <= bytes.count, memcmp(found, key, key.count) == 0 { return true }
                offset += 1
            }
            return false
        }
    }
}
