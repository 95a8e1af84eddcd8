/// Linking and unlinking identities, and the link conflict: the credential already belongs to
/// another account; if the user chooses so, the app signs in to that one and carries the data over.
enum LinkingSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .linkProvider: SnippetSet(
            title: "Link the provider's credential to the signed-in account",
            swift: #"""
                // credential: the {providerID} credential of the step before
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // Same uid; result.user.providerData now lists {providerID}
                """#,
            kotlin: #"""
                // credential: the {providerID} credential of the step before
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnSuccessListener { result ->
                        // Same uid; result.user!!.providerData now lists {providerID}
                    }
                """#,
            javascript: #"""
                import { getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                // credential: the {providerID} credential of the step before
                const { user } = await linkWithCredential(auth.currentUser, credential);
                // Same uid; user.providerData now lists {providerID}
                """#,
            cpp: #"""
                // credential: the {providerID} credential of the step before
                auth->current_user().LinkWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      // Same uid; done.result()->user.provider_data() now lists {providerID}
                    });
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

        .linkConflictMerge: SnippetSet(
            title: "Link conflict: sign in to the other account and merge the data",
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
