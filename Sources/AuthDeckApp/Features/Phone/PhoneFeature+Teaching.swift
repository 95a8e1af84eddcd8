import AuthClient

/// The teaching pane's steps of the phone screen: texting a code, and the sign-in or link with the
/// code typed here (the credential keeps its verification id and code to itself).
extension PhoneFeature {
    func teaching(for effect: ConsoleEffect, in input: TeachingInput) -> TeachingContext? {
        if case let .phone(own) = effect {
            switch own {
            case let .verifyPhoneNumber(number): return TeachingContext(.phoneSendCode(phoneNumber: number))
            case let .signIn(credential): return CredentialTeaching.signIn(.phone(credential), phoneCode: phoneCode, in: input)
            case let .link(credential): return CredentialTeaching.link(.phone(credential), phoneCode: phoneCode, in: input)
            }
        }
        if case let .signIn(credential) = effect { return CredentialTeaching.signIn(credential, phoneCode: phoneCode, in: input) }
        if case let .link(credential) = effect { return CredentialTeaching.link(credential, phoneCode: phoneCode, in: input) }
        return nil
    }

    private var phoneCode: CredentialTeaching.PhoneCode? {
        guard case let .enteringCode(number, verificationID, code) = step else { return nil }
        return CredentialTeaching.PhoneCode(phone: number, verificationID: verificationID, code: code.text)
    }
}
