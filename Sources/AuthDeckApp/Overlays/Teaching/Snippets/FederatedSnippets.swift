/// What a federated credential or provider is for: a sign-in. Linking and reauthenticating
/// with one are in the linking and account files.
enum FederatedSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .signInWithCredential: SnippetSet(
            title: "Sign in with the provider's credential",
            swift: #"""
                // credential: the {providerID} credential of the step before
                let result = try await Auth.auth().signIn(with: credential)
                let user = result.user
                """#,
            kotlin: #"""
                // credential: the {providerID} credential of the step before
                Firebase.auth.signInWithCredential(credential)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { getAuth, signInWithCredential } from "firebase/auth";

                const auth = getAuth();
                // credential: the {providerID} credential of the step before
                const { user } = await signInWithCredential(auth, credential);
                """#,
            cpp: #"""
                // credential: the {providerID} credential of the step before
                auth->SignInAndRetrieveDataWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      if (done.error() != firebase::auth::kAuthErrorNone) return;
                      const firebase::auth::User& user = done.result()->user;
                    });
                """#),

        .signInWithProvider: SnippetSet(
            title: "Sign in with the provider",
            swift: #"""
                // provider: the {providerID} OAuthProvider of the step before
                let credential = try await provider.credential(with: nil)
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // provider: the {providerID} OAuthProvider.Builder of the step before
                Firebase.auth.startActivityForSignInWithProvider(activity, provider.build())
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { getAuth, signInWithPopup } from "firebase/auth";

                const auth = getAuth();
                // provider: the {providerID} OAuthProvider of the step before
                const result = await signInWithPopup(auth, provider);
                """#,
            cpp: #"""
                // provider: the {providerID} FederatedOAuthProvider of the step before
                auth->SignInWithProvider(&provider).OnCompletion([](const auto& done) {
                  if (done.error() != firebase::auth::kAuthErrorNone) return;
                  const firebase::auth::User& user = done.result()->user;
                });
                """#),

        .linkWithProvider: SnippetSet(
            title: "Link the provider to the signed-in account",
            swift: #"""
                // provider: the {providerID} OAuthProvider of the step before
                let credential = try await provider.credential(with: nil)
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // Same uid; result.user.providerData now lists {providerID}
                """#,
            kotlin: #"""
                // provider: the {providerID} OAuthProvider.Builder of the step before
                Firebase.auth.currentUser!!
                    .startActivityForLinkWithProvider(activity, provider.build())
                    .addOnSuccessListener { result ->
                        // Same uid; result.user!!.providerData now lists {providerID}
                    }
                """#,
            javascript: #"""
                import { getAuth, linkWithPopup } from "firebase/auth";

                const auth = getAuth();
                // provider: the {providerID} OAuthProvider of the step before
                const { user } = await linkWithPopup(auth.currentUser, provider);
                // Same uid; user.providerData now lists {providerID}
                """#,
            cpp: #"""
                // provider: the {providerID} FederatedOAuthProvider of the step before
                auth->current_user().LinkWithProvider(&provider).OnCompletion(
                    [](const auto& done) {
                      // Same uid; done.result()->user.provider_data() now lists {providerID}
                    });
                """#),
    ]
}
