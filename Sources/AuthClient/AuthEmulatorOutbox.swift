import Foundation
import IdentityToolkit

/// The Firebase Auth Emulator's outboxes (the embedded backend and `authdeck serve` have the same):
/// the emails and texts it would have sent. Read through the backend like any other call, so it works
/// in process and over HTTP alike. A real Firebase project has none.
public struct AuthEmulatorOutbox: Sendable {
    public let backend: any IdentityBackend
    public let projectId: String

    public init(backend: any IdentityBackend, projectId: String) {
        self.backend = backend
        self.projectId = projectId
    }

    /// Email actions not yet used, oldest first.
    public func oobCodes() async throws -> [ListOobCodesResponse.OobCode] {
        do {
            return try await backend.call(ListOobCodesRequest(projectId: projectId)).oobCodes
        } catch {
            throw AuthError.from(error)
        }
    }

    /// SMS codes not yet used, oldest first.
    public func verificationCodes() async throws -> [ListVerificationCodesResponse.VerificationCode] {
        do {
            return try await backend.call(ListVerificationCodesRequest(projectId: projectId)).verificationCodes
        } catch {
            throw AuthError.from(error)
        }
    }
}
