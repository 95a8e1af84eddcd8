/// Second factors: enrolling an SMS or TOTP factor under a multi-factor session, and the
/// challenge at sign-in, where the resolver lists the hints and finishes the sign-in.
enum SecondFactorSnippets {
    private static let noMultiFactorInCpp: Snippet = .unavailable(#"""
        // The C++ SDK has no multi-factor API: enrol and answer second factors
        // with the Apple, Android or web SDK.
        """#)

    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .smsEnrollmentSendCode: SnippetSet(
            title: "SMS second factor: send the code under a multi-factor session",
            swift: #"""
                let user = Auth.auth().currentUser!
                let session = try await user.multiFactor.session()
                let verificationID = try await PhoneAuthProvider.provider()
                  .verifyPhoneNumber("{phoneNumber}", uiDelegate: nil, multiFactorSession: session)
                """#,
            kotlin: #"""
                Firebase.auth.currentUser!!.multiFactor.session
                    .addOnSuccessListener { session ->
                        val options = PhoneAuthOptions.newBuilder()
                            .setPhoneNumber("{phoneNumber}")
                            .setTimeout(60L, TimeUnit.SECONDS)
                            .setActivity(activity)
                            .setMultiFactorSession(session)
                            .setCallbacks(callbacks)  // onCodeSent gets the verificationId
                            .build()
                        PhoneAuthProvider.verifyPhoneNumber(options)
                    }
                """#,
            javascript: #"""
                import { PhoneAuthProvider, RecaptchaVerifier, getAuth, multiFactor } from "firebase/auth";

                const auth = getAuth();
                const session = await multiFactor(auth.currentUser).getSession();
                const verifier = new RecaptchaVerifier(auth, "enroll-button", { size: "invisible" });
                const verificationId = await new PhoneAuthProvider(auth)
                  .verifyPhoneNumber({ phoneNumber: "{phoneNumber}", session }, verifier);
                """#,
            cpp: noMultiFactorInCpp),

        .smsEnrollmentFinish: SnippetSet(
            title: "SMS second factor: enrol with the code",
            swift: #"""
                // verificationID "{verificationID}", code {code} typed by the user
                let credential = PhoneAuthProvider.provider()
                  .credential(withVerificationID: verificationID, verificationCode: code)
                let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
                try await Auth.auth().currentUser!.multiFactor
                  .enroll(with: assertion, displayName: "{displayName}")
                """#,
            kotlin: #"""
                // verificationId "{verificationID}", code {code} typed by the user
                val credential = PhoneAuthProvider.getCredential(verificationId, code)
                val assertion = PhoneMultiFactorGenerator.getAssertion(credential)
                Firebase.auth.currentUser!!.multiFactor.enroll(assertion, "{displayName}")
                """#,
            javascript: #"""
                import { PhoneAuthProvider, PhoneMultiFactorGenerator, getAuth, multiFactor } from "firebase/auth";

                const auth = getAuth();
                // verificationId "{verificationID}", code {code} typed by the user
                const credential = PhoneAuthProvider.credential(verificationId, code);
                const assertion = PhoneMultiFactorGenerator.assertion(credential);
                await multiFactor(auth.currentUser).enroll(assertion, "{displayName}");
                """#,
            cpp: noMultiFactorInCpp),

        .totpSecret: SnippetSet(
            title: "TOTP second factor: generate the secret",
            swift: #"""
                let user = Auth.auth().currentUser!  // {email}
                let session = try await user.multiFactor.session()
                let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
                """#,
            kotlin: #"""
                val user = Firebase.auth.currentUser!!  // {email}
                user.multiFactor.session
                    .continueWithTask { TotpMultiFactorGenerator.generateSecret(it.result) }
                    .addOnSuccessListener { secret -> /* show it as a QR code */ }
                """#,
            javascript: #"""
                import { TotpMultiFactorGenerator, getAuth, multiFactor } from "firebase/auth";

                const auth = getAuth();  // {email}
                const session = await multiFactor(auth.currentUser).getSession();
                const secret = await TotpMultiFactorGenerator.generateSecret(session);
                """#,
            cpp: noMultiFactorInCpp),

        .totpQRCode: SnippetSet(
            title: "TOTP second factor: the QR code for the authenticator app",
            swift: #"""
                let url = secret.generateQRCodeURL(withAccountName: "{accountName}", issuer: "{issuer}")
                // Draw url as a QR code, or hand it to an authenticator app:
                secret.openInOTPApp(withQRCodeURL: url)
                """#,
            kotlin: #"""
                val url = secret.generateQrCodeUrl("{accountName}", "{issuer}")
                // Draw url as a QR code, or hand it to an authenticator app:
                secret.openInOtpApp(url)
                """#,
            javascript: #"""
                const url = secret.generateQrCodeUrl("{accountName}", "{issuer}");
                // Draw url as a QR code (otpauth://totp/{issuer}:{accountName}?secret=...)
                """#,
            cpp: noMultiFactorInCpp),

        .totpEnrollmentFinish: SnippetSet(
            title: "TOTP second factor: enrol with the app's code",
            swift: #"""
                // code {code} from the authenticator app
                let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(
                    with: secret, oneTimePassword: code)
                try await Auth.auth().currentUser!.multiFactor
                  .enroll(with: assertion, displayName: "{displayName}")
                """#,
            kotlin: #"""
                // code {code} from the authenticator app
                val assertion = TotpMultiFactorGenerator.getAssertionForEnrollment(secret, code)
                Firebase.auth.currentUser!!.multiFactor.enroll(assertion, "{displayName}")
                """#,
            javascript: #"""
                import { TotpMultiFactorGenerator, getAuth, multiFactor } from "firebase/auth";

                const auth = getAuth();
                // code {code} from the authenticator app
                const assertion = TotpMultiFactorGenerator.assertionForEnrollment(secret, code);
                await multiFactor(auth.currentUser).enroll(assertion, "{displayName}");
                """#,
            cpp: noMultiFactorInCpp),

        .secondFactorResolver: SnippetSet(
            title: "Second factor required: the resolver and its hints",
            swift: #"""
                do {
                  try await Auth.auth().signIn(withEmail: "{email}", password: password)
                } catch let error as NSError
                    where error.code == AuthErrorCode.secondFactorRequired.rawValue {
                  let resolver = error.userInfo[AuthErrors.userInfoMultiFactorResolverKey]
                    as! MultiFactorResolver
                  // resolver.hints: [{hints}]
                  let names = resolver.hints.map { $0.displayName ?? $0.factorID }
                }
                """#,
            kotlin: #"""
                Firebase.auth.signInWithEmailAndPassword("{email}", password)
                    .addOnFailureListener { e ->
                        if (e is FirebaseAuthMultiFactorException) {
                            val resolver = e.resolver
                            // resolver.hints: [{hints}]
                            val names = resolver.hints.map { it.displayName ?: it.factorId }
                        }
                    }
                """#,
            javascript: #"""
                import { getAuth, getMultiFactorResolver, signInWithEmailAndPassword } from "firebase/auth";

                const auth = getAuth();
                try {
                  await signInWithEmailAndPassword(auth, "{email}", password);
                } catch (error) {
                  if (error.code === "auth/multi-factor-auth-required") {
                    const resolver = getMultiFactorResolver(auth, error);
                    // resolver.hints: [{hints}]
                    const names = resolver.hints.map((hint) => hint.displayName ?? hint.factorId);
                  }
                }
                """#,
            cpp: noMultiFactorInCpp),

        .secondFactorSendCode: SnippetSet(
            title: "Second factor: select the SMS hint, send the code",
            swift: #"""
                // The hint "{displayName}" ({phoneHint})
                let hint = resolver.hints[selected] as! PhoneMultiFactorInfo
                let verificationID = try await PhoneAuthProvider.provider()
                  .verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)
                """#,
            kotlin: #"""
                // The hint "{displayName}" ({phoneHint})
                val hint = resolver.hints[selected] as PhoneMultiFactorInfo
                val options = PhoneAuthOptions.newBuilder()
                    .setMultiFactorHint(hint)
                    .setMultiFactorSession(resolver.session)
                    .setActivity(activity)
                    .setTimeout(60L, TimeUnit.SECONDS)
                    .setCallbacks(callbacks)  // onCodeSent gets the verificationId
                    .build()
                PhoneAuthProvider.verifyPhoneNumber(options)
                """#,
            javascript: #"""
                import { PhoneAuthProvider, RecaptchaVerifier, getAuth } from "firebase/auth";

