import Foundation
import IdentityEmulator
import IdentityToolkit

/// What an administrator does to the backend behind a test's back (the Admin SDK's calls), for
/// tests above the wire layer that set up or check accounts without speaking the wire themselves.
extension EmbeddedBackend {
    /// Whether an account with `uid` exists, by an administrator's `accounts:lookup`.
    public func accountExists(uid: String) async throws -> Bool {
        let lookup = WireRequest(path: AccountsLookupRequest.endpoint.emulatorPath, headers: ["Authorization": "Bearer owner"],
                                 body: try WireCoding.encoder().encode(AccountsLookupRequest(localId: [uid])))
        return try WireCoding.decode(AccountsLookupResponse.self, from: await handle(lookup)).users != nil
    }

    /// Gives the account a phone second factor, as `accounts:update` with `mfa` does; the HTTP status.
    public func enrollPhoneFactor(uid: String, phoneNumber: String, displayName: String) async -> Int {
        // An update names each factor by its id, as in the emulator.
        let body = #"{"localId":"\#(uid)","mfa":{"enrollments":[{"mfaEnrollmentId":"\#(uid)-phone","phoneInfo":"\#(phoneNumber)","displayName":"\#(displayName)"}]}}"#
        let update = WireRequest(path: AccountsUpdateRequest.endpoint.emulatorPath, headers: ["Authorization": "Bearer owner"], body: Data(body.utf8))
        return await handle(update).status
    }
}
