import Foundation
import IdentityToolkit

/// A provider's answer, ready for `signInWithIdp`: its ID token (with the raw nonce whose hash it
/// carries), its access token, or — as an updated credential from an error — the backend's
/// `pendingToken`, which stands for an identity already verified.
public struct OAuthCredential: Sendable, Equatable {
    public struct FullName: Sendable, Equatable {
        public var givenName: String?
        public var familyName: String?

        public init(givenName: String?, familyName: String?) {
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    public var providerID: String
    public var idToken: String?
    public var accessToken: String?
    public var rawNonce: String?
    public var pendingToken: String?
    /// Apple only, first authorization only.
    public var fullName: FullName?

    public init(providerID: String, idToken: String? = nil, accessToken: String? = nil, rawNonce: String? = nil,
                pendingToken: String? = nil, fullName: FullName? = nil) {
        self.providerID = providerID
        self.idToken = idToken
        self.accessToken = accessToken
        self.rawNonce = rawNonce
        self.pendingToken = pendingToken
        self.fullName = fullName
    }

    /// The updated credential iOS builds from a refusal (`FEDERATED_USER_ID_ALREADY_LINKED`,
    /// `EMAIL_EXISTS`, `needConfirmation`): the echoed tokens and the pending token.
    init?(updatedFrom response: SignInWithIdpResponse) {
        guard let providerID = response.providerId,
              response.oauthIdToken != nil || response.oauthAccessToken != nil || response.pendingToken != nil else { return nil }
        self.init(providerID: providerID, idToken: response.oauthIdToken, accessToken: response.oauthAccessToken,
                  pendingToken: response.pendingToken)
    }

    /// `providerId=…&id_token=…&access_token=…&nonce=…&user=…`, as `signInWithIdp` reads it.
    var postBody: String {
        var items = [URLQueryItem(name: "providerId", value: providerID)]
        if let idToken { items.append(URLQueryItem(name: "id_token", value: idToken)) }
        if let accessToken { items.append(URLQueryItem(name: "access_token", value: accessToken)) }
        if let rawNonce { items.append(URLQueryItem(name: "nonce", value: rawNonce)) }
        if let fullName, let user = Self.appleUserJSON(fullName) { items.append(URLQueryItem(name: "user", value: user)) }
        return items.map { "\($0.name)=\(Self.formEncode($0.value ?? ""))" }.joined(separator: "&")
    }

    private static func appleUserJSON(_ name: FullName) -> String? {
        let object = ["name": ["firstName": name.givenName ?? "", "lastName": name.familyName ?? ""]]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    private static let formSafe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    private static func formEncode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: formSafe) ?? value
    }
}

extension SignInWithIdpRequest {
    /// A pending token replaces the provider's tokens; otherwise they travel in `postBody`.
    init(credential: OAuthCredential, idToken: String? = nil, autoCreate: Bool? = nil) {
        if let pendingToken = credential.pendingToken {
            self.init(pendingToken: pendingToken, idToken: idToken, autoCreate: autoCreate)
        } else {
            self.init(postBody: credential.postBody, idToken: idToken, autoCreate: autoCreate)
        }
    }
}

extension SignInWithIdpResponse {
    /// The errors iOS builds from 200 answers: an `errorMessage` (with `returnIdpCredential`) or
    /// `needConfirmation`, each with the updated credential and the email.
    var refusal: AuthError? {
        let updated = OAuthCredential(updatedFrom: self).map(AuthCredential.oauth)
        if let errorMessage {
            let code = errorMessage.split(separator: ":", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? errorMessage
            return AuthError(AuthErrorCode(serverCode: code), serverMessage: errorMessage, updatedCredential: updated, email: email)
        }
        if needConfirmation == true {
            return AuthError(.accountExistsWithDifferentCredential, serverMessage: "needConfirmation", updatedCredential: updated, email: email)
        }
        return nil
    }

    /// The provider's tokens of a successful answer, for the app to call the provider's APIs.
    var providerCredential: OAuthCredential? {
        guard let providerId, oauthIdToken != nil || oauthAccessToken != nil else { return nil }
        return OAuthCredential(providerID: providerId, idToken: oauthIdToken, accessToken: oauthAccessToken)
    }

    var additionalUserInfo: AdditionalUserInfo {
        let profile = rawUserInfo.flatMap { try? JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8)) }
        return AdditionalUserInfo(providerID: providerId, isNewUser: isNewUser ?? false, profile: profile, username: screenName)
    }
}
