import ArgumentParser
import Foundation
import IdentityEmulator
import Logging

/// `authdeck accounts projects` and `hash-config`: what a data directory holds, and how its passwords are hashed.
extension AccountsCommand {
    struct Projects: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the projects of a data directory: its own, and those `authdeck serve` and `authdeck ssh` keep beside it.",
            discussion: """
                For a visitor's project: the name they chose at their first visit (which a visitor with a key keeps), \
                the key it belongs to (or none), the address it was last used from, and when. \
                --api-key prints the API key that reaches one project of a shared `authdeck serve` and no other \
                (what a visitor's console is given), for an app or SDK pointed at that project.
                """)

        @Option(name: .long, help: ArgumentHelp("Data directory (default: $XDG_DATA_HOME/authdeck, else ~/.local/share/authdeck).", valueName: "DIR"))
        var data: String?

        @Option(name: .customLong("api-key"), help: ArgumentHelp("Print only the API key of this project (made at its first request).", valueName: "PROJECT"))
        var apiKeyProject: String?

        func run() async throws {
            let directory = try AccountsCommand.openDataDirectory(explicit: data, creating: false)
            let backend = try StartupSteps.openEmbeddedBackend(in: directory, configuration: EmbeddedBackendConfiguration(),
                                                               logger: Logger(label: "authdeck.accounts"))
            let projects = BackendProjects(defaultProject: backend, dataDirectory: directory.url)
            defer { try? projects.close() }
            if let apiKeyProject {
                guard ProjectId.isValid(apiKeyProject) else { throw StartupError("\(apiKeyProject) is not a project id: 6 to 30 lower-case letters, digits and hyphens, starting with a letter.") }
                print(try projects.apiKey(of: apiKeyProject))
                return
            }
            var lines = [["project", "accounts", "name", "visitor", "address", "last seen", "left"]]
            lines.append([backend.projectId, String(try backend.accountCount()), "", "(the directory's own)", "", "", ""])
            let format = ISO8601DateFormatter()
            var unavailable: [String] = []
            for id in projects.projectIds() {
                let owner = projects.owner(of: id)
                // One project that cannot be opened is said so, and the others are still listed.
                let accounts: String
                do {
                    accounts = String(try projects.accountCount(of: id))
                } catch {
                    accounts = "unavailable"
                    unavailable.append("\(id): \(error)")
                }
                lines.append([id, accounts, owner?.name ?? "", owner.map { $0.key ?? "no key" } ?? "",
                              owner?.address ?? "", owner.map { format.string(from: $0.lastSeen) } ?? "",
                              owner?.leftAt.map { format.string(from: $0) } ?? (owner == nil ? "" : "connected")])
            }
            let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max() ?? 0 }
            for line in lines {
                print(zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces))
            }
            for reason in unavailable { FileHandle.standardError.write(Data("authdeck: project \(reason)\n".utf8)) }
            if !unavailable.isEmpty { throw ExitCode(1) }
        }
    }

    struct HashConfig: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash-config",
            abstract: "Print the password-hash parameters, as the Firebase console's Users menu shows them.")

        @OptionGroup var backend: BackendOptions

        func run() async throws {
            try await backend.withAdmin { admin in
                let hash = try await admin.passwordHashParameters()
                print("""
                    hash_config {
                      algorithm: \(hash.algorithm),
                      base64_signer_key: \(hash.signerKey),
                      base64_salt_separator: \(hash.saltSeparator),
                      rounds: \(hash.rounds),
                      mem_cost: \(hash.memoryCost),
                    }
                    """)
            }
        }
    }
}
