import Foundation
import IdentityToolkit
import Logging
import Synchronization

/// The projects of a served backend: the data directory's own (the default, `identity.sqlite` at
/// its root, as an older AuthDeck wrote it) and any number of others under `projects/<id>/`, each
/// with a database of its own. A request goes to one project, chosen as the emulator chooses: the
/// path (`…/projects/{id}/…`), else the project an API key names (`ProjectAPIKeys`), else an
/// administrator's `targetProjectId`, else the default.
///
/// A database per project, rather than a project column in every table: no query can reach
/// another project's rows, removing a project is removing its directory, the default project's
/// requests run exactly as before, and data of an older AuthDeck opens unchanged.
///
/// Who may reach what: without an admin token (loopback, the emulator's trust) any caller reaches
/// any project. With one (a shared backend), the administrator reaches every project; a project's
/// own API key reaches that project only (its outbox and settings included), a tenant's key that
/// tenant only (`TenantAPIKeys`); any other caller reaches the default project's own accounts only,
/// as before there were others: its tenants too need their own keys.
public final class BackendProjects: WireHandler, Sendable {
    public let defaultProject: EmbeddedBackend
    /// Projects besides the default, at most.
    public let maximumProjects: Int
    private let directory: URL
    let open = OpenProjects()
    /// Held while a project's directory or database is made, opened, closed, removed or emptied; never
    /// while a request looks up a project already open, so that no request waits for another project's
    /// SQLite file to be made (a room of visitors arriving at once makes many).
    let changes = Mutex<Void>(())
    /// Closes the projects no request has used for the idle lifetime, until `closeOtherProjects`.
    /// Unchecked: a dispatch source may be cancelled from any thread.
    private nonisolated(unsafe) let idleSweep: any DispatchSourceTimer
    private let logger = Logger(label: "authdeck.identity-emulator")

    public static let defaultMaximumProjects = 500
    /// How long a project that no request uses keeps its database open (its file descriptors).
    public static let defaultIdleLifetime: Duration = .seconds(60)

