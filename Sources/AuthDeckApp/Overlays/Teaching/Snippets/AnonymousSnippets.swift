/// Anonymous sign-in, and upgrading the guest by linking a permanent credential: the uid stays,
/// so whatever the guest made stays theirs.
enum AnonymousSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .anonymousSignIn: SnippetSet(
            title: "Anonymous sign-in",
            swift: #"""
                let result = try await Auth.auth().signInAnonymously()
                let user = result.user  // user.isAnonymous == true
                """#,
            kotlin: #"""
                Firebase.auth.signInAnonymously()
                    .addOnSuccessListener { result ->
                        val user = result.user!!  // user.isAnonymous == true
                    }
                """#,
            javascript: #"""
                import { getAuth, signInAnonymously } from "firebase/auth";

                const auth = getAuth();
                const { user } = await signInAnonymously(auth);
                // user.isAnonymous === true
                """#,
            cpp: #"""
                firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);
                auth->SignInAnonymously().OnCompletion([](const auto& done) {
                  if (done.error() != firebase::auth::kAuthErrorNone) return;
                  const firebase::auth::User& user = done.result()->user;
                  // user.is_anonymous() == true
                });
                """#),

        .upgradeWithPassword: SnippetSet(
            title: "Upgrade the guest: link an email and password",
            swift: #"""
                // password: from the form, never logged
                let credential = EmailAuthProvider.credential(withEmail: "{email}", password: password)
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // Same uid as the guest; result.user.isAnonymous == false
                """#,
            kotlin: #"""
                // password: from the form, never logged
                val credential = EmailAuthProvider.getCredential("{email}", password)
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnSuccessListener { result ->
                        // Same uid as the guest; result.user!!.isAnonymous == false
                    }
                """#,
            javascript: #"""
                import { EmailAuthProvider, getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                // password: from the form, never logged
                const credential = EmailAuthProvider.credential("{email}", password);
                const { user } = await linkWithCredential(auth.currentUser, credential);
                // Same uid as the guest; user.isAnonymous === false
                """#,
            cpp: #"""
                // password: from the form, never logged
                firebase::auth::Credential credential =
                    firebase::auth::EmailAuthProvider::GetCredential("{email}", password);
                auth->current_user().LinkWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      // Same uid as the guest: done.result()->user.uid()
                    });
                """#),

        .upgradeWithProvider: SnippetSet(
            title: "Upgrade the guest: link the provider's credential",
            swift: #"""
                // credential: the {providerID} credential of the step before
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // Same uid as the guest, now with a {providerID} identity
                """#,
            kotlin: #"""
                // credential: the {providerID} credential of the step before
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnSuccessListener { result ->
                        // Same uid as the guest, now with a {providerID} identity
                    }
                """#,
            javascript: #"""
                import { getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                // credential: the {providerID} credential of the step before
                const { user } = await linkWithCredential(auth.currentUser, credential);
                // Same uid as the guest, now with a {providerID} identity
                """#,
            cpp: #"""
                // credential: the {providerID} credential of the step before
                auth->current_user().LinkWithCredential(credential).OnCompletion(
                    [](const auto& done) {
                      // Same uid as the guest: done.result()->user.uid()
                    });
                """#),

        .upgradeWithPhone: SnippetSet(
            title: "Upgrade the guest: link a phone number",
            swift: #"""
                // {phoneNumber}: verificationID "{verificationID}", code {code}
                let credential = PhoneAuthProvider.provider()
                    .credential(withVerificationID: verificationID, verificationCode: code)
                let result = try await Auth.auth().currentUser!.link(with: credential)
                """#,
            kotlin: #"""
                // {phoneNumber}: verificationId "{verificationID}", code {code}
                val credential = PhoneAuthProvider.getCredential(verificationId, code)
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnSuccessListener { result -> /* same uid, now with a phone */ }
                """#,
            javascript: #"""
                import { PhoneAuthProvider, getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                // {phoneNumber}: verificationId "{verificationID}", code {code}
                const credential = PhoneAuthProvider.credential(verificationId, code);
                const { user } = await linkWithCredential(auth.currentUser, credential);
                """#,
            cpp: #"""
                // {phoneNumber}: verification_id "{verificationID}", code {code}
                firebase::auth::PhoneAuthProvider& phone =
                    firebase::auth::PhoneAuthProvider::GetInstance(auth);
                firebase::auth::PhoneAuthCredential credential =
                    phone.GetCredential(verification_id.c_str(), code.c_str());
                auth->current_user().LinkWithCredential(credential);
                """#),
    ]
}
