import AuthClient
import TerminalUI

/// The teaching pane's keys: scroll, the language, the step of several, close.
public enum TeachingAction: Equatable, Sendable {
    case lineUp, lineDown, pageUp, pageDown, nextLanguage, previousStep, nextStep, close
}

/// The teaching pane, an overlay like the inspector: its keys, and the steps it shows, derived
/// here from what just happened, the work the console was asked for or a result that put a new
/// step in front of the user, so no feature has to know the pane exists.
extension ConsoleModel {
    /// The key that opens the pane on the current screen: `s`, or F4 where letters are typed; none
    /// before the console has started and on the operator's accounts view, which no client SDK drives.
    var teachingBinding: KeyBinding<ConsoleAction>? {
        if case .launching = screen { return nil }
        if case .accounts = screen { return nil }
        return screen.editsText ? .teachingInForm : .teaching
    }

    /// The screen's own keys with the pane's first among the console's, where an 80-column bar still
    /// shows it, unless the screen uses that key itself.
    func withTeachingKey(_ own: [KeyBinding<ConsoleAction>]) -> [KeyBinding<ConsoleAction>] {
        guard let key = teachingBinding, !own.contains(where: { $0.keys.contains(where: key.keys.contains) }) else { return own }
        let at = own.firstIndex { binding in
            if case .console = binding.intent { binding.inBar } else { false }
        } ?? own.endIndex
        return Array(own[..<at]) + [key] + Array(own[at...])
    }

    var teachingBindings: [KeyBinding<ConsoleAction>] {
        var keys: [KeyBinding<ConsoleAction>] = [
            KeyBinding([.down, .character("j")], "↓/j", "scroll down", .teaching(.lineDown), inBar: false),
            KeyBinding([.up, .character("k")], "↑/k", "scroll up", .teaching(.lineUp), inBar: false),
            KeyBinding([.pageDown, .character(" ")], "space", "page down", .teaching(.pageDown)),
            KeyBinding([.pageUp, .character("b")], "b", "page up", .teaching(.pageUp), inBar: false),
            KeyBinding([.character("l"), .tab], "l", "show \(teachingDisplay.next.name)", .teaching(.nextLanguage)),
        ]
        if let teaching, teaching.steps.count > 1 {
            keys += [KeyBinding([.left, .character("h")], "←/→", "step", .teaching(.previousStep)),
                     KeyBinding([.right], "", "", .teaching(.nextStep), inBar: false)]
        }
        keys.append(KeyBinding([.escape, .character("s"), .function(4), .character("q")], "esc", "close", .teaching(.close)))
        return keys
    }

    mutating func openTeaching() {
        overlay = .teaching(scroll: 0)
    }

    mutating func performInTeaching(_ scroll: Int, _ action: TeachingAction) -> [ConsoleEffect] {
        let frame = ConsoleView.teachingFrame(terminalSize ?? Size(width: 80, height: 24))
        let last = teachingPane(scroll: 0)?.maxScroll(in: frame) ?? 0
        let page = max(1, TeachingPane.visibleRows(in: frame) - 1)
        switch action {
        case .lineDown: overlay = .teaching(scroll: min(scroll + 1, last))
        case .lineUp: overlay = .teaching(scroll: max(scroll - 1, 0))
        case .pageDown: overlay = .teaching(scroll: min(scroll + page, last))
        case .pageUp: overlay = .teaching(scroll: max(scroll - page, 0))
        case .nextLanguage:
            teachingDisplay = teachingDisplay.next
            overlay = .teaching(scroll: 0)
        case .previousStep, .nextStep:
            guard var teaching else { return [] }
            teaching.selected = action == .nextStep ? min(teaching.selected + 1, teaching.steps.count - 1) : max(teaching.selected - 1, 0)
            self.teaching = teaching
            overlay = .teaching(scroll: 0)
        case .close: overlay = nil
        }
        return []
    }

    /// The pane as it draws: the step, the language choice, and above the code the call it made.
    /// Before any step, what the screen in front of the user does, with what is typed so far.
    func teachingPane(scroll: Int) -> TeachingPane? {
        guard let teaching else {
            return screenTeaching.map { step in
                TeachingPane(step: step, display: teachingDisplay, scroll: scroll, notes: ["Not done yet: what enter does on this screen."])
            }
        }
        var notes = [teaching.step.exchangeLine(in: exchanges)]
        if teaching.steps.count > 1 {
            notes.append("Step \(teaching.selected + 1) of \(teaching.steps.count) of what you just did (←/→).")
        }
        return TeachingPane(step: teaching.step, display: teachingDisplay, scroll: scroll, notes: notes)
    }

