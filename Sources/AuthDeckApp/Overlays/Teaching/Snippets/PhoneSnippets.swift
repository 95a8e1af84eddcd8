/// Phone: an SMS code proves the number; the verification id ties the code to the request.
enum PhoneSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .phoneSendCode: SnippetSet(
            title: "Phone: send the code",
            swift: #"""
                let verificationID = try await PhoneAuthProvider.provider()
                  .verifyPhoneNumber("{phoneNumber}", uiDelegate: nil)
                // Keep verificationID for the next step
                """#,
            kotlin: #"""
                val options = PhoneAuthOptions.newBuilder(Firebase.auth)
                    .setPhoneNumber("{phoneNumber}")
                    .setTimeout(60L, TimeUnit.SECONDS)
                    .setActivity(activity)
                    .setCallbacks(callbacks)  // onCodeSent gets the verificationId
                    .build()
                PhoneAuthProvider.verifyPhoneNumber(options)
                """#,
            javascript: #"""
                import { RecaptchaVerifier, getAuth, signInWithPhoneNumber } from "firebase/auth";

                const auth = getAuth();
                const verifier = new RecaptchaVerifier(auth, "sign-in-button", { size: "invisible" });
                const confirmation = await signInWithPhoneNumber(auth, "{phoneNumber}", verifier);
                // confirmation.verificationId: for the next step
                """#,
            cpp: #"""
                firebase::auth::PhoneAuthOptions options;
                options.phone_number = "{phoneNumber}";
                // listener: a PhoneAuthProvider::Listener; OnCodeSent gets the verification id
                firebase::auth::PhoneAuthProvider::GetInstance(auth)
                    .VerifyPhoneNumber(options, &listener);
                """#),

        .phoneSignIn: SnippetSet(
            title: "Phone: sign in with the verification id and code",
            swift: #"""
                // verificationID "{verificationID}", code {code} typed by the user
                let credential = PhoneAuthProvider.provider()
                  .credential(withVerificationID: verificationID, verificationCode: code)
                let result = try await Auth.auth().signIn(with: credential)
                """#,
            kotlin: #"""
                // verificationId "{verificationID}", code {code} typed by the user
                val credential = PhoneAuthProvider.getCredential(verificationId, code)
                Firebase.auth.signInWithCredential(credential)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                // verificationId "{verificationID}", code {code} typed by the user
                const { user } = await confirmation.confirm(code);
                """#,
            cpp: #"""
                // verification_id "{verificationID}", code {code} typed by the user
                firebase::auth::PhoneAuthCredential credential =
                    firebase::auth::PhoneAuthProvider::GetInstance(auth)
                        .GetCredential(verification_id.c_str(), code.c_str());
                auth->SignInWithCredential(credential);
                """#),
    ]
}