                const auth = getAuth();
                // The hint "{displayName}" ({phoneHint})
                const hint = resolver.hints[selected];
                const verifier = new RecaptchaVerifier(auth, "verify-button", { size: "invisible" });
                const verificationId = await new PhoneAuthProvider(auth).verifyPhoneNumber(
                  { multiFactorHint: hint, session: resolver.session }, verifier);
                """#,
            cpp: noMultiFactorInCpp),

        .secondFactorResolvePhone: SnippetSet(
            title: "Second factor: finish the sign-in with the SMS code",
            swift: #"""
                // verificationID "{verificationID}", code {code} typed by the user
                let credential = PhoneAuthProvider.provider()
                  .credential(withVerificationID: verificationID, verificationCode: code)
                let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
                let result = try await resolver.resolveSignIn(with: assertion)
                """#,
            kotlin: #"""
                // verificationId "{verificationID}", code {code} typed by the user
                val credential = PhoneAuthProvider.getCredential(verificationId, code)
                resolver.resolveSignIn(PhoneMultiFactorGenerator.getAssertion(credential))
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { PhoneAuthProvider, PhoneMultiFactorGenerator } from "firebase/auth";

                // verificationId "{verificationID}", code {code} typed by the user
                const credential = PhoneAuthProvider.credential(verificationId, code);
                const assertion = PhoneMultiFactorGenerator.assertion(credential);
                const { user } = await resolver.resolveSignIn(assertion);
                """#,
            cpp: noMultiFactorInCpp),

        .secondFactorResolveTOTP: SnippetSet(
            title: "Second factor: select the TOTP hint, finish with the app's code",
            swift: #"""
                // The hint "{displayName}"; code {code} from the authenticator app
                let hint = resolver.hints[selected]
                let assertion = TOTPMultiFactorGenerator.assertionForSignIn(
                    withEnrollmentID: hint.uid, oneTimePassword: code)
                let result = try await resolver.resolveSignIn(with: assertion)
                """#,
            kotlin: #"""
                // The hint "{displayName}"; code {code} from the authenticator app
                val hint = resolver.hints[selected]
                val assertion = TotpMultiFactorGenerator.getAssertionForSignIn(hint.uid, code)
                resolver.resolveSignIn(assertion)
                    .addOnSuccessListener { result -> val user = result.user!! }
                """#,
            javascript: #"""
                import { TotpMultiFactorGenerator } from "firebase/auth";

                // The hint "{displayName}"; code {code} from the authenticator app
                const hint = resolver.hints[selected];
                const assertion = TotpMultiFactorGenerator.assertionForSignIn(hint.uid, code);
                const { user } = await resolver.resolveSignIn(assertion);
                """#,
            cpp: noMultiFactorInCpp),
    ]
}
