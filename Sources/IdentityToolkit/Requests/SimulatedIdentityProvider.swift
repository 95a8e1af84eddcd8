import Foundation

// The simulated identity providers of the embedded backend: the analogue of the Firebase Auth
// Emulator's provider widget (`/emulator/auth/handler`), as JSON endpoints under `/emulator/auth/v1/`,
// so the consent screen works in process and against `authdeck serve` alike. The project is the
// one the API key belongs to, as for every client endpoint. Production has no such endpoints.
//
// On a shared backend (`authdeck serve` with an admin token, the one `authdeck ssh` serves) the people a
// caller adds belong to that caller: each request carries the caller's `ownerSecret` (a random value per
// console), and the provider shows and authorizes only the people added with the same secret. Elsewhere
// the secret is ignored.

/// One person known to a simulated provider.
public struct SimulatedIdentity: Codable, Sendable, Equatable {
    /// The provider's stable id for the person (`sub`; Microsoft: the `oid`).
    public var subject: String
    public var displayName: String?
    public var email: String?
    /// Microsoft: `personal` (a Microsoft account) or `work` (work or school); nil elsewhere.
    public var accountType: String?
    /// Microsoft: the directory (`tid`) the account lives in.
    public var tenantId: String?
    /// True once the person has consented to this app: Apple then no longer shares the name,
    /// and keeps the email choice made the first time.
    public var authorized: Bool
    /// Apple: whether the person chose Hide My Email (set on the first authorization).
    public var emailHidden: Bool?

    public init(subject: String, displayName: String? = nil, email: String? = nil, accountType: String? = nil,
                tenantId: String? = nil, authorized: Bool = false, emailHidden: Bool? = nil) {
        self.subject = subject
        self.displayName = displayName
        self.email = email
        self.accountType = accountType
        self.tenantId = tenantId
        self.authorized = authorized
        self.emailHidden = emailHidden
    }
}

/// `…/simulatedIdp:list`: the provider's configuration for this project and the people it knows.
public struct SimulatedIdpListRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/auth/v1/simulatedIdp:list")
    public typealias Response = SimulatedIdpListResponse

    public var providerId: String
    /// Shared backends: only the people added with this secret are listed.
    public var ownerSecret: String?

    public init(providerId: String, ownerSecret: String? = nil) {
        self.providerId = providerId
        self.ownerSecret = ownerSecret
    }
}

public struct SimulatedIdpListResponse: Codable, Sendable, Equatable {
    public var providerId: String
    /// The app's id at the provider (`aud` of its ID tokens): what the Firebase console keeps per provider.
    public var clientId: String
    public var issuer: String
    public var identities: [SimulatedIdentity]

    public init(providerId: String, clientId: String, issuer: String, identities: [SimulatedIdentity]) {
        self.providerId = providerId
        self.clientId = clientId
        self.issuer = issuer
        self.identities = identities
    }
}

/// `…/simulatedIdp:addIdentity`: a new person at the provider.
public struct SimulatedIdpAddIdentityRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/auth/v1/simulatedIdp:addIdentity")
    public typealias Response = SimulatedIdentity

    public var providerId: String
    public var displayName: String
    public var email: String
    /// Shared backends: the person belongs to whoever holds this secret (required there).
    public var ownerSecret: String?

    public init(providerId: String, displayName: String, email: String, ownerSecret: String? = nil) {
        self.providerId = providerId
        self.displayName = displayName
        self.email = email
        self.ownerSecret = ownerSecret
    }
}

/// `…/simulatedIdp:authorize`: the person consents; the provider answers as its token endpoint
/// would. `nonce` is what the app sends to the provider (for Apple, the SHA-256 of the raw nonce).
public struct SimulatedIdpAuthorizeRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint(host: .emulator, path: "/auth/v1/simulatedIdp:authorize")
    public typealias Response = SimulatedIdpAuthorizeResponse

    public var providerId: String
    public var subject: String
    public var scopes: [String]
    public var customParameters: [String: String]
    public var nonce: String?
    /// Apple, first authorization only: hide the email behind a private relay address.
    public var hideEmail: Bool?
    /// Shared backends: only a person added with this secret can be authorized.
    public var ownerSecret: String?

    public init(providerId: String, subject: String, scopes: [String] = [], customParameters: [String: String] = [:],
                nonce: String? = nil, hideEmail: Bool? = nil, ownerSecret: String? = nil) {
        self.providerId = providerId
        self.subject = subject
        self.scopes = scopes
        self.customParameters = customParameters
        self.nonce = nonce
        self.hideEmail = hideEmail
        self.ownerSecret = ownerSecret
    }
}

public struct SimulatedIdpAuthorizeResponse: Codable, Sendable, Equatable {
    public var providerId: String
    public var idToken: String?
    public var accessToken: String?
    /// Seconds, as a string.
    public var expiresIn: String?
    /// The scopes granted, space-separated.
    public var scope: String?
    /// Apple, first authorization only: `{"name":{"firstName","lastName"},"email"}`, as a string.
    public var user: String?

    public init(providerId: String, idToken: String? = nil, accessToken: String? = nil, expiresIn: String? = nil,
                scope: String? = nil, user: String? = nil) {
        self.providerId = providerId
        self.idToken = idToken
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.user = user
    }
}
