import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

/// A project no request uses gives its file descriptors back, and opens again at its next request.
@Suite struct IdleProjectTests {
    /// Descriptors of this process open on files under `directory`.
    private static func descriptors(under directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.hasPrefix(directory.path) == true
        }.count
    }

    /// A sign-up with the project's own API key, as its app makes it.
    private static func signUp(_ projects: BackendProjects, _ id: String, _ email: String) async throws -> WireResponse {
        await projects.handle(WireRequest(path: SignUpRequest.endpoint.emulatorPath, headers: ["x-goog-api-key": try projects.apiKey(of: id)],
                                          body: Data(#"{"email":"\#(email)","password":"secret-1"}"#.utf8)))
    }

    @Test func anIdleProjectClosesItsDatabaseAndOpensAgainWhenAsked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let projects = BackendProjects(defaultProject: harness.backend, dataDirectory: harness.directory, idleLifetime: .seconds(1))
        defer { projects.closeOtherProjects() }
        let project = projects.projectDirectory("room-alpha")
        #expect(try await Self.signUp(projects, "room-alpha", "ada@example.com").status == 200)

        // The sweep runs every half lifetime (at least a second); a busy machine may take longer.
        var waited = 0
        while try Self.descriptors(under: project) > 0, waited < 100 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(try Self.descriptors(under: project) == 0)
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("identity.sqlite-wal").path), "closed cleanly")

        #expect(try await Self.signUp(projects, "room-alpha", "grace@example.com").status == 200)
        #expect(try projects.accountCount(of: "room-alpha") == 2)
    }

    @Test func aProjectHandedToACallerStaysOpen() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let projects = BackendProjects(defaultProject: harness.backend, dataDirectory: harness.directory, idleLifetime: .seconds(1))
        defer { projects.closeOtherProjects() }
        let held = try projects.project("room-bravo")
        try await Task.sleep(for: .milliseconds(2500))
        #expect(try held.accountCount() == 0)
        #expect(try Self.descriptors(under: projects.projectDirectory("room-bravo")) > 0)
    }
}
