import ArgumentParser
import AuthAdmin
import Foundation
import IdentityEmulator
import IdentityToolkit
import Logging

/// `authdeck accounts …`: the operator's account administration for scripts, on any backend.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List, export, import accounts and show the password-hash parameters (for scripts).",
        discussion: """
            Works on the embedded backend (--data), on `authdeck serve` or the Firebase Auth Emulator \
            (--emulator or FIREBASE_AUTH_EMULATOR_HOST; `Bearer owner`, or AUTHDECK_ADMIN_TOKEN for a serve \
            with --admin-token), and on a real project (--project with a service account in \
            GOOGLE_APPLICATION_CREDENTIALS). With --data or --emulator, --project names one of that backend's \
            projects (`authdeck accounts projects` lists a data directory's). A data directory must hold a \
            backend already, except for import, which makes one there and says so. Files are in the formats of \
            `firebase auth:export` / `auth:import`.
            """,
        subcommands: [List.self, Export.self, Import.self, HashConfig.self, Projects.self])

    /// The data directory (`--data`, else the default). A mistyped path must not read as a backend
    /// without accounts: one that holds no backend is an error and nothing is created, unless
    /// `creating` (an import), which makes the backend there and says so.
    static func openDataDirectory(explicit: String?, creating: Bool) throws -> DataDirectory {
        let path = DataDirectory.resolve(explicit: explicit)
        if !EmbeddedBackend.exists(in: URL(fileURLWithPath: path, isDirectory: true)) {
            guard creating else { throw StartupError("No AuthDeck data in \(path) (no identity database): check --data DIR.") }
            FileHandle.standardError.write(Data("note: \(path) held no AuthDeck data: a new embedded backend is made there\n".utf8))
        }
        return try StartupSteps.openDataDirectory(explicit: path)
    }

    struct BackendOptions: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("Data directory of the embedded backend.", valueName: "DIR"))
        var data: String?

        @Option(name: .long, help: ArgumentHelp("A Firebase Auth Emulator or `authdeck serve` at HOST:PORT.", valueName: "HOST:PORT"))
        var emulator: String?

        @Option(name: .long, help: ArgumentHelp("Alone: a real Firebase / Identity Platform project, administered with the service account in GOOGLE_APPLICATION_CREDENTIALS. With --data or --emulator: that backend's project (a visitor's, say).", valueName: "ID"))
        var project: String?

        @Option(name: .long, help: ArgumentHelp("An Identity Platform tenant of the project: its accounts only (`projects/{p}/tenants/{t}/accounts…`).", valueName: "ID"))
        var tenant: String?

        func validate() throws {
            if let tenant { try ConsoleTenant.validate(tenant) }
        }

        /// Connects, runs `body` with the administrator, and closes what was opened. A data directory
        /// without a backend is an error, unless `creatingData` (an import): then one is made there.
        func withAdmin<T>(creatingData: Bool = false, _ body: (AccountAdmin) async throws -> T) async throws -> T {
            let environment = Environment.process
            let emulatorText = emulator ?? (data == nil ? environment[BackendChoice.emulatorVariable].flatMap { $0.isEmpty ? nil : $0 } : nil)
            if emulator != nil, data != nil { throw ValidationError("Choose one backend: --data DIR or --emulator HOST:PORT.") }
            if let project, data == nil, emulatorText == nil {
                guard let path = environment[ServiceAccountKey.environmentVariable], !path.isEmpty else {
                    throw StartupError("--project needs a service-account key file in \(ServiceAccountKey.environmentVariable).")
                }
                let credential = ServiceAccountCredential(key: try ServiceAccountKey(contentsOf: path))
                let transport = HTTPTransport(target: .production, apiKey: "", administrator: credential)
                return try await finally({
                    try await requireTenant(projectId: project, administrator: transport, backendName: "project \(project)")
                    return try await body(AccountAdmin(backend: transport, projectId: project, tenantId: tenant, capability: .google))
                }) {
                    try? await transport.shutdown()
                    try? await credential.shutdown()
                }
            }
            if let text = emulatorText {
                guard let address = EmulatorAddress(text) else {
                    throw ValidationError("The emulator must be HOST:PORT without a scheme, e.g. localhost:9099 (got '\(text)').")
                }
                let adminToken = environment[ServeCommand.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
                let transport = HTTPTransport(target: .emulator(address), apiKey: "authdeck",
                                              administrator: StaticAdministratorCredential(token: adminToken ?? "owner"))
                let projectId = project ?? environment["GCLOUD_PROJECT"] ?? EmbeddedBackendConfiguration.defaultProjectId
                return try await finally({
                    do {
                        let capability = try await AccountAdmin.detectCapability(of: transport, projectId: projectId)
                        try await requireTenant(projectId: projectId, administrator: transport, backendName: text)
                        return try await body(AccountAdmin(backend: transport, projectId: projectId, tenantId: tenant, capability: capability))
                    } catch let AuthAdminError.backend(status, _) where status == 401 {
                        // Only an `authdeck serve --admin-token` refuses an administrator: its token is the way in.
                        throw StartupError(adminToken == nil
                            ? "\(text) refused the administrator credentials: for an authdeck serve --admin-token, set \(ServeCommand.adminTokenVariable) to its token."
                            : "\(text) refused the token in \(ServeCommand.adminTokenVariable): set it to the token of its authdeck serve --admin-token.")
                    }
                }) { try? await transport.shutdown() }
            }
            let directory = try AccountsCommand.openDataDirectory(explicit: data, creating: creatingData)
            let backend = try StartupSteps.openEmbeddedBackend(in: directory, configuration: EmbeddedBackendConfiguration(),
                                                               logger: Logger(label: "authdeck.accounts"))
            let projects = BackendProjects(defaultProject: backend, dataDirectory: directory.url)
            return try await finally({
                let id = project ?? backend.projectId
                guard projects.exists(id) else {
                    throw StartupError("No project \(id) in \(directory.path); it holds \(([backend.projectId] + projects.projectIds()).joined(separator: ", ")).")
                }
                let target = try projects.project(id)
                guard let tenant else {
                    return try await body(AccountAdmin(backend: target.administratorTransport(), projectId: target.projectId, capability: .authdeck))
                }
                // A tenant's path is routed by the projects, as `authdeck serve` routes it.
                let administrator = projects.administratorTransport()
                try await requireTenant(projectId: id, administrator: administrator, backendName: directory.path)
                return try await body(AccountAdmin(backend: administrator, projectId: target.projectId, tenantId: tenant, capability: .authdeck))
            }) { try? projects.close() }
        }

        /// An unknown `--tenant` is an error before anything is read or written: an administrator's request
        /// would make it on a backend that makes the tenants it is told of, as the emulator does.
        private func requireTenant(projectId: String, administrator: any IdentityBackend, backendName: String) async throws {
            guard let tenant else { return }
            try await ConsoleTenant.requireExisting(tenant, projectId: projectId, administrator: administrator, backendName: backendName)
        }

        /// Runs `work`, then `cleanup` whether it threw or not.
        private func finally<T>(_ work: () async throws -> T, _ cleanup: () async -> Void) async throws -> T {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            await cleanup()
            return try result.get()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the accounts that match, one per line (or as JSON).",
            discussion: """
                --filter may be given several times; every condition must hold: anonymous, disabled, unverified, \
                2fa, locked (wrong passwords have locked its email out; AuthDeck's backends only), provider:ID \
                (password, phone, google.com …), older-than:DAYS (anonymous accounts created that long ago), or \
                any other text: the start of an email (any case), phone number or uid.
                """)

        @OptionGroup var backend: BackendOptions

        @Option(name: .long, help: ArgumentHelp("A condition (see below).", valueName: "CONDITION"))
        var filter: [String] = []

        @Option(name: .long, help: "Sort by created, last-sign-in, email, uid or name (default created, newest first).")
        var sort: String = "created"

        @Flag(name: .long, help: "Oldest / smallest first.")
        var ascending = false

        @Option(name: .long, help: "At most this many accounts (default: all).")
        var limit: Int?

        @Flag(name: .long, help: "JSON: one array of accounts, with the Admin SDK's field names plus anonymous, hasPassword and locked (never a password hash).")
        var json = false

        func validate() throws {
            _ = try Self.sortField(sort)
            _ = try Self.accountFilter(filter)
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        }

        static func sortField(_ text: String) throws -> AccountSort.Field {
            switch text.lowercased() {
            case "created": .createdAt
            case "last-sign-in", "last-signin": .lastSignIn
            case "email": .email
            case "uid": .uid
            case "name": .name
            default: throw ValidationError("--sort must be created, last-sign-in, email, uid or name (got '\(text)').")
            }
        }

        static func accountFilter(_ conditions: [String]) throws -> AccountFilter {
            var filter = AccountFilter()
            var text: [String] = []
            for condition in conditions {
                switch condition.lowercased() {
                case "anonymous": filter.anonymous = true
                case "disabled": filter.disabled = true
                case "unverified": filter.emailUnverified = true
                case "2fa", "mfa": filter.hasSecondFactor = true
                case "locked": filter.locked = true
                case let other where other.hasPrefix("provider:"): filter.providerId = String(condition.dropFirst("provider:".count))
                case let other where other.hasPrefix("older-than:"):
                    guard let days = Int(other.dropFirst("older-than:".count)), days >= 0 else {
                        throw ValidationError("older-than: needs a number of days (got '\(condition)').")
                    }
                    filter.anonymousOlderThanDays = days
                default: text.append(condition)
                }
            }
            guard text.count <= 1 else { throw ValidationError("Give at most one text to search for (got \(text.count)).") }
            filter.text = text.first ?? ""
            return filter
        }

        func run() async throws {
            let filter = try Self.accountFilter(self.filter)
            let sort = AccountSort(field: try Self.sortField(self.sort), descending: !ascending)
            try await backend.withAdmin { admin in
                var users: [UserRecord] = []
                var total = 0
                repeat {
                    let want = min(QueryAccountsRequest.maximumLimit, (limit ?? .max) - users.count)
                    let page = try await admin.page(filter: filter, sort: sort, offset: users.count, limit: want)
                    users += page.users
                    total = page.totalCount ?? users.count
                    if page.users.isEmpty { break }
                } while users.count < min(total, limit ?? .max)
                // As the console's table marks its rows: the project's lock-outs, matched by address.
                let lockouts = AccountListing.lockouts(try await admin.passwordLockouts())
                print(json ? try AccountListing.json(users, lockouts: lockouts) : AccountListing.table(users, lockouts: lockouts))
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every account to FILE (firebase auth:export's JSON or CSV, hashes in base64).",
            discussion: "The file is written beside FILE and renamed into place at the end, mode 0600: never half-written.")

        @OptionGroup var backend: BackendOptions

        @Argument(help: ArgumentHelp("The file to write.", valueName: "FILE"))
        var file: String

        @Option(name: .long, help: "json or csv (default: from FILE's extension).")
        var format: String?

        func run() async throws {
            let format = try fileFormat(format, file: file)
            try await backend.withAdmin { admin in
                let progress = ProgressLine()
                do {
                    let summary = try await admin.export(to: file, format: format) { count in progress.update("exported \(count) accounts") }
                    progress.finish("exported \(summary.count) accounts to \(file)")
                    if let note = summary.leftOutNote { FileHandle.standardError.write(Data((note + "\n").utf8)) }
                } catch {
                    progress.end()
                    throw error
                }
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import the accounts of FILE (firebase auth:import's JSON or CSV).",
            discussion: """
                Every record is checked first; any problem (a bad line, a duplicate uid or email, claims Firebase \
                refuses) is listed with its line and nothing is imported, unless --skip-invalid. Records the \
                backend refuses undo the whole import, unless --skip-invalid. Password hashes need their \
                project's parameters: --hash-algo SCRYPT --hash-key … (`authdeck accounts hash-config` shows this backend's).
                """)

        @OptionGroup var backend: BackendOptions

        @Argument(help: ArgumentHelp("The file to read.", valueName: "FILE"))
        var file: String

        @Option(name: .long, help: "json or csv (default: from FILE's extension).")
        var format: String?

        @Option(name: .long, help: "The algorithm of the password hashes (SCRYPT: Firebase's modified scrypt).")
        var hashAlgo: String?

        @Option(name: .long, help: "The base64 signer key of the hashes' project.")
        var hashKey: String?

        @Option(name: .long, help: "The base64 salt separator.")
        var saltSeparator: String?

        @Option(name: .long, help: "scrypt rounds (1 to 8).")
        var rounds: Int?

        @Option(name: .long, help: "scrypt memory cost (1 to 14).")
        var memCost: Int?

        @Flag(name: .long, help: "Import the valid records and report the others, instead of importing nothing.")
        var skipInvalid = false

        /// The algorithms `firebase auth:import` knows; the backend says which it takes.
        static let knownAlgorithms: Set<String> = [
            "SCRYPT", "STANDARD_SCRYPT", "BCRYPT", "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "MD5", "SHA1", "SHA256", "SHA512",
            "PBKDF_SHA1", "PBKDF2_SHA256",
        ]

        func hashParameters() throws -> PasswordHashParameters? {
            guard let hashAlgo else { return nil }
            let algorithm = hashAlgo.uppercased()
            guard Self.knownAlgorithms.contains(algorithm) else { throw ValidationError("Unknown hash algorithm '\(hashAlgo)'.") }
            guard algorithm == "SCRYPT" else {
                return PasswordHashParameters(algorithm: algorithm, signerKey: hashKey ?? "", saltSeparator: saltSeparator ?? "",
                                              rounds: rounds ?? 0, memoryCost: memCost ?? 0)
            }
            guard let hashKey, Data(base64Encoded: hashKey) != nil else { throw ValidationError("SCRYPT needs --hash-key (base64).") }
            if let saltSeparator, Data(base64Encoded: saltSeparator) == nil { throw ValidationError("--salt-separator must be base64.") }
            guard let rounds, (1...8).contains(rounds) else { throw ValidationError("SCRYPT needs --rounds 1 to 8.") }
            guard let memCost, (1...14).contains(memCost) else { throw ValidationError("SCRYPT needs --mem-cost 1 to 14.") }
            return PasswordHashParameters(signerKey: hashKey, saltSeparator: saltSeparator ?? "", rounds: rounds, memoryCost: memCost)
        }

        func validate() throws { _ = try hashParameters() }

        func run() async throws {
            let format = try fileFormat(format, file: file)
            let hash = try hashParameters()
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw StartupError("\(file): cannot be read")
            }
            let read = AccountFileReader.read(data, format: format)
            var users = read.users
            if hash == nil, let first = users.first(where: { $0.user.passwordHash?.isEmpty == false }) {
                throw StartupError("\(file): line \(first.line) has a password hash: give --hash-algo and its parameters (`authdeck accounts hash-config` shows this backend's).")
            }
            report(read.problems)
            if !read.problems.isEmpty {
                guard skipInvalid else { throw StartupError("\(file): \(read.problems.count) problem(s); nothing imported.") }
                let bad = Set(read.problems.map(\.line))
                users.removeAll { bad.contains($0.line) }
            }
            let total = users.count
            let progress = ProgressLine()
            let refused = try await backend.withAdmin(creatingData: true) { admin in
                let refused: [AccountFileProblem]
                do {
                    refused = try await admin.importUsers(users, hash: hash, keepAccepted: skipInvalid) { count in
                        progress.update("imported \(count) of \(total) accounts")
                    }
                } catch {
                    progress.end()
                    throw error
                }
                if !refused.isEmpty { progress.end() }
                report(refused)
                guard refused.isEmpty || skipInvalid else {
                    throw StartupError("\(file): the backend refused \(refused.count) record(s); nothing imported.")
                }
                progress.finish("imported \(total - refused.count) accounts from \(file)")
                return refused
            }
            // Imported, they are deleted at the embedded backend's next start: say so now, not in its log then.
            let refusedLines = Set(refused.map(\.line))
            let cutoff = Date().addingTimeInterval(-EmbeddedBackendConfiguration().anonymousAccountLifetime)
            let expiring = users.filter { !refusedLines.contains($0.line) && $0.user.isAnonymous && ($0.user.creationDate ?? Date()) < cutoff }.count
            if expiring > 0 {
                FileHandle.standardError.write(Data("""
                    note: \(expiring) of them are anonymous accounts created more than 30 days ago, which the embedded \
                    backend's clean-up (Identity Platform's, on a real project where it is on) deletes at its next start\n
                    """.utf8))
            }
        }

        private func report(_ problems: [AccountFileProblem]) {
            for problem in problems { FileHandle.standardError.write(Data("\(file): \(problem)\n".utf8)) }
        }
    }
}

private func fileFormat(_ option: String?, file: String) throws -> AccountFileFormat {
    if let option {
        guard let format = AccountFileFormat(rawValue: option.lowercased()) else { throw ValidationError("--format must be json or csv.") }
        return format
    }
    guard let format = AccountFileFormat(fileName: file) else {
        throw ValidationError("Name the format: FILE ending in .json or .csv, or --format json|csv.")
    }
    return format
}