    /// What the pane shows next: the work just asked for, else a result that put a step in front of
    /// the user. An open pane follows, back at its top.
    mutating func followTeaching(after event: ConsoleEvent, asked effects: [ConsoleEffect]) {
        guard let next = effects.reversed().compactMap({ teaching(for: $0) }).first ?? teaching(after: event) else { return }
        teaching = next
        if case .teaching = overlay { overlay = .teaching(scroll: 0) }
    }

    /// The step the screen in front of the user takes on enter, for a console where none was taken yet.
    private var screenTeaching: TeachingStep? {
        if case let .credentialForm(form) = screen {
            switch form.purpose {
            case .createAccount: return .createAccount(email: form.email.text)
            case .signIn, .signInToLink: return .signInWithPassword(email: form.email.text)
            case .link: return .upgradeWithPassword(email: form.email.text)
            case .reauthenticate: return .reauthenticateWithPassword(email: form.email.text)
            }
        }
        guard case let .signInMethods(methods) = screen, SignInMethod.allCases.indices.contains(methods.selection) else { return nil }
        switch SignInMethod.allCases[methods.selection] {
        case .anonymous: return .anonymousSignIn
        case .emailPassword: return .signInWithPassword(email: "")
        case .createAccount: return .createAccount(email: "")
        case .apple: return .appleNonce(nonce: "")
        case .microsoft: return .microsoftProvider(tenant: "common", prompt: "", loginHint: "", scopes: [])
        case .google: return .googleSignIn(email: "")
        case .facebook: return .facebookSignIn(scopes: [])
        case .phone: return .phoneSendCode(phoneNumber: "")
        case .resetPassword: return .sendPasswordReset(email: "")
        case .emailLink: return .sendSignInLink(email: "", continueURL: TeachingContext.continueURL)
        }
    }

    // MARK: Steps from the work asked for

    private func teaching(for effect: ConsoleEffect) -> TeachingContext? {
        switch effect {
        case .signInAnonymously:
            return TeachingContext(.anonymousSignIn)
        case let .createUser(email, _):
            return TeachingContext(.createAccount(email: email))
        case let .signIn(credential):
            return signInTeaching(credential)
        case let .link(credential):
            return linkTeaching(credential)
        case let .unlink(providerID):
            return TeachingContext(.unlinkProvider(providerID: providerID))
        case let .reauthenticate(credential, _):
            if case let .password(email, _) = credential { return TeachingContext(.reauthenticateWithPassword(email: email)) }
            return providerTeaching(credential, then: .reauthenticateWithProvider(providerID: credential.provider))
        case let .perform(operation):
            return operationTeaching(operation)
        case .signOut:
            return user.map { TeachingContext(.signOut(uid: $0.uid)) }
        case .reloadUser:
            return user.map { TeachingContext(.reload(uid: $0.uid)) }
        case .verification(.sendEmailVerification):
            return TeachingContext(.sendEmailVerification(email: user?.email ?? ""))
        case let .phone(phoneEffect):
            return phoneTeaching(phoneEffect)
        case let .passwordReset(.sendPasswordReset(email)):
            return TeachingContext(.sendPasswordReset(email: email))
        case let .passwordReset(.confirmPasswordReset(code, _)):
            return TeachingContext(.confirmPasswordReset(oobCode: code))
        case let .emailLink(.sendSignInLink(email)):
            return TeachingContext(.sendSignInLink(email: email, continueURL: TeachingContext.continueURL))
        case let .secondFactorEnrollment(enrollment):
            return enrollmentTeaching(enrollment)
        case let .secondFactorSignIn(challengeEffect):
            return secondFactorTeaching(challengeEffect)
        case let .conflict(.inspectConflictAccount(credential)):
            return TeachingContext(.linkConflictCredential(providerID: credential.provider))
        case let .conflict(.mergeAccounts(plan)):
            return mergeTeaching(plan)
        // The console's own bookkeeping, the simulated provider's directory and the operator's work: no SDK step.
        case .restoreSession, .loadCart, .addToCart, .removeFromCart, .deleteAppData, .mergeCart, .deleteLeftGuest,
             .verification(.refreshOutbox), .verification(.applyActionCode), .verification(.checkResetCode), .pendingLink, .consent, .accounts,
             .room, .quit:
            return nil
        }
    }

    private func signInTeaching(_ credential: AuthCredential) -> TeachingContext? {
        switch credential {
        case let .password(email, _): TeachingContext(.signInWithPassword(email: email))
        case let .emailLink(email, _): TeachingContext(.signInWithEmailLink(email: email))
        case .phone: phoneCode.map { TeachingContext(.phoneSignIn(verificationID: $0.verificationID, code: $0.code)) }
        case .oauth: providerTeaching(credential, then: nil)
        }
    }

