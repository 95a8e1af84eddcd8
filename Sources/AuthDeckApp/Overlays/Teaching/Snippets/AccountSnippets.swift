/// The signed-in account: reauthenticating before a sensitive change, changing the email or
/// password, deleting, signing out and reloading.
enum AccountSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .reauthenticateWithPassword: SnippetSet(
            title: "Reauthenticate with the password",
            swift: #"""
                // Sensitive changes need a recent sign-in; password: from the form, never logged
                let credential = EmailAuthProvider.credential(withEmail: "{email}", password: password)
                try await Auth.auth().currentUser!.reauthenticate(with: credential)
                """#,
            kotlin: #"""
                // Sensitive changes need a recent sign-in; password: from the form, never logged
                val credential = EmailAuthProvider.getCredential("{email}", password)
                Firebase.auth.currentUser!!.reauthenticate(credential)
                    .addOnSuccessListener { /* retry the change */ }
                """#,
            javascript: #"""
                import { EmailAuthProvider, getAuth, reauthenticateWithCredential } from "firebase/auth";

                const auth = getAuth();
                // Sensitive changes need a recent sign-in; password: from the form, never logged
                const credential = EmailAuthProvider.credential("{email}", password);
                await reauthenticateWithCredential(auth.currentUser, credential);
                """#,
            cpp: #"""
                // Sensitive changes need a recent sign-in; password: from the form, never logged
                firebase::auth::Credential credential =
                    firebase::auth::EmailAuthProvider::GetCredential("{email}", password);
                auth->current_user().Reauthenticate(credential);
                """#),

        .reauthenticateWithCredential: SnippetSet(
            title: "Reauthenticate with the provider's credential",
            swift: #"""
                // Sensitive changes need a recent sign-in
                // credential: the {providerID} credential of the step before
                try await Auth.auth().currentUser!.reauthenticate(with: credential)
                """#,
            kotlin: #"""
                // Sensitive changes need a recent sign-in
                // credential: the {providerID} credential of the step before
                Firebase.auth.currentUser!!.reauthenticate(credential)
                    .addOnSuccessListener { /* retry the change */ }
                """#,
            javascript: #"""
                import { getAuth, reauthenticateWithCredential } from "firebase/auth";

                const auth = getAuth();
                // Sensitive changes need a recent sign-in
                // credential: the {providerID} credential of the step before
                await reauthenticateWithCredential(auth.currentUser, credential);
                """#,
            cpp: #"""
                // Sensitive changes need a recent sign-in
                // credential: the {providerID} credential of the step before
                auth->current_user().Reauthenticate(credential);
                """#),

        .reauthenticateWithProvider: SnippetSet(
            title: "Reauthenticate with the provider",
            swift: #"""
                // Sensitive changes need a recent sign-in
                // provider: the {providerID} OAuthProvider of the step before
                let credential = try await provider.credential(with: nil)
                try await Auth.auth().currentUser!.reauthenticate(with: credential)
                """#,
            kotlin: #"""
                // Sensitive changes need a recent sign-in
                // provider: the {providerID} OAuthProvider.Builder of the step before
                Firebase.auth.currentUser!!
                    .startActivityForReauthenticateWithProvider(activity, provider.build())
                    .addOnSuccessListener { /* retry the change */ }
                """#,
            javascript: #"""
                import { getAuth, reauthenticateWithPopup } from "firebase/auth";

                const auth = getAuth();
                // Sensitive changes need a recent sign-in
                // provider: the {providerID} OAuthProvider of the step before
                await reauthenticateWithPopup(auth.currentUser, provider);
                """#,
            cpp: #"""
                // Sensitive changes need a recent sign-in
                // provider: the {providerID} FederatedOAuthProvider of the step before
                auth->current_user().ReauthenticateWithProvider(&provider);
                """#),

        .verifyBeforeUpdateEmail: SnippetSet(
            title: "Change email: verify the new address first",
            swift: #"""
                // The address changes when the user opens the link sent to it
                try await Auth.auth().currentUser!
                  .sendEmailVerification(beforeUpdatingEmail: "{newEmail}")
                """#,
            kotlin: #"""
                // The address changes when the user opens the link sent to it
                Firebase.auth.currentUser!!.verifyBeforeUpdateEmail("{newEmail}")
                    .addOnSuccessListener { /* the link is on its way */ }
                """#,
            javascript: #"""
                import { getAuth, verifyBeforeUpdateEmail } from "firebase/auth";

                const auth = getAuth();
                // The address changes when the user opens the link sent to it
                await verifyBeforeUpdateEmail(auth.currentUser, "{newEmail}");
                """#,
            cpp: #"""
                // The address changes when the user opens the link sent to it
                auth->current_user().SendEmailVerificationBeforeUpdatingEmail("{newEmail}");
                """#),

        .updateEmail: SnippetSet(
            title: "Change email at once (deprecated: unverified)",
            swift: #"""
                // Deprecated: prefer sendEmailVerification(beforeUpdatingEmail:)
                try await Auth.auth().currentUser!.updateEmail(to: "{newEmail}")
                """#,
            kotlin: #"""
                // Deprecated: prefer verifyBeforeUpdateEmail
                Firebase.auth.currentUser!!.updateEmail("{newEmail}")
                """#,
            javascript: #"""
                import { getAuth, updateEmail } from "firebase/auth";

                const auth = getAuth();
                // Fails when the project enforces email enumeration protection
                await updateEmail(auth.currentUser, "{newEmail}");
                """#,
            cpp: #"""
                // The C++ SDK changes an address only after verification
                auth->current_user().SendEmailVerificationBeforeUpdatingEmail("{newEmail}");
                """#),

        .updatePassword: SnippetSet(
            title: "Update the password",
            swift: #"""
                // newPassword: from the form, never logged ({email})
                try await Auth.auth().currentUser!.updatePassword(to: newPassword)
                """#,
            kotlin: #"""
                // newPassword: from the form, never logged ({email})
                Firebase.auth.currentUser!!.updatePassword(newPassword)
                    .addOnFailureListener { e ->
                        if (e is FirebaseAuthRecentLoginRequiredException) { /* reauthenticate */ }
                    }
                """#,
            javascript: #"""
                import { getAuth, updatePassword } from "firebase/auth";

                const auth = getAuth();
                // newPassword: from the form, never logged ({email})
                await updatePassword(auth.currentUser, newPassword);
                """#,
            cpp: #"""
                // new_password: from the form, never logged ({email})
                auth->current_user().UpdatePassword(new_password.c_str());
                """#),

        .deleteAccount: SnippetSet(
            title: "Delete the account",
            swift: #"""
                // Deletes {uid}; needs a recent sign-in
                try await Auth.auth().currentUser!.delete()
                """#,
            kotlin: #"""
                // Deletes {uid}; needs a recent sign-in
                Firebase.auth.currentUser!!.delete()
                    .addOnSuccessListener { /* signed out, account gone */ }
                """#,
            javascript: #"""
                import { deleteUser, getAuth } from "firebase/auth";

                const auth = getAuth();
                // Deletes {uid}; needs a recent sign-in
                await deleteUser(auth.currentUser);
                """#,
            cpp: #"""
                // Deletes {uid}; needs a recent sign-in
                auth->current_user().Delete();
                """#),

        .signOut: SnippetSet(
            title: "Sign out",
            swift: #"""
                try Auth.auth().signOut()  // {uid} signed out on this device
                """#,
            kotlin: #"""
                Firebase.auth.signOut()  // {uid} signed out on this device
                """#,
            javascript: #"""
                import { getAuth, signOut } from "firebase/auth";

                await signOut(getAuth());  // {uid} signed out in this browser
                """#,
            cpp: #"""
                auth->SignOut();  // {uid} signed out on this device
                """#),

        .reload: SnippetSet(
            title: "Reload the user",
            swift: #"""
                let user = Auth.auth().currentUser!  // {uid}
                try await user.reload()  // fresh isEmailVerified, providerData, ...
                """#,
            kotlin: #"""
                val user = Firebase.auth.currentUser!!  // {uid}
                user.reload().addOnSuccessListener { /* fresh isEmailVerified, ... */ }
                """#,
            javascript: #"""
                import { getAuth, reload } from "firebase/auth";

                const auth = getAuth();  // {uid}
                await reload(auth.currentUser);  // fresh emailVerified, providerData, ...
                """#,
            cpp: #"""
                auth->current_user().Reload();  // {uid}: fresh is_email_verified(), ...
                """#),
    ]
}
