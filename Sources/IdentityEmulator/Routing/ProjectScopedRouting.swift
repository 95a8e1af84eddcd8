import Foundation
import IdentityToolkit

/// A path that names a project: the administrator endpoints the Admin SDKs call
/// (`/identitytoolkit.googleapis.com/v1/projects/{projectId}/accounts:lookup`, `…/{projectId}:createSessionCookie`)
/// and the emulator-only ones (`/emulator/v1/projects/{projectId}/config`).
struct ProjectScopedPath: Equatable {
    enum Service: Equatable {
        case identityToolkit
        case emulator
    }

    let service: Service
    let projectId: String
    /// What follows the project id, e.g. `/accounts:lookup`, `:createSessionCookie`, `/config`.
    private(set) var tail: String

    private static let prefixes: [(String, Service)] = [
        ("/identitytoolkit.googleapis.com/v1/projects/", .identityToolkit),
        ("/emulator/v1/projects/", .emulator),
    ]

    init?(_ path: String) {
        guard let (prefix, service) = Self.prefixes.first(where: { path.hasPrefix($0.0) }) else { return nil }
        let rest = path.dropFirst(prefix.count)
        let end = rest.firstIndex { $0 == "/" || $0 == ":" } ?? rest.endIndex
        guard end != rest.startIndex else { return nil }
        self.service = service
        projectId = String(rest[..<end])
        tail = String(rest[end...])
    }

    /// The tenant a tail begins with (`/tenants/{t}/accounts:lookup`, `/tenants/{t}:createSessionCookie`), if any.
    var tenantId: Substring? {
        guard tail.hasPrefix("/tenants/") else { return nil }
        let rest = tail.dropFirst("/tenants/".count)
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == ":" } ?? rest.endIndex)]
    }

    /// The path as the tenant's own backend reads it: its tenant's part taken off the tail. A path of
    /// another tenant is refused (a backend of no tenant serves none).
    func withinTenant(_ served: String?) throws -> ProjectScopedPath {
        guard let named = tenantId else { return self }
        guard let served else { throw BackendFailure.tenantNotFound }
        guard named == served else { throw BackendFailure.tenantIdMismatch }
        var path = self
        path.tail = String(tail.dropFirst("/tenants/".count + named.count))
        return path
    }
}

extension EmbeddedBackend {
    /// Answers a project-scoped request, or returns nil when no handler here knows its tail (the
    /// caller then answers 404). Administrator endpoints need `Bearer owner` (or the admin token);
    /// emulator endpoints, as in the Firebase Auth Emulator, need no credentials on loopback.
    func routeProjectScoped(_ named: ProjectScopedPath, request: WireRequest, query: [URLQueryItem]) async throws -> Data? {
        let scoped = try named.withinTenant(tenantId)
        switch scoped.service {
        case .emulator:
            // Open on loopback, as the emulator's are; with an admin token (a server others can
            // reach) wiping accounts or changing settings needs that token like any admin call.
            // A project's own API key opens its outbox and settings too, and a tenant's key its
            // tenant's (`BackendProjects`): the visitor who holds it has that sandbox to themselves.
            if configuration.adminToken != nil, !(try holdsOwnKey(request, query: query)) {
                guard try RequestContext(request: request, query: query, adminToken: configuration.adminToken).isAdmin else {
                    throw BackendFailure.unauthenticated
                }
            }
            try requireServedProject(scoped.projectId)
            return try await routeEmulatorEndpoint(scoped.tail, method: request.method.uppercased(), body: request.body)
        case .identityToolkit:
            let context = try RequestContext(request: request, query: query, adminToken: configuration.adminToken)
            // A path that names a project names a target, which only an administrator may (the
            // emulator's rule, for every project alike; an API key, even a project's own, is not enough).
            guard context.isAdmin else { throw BackendFailure.targetProjectNeedsAdministrator }
            try requireServedProject(scoped.projectId)
            // As at Google: listing is a GET, every other administrator method a POST. Any other
            // method is no endpoint (a DELETE on `/accounts` must not create an account).
            guard request.method.uppercased() == (scoped.tail == "/accounts:batchGet" ? "GET" : "POST") else { return nil }
            if let tenantId { try checkTenantAdministration(scoped.tail, tenantId: tenantId) }
            return try await routeAdminEndpoint(scoped.tail, request: request, query: query, context: context)
        }
    }