    private func linkTeaching(_ credential: AuthCredential) -> TeachingContext? {
        let guest = user?.isAnonymous == true
        switch credential {
        case let .password(email, _):
            return TeachingContext(.upgradeWithPassword(email: email))
        case let .emailLink(email, _):
            return TeachingContext(.upgradeWithEmailLink(email: email))
        case .phone:
            guard guest, let code = phoneCode else { return TeachingContext(.linkProvider(providerID: PhoneAuthProvider.id)) }
            return TeachingContext(.upgradeWithPhone(phoneNumber: code.phone, verificationID: code.verificationID, code: code.code))
        case .oauth:
            return providerTeaching(credential, then: guest ? .upgradeWithProvider(providerID: credential.provider)
                                                             : .linkProvider(providerID: credential.provider))
        }
    }

    /// A federated credential's steps before the call (`then`, or the provider's own sign-in):
    /// Apple's nonce and its hash, Microsoft's provider with its parameters, the Graph call after.
    private func providerTeaching(_ credential: AuthCredential, then final: TeachingStep?) -> TeachingContext? {
        guard case let .oauth(oauth) = credential else { return final.map { TeachingContext($0) } }
        let provider: OAuthProvider? = if case let .consent(consent) = screen { consent.provider } else { nil }
        var steps: [TeachingStep]
        var main: Int
        switch oauth.providerID {
        case "apple.com":
            let nonce = oauth.rawNonce ?? lastAuthorization?.rawNonce ?? ""
            steps = [.appleNonce(nonce: nonce), .appleNonceHash(nonce: nonce, sha256: lastAuthorization?.hashedNonce ?? ""),
                     .appleCredential(nonce: nonce)]
            main = 2
            if let name = oauth.fullName {
                steps.append(.appleFullName(givenName: name.givenName ?? "", familyName: name.familyName ?? ""))
            }
        case "microsoft.com":
            let parameters = provider?.customParameters ?? [:]
            steps = [.microsoftProvider(tenant: parameters["tenant"] ?? "common", prompt: parameters["prompt"] ?? "",
                                        loginHint: parameters["login_hint"] ?? "", scopes: provider?.scopes ?? []),
                     .microsoftGraph(accessToken: oauth.accessToken ?? "")]
            main = 0
        case "google.com":
            steps = [.googleSignIn(email: consentIdentity?.email ?? "")]
            main = 0
        case "facebook.com":
            steps = [.facebookSignIn(scopes: provider?.scopes ?? [])]
            main = 0
        default:
            // Another provider has no sign-in of its own here: only the step it was for.
            steps = []
            main = 0
        }
        if let final {
            steps.append(final)
            main = steps.count - 1
        }
        return steps.isEmpty ? nil : TeachingContext(steps: steps, selected: main)
    }

    private func operationTeaching(_ operation: SensitiveOperation) -> TeachingContext? {
        switch operation {
        case .updatePassword: TeachingContext(.updatePassword(email: user?.email ?? ""))
        case .deleteAccount: user.map { TeachingContext(.deleteAccount(uid: $0.uid)) }
        case let .deletePreviousAccount(previous): TeachingContext(.deleteAccount(uid: previous.uid))
        case let .updateEmail(email, _): TeachingContext(.updateEmail(newEmail: email))
        case let .verifyBeforeUpdateEmail(email): TeachingContext(.verifyBeforeUpdateEmail(newEmail: email))
        // Removing a factor has no step of its own in the catalogue.
        case .unenroll: nil
        }
    }

    private func phoneTeaching(_ effect: PhoneFeature.Effect) -> TeachingContext? {
        switch effect {
        case let .verifyPhoneNumber(number): TeachingContext(.phoneSendCode(phoneNumber: number))
        case let .signIn(credential): signInTeaching(.phone(credential))
        case let .link(credential): linkTeaching(.phone(credential))
        }
    }

    private func enrollmentTeaching(_ effect: SecondFactorEnrollmentFeature.Effect) -> TeachingContext? {
        switch effect {
        case let .startPhoneEnrollment(number):
            return TeachingContext(.smsEnrollmentSendCode(phoneNumber: number))
        case .generateTotpSecret:
            return TeachingContext(.totpSecret(email: user?.email ?? ""))
        case let .enroll(.totpEnrollment(_, code), displayName):
            return TeachingContext(.totpEnrollmentFinish(displayName: displayName, code: code))
        case let .enroll(.phone, displayName):
            guard case let .secondFactorEnrollment(enrollment) = screen,
                  case let .namingPhone(_, verificationID, code, _) = enrollment.step else { return nil }
            return TeachingContext(.smsEnrollmentFinish(displayName: displayName, verificationID: verificationID, code: code))
        case .enroll(.totpSignIn, _):
            return nil
        }
    }

