import AuthClient
import Testing

@Suite("Firebase's error codes")
struct AuthErrorCodeTests {
    @Test(arguments: [
        ("EMAIL_EXISTS", AuthErrorCode.emailAlreadyInUse), ("EMAIL_NOT_FOUND", .userNotFound), ("USER_NOT_FOUND", .userNotFound),
        ("INVALID_PASSWORD", .wrongPassword), ("INVALID_LOGIN_CREDENTIALS", .invalidCredential), ("USER_DISABLED", .userDisabled),
        ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests), ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
        ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse), ("MISSING_OR_INVALID_NONCE", .missingOrInvalidNonce),
        ("WEAK_PASSWORD", .weakPassword), ("INVALID_ID_TOKEN", .invalidUserToken), ("TOKEN_EXPIRED", .userTokenExpired),
        ("INVALID_EMAIL", .invalidEmail), ("SECOND_FACTOR_EXISTS", .secondFactorAlreadyEnrolled),
        ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession), ("INVALID_REFRESH_TOKEN", .internalError),
        ("SOMETHING_NEW", .internalError),
    ])
    func serverCodesMapAsTheIOSSDKMapsThem(code: String, expected: AuthErrorCode) {
        #expect(AuthErrorCode(serverCode: code) == expected)
    }

    /// A provider's refusal and a page that is not the API's are told as such, not as "an unexpected error".
    @Test func theProvidersWordsAndANonAPIAnswerAreTheSentence() {
        let refusal = AuthError(AuthErrorCode(serverCode: "INVALID_IDP_RESPONSE"),
                                serverMessage: "INVALID_IDP_RESPONSE : AADSTS90023: Unsupported 'prompt' value 'always'.")
        #expect(refusal.code == .invalidCredential)
        #expect(refusal.message == "The identity provider refused: AADSTS90023: Unsupported 'prompt' value 'always'.")
        let page = AuthError(AuthErrorCode(serverCode: "HTTP_404"), serverMessage: "HTTP_404 : The server answered HTTP 404 with an empty body.")
        #expect(page.code == .internalError)
        #expect(page.message == "The server answered HTTP 404 with an empty body.")
        #expect(AuthError(.invalidCredential, serverMessage: "INVALID_IDP_RESPONSE").message == AuthErrorCode.invalidCredential.localizedDescription)
        #expect(AuthError(.weakPassword, serverMessage: "WEAK_PASSWORD : Password should be at least 6 characters").message
            == AuthErrorCode.weakPassword.localizedDescription)
    }

    @Test func everyCodeHasASentence() {
        for code in AuthErrorCode.allCases {
            #expect(code.localizedDescription.hasSuffix("."), "\(code)")
        }
    }
}