    private func routeAdminEndpoint(_ tail: String, request: WireRequest, query: [URLQueryItem], context: RequestContext) async throws -> Data? {
        switch tail {
        case "/accounts":
            return try await encode(createAccount(decode(CreateAccountBody.self, request.body)))
        case "/accounts:lookup":
            return try encode(lookup(decode(LookupBody.self, request.body), context: context))
        case "/accounts:update":
            return try await encode(update(decode(UpdateBody.self, request.body), context: context))
        case "/accounts:delete":
            return try await encode(delete(decode(DeleteBody.self, request.body), context: context))
        case "/accounts:batchGet":
            return try batchGet(query: query, body: request.body)
        case "/accounts:batchCreate":
            return try await encode(batchCreate(decode(BatchCreateBody.self, request.body)))
        case "/accounts:query":
            return try encode(queryAccounts(decode(QueryAccountsBody.self, request.body)))
        case "/accounts:batchDelete":
            return try await encode(batchDelete(decode(BatchDeleteBody.self, request.body)))
        case ":createSessionCookie":
            return try encode(createSessionCookie(decode(SessionCookieBody.self, request.body)))
        default:
            // Other `accounts:*` methods behave as their project-less form (the project is this one).
            guard tail.hasPrefix("/accounts:") else { return nil }
            var rewritten = request
            let queryString = request.path.firstIndex(of: "?").map { String(request.path[$0...]) } ?? ""
            rewritten.path = "/identitytoolkit.googleapis.com/v1" + tail + queryString
            return try await route(rewritten)
        }
    }

    private func routeEmulatorEndpoint(_ tail: String, method: String, body: Data) async throws -> Data? {
        switch (tail, method) {
        case ("/accounts", "DELETE"):
            try await deleteAllAccounts()
            return Data("{}".utf8)
        case ("/config", "GET"):
            return try encode(emulatorProjectConfig())
        case ("/config", "PATCH"):
            return try await encode(updateEmulatorProjectConfig(decode(EmulatorConfigBody.self, body)))
        case ("/oobCodes", "GET"):
            return try encode(listOobCodes())
        case ("/verificationCodes", "GET"):
            return try encode(listVerificationCodes())
        case ("/lockouts:query", "POST"):
            let request = try decode(LockoutBody.self, body)
            if request.all == true, request.email == nil { return try encode(lockouts()) }
            return try encode(lockout(of: request.email))
        case ("/lockouts:clear", "POST"):
            let request = try decode(LockoutBody.self, body)
            if request.all == true, request.email == nil { return try await encode(clearAllLockouts()) }
            return try await encode(clearLockout(of: request.email))
        default:
            return nil
        }
    }

    /// Whether the request carries this database's own API key: this tenant's, or this project's
    /// (which reaches its tenants too). Never the default project's: that one is the emulator's, open
    /// to any key.
    func holdsOwnKey(_ request: WireRequest, query: [URLQueryItem]) throws -> Bool {
        guard let key = BackendProjects.apiKey(of: request, query: query),
              let scope = try ProjectAPIKeys(key: signer.projectAPIKeyKey).scope(of: key), scope.projectId == projectId else { return false }
        guard let keyTenant = scope.tenantId else { return !isDefaultProject }
        return keyTenant == tenantId
    }

    /// One data directory serves one project; any other project id is not here.
    func requireServedProject(_ requested: String) throws {
        guard requested == projectId else { throw BackendFailure.otherProject(requested, served: projectId) }
    }
}
