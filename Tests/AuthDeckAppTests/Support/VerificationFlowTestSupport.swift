import AuthClient
@testable import AuthDeckApp
import Foundation
import Testing
import TerminalUI

/// The TestStore pattern for one flow: send an intent, a key or an event, then assert the whole
/// next flow and the steps it asked for.
struct FlowTester<Flow: ConsoleFeature> {
    var flow: Flow
    var context = Fixtures.signedOut

    init(_ flow: Flow) { self.flow = flow }

    mutating func perform(_ intent: Intent, steps expected: [FlowStep] = [], sourceLocation: SourceLocation = #_sourceLocation,
                          _ update: (inout Flow) -> Void = { _ in }) {
        var next = flow
        update(&next)
        let steps = flow.perform(intent, in: context)
        #expect(steps == expected, sourceLocation: sourceLocation)
        #expect(flow == next, sourceLocation: sourceLocation)
    }

    mutating func handle(_ event: VerificationEvent, steps expected: [FlowStep] = [], sourceLocation: SourceLocation = #_sourceLocation,
                         _ update: (inout Flow) -> Void = { _ in }) {
        var next = flow
        update(&next)
        let steps = flow.handle(.verification(event), in: context)
        #expect(steps == expected, sourceLocation: sourceLocation)
        #expect(flow == next, sourceLocation: sourceLocation)
    }

    mutating func type(_ text: String) {
        for character in text { flow.edit(.character(character)) }
    }
}

enum MfaFixtures {
    static let phoneInfo = PhoneMultiFactorInfo(uid: "phoneFactor000000000000000001", displayName: "Work phone",
                                                enrollmentDate: Fixtures.created, phoneNumber: "+*******0100")
    static let totpInfo = TotpMultiFactorInfo(uid: "totpFactor0000000000000000001", displayName: "Authenticator app",
                                              enrollmentDate: Fixtures.created)
    static let phoneHint = MultiFactorInfo.phone(phoneInfo)
    static let totpHint = MultiFactorInfo.totp(totpInfo)

    /// Plain values, as a sign-in's error carries them: no client, no backend.
    static func challenge(hints: [MultiFactorInfo] = [totpHint, phoneHint], reauthenticating uid: String? = nil) -> MultiFactorChallenge {
        MultiFactorChallenge(hints: hints, firstFactorProviderID: "password", mfaPendingCredential: "pending-credential", reauthenticatingUID: uid)
    }

    static let secret = TotpSecret(sharedSecretKey: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", hashingAlgorithm: "SHA1", codeLength: 6,
                                   codeIntervalSeconds: 30, enrollmentCompletionDeadline: nil, sessionInfo: "totp-session")

    static func code(_ text: String) -> TextField { TextField(text: text, maxLength: 6) }

    static func field(_ text: String, maxLength: Int) -> TextField { TextField(text: text, maxLength: maxLength) }

    static func signedIn(_ user: User) -> AuthDataResult {
        AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: false))
    }

    static func verifiedUser(factors: [MultiFactorInfo] = []) -> User {
        var user = Fixtures.passwordUser()
        user.emailVerified = true
        user.enrolledFactors = factors
        return user
    }
}
