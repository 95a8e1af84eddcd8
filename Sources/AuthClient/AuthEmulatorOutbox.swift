import Foundation
import IdentityToolkit
import Synchronization

/// The Firebase Auth Emulator's outboxes (the embedded backend and `authdeck serve` have the same):
/// the emails and texts it would have sent. Read through the backend like any other call, so it works
/// in process and over HTTP alike. A real Firebase project has none.
public struct AuthEmulatorOutbox: Sendable {
    let backend: any IdentityBackend
    /// The project whose outbox is read; a server that names the project it serves instead is
    /// believed, so a console started without `--project` finds the served project's messages.
    private let project: ProjectID

    public init(backend: any IdentityBackend, projectId: String) {
        self.backend = backend
        self.project = ProjectID(projectId)
    }

    public var projectId: String { project.value.withLock { $0 } }

    /// Shared by the copies of one outbox: what one learns, all read.
    private final class ProjectID: Sendable {
        let value: Mutex<String>
        init(_ id: String) { value = Mutex(id) }
    }

    /// Why the outbox could not be read, so the console can say how to fix it.
    public struct ReadFailure: Error, Equatable, Sendable {
        public enum Reason: Equatable, Sendable {
            /// The server keeps its outboxes for administrators (`authdeck serve --admin-token`): 401 or 403.
            case administratorsOnly
            /// The server serves another project than the one asked for (404 `PROJECT_NOT_FOUND`).
            case unknownProject(String)
            /// Anything else: the server could not be reached, or answered something unexpected.
            case failed
        }

        public var reason: Reason
        public var error: AuthError

        public init(_ reason: Reason, _ error: AuthError) {
            self.reason = reason
            self.error = error
        }
    }

    /// An email action the emulator would have sent: the link and its one-use code.
    public struct Email: Equatable, Sendable {
        public enum Action: Equatable, Sendable {
            case verifyEmail, resetPassword
            /// A passwordless sign-in link (`EMAIL_SIGNIN`).
            case signIn
            /// Confirms a new address before the account's email becomes it (`VERIFY_AND_CHANGE_EMAIL`).
            case verifyAndChangeEmail
            /// Sent to the previous address when the email changed: it undoes the change (`RECOVER_EMAIL`).
            case recoverEmail
            /// An action this client does not know, by its wire name.
            case other(String)
        }

        public var to: String
        public var action: Action
        public var oobCode: String
        public var link: String

        public init(to: String, action: Action, oobCode: String, link: String) {
            self.to = to
            self.action = action
            self.oobCode = oobCode
            self.link = link
        }

        init(_ wire: ListOobCodesResponse.OobCode) {
            let action: Action = switch SendOobCodeRequest.RequestType(rawValue: wire.requestType) {
            case .verifyEmail: .verifyEmail
            case .passwordReset: .resetPassword
            case .emailSignIn: .signIn
            case .verifyAndChangeEmail: .verifyAndChangeEmail
            case .recoverEmail: .recoverEmail
            case nil: .other(wire.requestType)
            }
            self.init(to: wire.email, action: action, oobCode: wire.oobCode, link: wire.oobLink)
        }
    }

    /// A text the emulator would have sent: the code of one phone verification.
    public struct TextMessage: Equatable, Sendable {
        public var to: String
        public var code: String
        public var verificationID: String

        public init(to: String, code: String, verificationID: String) {
            self.to = to
            self.code = code
            self.verificationID = verificationID
        }
    }

    /// Email actions not yet used, oldest first. Throws `ReadFailure`.
    public func emails() async throws -> [Email] {
        try await read { try await backend.call(ListOobCodesRequest(projectId: $0)).oobCodes.map(Email.init) }
    }

    /// SMS codes not yet used, oldest first. Throws `ReadFailure`.
    public func texts() async throws -> [TextMessage] {
        try await read {
            try await backend.call(ListVerificationCodesRequest(projectId: $0)).verificationCodes.map {
                TextMessage(to: $0.phoneNumber, code: $0.code, verificationID: $0.sessionInfo)
            }
        }
    }

    /// Reads with the current project; when the server answers that it serves another one (the
    /// emulator's single-project answer names it), reads that one from then on.
    private func read<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let asked = projectId
        do {
            return try await body(asked)
        } catch let IdentityToolkitError.server(status, message) {
            if let served = Self.servedProject(in: message), served != asked {
                project.value.withLock { $0 = served }
                do {
                    return try await body(served)
                } catch {
                    throw Self.failure(error, project: served)
                }
            }
            throw Self.failure(IdentityToolkitError.server(status: status, message: message), project: asked)
        } catch {
            throw Self.failure(error, project: asked)
        }
    }

    static func failure(_ error: any Error, project: String) -> ReadFailure {
        let authError = AuthError.from(error)
        guard case let IdentityToolkitError.server(status, message) = error else { return ReadFailure(.failed, authError) }
        if status == 401 || status == 403 { return ReadFailure(.administratorsOnly, authError) }
        if status == 404, message.contains("PROJECT_NOT_FOUND") || message.contains(project) {
            return ReadFailure(.unknownProject(project), authError)
        }
        return ReadFailure(.failed, authError)
    }

    /// "… Requested project ID X, but the emulator is configured for Y." → Y.
    static func servedProject(in message: String) -> String? {
        guard let range = message.range(of: "configured for ") else { return nil }
        let id = message[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        return id.isEmpty ? nil : String(id)
    }
}

extension BackendExchange {
    /// A read of the emulator's outboxes, whose answer holds every message of the project, whoever it was for.
    public var readsTheOutbox: Bool {
        let projects = "/\(Endpoint.Host.emulator.rawValue)/v1/projects/"
        return method == "GET" && path.hasPrefix(projects) && (path.hasSuffix("/oobCodes") || path.hasSuffix("/verificationCodes"))
    }
}
