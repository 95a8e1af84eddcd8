/// Linking and unlinking identities, and the link conflict: the credential already belongs to
/// another account, so the app signs in to that one and carries the guest's data over.
enum LinkingSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .linkProvider: SnippetSet(
            title: "Link a provider to the signed-in account",
            swift: #"""
                let provider = OAuthProvider(providerID: "{providerID}")
                let credential = try await provider.credential(with: nil)
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // result.user.providerData now lists {providerID}
                """#,
            kotlin: #"""
                val provider = OAuthProvider.newBuilder("{providerID}").build()
                Firebase.auth.currentUser!!
                    .startActivityForLinkWithProvider(activity, provider)
                    .addOnSuccessListener { result ->
                        // result.user!!.providerData now lists {providerID}
                    }
                """#,
            javascript: #"""
                import { OAuthProvider, getAuth, linkWithPopup } from "firebase/auth";

                const auth = getAuth();
                const { user } = await linkWithPopup(auth.currentUser, new OAuthProvider("{providerID}"));
                // user.providerData now lists {providerID}
                """#,
            cpp: #"""
                firebase::auth::FederatedOAuthProviderData data("{providerID}");
                firebase::auth::FederatedOAuthProvider provider(data);
                auth->current_user().LinkWithProvider(&provider);
                // then current_user().provider_data() lists {providerID}
                """#),

        .unlinkProvider: SnippetSet(
            title: "Unlink a provider",
            swift: #"""
                let user = try await Auth.auth().currentUser!.unlink(fromProvider: "{providerID}")
                """#,
            kotlin: #"""
                Firebase.auth.currentUser!!.unlink("{providerID}")
                    .addOnSuccessListener { result -> /* {providerID} is gone */ }
                """#,
            javascript: #"""
                import { getAuth, unlink } from "firebase/auth";

                const auth = getAuth();
                const user = await unlink(auth.currentUser, "{providerID}");
                """#,
            cpp: #"""
                auth->current_user().Unlink("{providerID}");
                """#),

        .linkConflictCredential: SnippetSet(
            title: "Link conflict: the credential is already in use",
            swift: #"""
                do {
                  try await Auth.auth().currentUser!.link(with: credential)
                } catch let error as NSError
                    where error.code == AuthErrorCode.credentialAlreadyInUse.rawValue {
                  // The {providerID} identity belongs to another account:
                  // the error carries a fresh credential for it
                  let updated = error.userInfo[AuthErrors.userInfoUpdatedCredentialKey]
                    as! AuthCredential
                }
                """#,
            kotlin: #"""
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnFailureListener { e ->
                        if (e is FirebaseAuthUserCollisionException) {
                            // The {providerID} identity belongs to another account:
                            // the error carries a fresh credential for it
                            val updated = e.updatedCredential
                        }
                    }
                """#,
            javascript: #"""
                import { OAuthProvider, getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                try {
                  await linkWithCredential(auth.currentUser, credential);
                } catch (error) {
                  if (error.code === "auth/credential-already-in-use") {
                    // The {providerID} identity belongs to another account
                    const updated = OAuthProvider.credentialFromError(error);
                  }
                }
                """#,
            cpp: #"""
                auth->current_user().LinkWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      if (done.error() == firebase::auth::kAuthErrorCredentialAlreadyInUse) {
                        // The {providerID} identity belongs to another account; the
                        // C++ SDK hands back no fresh credential: sign in again
                      }
                    });
                """#),

        .linkConflictSignIn: SnippetSet(
            title: "Link conflict: sign in with the updated credential",
            swift: #"""
                let result = try await Auth.auth().signIn(with: updated)
                // Now signed in as {uid}, the {providerID} account; the guest is signed out
                """#,
            kotlin: #"""
                Firebase.auth.signInWithCredential(updated!!)
                    .addOnSuccessListener { result ->
                        // Now signed in as {uid}, the {providerID} account
                    }
                """#,
            javascript: #"""
                import { getAuth, signInWithCredential } from "firebase/auth";

                const auth = getAuth();
                const { user } = await signInWithCredential(auth, updated);
                // Now signed in as {uid}, the {providerID} account
                """#,
            cpp: #"""
                // Sign in with a new {providerID} credential (the C++ SDK returns none)
                auth->SignInAndRetrieveDataWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      // done.result()->user.uid() == "{uid}"
                    });
                """#),

        .linkConflictMerge: SnippetSet(
            title: "Link conflict: merge the guest's data",
            swift: #"""
                // Read the guest's data before signing in: the guest is gone after
                let guestCart = try await cartStore.items(owner: "{guestUID}")
                let result = try await Auth.auth().signIn(with: updated)
                try await cartStore.add(guestCart, owner: result.user.uid)  // "{uid}"
                """#,
            kotlin: #"""
                // Read the guest's data before signing in: the guest is gone after
                val guestCart = cartStore.items("{guestUID}")
                Firebase.auth.signInWithCredential(updated!!)
                    .addOnSuccessListener { result ->
                        cartStore.add(guestCart, result.user!!.uid)  // "{uid}"
                    }
                """#,
            javascript: #"""
                import { getAuth, signInWithCredential } from "firebase/auth";

                const auth = getAuth();
                // Read the guest's data before signing in: the guest is gone after
                const guestCart = await cartStore.items("{guestUID}");
                const { user } = await signInWithCredential(auth, updated);
                await cartStore.add(guestCart, user.uid);  // "{uid}"
                """#,
            cpp: #"""
                // Read the guest's data before signing in: the guest is gone after
                std::vector<CartItem> guest_cart = cart_store.Items("{guestUID}");
                auth->SignInAndRetrieveDataWithCredential(credential).OnCompletion(
                    [guest_cart](const auto& done) {
                      cart_store.Add(guest_cart, done.result()->user.uid());  // "{uid}"
                    });
                """#),
    ]
}
