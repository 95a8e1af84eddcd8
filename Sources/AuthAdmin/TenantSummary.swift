import Foundation
import IdentityToolkit

/// One Identity Platform tenant of a project, as the operator's list of projects shows it.
public struct TenantSummary: Sendable, Equatable, Identifiable {
    public var id: String
    public var displayName: String?
    /// How many accounts it holds; nil where counting would read every account (Google, the Firebase
    /// Auth Emulator) or the count failed.
    public var accounts: Int?

    public init(id: String, displayName: String? = nil, accounts: Int? = nil) {
        self.id = id
        self.displayName = displayName
        self.accounts = accounts
    }
}

/// A project's tenants, or why the credential at hand may not list them.
public struct TenantListing: Sendable, Equatable {
    public var projectId: String
    public var tenants: [TenantSummary]
    /// The backend's refusal (a project without multi-tenancy, a serve keeping them from this
    /// credential); nil: `tenants` is the whole list.
    public var unavailable: String?

    public init(projectId: String, tenants: [TenantSummary], unavailable: String? = nil) {
        self.projectId = projectId
        self.tenants = tenants
        self.unavailable = unavailable
    }
}

extension AccountAdmin {
    /// Tenants whose accounts are counted at once.
    static let tenantCountsAtOnce = 8
    /// Beyond this many tenants none is counted: each count opens a tenant's database, and a room whose
    /// visitors are tenants would open every one of them at each look at the list.
    public static let countedTenantsAtMost = 100

    /// The project's tenants, every page of them, each with its account count where the backend
    /// counts in one call (`authdeck serve`) and there are few enough of them. A refusal is part of the answer, not an error: the
    /// projects are listed whether or not the tenants may be.
    public func tenants() async -> TenantListing {
        var found: [Tenant] = []
        var token: String?
        var tokensSeen: Set<String> = []
        do {
            repeat {
                // The listing is the project's, whichever tenant this administration is of.
                let page = try await backend.call(ListTenantsRequest(projectId: projectId, pageToken: token))
                found += page.tenants ?? []
                token = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
                // A token answered twice would page forever.
                if let next = token, !tokensSeen.insert(next).inserted { token = nil }
            } while token != nil
        } catch {
            return TenantListing(projectId: projectId, tenants: [], unavailable: String(describing: AuthAdminError.from(error)))
        }
        let summaries = found.map { TenantSummary(id: $0.tenantId, displayName: $0.displayName) }
        guard capability == .authdeck, summaries.count <= Self.countedTenantsAtMost else { return TenantListing(projectId: projectId, tenants: summaries) }
        return TenantListing(projectId: projectId, tenants: await counted(summaries))
    }

    /// Each tenant's accounts counted, a few at a time; a count that fails is left out.
    private func counted(_ tenants: [TenantSummary]) async -> [TenantSummary] {
        let ids = tenants.map(\.id)
        let counts = await withTaskGroup(of: (Int, Int?).self, returning: [Int: Int].self) { group in
            var started = 0
            var counts: [Int: Int] = [:]
            func start() {
                let index = started
                started += 1
                group.addTask { (index, try? await self.inTenant(ids[index]).count(matching: .none)) }
            }
            while started < min(Self.tenantCountsAtOnce, ids.count) { start() }
            for await (index, count) in group {
                counts[index] = count
                if started < ids.count { start() }
            }
            return counts
        }
        return tenants.enumerated().map { index, tenant in
            var tenant = tenant
            tenant.accounts = counts[index]
            return tenant
        }
    }

    /// The same administration, of one of its project's tenants (nil: the project's own accounts).
    public func inTenant(_ id: String?) -> AccountAdmin {
        AccountAdmin(backend: backend, projectId: projectId, tenantId: id, capability: capability, clock: clock)
    }
}