    /// `dataDirectory`: the default project's; the others go in its `projects/`.
    public init(defaultProject: EmbeddedBackend, dataDirectory: URL, maximumProjects: Int = defaultMaximumProjects,
                idleLifetime: Duration = defaultIdleLifetime) {
        self.defaultProject = defaultProject
        self.directory = dataDirectory.appendingPathComponent("projects", isDirectory: true)
        self.maximumProjects = maximumProjects
        // On a queue of its own: closing checkpoints, which blocks on SQLite.
        idleSweep = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "authdeck.idle-projects"))
        let milliseconds = max(1000, Int(idleLifetime.components.seconds * 1000 + idleLifetime.components.attoseconds / 1_000_000_000_000_000) / 2)
        idleSweep.setEventHandler { [weak self] in self?.closeIdle(unusedFor: idleLifetime) }
        idleSweep.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        idleSweep.activate()
    }

    public var preferredExecutor: (any TaskExecutor)? { RequestThreads.shared }

    public func handle(_ request: WireRequest) async -> WireResponse {
        await withTaskExecutorPreference(RequestThreads.shared) {
            let backend: EmbeddedBackend
            let keyScope: ProjectAPIKeys.Scope?
            do {
                if request.path.hasPrefix(Self.listingPath) {
                    if request.path.utf8.count == Self.listingPath.utf8.count || request.path.dropFirst(Self.listingPath.count).first == "?" {
                        return WireResponse(status: 200, body: try self.listing(request))
                    }
                    if let key = try self.tenantAPIKey(request) { return WireResponse(status: 200, body: key) }
                }
                (backend, keyScope) = try self.backend(for: request)
            } catch {
                return self.failure(opening: error).response
            }
            // The default project is never leased: its requests, the hot path, take no lock for it.
            defer { if backend !== self.defaultProject { self.open.release(backend) } }
            let tenant: String?
            do {
                let named = try Self.tenantNamed(in: request, by: backend)
                tenant = if let keyScope, keyScope.tenantId != nil { try Self.tenant(named, of: request, allowedBy: keyScope, in: backend) } else { named }
                if tenant != nil, keyScope?.tenantId == nil, backend === self.defaultProject { try Self.requireTenantKey(request, in: backend) }
            } catch {
                return self.failure(opening: error).response
            }
            if let tenant { return await self.answer(request, inTenant: tenant, of: backend) }
            if let tenant = Self.tenantDeleted(by: request) { return await self.deleteTenant(tenant, of: backend, request) }
            return await backend.answer(request) { tenant in await self.answer(request, inTenant: tenant, of: backend, handedOff: true) }
        }
    }

    /// What a request is told when its project cannot be opened: running out of descriptors, or a
    /// database refused at its opening (emptied, gone, damaged), is a 503, never a 500.
    func failure(opening error: any Error) -> BackendFailure {
        if let failure = error as? BackendFailure { return failure }
        logger.error("opening a project failed", metadata: ["error": "\(error)"])
        if DescriptorBudget.isExhausted() { return .descriptorsExhausted }
        return error is EmbeddedBackendError ? .projectDataUnavailable : .internalError
    }

    // MARK: Choosing the project

    /// `GET /emulator/v1/projects`, answered here: it is about every project, not one.
    static let listingPath = ListProjectsRequest.endpoint.emulatorPath

    /// The project a request goes to, and what its key reaches when it is a project's or a tenant's.
    func backend(for request: WireRequest) throws -> (EmbeddedBackend, ProjectAPIKeys.Scope?) {
        let mark = request.path.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = mark.map { Substring(request.path.utf8[..<$0]) } ?? Substring(request.path)
        let query = mark.map { FormEncoding.items(String(request.path.utf8[request.path.utf8.index(after: $0)...])!) } ?? []
        // Most keys name no project (any key is the default project's): only those that may are checked.
        let keyScope = try Self.apiKey(of: request, query: query).flatMap { key in
            key.hasPrefix(ProjectAPIKeys.prefix) ? try keys().scope(of: key) : nil
        }
        let keyProject = keyScope?.projectId
        let adminToken = defaultProject.configuration.adminToken
        var requested = Self.projectNamed(in: path) ?? keyProject
        if requested == nil, EmbeddedBackend.mayNameTarget(request.body) {
            // Only an administrator may name a target; anyone else's is refused by the default project.
            struct Target: Decodable { var targetProjectId: String? }
            if let target = (try? WireCoding.decoder().decode(Target.self, from: request.body))?.targetProjectId, !target.isEmpty,
               Self.isAdministrator(request, adminToken: adminToken) {
                requested = target
            }
        }
        guard let requested, requested != defaultProject.projectId else {
            // A project's key is for that project: on a shared backend it opens nothing else.
            if adminToken != nil, let keyProject, keyProject != defaultProject.projectId {
                throw BackendFailure.projectPermissionDenied(defaultProject.projectId)
            }
            return (defaultProject, keyScope)
        }
        guard ProjectId.isValid(requested) else { throw BackendFailure.invalidProjectId(requested) }
        if adminToken != nil {
            guard keyProject == requested || Self.isAdministrator(request, adminToken: adminToken) else {
                throw BackendFailure.projectPermissionDenied(requested)
            }
        }
        // A read creates nothing: a console that asks for the outbox of a project the server has never
        // heard of learns which one it serves instead (`AuthEmulatorOutbox` follows it there).
        if request.method.uppercased() == "GET", !exists(requested) {
            throw BackendFailure.projectNotFound(requested, served: defaultProject.projectId)
        }
        return (try openProject(requested, keep: false), keyScope)
    }

    func keys() throws -> ProjectAPIKeys {
        ProjectAPIKeys(key: try defaultProject.signer.projectAPIKeyKey)
    }

    /// The API key a request carries: the header, the `key` parameter, or an email link's `apiKey`.
    static func apiKey(of request: WireRequest, query: [URLQueryItem]) -> String? {
        for (name, value) in request.headers where name.utf8.count == 14 && name.lowercased() == "x-goog-api-key" && !value.isEmpty {
            return value
        }
        for item in query where item.name == "key" || item.name == "apiKey" {
            if let value = item.value, !value.isEmpty { return value }
        }
        return nil
    }

    /// The `{id}` of a path's `/projects/{id}/…` or `/projects/{id}:…`.
    static func projectNamed(in path: Substring) -> String? {
        let marker = "/projects/".utf8
        let bytes = path.utf8
        var start = bytes.startIndex
        while let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
            guard bytes.distance(from: slash, to: bytes.endIndex) > marker.count else { return nil }
            let afterMarker = bytes.index(slash, offsetBy: marker.count)
            if bytes[slash..<afterMarker].elementsEqual(marker) {
                let rest = bytes[afterMarker...]
                let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") } ?? rest.endIndex
                guard end > rest.startIndex else { return nil }
                return String(decoding: rest[..<end], as: UTF8.self)
            }
            start = bytes.index(after: slash)
        }
        return nil
    }

    /// The backend's own rule for who is an administrator (`RequestContext`), asked before the project is chosen.
    static func isAdministrator(_ request: WireRequest, adminToken: String?) -> Bool {
        (try? RequestContext(request: request, query: [], adminToken: adminToken))?.isAdmin == true
    }

    private func listing(_ request: WireRequest) throws -> Data {
        guard request.method.uppercased() == "GET" else { throw BackendFailure.notFound(Self.listingPath) }
        // Open on loopback like the emulator's other endpoints; on a shared backend, the administrator's.
        if defaultProject.configuration.adminToken != nil {
            guard Self.isAdministrator(request, adminToken: defaultProject.configuration.adminToken) else { throw BackendFailure.unauthenticated }
        }
        var projects = [ListProjectsResponse.Project(projectId: defaultProject.projectId, accounts: try defaultProject.accountCount(),
                                                     messages: try defaultProject.messageCount(), lockouts: try defaultProject.lockoutCount(),
                                                     owner: nil)]
        for id in try projectIdsOnDisk().sorted() {
            // One project refused at opening is listed as such, beside the others; running out of
            // descriptors refuses the whole listing, which a moment later will succeed.
            do {
                let counts = try databaseMade(id) ? withLeased(id) { try ($0.accountCount(), $0.messageCount(), $0.lockoutCount()) } : (0, 0, 0)
                projects.append(.init(projectId: id, accounts: counts.0, messages: counts.1, lockouts: counts.2, owner: owner(of: id)?.wire))
            } catch {
                let failure = failure(opening: error)
                guard failure.retryAfter == nil else { throw failure }
                projects.append(.init(projectId: id, accounts: 0, owner: owner(of: id)?.wire, unavailable: failure.message))
            }
        }
        return try WireCoding.encoder().encode(ListProjectsResponse(projects: projects))
    }

    // MARK: The projects

    /// Who the project is for, if anyone said (`setOwner`).
    public func owner(of id: String) -> ProjectOwner? {
        guard id != defaultProject.projectId, ProjectId.isValid(id) else { return nil }
        return ProjectOwner.read(in: projectDirectory(id))
    }

    /// Records who the project is for, in its directory (so that it goes with it).
    public func setOwner(_ owner: ProjectOwner, of id: String) throws {
        guard id != defaultProject.projectId, exists(id) else { throw BackendFailure.invalidProjectId(id) }
        try owner.write(in: projectDirectory(id))
    }

    /// The project, opened (and created, within `maximumProjects`) when needed, and kept open for the
    /// caller, who holds it. Blocks on SQLite: call it off Swift's cooperative pool.
    public func project(_ id: String) throws -> EmbeddedBackend {
        try openProject(id, keep: true)
    }

    /// `body` with the project open; it may be closed once unused.
    private func withLeased<T>(_ id: String, _ body: (EmbeddedBackend) throws -> T) throws -> T {
        let backend = try openProject(id, keep: false)
        defer { open.release(backend) }
        return try body(backend)
    }

    /// The project leased (`keep` false: release it) or kept, opened first if needed within the
    /// descriptor budget: at the budget, the project unused longest is closed to make room.
    private func openProject(_ id: String, keep: Bool) throws -> EmbeddedBackend {
        if id == defaultProject.projectId { return defaultProject }
        guard ProjectId.isValid(id) else { throw BackendFailure.invalidProjectId(id) }
        if let backend = open.lease(id, keep: keep) { return backend }
        return try changes.withLock { _ in
            if let backend = open.lease(id, keep: keep) { return backend }
            try makeDirectory(id)
            close(open.takeIdle(limit: open.count + 1 - DescriptorBudget.openProjects()))
            let backend = try openDatabase(id)
            open.insert(id, backend, keep: keep)
            return backend
        }
    }

    private func openDatabase(_ id: String) throws -> EmbeddedBackend {
        do {
            return try EmbeddedBackend(project: id, databasePath: databasePath(id), sharing: defaultProject)
        } catch _ where DescriptorBudget.isExhausted() {
            // Out of descriptors: the projects no request is using give theirs back, and the opening is tried once more.
            close(open.takeIdle(limit: .max))
            return try EmbeddedBackend(project: id, databasePath: databasePath(id), sharing: defaultProject)
        }
    }

    /// Closes the projects no request has used for `lifetime`; they open again at their next request.
    private func closeIdle(unusedFor lifetime: Duration) {
        changes.withLock { _ in close(open.takeIdle(limit: .max, unusedSince: .now - lifetime)) }
    }

    func close(_ backends: [EmbeddedBackend]) {
        for backend in backends {
            do { try backend.close() } catch { logger.warning("closing a project failed", metadata: ["project": "\(backend.projectId)", "error": "\(error)"]) }
        }
    }

    /// Makes a project's directory (within `maximumProjects`) but not its database, which its first
    /// request makes: a visitor's console starts without waiting for SQLite.
    public func prepare(_ id: String) throws {
        guard id != defaultProject.projectId else { return }
        guard ProjectId.isValid(id) else { throw BackendFailure.invalidProjectId(id) }
        try changes.withLock { _ in try makeDirectory(id) }
    }

    private func makeDirectory(_ id: String) throws {
        let projectDirectory = projectDirectory(id)
        guard !FileManager.default.fileExists(atPath: projectDirectory.path) else { return }
        guard try projectIdsOnDisk().count < maximumProjects else { throw BackendFailure.tooManyProjects(maximumProjects) }
        try FileManager.default.createDirectory(at: projectDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func databasePath(_ id: String) -> String {
        projectDirectory(id).appendingPathComponent("identity.sqlite").path
    }

    /// The API key that reaches this project only; it needs no database.
    public func apiKey(of id: String) throws -> String {
        try keys().apiKey(for: id)
    }

    /// Accounts in a project. One whose database was never made has none, and is not made here.
    public func accountCount(of id: String) throws -> Int {
        try databaseMade(id) ? withLeased(id) { try $0.accountCount() } : 0
    }

    private func databaseMade(_ id: String) -> Bool {
        id == defaultProject.projectId || open.contains(id) || FileManager.default.fileExists(atPath: databasePath(id))
            || FirstStartMarker.exists(forDatabaseAt: databasePath(id))
    }

    /// Whether the project exists (the default always does).
    public func exists(_ id: String) -> Bool {
        id == defaultProject.projectId || (ProjectId.isValid(id) && FileManager.default.fileExists(atPath: projectDirectory(id).path))
    }

    /// The directory of a project other than the default: its database, and whatever else belongs to it
    /// (a visitor's console keeps its session and app data there), all removed with it.
    public func projectDirectory(_ id: String) -> URL {
        directory.appendingPathComponent(id, isDirectory: true)
    }

    /// Every project but the default, by id.
    public func projectIds() -> [String] {
        ((try? projectIdsOnDisk()) ?? []).sorted()
    }

    /// Thrown when the directory cannot be read (out of descriptors, say), so that no listing passes
    /// for complete; none before the first project is made.
    private func projectIdsOnDisk() throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter(ProjectId.isValid)
    }

    /// Removes a project other than the default with everything of it: its database is closed
    /// and its directory deleted.
    public func removeProject(_ id: String) throws {
        guard id != defaultProject.projectId, ProjectId.isValid(id) else { throw BackendFailure.invalidProjectId(id) }
        try changes.withLock { _ in
            close((open.remove(id).map { [$0] } ?? []) + open.removeTenants(of: id))
            let projectDirectory = directory.appendingPathComponent(id, isDirectory: true)
            if FileManager.default.fileExists(atPath: projectDirectory.path) {
                try FileManager.default.removeItem(at: projectDirectory)
            }
        }
    }

    /// Empties a project other than the default: its database is closed and deleted, and made anew,
    /// empty, at its next request (its API key stays valid); its tenants go with their accounts. The rest of its directory (who it is
    /// for, a console's own files) stays, since a console may be using it.
    public func emptyProject(_ id: String) throws {
        guard id != defaultProject.projectId, ProjectId.isValid(id) else { throw BackendFailure.invalidProjectId(id) }
        try changes.withLock { _ in
            close((open.remove(id).map { [$0] } ?? []) + open.removeTenants(of: id))
            try tenantDirectory(of: id).removeAll()
            let database = databasePath(id)
            // The marker first: stopped half-way, the project keeps its data rather than refusing to open.
            try FirstStartMarker.remove(forDatabaseAt: database)
            for path in [database, database + "-wal", database + "-shm", database + "-journal"] where FileManager.default.fileExists(atPath: path) {
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// An administrator's transport in process, to every project, as `authdeck serve` reaches them.
    public func administratorTransport(exchanges: ExchangeLog = ExchangeLog()) -> InProcessTransport {
        let credential = defaultProject.configuration.adminToken.map(StaticAdministratorCredential.init(token:)) ?? .owner
        return InProcessTransport(handler: self, exchanges: exchanges, administrator: credential, clock: defaultProject.clock)
    }

    /// Closes every open project's database, the default's last.
    public func close() throws {
        closeOtherProjects()
        try defaultProject.close()
    }

    /// Closes the databases of the projects other than the default, for an owner of the default
    /// that closes it itself (the console).
    public func closeOtherProjects() {
        idleSweep.cancel()
        changes.withLock { _ in close(open.removeAll()) }
    }
}
