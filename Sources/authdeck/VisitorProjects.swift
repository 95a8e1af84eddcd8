import AppData
import Foundation
import IdentityEmulator
import SSHServer

/// Visitors' sandboxes as projects of the embedded backend `authdeck ssh` serves: their own accounts,
/// numbers, addresses, identities and outbox, reached with that project's API key only. Each project
/// records who it is for (`ProjectOwner`, in its directory), and the console keeps its session and app
/// data there too, so that removing the project removes all of it. SQLite and the files are worked on
/// the thread pool.
struct VisitorProjects: SandboxStore {
    /// A visitor's console reaches its project with the project's key.
    struct Access: Sendable {
        let projectId: String
        let apiKey: String
    }

    let projects: BackendProjects

    func sandboxIds() async throws -> [String] {
        try await BlockingWork.run { [projects] in projects.projectIds() }
    }

    func exists(_ id: String) async throws -> Bool {
        try await BlockingWork.run { [projects] in projects.exists(id) }
    }

    /// The directory; the database is made by the project's first request, not here: the console
    /// starts without waiting for it.
    func reserve(_ id: String) async throws {
        try await BlockingWork.run { [projects] in try projects.prepare(id) }
    }

    func prepare(_ id: String, name: String) async throws -> Access {
        try await BlockingWork.run { [projects] in
            try projects.prepare(id)
            return Access(projectId: id, apiKey: try projects.apiKey(of: id))
        }
    }

    func owner(of id: String) async -> SandboxOwner? {
        try? await BlockingWork.run { [projects] in
            projects.owner(of: id).map {
                SandboxOwner(key: $0.key, address: $0.address, createdAt: $0.createdAt, lastSeen: $0.lastSeen, leftAt: $0.leftAt, name: $0.name)
            }
        }
    }

    func setOwner(_ owner: SandboxOwner, of id: String) async throws {
        let record = ProjectOwner(key: owner.key, address: owner.address, createdAt: owner.createdAt, lastSeen: owner.lastSeen, leftAt: owner.leftAt,
                                  name: owner.name)
        try await BlockingWork.run { [projects] in try projects.setOwner(record, of: id) }
    }

    func accountCount(of id: String) async throws -> Int {
        try await BlockingWork.run { [projects] in try projects.accountCount(of: id) }
    }

    func empty(_ id: String) async throws {
        try await BlockingWork.run { [projects] in try projects.emptyProject(id) }
    }

    func remove(_ id: String) async throws {
        try await BlockingWork.run { [projects] in try projects.removeProject(id) }
    }

    func directory(of id: String) -> URL { projects.projectDirectory(id) }

    func label(of id: String) async -> String { id }
}

extension SandboxStore {
    /// An account, or items in the app data the visitor's console keeps in the sandbox's directory
    /// (`appdata.sqlite`, opened on the thread pool).
    func holdsWork(_ id: String) async throws -> Bool {
        if try await accountCount(of: id) > 0 { return true }
        let path = directory(of: id).appendingPathComponent("appdata.sqlite").path
        return try await BlockingWork.run { CartStore.holdsItems(at: path) }
    }
}
