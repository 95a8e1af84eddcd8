import AppData
@testable import AuthDeckApp
import AuthClient
import Foundation
import Testing
import TerminalUI

enum FederatedFixtures {
    static let ada = SimulatedIdentityProviders.Identity(subject: "001234.0123456789abcdef0123456789abcdef.0042", displayName: "Ada Lovelace", email: "ada@example.com")
    static let appleDirectory = SimulatedIdentityProviders.Directory(providerID: "apple.com", clientID: "dev.authdeck.authdeck-local",
                                                         issuer: "https://appleid.apple.com", identities: [ada])
    static let carol = SimulatedIdentityProviders.Identity(subject: "5f1c3a2e-0000-4000-8000-00000000c0de", displayName: "Carol Shaw", email: "carol@contoso.com",
                                         accountType: "work", tenantId: "1a2b3c4d-0000-4000-8000-000000000001")
    static let bill = SimulatedIdentityProviders.Identity(subject: "00000000-0000-0000-1234-56789abcdef0", displayName: "Bill Gates", email: "bill@outlook.com",
                                        accountType: "personal", tenantId: "9188040d-6c67-4c5b-b112-36a304b66dad")
    static let microsoftDirectory = SimulatedIdentityProviders.Directory(providerID: "microsoft.com", clientID: "2c7a0000-0000-4000-8000-000000000000",
                                                             issuer: "https://login.microsoftonline.com/{tenantid}/v2.0", identities: [bill, carol])

    static let appleProvider = OAuthProvider(providerID: "apple.com", scopes: ["email", "name"])
    static let appleCredential = AuthCredential.oauth(OAuthCredential(providerID: "apple.com", idToken: "eyJ.apple.sig", rawNonce: "raw-nonce"))
    static let appleAuthorization = ProviderAuthorization(credential: appleCredential, rawNonce: "raw-nonce", hashedNonce: "abc123",
                                                          idTokenClaims: ["nonce": .string("abc123")], grantedScopes: ["email", "name"])
    static let microsoftCredential = AuthCredential.oauth(OAuthCredential(providerID: "microsoft.com", idToken: "eyJ.ms.sig", accessToken: "microsoft-at-1", rawNonce: "n"))
    static let updatedMicrosoft = AuthCredential.oauth(OAuthCredential(providerID: "microsoft.com", idToken: "eyJ.ms.sig", accessToken: "microsoft-at-1", pendingToken: "pending-1"))
    static let updatedGoogle = AuthCredential.oauth(OAuthCredential(providerID: "google.com", idToken: "eyJ.g.sig", pendingToken: "pending-g"))
    static let updatedFacebook = AuthCredential.oauth(OAuthCredential(providerID: "facebook.com", accessToken: "facebook-at-1", pendingToken: "pending-f"))

    static func appleUser(uid: String = "appleUID000000000000000000001") -> User {
        User(uid: uid, isAnonymous: false, email: "x1@privaterelay.appleid.com", emailVerified: true, displayName: "Ada Lovelace",
             providerData: [UserInfo(providerID: "apple.com", uid: ada.subject, displayName: "Ada Lovelace", email: "x1@privaterelay.appleid.com")],
             metadata: UserMetadata(creationDate: Fixtures.created, lastSignInDate: Fixtures.created))
    }

    static func consent(_ provider: OAuthProvider, _ purpose: FederatedPurpose, _ directory: SimulatedIdentityProviders.Directory?, selection: Int = 0) -> ConsentFeature {
        var state = ConsentFeature(provider: provider, purpose: purpose)
        if let directory { state.directory = .loaded(directory) }
        state.selection = selection
        return state
    }
}
