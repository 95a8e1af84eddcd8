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
    private let state: State
    public let reach: Reach
    /// The Identity Platform tenant whose outbox is the console's own; nil for the project's.
    public let tenantId: String?

    /// Whose messages a read returns.
    public enum Reach: Sendable, Equatable {
        /// The console's own project.
        case project
        /// Every project the server holds (an administrator's view of `authdeck serve`'s projects), the
        /// console's own first; a server without a projects listing (the emulator) gives its own project's.
        case everyProject
    }

    public init(backend: any IdentityBackend, projectId: String, tenantId: String? = nil, reach: Reach = .project) {
        self.backend = backend
        self.state = State(projectId)
        self.tenantId = tenantId
        self.reach = reach
    }

    public var projectId: String { state.project.withLock { $0 } }

    /// Shared by the copies of one outbox: what one learns, all read.
    private final class State: Sendable {
        let project: Mutex<String>
        /// Cleared when the server has no projects listing for this client: only its own project is read from then on.
        let listingAnswers = Mutex(true)
        init(_ id: String) { project = Mutex(id) }
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

        /// Where it was sent: for a change of email, the new address.
        public var to: String
        public var action: Action
        public var oobCode: String
        public var link: String
        /// The address of the account it acts on, when that is not `to` (a change of email's current address).
        public var account: String?
        /// The project whose outbox holds it.
        public var project: String
        /// When the server sent it; nil from a server that does not say (the emulator).
        public var sentAt: Date?
        /// When its code expires and the outbox drops it; nil from a server that does not say.
        public var expiresAt: Date?

        public init(to: String, action: Action, oobCode: String, link: String, account: String? = nil, project: String = "", sentAt: Date? = nil,
                    expiresAt: Date? = nil) {
            self.to = to
            self.action = action
            self.oobCode = oobCode
            self.link = link
            self.account = account
            self.project = project
            self.sentAt = sentAt
            self.expiresAt = expiresAt
        }

        init(_ wire: ListOobCodesResponse.OobCode, project: String) {
            let action: Action = switch SendOobCodeRequest.RequestType(rawValue: wire.requestType) {
            case .verifyEmail: .verifyEmail
            case .passwordReset: .resetPassword
            case .emailSignIn: .signIn
            case .verifyAndChangeEmail: .verifyAndChangeEmail
            case .recoverEmail: .recoverEmail
            case nil: .other(wire.requestType)
            }
            // The emulator lists a change of email under the account's current address, with the new one beside it:
            // the message goes to the new one.
            let newEmail = wire.newEmail.flatMap { $0.isEmpty ? nil : $0 }
            self.init(to: newEmail ?? wire.email, action: action, oobCode: wire.oobCode, link: wire.oobLink,
                      account: newEmail == nil ? nil : wire.email, project: project, sentAt: wire.sentAt.flatMap(AuthEmulatorOutbox.date),
                      expiresAt: wire.expiresAt.flatMap(AuthEmulatorOutbox.date))
        }
    }

    /// A text the emulator would have sent: the code of one phone verification.
    public struct TextMessage: Equatable, Sendable {
        public var to: String
        public var code: String
        public var verificationID: String
        /// The project whose outbox holds it.
        public var project: String
        /// When the server sent it; nil from a server that does not say (the emulator).
        public var sentAt: Date?
        /// When its code expires and the outbox drops it; nil from a server that does not say.
        public var expiresAt: Date?

        public init(to: String, code: String, verificationID: String, project: String = "", sentAt: Date? = nil, expiresAt: Date? = nil) {
            self.to = to
            self.code = code
            self.verificationID = verificationID
            self.project = project
            self.sentAt = sentAt
            self.expiresAt = expiresAt
        }
    }

    /// Both outboxes, oldest first.
    public struct Messages: Equatable, Sendable {
        public var emails: [Email]
        public var texts: [TextMessage]

        public init(emails: [Email] = [], texts: [TextMessage] = []) {
            self.emails = emails
            self.texts = texts
        }
    }

    /// Email actions not yet used in the console's own project, oldest first. Throws `ReadFailure`.
    public func emails() async throws -> [Email] {
        try await read { try await emails(in: $0, tenant: tenantId) }
    }

    /// SMS codes not yet used in the console's own project, oldest first. Throws `ReadFailure`.
    public func texts() async throws -> [TextMessage] {
        try await read { try await texts(in: $0, tenant: tenantId) }
    }

    /// Every message within `reach`, oldest first (by sending time where the server gives it). The own
    /// project's failure throws `ReadFailure`; another project that cannot be read (removed meanwhile) is left out.
    public func messages() async throws -> Messages {
        async let ownEmails = emails()
        async let ownTexts = texts()
        let own = Messages(emails: try await ownEmails, texts: try await ownTexts)
        guard reach == .everyProject, state.listingAnswers.withLock({ $0 }) else { return own }
        let others: [String]
        do {
            let own = projectId
            others = try await backend.call(ListProjectsRequest()).projects
                .filter { $0.projectId != own && ($0.messages ?? 1) > 0 }
                .map(\.projectId)
        } catch {
            // The emulator has no listing, and a server may keep it for its administrators.
            state.listingAnswers.withLock { $0 = false }
            return own
        }
        var all = own
        for batch in stride(from: 0, to: others.count, by: Self.concurrentReads).map({ others[$0 ..< min($0 + Self.concurrentReads, others.count)] }) {
            let read = await withTaskGroup(of: Messages?.self) { group in
                for project in batch {
                    group.addTask {
                        async let emails = emails(in: project)
                        async let texts = texts(in: project)
                        return try? Messages(emails: await emails, texts: await texts)
                    }
                }
                var read: [Messages] = []
                for await messages in group { if let messages { read.append(messages) } }
                return read
            }
            for messages in read {
                all.emails += messages.emails
                all.texts += messages.texts
            }
        }
        all.emails.sort { ($0.sentAt ?? .distantPast) < ($1.sentAt ?? .distantPast) }
        all.texts.sort { ($0.sentAt ?? .distantPast) < ($1.sentAt ?? .distantPast) }
        return all
    }

    /// Outboxes read at once when reading every project: enough to hide the calls' latency, few enough
    /// not to crowd out the visitors' own calls on the server.
    static let concurrentReads = 8

    private func emails(in project: String, tenant: String? = nil) async throws -> [Email] {
        try await backend.call(ListOobCodesRequest(projectId: project, tenantId: tenant)).oobCodes.map { Email($0, project: project) }
    }

    private func texts(in project: String, tenant: String? = nil) async throws -> [TextMessage] {
        try await backend.call(ListVerificationCodesRequest(projectId: project, tenantId: tenant)).verificationCodes.map {
            TextMessage(to: $0.phoneNumber, code: $0.code, verificationID: $0.sessionInfo, project: project, sentAt: $0.sentAt.flatMap(Self.date),
                        expiresAt: $0.expiresAt.flatMap(Self.date))
        }
    }

    private static let rfc3339 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// An RFC 3339 time, with or without its fraction of a second.
    static func date(_ text: String) -> Date? {
        (try? rfc3339.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// Reads with the current project; when the server answers that it serves another one (the
    /// emulator's single-project answer names it), reads that one from then on.
    private func read<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let asked = projectId
        do {
            return try await body(asked)
        } catch let IdentityToolkitError.server(status, message) {
            if let served = Self.servedProject(in: message), served != asked {
                state.project.withLock { $0 = served }
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
