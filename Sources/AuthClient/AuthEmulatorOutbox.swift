import Foundation
import IdentityToolkit

/// The Firebase Auth Emulator's outboxes (the embedded backend and `authdeck serve` have the same):
/// the emails and texts it would have sent. Read through the backend like any other call, so it works
/// in process and over HTTP alike. A real Firebase project has none.
public struct AuthEmulatorOutbox: Sendable {
    let backend: any IdentityBackend
    public let projectId: String

    public init(backend: any IdentityBackend, projectId: String) {
        self.backend = backend
        self.projectId = projectId
    }

    /// An email action the emulator would have sent: the link and its one-use code.
    public struct Email: Equatable, Sendable {
        public enum Action: Equatable, Sendable {
            case verifyEmail, resetPassword
            /// An action this client does not open itself (sign-in links, email changes), by its wire name.
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
            let action: Action = switch wire.requestType {
            case SendOobCodeRequest.RequestType.verifyEmail.rawValue: .verifyEmail
            case SendOobCodeRequest.RequestType.passwordReset.rawValue: .resetPassword
            default: .other(wire.requestType)
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

    /// Email actions not yet used, oldest first.
    public func emails() async throws -> [Email] {
        do {
            return try await backend.call(ListOobCodesRequest(projectId: projectId)).oobCodes.map(Email.init)
        } catch {
            throw AuthError.from(error)
        }
    }

    /// SMS codes not yet used, oldest first.
    public func texts() async throws -> [TextMessage] {
        do {
            return try await backend.call(ListVerificationCodesRequest(projectId: projectId)).verificationCodes.map {
                TextMessage(to: $0.phoneNumber, code: $0.code, verificationID: $0.sessionInfo)
            }
        } catch {
            throw AuthError.from(error)
        }
    }
}