    private func secondFactorTeaching(_ effect: SecondFactorSignInFeature.Effect) -> TeachingContext? {
        let assertion: MultiFactorAssertion
        let challenge: MultiFactorChallenge
        switch effect {
        case let .startSecondFactorSignIn(info, _):
            return TeachingContext(.secondFactorSendCode(displayName: info.displayName ?? "", phoneHint: info.phoneNumber))
        case let .resolveSignIn(asked, given), let .resolveMerge(asked, given, _):
            challenge = asked
            assertion = given
        }
        switch assertion {
        case let .totpSignIn(enrollmentID, code):
            let name = challenge.hints.first { $0.uid == enrollmentID }?.displayName ?? ""
            return TeachingContext(.secondFactorResolveTOTP(displayName: name, code: code))
        case .phone:
            guard case let .secondFactorSignIn(feature) = screen, case let .enteringCode(_, verificationID?, code) = feature.step else { return nil }
            return TeachingContext(.secondFactorResolvePhone(verificationID: verificationID, code: code.text))
        case .totpEnrollment:
            return nil
        }
    }

    private func mergeTeaching(_ plan: MergePlan) -> TeachingContext {
        let other: String = if case let .conflict(conflict) = screen, case let .loaded(account) = conflict.other { account.uid } else { "" }
        return TeachingContext(.linkConflictMerge(guestUID: plan.previousUid, uid: other))
    }

    /// The number, verification id and code on the phone screen, where a phone credential is made.
    private var phoneCode: (phone: String, verificationID: String, code: String)? {
        guard case let .phone(phone) = screen, case let .enteringCode(number, verificationID, code) = phone.step else { return nil }
        return (number, verificationID, code.text)
    }

    /// The identity chosen at the simulated provider.
    private var consentIdentity: SimulatedIdentityProviders.Identity? {
        guard case let .consent(consent) = screen, consent.identities.indices.contains(consent.selection) else { return nil }
        return consent.identities[consent.selection]
    }

    // MARK: Steps from results

    private func teaching(after event: ConsoleEvent) -> TeachingContext? {
        // Only an answer to the work asked for: keys, the inspector's news and the outbox take no step.
        guard event.endsBusyWork else { return nil }
        switch screen {
        // The backend asked for a second factor: the resolver and its hints, after the first factor that led there.
        case let .secondFactorSignIn(feature):
            guard case .choosingFactor = feature.step, teaching?.step.kind != .secondFactorResolver else { return nil }
            let first = teaching.map { [$0.step] } ?? []
            let email = first.first.flatMap { step -> String? in
                if case let .text(email)? = step.values["email"] { return email }
                return nil
            } ?? user?.email ?? ""
            return TeachingContext(steps: first + [.secondFactorResolver(email: email, hints: feature.challenge.hints.map { $0.displayName ?? $0.factorID })])
        case let .secondFactorEnrollment(feature):
            guard case .scanning = feature.step, teaching?.step.kind != .totpQRCode else { return nil }
            return TeachingContext(steps: [.totpSecret(email: user?.email ?? ""),
                                           .totpQRCode(accountName: feature.accountName, issuer: SecondFactorEnrollmentFeature.issuer)])
        case let .conflict(conflict):
            guard case let .loaded(account) = conflict.other, teaching?.step.kind == .linkConflictCredential else { return nil }
            return TeachingContext(steps: [teaching?.step ?? .linkConflictCredential(providerID: conflict.providerID),
                                           .linkConflictSignIn(providerID: conflict.providerID, uid: account.uid)])
        case .launching, .signInMethods, .credentialForm, .account, .addCartItem, .changePassword, .confirm, .secondFactors, .phone,
             .passwordReset, .linking, .providerForm, .consent, .pendingLink, .reauthMethods, .emailLink, .changeEmail, .accounts, .room:
            return nil
        }
    }
}

extension TeachingPane.Display {
    /// The language key's cycle: all four, then each alone at full width.
    var next: Self {
        switch self {
        case .all: return .one(SDKPlatform.allCases[0])
        case let .one(platform):
            let index = SDKPlatform.allCases.firstIndex(of: platform)! + 1
            return index < SDKPlatform.allCases.count ? .one(SDKPlatform.allCases[index]) : .all
        }
    }

    var name: String {
        switch self {
        case .all: "all four"
        case let .one(platform): platform.name
        }
    }
}
