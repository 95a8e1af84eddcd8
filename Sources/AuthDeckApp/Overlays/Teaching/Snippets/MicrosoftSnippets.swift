/// Microsoft: the generic OAuth provider with the run's custom parameters (Azure AD's tenant,
/// prompt, login_hint) and scopes; then Microsoft Graph called with the access token it returned.
enum MicrosoftSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .microsoftProvider: SnippetSet(
            title: "Microsoft: the provider with this run's parameters and scopes",
            swift: #"""
                let provider = OAuthProvider(providerID: "microsoft.com")
                provider.customParameters = {parameters}
                provider.scopes = [{scopes}]
                """#,
            kotlin: #"""
                val provider = OAuthProvider.newBuilder("microsoft.com")
                provider.addCustomParameters({parameters})
                provider.setScopes(listOf({scopes}))
                """#,
            javascript: #"""
                import { OAuthProvider } from "firebase/auth";

                const provider = new OAuthProvider("microsoft.com");
                provider.setCustomParameters({parameters});
                [{scopes}].forEach((scope) => provider.addScope(scope));
                """#,
            cpp: #"""
                firebase::auth::FederatedOAuthProviderData data(
                    "microsoft.com", {{scopes}}, {parameters});
                firebase::auth::FederatedOAuthProvider provider(data);
                """#),

        .microsoftGraph: SnippetSet(
            title: "Microsoft: call Graph with the access token",
            swift: #"""
                // result: the sign-in's or link's AuthDataResult
                let oauth = result.credential as! OAuthCredential
                var request = URLRequest(url: URL(string: "https://graph.microsoft.com/v1.0/me")!)
                // The token is a secret: "{accessToken}" shown shortened
                request.setValue("Bearer \(oauth.accessToken!)", forHTTPHeaderField: "Authorization")
                let (data, _) = try await URLSession.shared.data(for: request)
                """#,
            kotlin: #"""
                // result: the sign-in's or link's AuthResult
                val oauth = result.credential as OAuthCredential
                val connection = URL("https://graph.microsoft.com/v1.0/me")
                    .openConnection() as HttpURLConnection
                // The token is a secret: "{accessToken}" shown shortened
                connection.setRequestProperty("Authorization", "Bearer ${oauth.accessToken}")
                val body = connection.inputStream.bufferedReader().readText()
                """#,
            javascript: #"""
                import { OAuthProvider } from "firebase/auth";

                // result: the sign-in's or link's UserCredential
                const { accessToken } = OAuthProvider.credentialFromResult(result);
                // The token is a secret: "{accessToken}" shown shortened
                const response = await fetch("https://graph.microsoft.com/v1.0/me", {
                  headers: { Authorization: "Bearer " + accessToken },
                });
                const me = await response.json();
                """#,
            cpp: .unavailable(#"""
                // The C++ SDK's Credential does not expose the provider's access
                // token: call Graph from the Apple, Android or web layer.
                """#)),
    ]
}
