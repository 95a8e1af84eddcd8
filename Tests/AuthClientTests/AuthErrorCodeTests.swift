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

    @Test func everyCodeHasASentence() {
        for code in AuthErrorCode.allCases {
            #expect(code.localizedDescription.hasSuffix("."), "\(code)")
        }
    }
}
