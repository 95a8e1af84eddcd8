import Foundation
import IdentityToolkit
import Logging

/// An Identity-Toolkit-compatible backend inside the process, on SQLite. It answers the
/// emulator's paths with production behaviour: real hashing, signed tokens, revocation,
/// lockout and recent-login checks.
public final class EmbeddedBackend: WireHandler, Sendable {
    let configuration: EmbeddedBackendConfiguration
    let clock: @Sendable () -> Date
    let store: AccountStore
    let signer: TokenSigner
    let providerKeys: SimulatedProviderKeys
    let serviceAccount: ServiceAccountSlot
    let serviceAccountPath: String
    let actionLinkOrigin: ActionLinkOrigin
    let verifiedIdTokens = VerifiedIdTokens()
    let logger = Logger(label: "authdeck.identity-emulator")
    /// The data directory's own project, whose database is `identity.sqlite` at its root, or a tenant
    /// of it (which follows its project's rules for API keys); the other projects of a served backend
    /// (`BackendProjects`) live under `projects/`.
    let isDefaultProject: Bool
    /// The Identity Platform tenant whose accounts this database holds (`tenants/<id>/identity.sqlite`
    /// beside its project's); nil for the project's own accounts.
    let tenantId: String?

    public var projectId: String { store.projectId }
    /// How a server of many databases (`OpenProjects`) knows this one: a project by its id, a tenant
    /// under its project's (no project id has a slash).
    var openKey: String { Self.openKey(project: projectId, tenant: tenantId) }

    static func openKey(project: String, tenant: String?) -> String { tenant.map { "\(project)/tenants/\($0)" } ?? project }

    /// Whether a backend has been opened in `dataDirectory` (its database is there, or was: opening it
    /// then says that it is gone); nothing is created.
    public static func exists(in dataDirectory: URL) -> Bool {
        let databasePath = BackendFiles(root: dataDirectory).databasePath
        return FileManager.default.fileExists(atPath: databasePath) || FirstStartMarker.exists(forDatabaseAt: databasePath)
    }

    public init(dataDirectory: URL, configuration: EmbeddedBackendConfiguration = .init(),
                clock: @escaping @Sendable () -> Date = Date.init) throws {
        let directory = try BackendFiles.prepare(dataDirectory)
        self.configuration = configuration
        self.clock = clock
        self.store = try AccountStore(path: directory.databasePath, projectId: configuration.projectId,
                                      keysExist: FileManager.default.fileExists(atPath: directory.signingKeyPath))
        self.signer = try TokenSigner(keyPath: directory.signingKeyPath, certificatePath: directory.signingCertificatePath)
        self.providerKeys = SimulatedProviderKeys(directory: directory.identityProviderKeysDirectory)
        self.serviceAccountPath = directory.serviceAccountPath
        self.serviceAccount = ServiceAccountSlot(path: directory.serviceAccountPath, projectId: store.projectId)
        self.actionLinkOrigin = ActionLinkOrigin()
        self.isDefaultProject = true
        self.tenantId = nil
        _ = try purgeExpiredAnonymousUsers()
    }

    /// Another project beside `parent`'s, with its own database at `databasePath`. The keys are the
    /// parent's, as every Firebase project's ID tokens are signed by the same Google keys (the
    /// `aud` and `iss` name the project); so are the simulated providers, the service account
    /// (whoever holds it administers the whole server) and the address links point to. With `tenantId`,
    /// the accounts of that tenant of `parent`'s project (`projectId` is then the parent's).
    init(project projectId: String, databasePath: String, sharing parent: EmbeddedBackend, tenantId: String? = nil) throws {
        var configuration = parent.configuration
        configuration.projectId = projectId
        self.configuration = configuration
        self.clock = parent.clock
        self.store = try AccountStore(path: databasePath, projectId: projectId, keysExist: false)
        self.signer = parent.signer
        self.providerKeys = parent.providerKeys
        self.serviceAccountPath = parent.serviceAccountPath
        self.serviceAccount = parent.serviceAccount
        self.actionLinkOrigin = parent.actionLinkOrigin
        self.isDefaultProject = tenantId == nil ? false : parent.isDefaultProject
        self.tenantId = tenantId
        _ = try purgeExpiredAnonymousUsers()
    }

    /// This project's Web API key on a served backend (`ProjectAPIKeys`).
    public func apiKey() throws -> String {
        try ProjectAPIKeys(key: signer.projectAPIKeyKey).apiKey(for: projectId)
    }

    /// Accounts in this project.
    public func accountCount() throws -> Int {
        try store.read { db in try StoredAccount.fetchCount(db) }
    }

