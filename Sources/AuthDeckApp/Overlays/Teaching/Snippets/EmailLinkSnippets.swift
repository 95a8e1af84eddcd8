/// Email link: sign in without a password, and give a guest an email that way.
enum EmailLinkSnippets {
    private static let noEmailLinkInCpp: Snippet = .unavailable(#"""
        // The C++ SDK has no email-link sign-in: send and complete the link
        // with the Apple or Android SDK, or with the web SDK.
        """#)

    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .sendSignInLink: SnippetSet(
            title: "Email link: send the sign-in link",
            swift: #"""
                let settings = ActionCodeSettings()
                settings.url = URL(string: "{continueURL}")
                settings.handleCodeInApp = true  // the link must open the app
                try await Auth.auth().sendSignInLink(toEmail: "{email}", actionCodeSettings: settings)
                // Keep the address: the link alone does not say who asked
                UserDefaults.standard.set("{email}", forKey: "emailForSignIn")
                """#,
            kotlin: #"""
                val settings = actionCodeSettings {
                    url = "{continueURL}"
                    handleCodeInApp = true  // the link must open the app
                }
                Firebase.auth.sendSignInLinkToEmail("{email}", settings)
                    .addOnSuccessListener { /* keep "{email}" for the return */ }
                """#,
            javascript: #"""
                import { getAuth, sendSignInLinkToEmail } from "firebase/auth";

                const auth = getAuth();
                await sendSignInLinkToEmail(auth, "{email}", {
                  url: "{continueURL}",
                  handleCodeInApp: true,  // the link must open the app
                });
                // Keep the address: the link alone does not say who asked
                window.localStorage.setItem("emailForSignIn", "{email}");
                """#,
            cpp: noEmailLinkInCpp),

        .signInWithEmailLink: SnippetSet(
            title: "Email link: sign in with the link",
            swift: #"""
                // link: the URL the app was opened with
                if Auth.auth().isSignIn(withEmailLink: link) {
                  let result = try await Auth.auth().signIn(withEmail: "{email}", link: link)
                }
                """#,
            kotlin: #"""
                // link: the intent's data, the URL the app was opened with
                if (Firebase.auth.isSignInWithEmailLink(link)) {
                    Firebase.auth.signInWithEmailLink("{email}", link)
                        .addOnSuccessListener { result -> val user = result.user!! }
                }
                """#,
            javascript: #"""
                import { getAuth, isSignInWithEmailLink, signInWithEmailLink } from "firebase/auth";

                const auth = getAuth();
                if (isSignInWithEmailLink(auth, window.location.href)) {
                  const { user } = await signInWithEmailLink(auth, "{email}", window.location.href);
                }
                """#,
            cpp: noEmailLinkInCpp),

        .upgradeWithEmailLink: SnippetSet(
            title: "Email link: link the address to the guest",
            swift: #"""
                // link: the URL the app was opened with
                let credential = EmailAuthProvider.credential(withEmail: "{email}", link: link)
                let result = try await Auth.auth().currentUser!.link(with: credential)
                // Same uid as the guest, now with a verified email
                """#,
            kotlin: #"""
                // link: the intent's data, the URL the app was opened with
                val credential = EmailAuthProvider.getCredentialWithLink("{email}", link)
                Firebase.auth.currentUser!!.linkWithCredential(credential)
                    .addOnSuccessListener { result -> /* same uid, verified email */ }
                """#,
            javascript: #"""
                import { EmailAuthProvider, getAuth, linkWithCredential } from "firebase/auth";

                const auth = getAuth();
                const credential = EmailAuthProvider.credentialWithLink("{email}", window.location.href);
                const { user } = await linkWithCredential(auth.currentUser, credential);
                """#,
            cpp: noEmailLinkInCpp),
    ]
}
