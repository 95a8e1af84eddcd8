@testable import AuthClient
@testable import AuthDeckApp
import Testing

@Suite("The account-exists screen keeps what the backend told of the email")
struct PendingLinkMethodsTests {
    @Test func theToldMethodsStayAfterASignInFormIsLeft() {
        let pending = PendingLink(credential: FederatedFixtures.updatedFacebook, email: "mark@example.com", reason: .accountExists)
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .pendingLink(PendingLinkFeature(pending: pending))
        var store = FlowStore(model)
        store.send(.feature(PendingLinkFeature.Event.signInMethodsFetched(email: "mark@example.com", .success(["password"])))) {
            $0.screen = .pendingLink(PendingLinkFeature(pending: pending, knownMethods: ["password"]))
        }
        var told = pending
        told.knownMethods = ["password"]
        store.send(.key(.enter)) { $0.screen = .credentialForm(CredentialFormFeature(purpose: .signInToLink(told), email: "mark@example.com")) }
        store.send(.key(.escape)) { $0.screen = .pendingLink(PendingLinkFeature(pending: told)) }
        #expect(PendingLinkScreen.knownMethodsSentence(PendingLinkFeature(pending: told), email: "mark@example.com")
            == " The backend says mark@example.com signs in with: Email and password.")
    }
}