    /// Closes the database: the write-ahead log is checkpointed into it (and emptied), and the
    /// files are stamped intact for the next start. A server and the console call this when
    /// they end rather than leaving it to deinitialisation at exit.
    public func close() throws { try store.close() }

    public func transport(exchanges: ExchangeLog = ExchangeLog()) -> InProcessTransport {
        InProcessTransport(handler: self, exchanges: exchanges, clock: clock)
    }

    /// The JWKS of the ID-token signer, for verifiers outside this process.
    public func publicKeysJWKS() -> Data { signer.jwks() }

    /// Answers on the backend's threads (`RequestThreads`), where a request may block on SQLite or RSA
    /// without holding up Swift's cooperative pool; a write suspends the request until its commit.
    public func handle(_ request: WireRequest) async -> WireResponse {
        await withTaskExecutorPreference(RequestThreads.shared) { await self.answer(request) }
    }

    /// A server's connections run on the backend's threads, so `handle` answers where it is called.
    public var preferredExecutor: (any TaskExecutor)? { RequestThreads.shared }

    /// `handOff` answers a request that turns out to belong to a tenant (its ID or refresh token is
    /// one of a tenant's): a server of tenants (`BackendProjects`) sends it there; without one it is refused.
    func answer(_ request: WireRequest, handOff: ((String) async -> WireResponse)? = nil) async -> WireResponse {
        do {
            return WireResponse(status: 200, body: try await route(request, tenantChosen: handOff != nil))
        } catch let tenant as TenantHandOff {
            if let handOff { return await handOff(tenant.tenantId) }
            return BackendFailure.tenantIdMismatch.response
        } catch let failure as BackendFailure {
            return failure.response
        } catch {
            // Storage errors carry SQL, never bound values, so they are safe to log.
            logger.error("request failed", metadata: ["path": "\(Self.pathAndQuery(request.path).path)", "error": "\(error)"])
            return (DescriptorBudget.isExhausted() ? BackendFailure.descriptorsExhausted : .internalError).response
        }
    }

    /// `tenantChosen`: a server of tenants found no tenant in the request (`BackendProjects`), so its
    /// body is not searched for one again.
    func route(_ request: WireRequest, tenantChosen: Bool = false) async throws -> Data {
        if let rewritten = try LegacyRelyingPartyPaths.projectScopedRequest(for: request) { return try await route(rewritten, tenantChosen: tenantChosen) }
        let (requested, query) = Self.pathAndQuery(request.path)
        if let scoped = ProjectScopedPath(requested), let answer = try await routeProjectScoped(scoped, request: request, query: query) {
            return answer
        }
        let path = LegacyRelyingPartyPaths.v1Path(for: requested) ?? requested
        if let answer = try await routeProjectSettings(path, request: request, query: query) { return answer }
        if let answer = try routeTenants(path, request: request, query: query) { return answer }
        switch request.method {
        case "POST": break
        case "GET": return try await routeGet(path, query: query)
        default: throw BackendFailure.notFound(requested)
        }
        guard let answer = Self.postRoutes[path] else { throw BackendFailure.notFound(requested) }
        let context = try RequestContext(request: request, query: query, adminToken: configuration.adminToken)
        try checkTargetProject(of: request.body, context: context)
        if !tenantChosen { try checkTenant(in: request.body) }
        if let tenantId { try checkTenantPolicy(path, request: request, context: context, tenantId: tenantId) }
        return try await answer(self, request, context)
    }

    /// An endpoint's answer to a POST: the request and who asks in, the response body out.
    typealias PostRoute = @Sendable (EmbeddedBackend, WireRequest, RequestContext) async throws -> Data

    /// Every POST endpoint, each path once: what `route` answers, and refuses as not found when
    /// the path is not here.
    private static let postRoutes: [String: PostRoute] = Dictionary(uniqueKeysWithValues: accountRoutes + verificationRoutes + passwordlessRoutes)

