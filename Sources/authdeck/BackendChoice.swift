import ArgumentParser
import Foundation
import IdentityToolkit

/// Which backend the console drives: the embedded one (the default), a Firebase Auth Emulator
/// (or `authdeck serve`), or a real Firebase / Identity Platform project.
enum BackendChoice: Equatable {
    case embedded
    /// `project`: whose outboxes to read (`--project` beside `--emulator`, as the SDKs take a project id with an emulator).
    case emulator(EmulatorAddress, project: String?)
    case project(id: String, apiKey: String)

    /// The variable every Firebase SDK honours.
    static let emulatorVariable = "FIREBASE_AUTH_EMULATOR_HOST"

    /// The Web API key may come from here instead of `--api-key`, which the process list shows.
    static let apiKeyVariable = "AUTHDECK_API_KEY"

    /// `--emulator` wins over `FIREBASE_AUTH_EMULATOR_HOST`; `--project` names the emulator's project beside either,
    /// and alone a real project, which needs `--api-key` (or `AUTHDECK_API_KEY`).
    static func resolve(emulator: String?, project: String?, apiKey: String?,
                        environment: Environment) throws -> BackendChoice {
        if let emulator {
            guard apiKey == nil else {
                throw ValidationError("Choose one backend: --emulator HOST:PORT (with --project ID if it serves another project than authdeck-local), or --project ID with --api-key KEY.")
            }
            if let project, project.isEmpty { throw ValidationError("--project needs a project id.") }
            return .emulator(try address(emulator, from: "--emulator"), project: project)
        }
        if let variable = environment[emulatorVariable], !variable.isEmpty, apiKey == nil, environment[apiKeyVariable] == nil {
            return .emulator(try address(variable, from: emulatorVariable), project: project)
        }
        if project != nil || apiKey != nil {
            guard let project, !project.isEmpty else {
                throw ValidationError("--api-key needs --project ID (the Firebase project the key belongs to).")
            }
            guard let apiKey = apiKey ?? environment[apiKeyVariable], !apiKey.isEmpty else {
                throw ValidationError("--project needs --api-key KEY or \(apiKeyVariable) (the project's Web API key: Firebase console › Project settings › General).")
            }
            return .project(id: project, apiKey: apiKey)
        }
        return .embedded
    }

    private static func address(_ text: String, from source: String) throws -> EmulatorAddress {
        guard let address = EmulatorAddress(text) else {
            throw ValidationError("\(source) must be HOST:PORT without a scheme, e.g. localhost:9099 (got '\(text)').")
        }
        return address
    }

    /// What the status bar shows: `embedded ~/.local/share/authdeck`, `emulator localhost:9099`, `project my-proj`.
    /// `dataDirectory`: absolute, without empty or `.` components (`DataDirectory.path`).
    func statusName(dataDirectory: String, home: String?) -> String {
        switch self {
        case .embedded:
            // `..` resolved by name, as URL's standardizedFileURL does.
            var components: [Substring] = []
            for component in dataDirectory.split(separator: "/") {
                if component == ".." { _ = components.popLast() } else { components.append(component) }
            }
            var path = components.isEmpty ? "/" : ""
            for component in components { path += "/" + String(component) }
            if let home, !home.isEmpty, home != "/", path == home || path.hasPrefix(home + "/") {
                path = "~" + path.dropFirst(home.count)
            }
            if path.count > 28 { path = "…/" + (components.last ?? "") }
            return "embedded \(path)"
        case let .emulator(address, _): return "emulator \(address.authority)"
        case let .project(id, _): return "project \(id)"
        }
    }

    /// Each backend has its own saved session, so a session is never restored against another
    /// backend (its tokens would mean nothing there). The embedded one keeps the original name.
    var sessionFileName: String {
        switch self {
        case .embedded: return "session.json"
        case let .emulator(address, _): return "session-emulator-\(Self.fileSafe(address.host))-\(address.port).json"
        case let .project(id, _): return "session-project-\(Self.fileSafe(id)).json"
        }
    }

    private static func fileSafe(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
    }
}
