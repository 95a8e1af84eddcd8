/// Email and password: create, sign in, verify the address, reset a forgotten password.
enum EmailPasswordSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .createAccount: SnippetSet(
            title: "Email and password: create the account",
            swift: #"""
                // password: from the form, never logged
                let result = try await Auth.auth().createUser(withEmail: "{email}", password: password)
                let uid = result.user.uid
                """#,
            kotlin: #"""
                // password: from the form, never logged
                Firebase.auth.createUserWithEmailAndPassword("{email}", password)
                    .addOnSuccessListener { result -> val uid = result.user!!.uid }
                """#,
            javascript: #"""
                import { createUserWithEmailAndPassword, getAuth } from "firebase/auth";

                const auth = getAuth();
                // password: from the form, never logged
                const { user } = await createUserWithEmailAndPassword(auth, "{email}", password);
                """#,
            cpp: #"""
                // password: from the form, never logged
                auth->CreateUserWithEmailAndPassword("{email}", password)
                    .OnCompletion([](const auto& done) {
                      if (done.error() != firebase::auth::kAuthErrorNone) return;
                      std::string uid = done.result()->user.uid();
                    });
                """#),

        .signInWithPassword: SnippetSet(
            title: "Email and password: sign in",
            swift: #"""
                // password: from the form, never logged
                let result = try await Auth.auth().signIn(withEmail: "{email}", password: password)
                """#,
            kotlin: #"""
                // password: from the form, never logged
                Firebase.auth.signInWithEmailAndPassword("{email}", password)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { getAuth, signInWithEmailAndPassword } from "firebase/auth";

                const auth = getAuth();
                // password: from the form, never logged
                const { user } = await signInWithEmailAndPassword(auth, "{email}", password);
                """#,
            cpp: #"""
                // password: from the form, never logged
                auth->SignInWithEmailAndPassword("{email}", password)
                    .OnCompletion([](const auto& done) {
                      if (done.error() == firebase::auth::kAuthErrorWrongPassword) {
                        // Ask again; repeated failures lock the account for a while
                      }
                    });
                """#),

        .sendEmailVerification: SnippetSet(
            title: "Email and password: send the verification email",
            swift: #"""
                let user = Auth.auth().currentUser!  // {email}
                try await user.sendEmailVerification()
                // Later: try await user.reload(); user.isEmailVerified
                """#,
            kotlin: #"""
                val user = Firebase.auth.currentUser!!  // {email}
                user.sendEmailVerification()
                    .addOnSuccessListener { /* the email is on its way */ }
                """#,
            javascript: #"""
                import { getAuth, sendEmailVerification } from "firebase/auth";

                const auth = getAuth();
                await sendEmailVerification(auth.currentUser);  // {email}
                """#,
            cpp: #"""
                firebase::auth::User user = auth->current_user();  // {email}
                user.SendEmailVerification().OnCompletion([](const auto& done) {
                  // done.error() == kAuthErrorNone: the email is on its way
                });
                """#),

        .sendPasswordReset: SnippetSet(
            title: "Password reset: send the email",
            swift: #"""
                try await Auth.auth().sendPasswordReset(withEmail: "{email}")
                """#,
            kotlin: #"""
                Firebase.auth.sendPasswordResetEmail("{email}")
                    .addOnSuccessListener { /* the email is on its way */ }
                """#,
            javascript: #"""
                import { getAuth, sendPasswordResetEmail } from "firebase/auth";

                const auth = getAuth();
                await sendPasswordResetEmail(auth, "{email}");
                """#,
            cpp: #"""
                auth->SendPasswordResetEmail("{email}").OnCompletion(
                    [](const auto& done) {
                      // done.error() == kAuthErrorNone: the email is on its way
                    });
                """#),

        .confirmPasswordReset: SnippetSet(
            title: "Password reset: confirm the new password",
            swift: #"""
                // oobCode: from the link in the email ({oobCode})
                let email = try await Auth.auth().verifyPasswordResetCode(oobCode)
                // newPassword: from the form, never logged
                try await Auth.auth().confirmPasswordReset(withCode: oobCode, newPassword: newPassword)
                """#,
            kotlin: #"""
                // oobCode: from the link in the email ({oobCode})
                // newPassword: from the form, never logged
                Firebase.auth.confirmPasswordReset(oobCode, newPassword)
                    .addOnSuccessListener { /* sign in with the new password */ }
                """#,
            javascript: #"""
                import { confirmPasswordReset, getAuth, verifyPasswordResetCode } from "firebase/auth";

                const auth = getAuth();
                // oobCode: from the link in the email ({oobCode})
                const email = await verifyPasswordResetCode(auth, oobCode);
                // newPassword: from the form, never logged
                await confirmPasswordReset(auth, oobCode, newPassword);
                """#,
            cpp: .unavailable(#"""
                // The C++ SDK has no call to confirm a reset: the link in the email
                // opens Firebase's hosted page, where the user sets the new password.
                """#)),
    ]
}