    /// Accounts, passwords, tokens and the simulated identity providers.
    private static let accountRoutes: [(String, PostRoute)] = [
        (SignUpRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.signUp(backend.decode(SignUpBody.self, request.body), context: context).json
        }),
        (SignInWithPasswordRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.signInWithPassword(backend.decode(PasswordSignInBody.self, request.body)))
        }),
        (AccountsLookupRequest.endpoint.emulatorPath, { backend, request, context in
            try backend.lookup(backend.decode(LookupBody.self, request.body), context: context).json
        }),
        (AccountsUpdateRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.encode(backend.update(backend.decode(UpdateBody.self, request.body), context: context))
        }),
        (AccountsDeleteRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.encode(backend.delete(backend.decode(DeleteBody.self, request.body), context: context))
        }),
        (SecureTokenRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.exchangeRefreshToken(EmbeddedBackend.secureTokenBody(request)).json
        }),
        (SignInWithIdpRequest.endpoint.emulatorPath, { backend, request, _ in
            try await backend.encode(backend.signInWithIdp(backend.decode(IdpSignInBody.self, request.body)))
        }),
        (SimulatedIdpListRequest.endpoint.emulatorPath, { backend, request, context in
            try backend.encode(backend.listSimulatedIdentities(backend.decode(SimulatedIdpListBody.self, request.body), context: context))
        }),
        (SimulatedIdpAddIdentityRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.encode(backend.addSimulatedIdentity(backend.decode(SimulatedIdpAddIdentityBody.self, request.body), context: context))
        }),
        (SimulatedIdpAuthorizeRequest.endpoint.emulatorPath, { backend, request, context in
            try await backend.encode(backend.authorizeAtSimulatedProvider(backend.decode(SimulatedIdpAuthorizeBody.self, request.body), context: context))
        }),
    ]

    private static func pathAndQuery(_ raw: String) -> (path: String, query: [URLQueryItem]) {
        guard let mark = raw.firstIndex(of: "?") else { return (raw, []) }
        return (String(raw[..<mark]), FormEncoding.items(String(raw[raw.index(after: mark)...])))
    }

    func decode<Body: Decodable>(_ type: Body.Type, _ data: Data) throws -> Body {
        // An empty body is an empty object (an anonymous sign-up sends nothing).
        let blank = data.withUnsafeBytes { $0.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }
        let json = blank ? Data("{}".utf8) : data
        do {
            return try WireCoding.decoder().decode(Body.self, from: json)
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty,
                let DecodingError.valueNotFound(_, context) where !context.codingPath.isEmpty {
            throw BackendFailure.invalidArgument("Invalid value at '\(Self.fieldPath(context.codingPath))'")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw BackendFailure.invalidArgument("Invalid value at '\(Self.fieldPath(context.codingPath))'")
        } catch {
            throw BackendFailure.invalidArgument("Invalid JSON payload received.")
        }
    }

    private static func fieldPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func secureTokenBody(_ request: WireRequest) throws -> SecureTokenBody {
        let contentType = request.headers.first { $0.key.lowercased() == "content-type" }?.value.lowercased() ?? ""
        let firstByte = request.body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        if contentType.hasPrefix("application/x-www-form-urlencoded") || (firstByte != nil && firstByte != UInt8(ascii: "{")) {
            return SecureTokenBody(form: request.body)
        }
        guard firstByte != nil else { return SecureTokenBody(grantType: nil, refreshToken: nil) }
        do {
            return try WireCoding.decoder().decode(SecureTokenBody.self, from: request.body)
        } catch {
            throw BackendFailure.invalidArgument("Invalid JSON payload received.")
        }
    }

    func encode(_ response: some Encodable) throws -> Data {
        try WireCoding.encoder().encode(response)
    }

    // MARK: Time, in the units the wire uses

    var nowSeconds: Int64 { Int64(clock().timeIntervalSince1970.rounded(.down)) }
    var nowMilliseconds: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// Who is calling: an app with an API key, or an administrator. Without an admin token the
/// emulator's convention holds (`Bearer owner`, or any `ya29.` token); with one, only
/// `Bearer <that token>` is an administrator, since the backend may be reachable by others.
struct RequestContext {
    let isAdmin: Bool

    init(request: WireRequest, query: [URLQueryItem], adminToken: String? = nil) throws {
        let headers = Dictionary(request.headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        // Only a bearer token can make an administrator; another scheme (`Basic …`) is no credential
        // at all, so the call needs an API key like any app's, as in the emulator.
        if let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            let credential = String(authorization.dropFirst("bearer ".count))
            if let adminToken {
                guard Self.constantTimeEqual(credential, adminToken) else { throw BackendFailure.unauthenticated }
            } else {
                guard credential.lowercased() == "owner" || credential.hasPrefix("ya29.") else { throw BackendFailure.unauthenticated }
            }
            isAdmin = true
            return
        }
        let key = headers["x-goog-api-key"] ?? query.first { $0.name == "key" }?.value
        guard let key, !key.isEmpty else { throw BackendFailure.missingAPIKey }
        isAdmin = false
    }

    /// Compares without an early exit, so the time taken says nothing about the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
