import NIOCore
import NIOSSH

/// Who logged in on one connection; set by the authentication delegate, read by the session.
/// Lives on the connection's event loop only.
final class ConnectionIdentity {
    let address: String
    var user: String?
    var role: SSHRole?
    var keyFingerprint: String?
    var sessionOpened = false

    init(address: String) { self.address = address }
}

/// One per connection. A stock OpenSSH client tries `none` first, so `none` succeeds for the
/// visitor names only: for any other name the client goes on to offer its keys, and a key from
/// the operators file (whose signature swift-nio-ssh has already checked) makes an operator.
final class UserAuthenticator: NIOSSHServerUserAuthenticationDelegate {
    private let identity: ConnectionIdentity
    private let visitorNames: Set<String>
    private let operatorKeys: OperatorKeys

    init(identity: ConnectionIdentity, visitorNames: Set<String>, operatorKeys: OperatorKeys) {
        self.identity = identity
        self.visitorNames = visitorNames
        self.operatorKeys = operatorKeys
    }

    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods { .publicKey }

    func requestReceived(request: NIOSSHUserAuthenticationRequest,
                         responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        let decision = Self.decide(username: request.username, request: request.request,
                                   visitorNames: visitorNames, operatorKeys: operatorKeys)
        if let decision {
            identity.user = request.username
            identity.role = decision.role
            identity.keyFingerprint = decision.keyFingerprint
            responsePromise.succeed(.success)
        } else {
            responsePromise.succeed(.failure)
        }
    }

    struct Decision: Equatable {
        var role: SSHRole
        var keyFingerprint: String?
    }

    /// Visitor names are visitors whatever they offer (a key is not recorded as an operator's);
    /// any other name needs an operator key; passwords are never accepted.
    static func decide(username: String, request: NIOSSHUserAuthenticationRequest.Request,
                       visitorNames: Set<String>, operatorKeys: OperatorKeys) -> Decision? {
        if visitorNames.contains(username) {
            switch request {
            case .none: return Decision(role: .visitor)
            case let .publicKey(offer): return Decision(role: .visitor, keyFingerprint: KeyFingerprint.sha256(offer.publicKey))
            case .password, .hostBased: return nil
            }
        }
        guard case let .publicKey(offer) = request, operatorKeys.contains(offer.publicKey) else { return nil }
        return Decision(role: .operator, keyFingerprint: KeyFingerprint.sha256(offer.publicKey))
    }
}

/// A connection over the limits still completes the handshake, so that its user reads why
/// instead of a bare "connection closed": any name is let in, to be told and disconnected.
final class RefusingAuthenticator: NIOSSHServerUserAuthenticationDelegate {
    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods { .publicKey }

    func requestReceived(request: NIOSSHUserAuthenticationRequest,
                         responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        responsePromise.succeed(.success)
    }
}
