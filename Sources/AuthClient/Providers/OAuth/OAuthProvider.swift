import Crypto
import Foundation

/// A federated identity provider as Firebase's `OAuthProvider` describes it: its id, the scopes
/// and custom parameters to ask it for, and the nonce that binds its ID token to one request.
public struct OAuthProvider: Sendable, Equatable {
    public let providerID: String
    public var scopes: [String]
    public var customParameters: [String: String]

    /// Set by the SDK itself (Firebase fills them from the project's provider configuration);
    /// an app may not pass them.
    public static let reservedParameters: Set<String> = ["client_id", "response_type", "redirect_uri", "state", "scope", "response_mode"]

    public init(providerID: String, scopes: [String] = [], customParameters: [String: String] = [:]) {
        self.providerID = providerID
        self.scopes = scopes
        self.customParameters = customParameters
    }

    /// Refuses reserved parameters before anything is sent.
    public func validated() throws(OAuthProviderError) -> OAuthProvider {
        if let reserved = customParameters.keys.sorted().first(where: Self.reservedParameters.contains) {
            throw .reservedParameter(reserved)
        }
        return self
    }

    public static func credential(providerID: String, idToken: String?, rawNonce: String? = nil, accessToken: String? = nil) -> AuthCredential {
        .oauth(OAuthCredential(providerID: providerID, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce))
    }

    /// Sign in with Apple: the ID token, the raw nonce whose SHA-256 is in it, and the name Apple
    /// shares on the first authorization only.
    public static func appleCredential(idToken: String, rawNonce: String, fullName: OAuthCredential.FullName?) -> AuthCredential {
        .oauth(OAuthCredential(providerID: AppleAuthProvider.id, idToken: idToken, rawNonce: rawNonce, fullName: fullName))
    }

    // MARK: Nonce

    /// The characters of a nonce (Apple's guide: `0-9 A-Z a-z - . _`).
    public static let nonceCharacters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._")

    /// A random nonce from a cryptographically secure generator. Bytes are drawn and those at or
    /// above the largest multiple of the alphabet's size are rejected, so every character is
    /// equally likely (a plain `byte % 65` would favour the first 61).
    public static func randomNonce<Generator: RandomNumberGenerator>(length: Int = 32, using generator: inout Generator) -> String {
        let alphabet = nonceCharacters
        let limit = UInt8(256 - 256 % alphabet.count)
        var nonce = ""
        while nonce.count < length {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            if byte < limit { nonce.append(alphabet[Int(byte) % alphabet.count]) }
        }
        return nonce
    }

    public static func randomNonce(length: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return randomNonce(length: length, using: &generator)
    }

    /// What goes to the provider: the lower-case hex SHA-256 of the raw nonce.
    public static func sha256(_ rawNonce: String) -> String {
        SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

public enum OAuthProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    case reservedParameter(String)

    public var description: String {
        switch self {
        case let .reservedParameter(name):
            "'\(name)' is set by Firebase itself and cannot be a custom parameter. Reserved: client_id, response_type, redirect_uri, state, scope, response_mode."
        }
    }
}

public enum AppleAuthProvider {
    public static let id = "apple.com"
}

public enum GoogleAuthProvider {
    public static let id = "google.com"

    public static func credential(withIDToken idToken: String, accessToken: String?, rawNonce: String? = nil) -> AuthCredential {
        .oauth(OAuthCredential(providerID: id, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce))
    }
}

public enum FacebookAuthProvider {
    public static let id = "facebook.com"

    public static func credential(withAccessToken accessToken: String) -> AuthCredential {
        .oauth(OAuthCredential(providerID: id, accessToken: accessToken))
    }
}
