import Foundation

// The Firebase Auth Emulator's outboxes: the email actions and SMS codes it would have sent.
// The embedded backend and `authdeck serve` answer the same paths.

/// An emulator endpoint that a backend served with an administrator secret (`authdeck serve
/// --admin-token`) keeps for administrators; the HTTP transport sends its admin token on these only.
public protocol EmulatorAdministratorRequest: IdentityRequest {}

/// `GET /emulator/v1/projects/{projectId}/oobCodes`.
public struct ListOobCodesRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/oobCodes")
    public static let httpMethod = "GET"
    public typealias Response = ListOobCodesResponse

    public var projectId: String
    /// A tenant's outbox (`projects/{projectId}/tenants/{tenantId}/oobCodes`); nil for the project's own.
    public var tenantId: String?

    public init(projectId: String, tenantId: String? = nil) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint {
        Endpoint(host: .emulator, path: "/v1/projects/\(projectId)" + (tenantId.map { "/tenants/\($0)" } ?? "") + "/oobCodes")
    }
}

public struct ListOobCodesResponse: Codable, Sendable, Equatable {
    public struct OobCode: Codable, Sendable, Equatable {
        public var email: String
        public var oobCode: String
        public var oobLink: String
        public var requestType: String
        /// The address a `VERIFY_AND_CHANGE_EMAIL` message changes the account's to.
        public var newEmail: String?
        /// When it was sent (RFC 3339): AuthDeck's own field, which the emulator's clients ignore
        /// and the emulator does not give.
        public var sentAt: String?
        /// When its code expires and the outbox drops it (RFC 3339): AuthDeck's own, as `sentAt`.
        public var expiresAt: String?

        public init(email: String, oobCode: String, oobLink: String, requestType: String, newEmail: String? = nil, sentAt: String? = nil,
                    expiresAt: String? = nil) {
            self.email = email
            self.oobCode = oobCode
            self.oobLink = oobLink
            self.requestType = requestType
            self.newEmail = newEmail
            self.sentAt = sentAt
            self.expiresAt = expiresAt
        }
    }

    /// Oldest first.
    public var oobCodes: [OobCode]

    public init(oobCodes: [OobCode]) { self.oobCodes = oobCodes }
}

/// `GET /emulator/v1/projects/{projectId}/verificationCodes`.
public struct ListVerificationCodesRequest: EmulatorAdministratorRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/v1/projects/{projectId}/verificationCodes")
    public static let httpMethod = "GET"
    public typealias Response = ListVerificationCodesResponse

    public var projectId: String
    /// A tenant's outbox (`projects/{projectId}/tenants/{tenantId}/verificationCodes`); nil for the project's own.
    public var tenantId: String?

    public init(projectId: String, tenantId: String? = nil) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    public var resolvedEndpoint: Endpoint {
        Endpoint(host: .emulator, path: "/v1/projects/\(projectId)" + (tenantId.map { "/tenants/\($0)" } ?? "") + "/verificationCodes")
    }
}

public struct ListVerificationCodesResponse: Codable, Sendable, Equatable {
    public struct VerificationCode: Codable, Sendable, Equatable {
        public var code: String
        public var phoneNumber: String
        public var sessionInfo: String
        /// When it was sent and when it expires (RFC 3339), as for email actions: AuthDeck's own fields.
        public var sentAt: String?
        public var expiresAt: String?

        public init(code: String, phoneNumber: String, sessionInfo: String, sentAt: String? = nil, expiresAt: String? = nil) {
            self.code = code
            self.phoneNumber = phoneNumber
            self.sessionInfo = sessionInfo
            self.sentAt = sentAt
            self.expiresAt = expiresAt
        }
    }

    /// Oldest first.
    public var verificationCodes: [VerificationCode]

    public init(verificationCodes: [VerificationCode]) { self.verificationCodes = verificationCodes }
}
