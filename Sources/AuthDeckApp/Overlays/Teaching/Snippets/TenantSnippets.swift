/// Identity Platform tenants: the client picks its tenant before signing in, and every call after
/// that (sign-ups, sign-ins, emails, second factors) is the tenant's.
enum TenantSnippets {
    static let snippets: [TeachingStep.Kind: SnippetSet] = [
        .selectTenant: SnippetSet(
            title: "Sign in within a tenant",
            swift: #"""
                // Before signing in: every call after this is the tenant's
                Auth.auth().tenantID = "{tenantID}"
                // Its users say so: Auth.auth().currentUser?.tenantID
                """#,
            kotlin: #"""
                // Before signing in: every call after this is the tenant's
                Firebase.auth.tenantId = "{tenantID}"
                // Its users say so: Firebase.auth.currentUser?.tenantId
                """#,
            javascript: #"""
                import { getAuth } from "firebase/auth";

                const auth = getAuth();
                // Before signing in: every call after this is the tenant's
                auth.tenantId = "{tenantID}";
                // Its users say so: auth.currentUser.tenantId
                """#,
            cpp: .unavailable(#"""
                // The C++ SDK has no tenant setting (firebase::auth::Auth has no
                // tenant id): sign in to tenant "{tenantID}" with the Apple,
                // Android or web SDK, or with the REST API's tenantId.
                """#)),
    ]
}
