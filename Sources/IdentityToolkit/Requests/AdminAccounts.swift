import Foundation

// Responses of the administrator endpoints under `/v1/projects/{projectId}/…` and of the
// emulator-only endpoints, with the REST API's field names (what the Firebase Admin SDKs parse).

/// `GET projects/{projectId}/accounts:batchGet`: one page of users in ascending `localId` order.
public struct DownloadAccountResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var users: [AccountInfo]?
    /// The `localId` to continue after; absent on the last page.
    public var nextPageToken: String?

    public init(kind: String? = "identitytoolkit#DownloadAccountResponse", users: [AccountInfo]?, nextPageToken: String?) {
        self.kind = kind
        self.users = users
        self.nextPageToken = nextPageToken
    }
}

/// One user of a batch that could not be imported or deleted; `index` points into the request's list.
public struct BatchAccountError: Codable, Sendable, Equatable {
    public var index: Int
    public var localId: String?
    public var message: String

    public init(index: Int, localId: String? = nil, message: String) {
        self.index = index
        self.localId = localId
        self.message = message
    }
}

/// `projects/{projectId}/accounts:batchCreate` (import). Users not listed in `error` were imported.
public struct UploadAccountResponse: Codable, Sendable, Equatable {
    public var kind: String?
    public var error: [BatchAccountError]?

    public init(kind: String? = "identitytoolkit#UploadAccountResponse", error: [BatchAccountError]?) {
        self.kind = kind
        self.error = error
    }
}

/// `projects/{projectId}/accounts:batchDelete`. Users not listed in `errors` are gone (or never existed).
public struct BatchDeleteAccountsResponse: Codable, Sendable, Equatable {
    public var errors: [BatchAccountError]?

    public init(errors: [BatchAccountError]?) {
        self.errors = errors
    }
}

/// `projects/{projectId}:createSessionCookie`.
public struct CreateSessionCookieResponse: Codable, Sendable, Equatable {
    public var sessionCookie: String

    public init(sessionCookie: String) {
        self.sessionCookie = sessionCookie
    }
}

/// `GET|PATCH /emulator/v1/projects/{projectId}/config`.
public struct EmulatorProjectConfig: Codable, Sendable, Equatable {
    public struct SignIn: Codable, Sendable, Equatable {
        public var allowDuplicateEmails: Bool?
        public init(allowDuplicateEmails: Bool?) { self.allowDuplicateEmails = allowDuplicateEmails }
    }

    public struct EmailPrivacyConfig: Codable, Sendable, Equatable {
        /// Email-enumeration protection.
        public var enableImprovedEmailPrivacy: Bool?
        public init(enableImprovedEmailPrivacy: Bool?) { self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy }
    }

    public var signIn: SignIn?
    public var emailPrivacyConfig: EmailPrivacyConfig?

    public init(signIn: SignIn?, emailPrivacyConfig: EmailPrivacyConfig?) {
        self.signIn = signIn
        self.emailPrivacyConfig = emailPrivacyConfig
    }
}
