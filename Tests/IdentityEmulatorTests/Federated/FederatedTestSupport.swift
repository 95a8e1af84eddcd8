import Crypto
import Foundation
import IdentityToolkit
@testable import IdentityEmulator

/// Calls of the simulated providers and of `signInWithIdp`, the way an app makes them.
extension Harness {
    func addIdentity(_ providerId: String, _ name: String, _ email: String) async throws -> SimulatedIdentity {
        try await api.call(SimulatedIdpAddIdentityRequest(providerId: providerId, displayName: name, email: email))
    }

    func authorize(_ providerId: String, _ subject: String, scopes: [String] = ["email", "profile"], parameters: [String: String] = [:],
                   nonce: String? = nil, hideEmail: Bool? = nil) async throws -> SimulatedIdpAuthorizeResponse {
        try await api.call(SimulatedIdpAuthorizeRequest(providerId: providerId, subject: subject, scopes: scopes,
                                                        customParameters: parameters, nonce: nonce, hideEmail: hideEmail))
    }

    func signInWithIdp(_ postBody: String?, idToken: String? = nil, pendingToken: String? = nil, autoCreate: Bool? = nil,
                       returnIdpCredential: Bool = true) async throws -> SignInWithIdpResponse {
        try await api.call(SignInWithIdpRequest(postBody: postBody, pendingToken: pendingToken, idToken: idToken,
                                                returnIdpCredential: returnIdpCredential, autoCreate: autoCreate))
    }

    /// An Apple identity authorized with `rawNonce`, ready to be sent.
    func appleCredential(_ subject: String, rawNonce: String = "raw-nonce-0123456789", hideEmail: Bool? = nil) async throws -> (idToken: String, user: String?) {
        let answer = try await authorize("apple.com", subject, scopes: ["email", "name"], nonce: sha256Hex(rawNonce), hideEmail: hideEmail)
        return (try requireValue(answer.idToken), answer.user)
    }

    /// The provider's key, to sign tokens the provider never issued.
    func providerSigner(_ providerId: String) throws -> TokenSigner {
        try backend.providerKeys.signer(for: try requireValue(SimulatedProvider.named(providerId)))
    }
}

func postBody(_ providerId: String, idToken: String? = nil, accessToken: String? = nil, nonce: String? = nil, user: String? = nil) -> String {
    var items = [URLQueryItem(name: "providerId", value: providerId)]
    if let idToken { items.append(URLQueryItem(name: "id_token", value: idToken)) }
    if let accessToken { items.append(URLQueryItem(name: "access_token", value: accessToken)) }
    if let nonce { items.append(URLQueryItem(name: "nonce", value: nonce)) }
    if let user { items.append(URLQueryItem(name: "user", value: user)) }
    var components = URLComponents()
    components.queryItems = items
    return components.percentEncodedQuery ?? ""
}

func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
}

struct MissingValue: Error {}

func requireValue<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}

/// The JSON object in a `rawUserInfo` string.
func object(_ json: String?) -> [String: Any] {
    guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [:] }
    return object
}
