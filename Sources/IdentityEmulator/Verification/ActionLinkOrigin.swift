import Foundation

/// Where the links in emails point (`http://HOST:PORT/emulator/action?…`). The emulator's own
/// default until `authdeck serve` knows the address it really listens on, which with `--port 0`
/// is only after the backend exists; hence settable, behind a lock.
final class ActionLinkOrigin: @unchecked Sendable {
    private let lock = NSLock()
    private var origin: (host: String, port: Int) = ("localhost", 9099)

    var value: (host: String, port: Int) { lock.withLock { origin } }

    func set(host: String, port: Int) { lock.withLock { origin = (host, port) } }
}

/// The JSON answer of `GET /emulator/action`, in the emulator's `{"authEmulator": {…}}` shape.
struct EmailActionResult: Encodable {
    struct Outcome: Encodable {
        var success: String?
        var instructions: String?
        var email: String?
        var newEmail: String?
    }

    var authEmulator: Outcome

    init(success: String? = nil, instructions: String? = nil, email: String?, newEmail: String? = nil) {
        authEmulator = Outcome(success: success, instructions: instructions, email: email, newEmail: newEmail)
    }
}

extension EmbeddedBackend {
    /// Email links then open on the address `authdeck serve` listens on.
    public func setActionLinkOrigin(host: String, port: Int) { actionLinkOrigin.set(host: host, port: port) }
}
