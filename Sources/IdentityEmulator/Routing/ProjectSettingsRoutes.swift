import Foundation
import IdentityToolkit

/// `GET /v1/recaptchaParams`: what the emulator answers, clearly fake, since no client may send
/// reCAPTCHA to Google on its behalf.
struct RecaptchaParamsResponse: Encodable {
    var kind = "identitytoolkit#GetRecaptchaParamResponse"
    var recaptchaStoken = "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha"
    var recaptchaSiteKey = "Fake-key__Do-not-send-this-to-Recaptcha_"
}

/// The v2 project configuration (`projects.getConfig`): the emulator's three settings, and for
/// administrators the password-hash parameters, as Google shows them.
struct ProjectConfigResponse: Encodable {
    struct BlockingFunctions: Encodable {}
    struct SignIn: Encodable {
        var allowDuplicateEmails: Bool
        /// Administrators only: the signer key is what `auth:import` needs to bring hashes in.
        var hashConfig: ProjectConfig.HashConfig?
    }
    var name: String
    var signIn: SignIn
    var blockingFunctions = BlockingFunctions()
    var emailPrivacyConfig: EmulatorProjectConfig.EmailPrivacyConfig
}

extension EmbeddedBackend {
    static let recaptchaParamsPath = Endpoint.v1("recaptchaParams").emulatorPath
    private static let projectConfigPrefix = "/identitytoolkit.googleapis.com/v2/projects/"

    /// Answers the project-wide settings endpoints, or nil for any other path.
    func routeProjectSettings(_ path: String, request: WireRequest, query: [URLQueryItem]) async throws -> Data? {
        let method = request.method.uppercased()
        if path == Self.recaptchaParamsPath {
            guard method == "GET" else { throw BackendFailure.notFound(path) }
            _ = try RequestContext(request: request, query: query, adminToken: configuration.adminToken)
            return try encode(RecaptchaParamsResponse())
        }
        guard path.hasPrefix(Self.projectConfigPrefix), path.hasSuffix("/config") else { return nil }
        let project = String(path.dropFirst(Self.projectConfigPrefix.count).dropLast("/config".count))
        guard !project.isEmpty, !project.contains("/") else { return nil }
        let context = try RequestContext(request: request, query: query, adminToken: configuration.adminToken)
        try requireServedProject(project)
        switch method {
        case "GET":
            return try encode(projectConfig(forAdministrator: context.isAdmin))
        case "PATCH":
            // Anyone could otherwise turn enumeration protection off on a shared server.
            guard context.isAdmin else { throw BackendFailure.targetProjectNeedsAdministrator }
            let mask = query.first { $0.name == "updateMask" }?.value
            return try await encode(updateProjectConfig(decode(EmulatorConfigBody.self, request.body), updateMask: mask))
        default:
            throw BackendFailure.notFound(path)
        }
    }

    func projectConfig(forAdministrator: Bool) throws -> ProjectConfigResponse {
        let current = try emulatorProjectConfig()
        let scrypt = store.scrypt
        let hashConfig = ProjectConfig.HashConfig(
            algorithm: "SCRYPT", signerKey: scrypt.signerKey.base64EncodedString(),
            saltSeparator: scrypt.saltSeparator.base64EncodedString(), rounds: scrypt.rounds, memoryCost: scrypt.memCost)
        return ProjectConfigResponse(
            name: "projects/\(projectId)/config",
            signIn: .init(allowDuplicateEmails: current.signIn?.allowDuplicateEmails ?? false,
                          hashConfig: forAdministrator ? hashConfig : nil),
            emailPrivacyConfig: current.emailPrivacyConfig ?? .init(enableImprovedEmailPrivacy: true))
    }

    /// `PATCH …/v2/projects/{id}/config`: with `updateMask`, only the fields it names; without, the
    /// whole configuration, a field left out taking the emulator's default (protection off).
    func updateProjectConfig(_ body: EmulatorConfigBody, updateMask: String?) async throws -> ProjectConfigResponse {
        let paths = Set((updateMask ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        func masked(_ field: String, _ leaf: String) -> Bool { paths.isEmpty || paths.contains(field) || paths.contains(field + "." + leaf) }
        var update = EmulatorConfigBody()
        if masked("signIn", "allowDuplicateEmails") { update.signIn = .init(allowDuplicateEmails: body.signIn?.allowDuplicateEmails ?? false) }
        if masked("emailPrivacyConfig", "enableImprovedEmailPrivacy") {
            update.emailPrivacyConfig = .init(enableImprovedEmailPrivacy: body.emailPrivacyConfig?.enableImprovedEmailPrivacy ?? false)
        }
        _ = try await updateEmulatorProjectConfig(update)
        return try projectConfig(forAdministrator: true)
    }
}
