import Foundation

/// `securetoken.googleapis.com/v1/token`: exchanges a refresh token for a fresh ID token.
/// The request is sent as JSON (as the iOS SDK does); the response uses snake_case.
public struct SecureTokenRequest: IdentityRequest, Equatable {
    public static let endpoint = Endpoint.secureToken
    public typealias Response = SecureTokenResponse

    public var grantType: String
    public var refreshToken: String

    public init(refreshToken: String) {
        self.grantType = "refresh_token"
        self.refreshToken = refreshToken
    }
}

public struct SecureTokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var idToken: String
    public var refreshToken: String
    /// Seconds, as a string.
    public var expiresIn: String
    public var tokenType: String
    public var userId: String
    public var projectId: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case userId = "user_id"
        case projectId = "project_id"
    }

    public init(idToken: String, refreshToken: String, expiresIn: String, userId: String, projectId: String?) {
        self.accessToken = idToken
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.tokenType = "Bearer"
        self.userId = userId
        self.projectId = projectId
    }
}
