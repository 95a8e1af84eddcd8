import NIOCore
import NIOSSH

/// Who logged in on one connection; set by the authentication delegate, read by the session.
/// Lives on the connection's event loop only.
final class ConnectionIdentity {
    let address: String
    /// Its place in the handshaking pool (`ConnectionRegistry`).
    let handshake: Int
    var user: String?
    var role: SSHRole?
    var keyFingerprint: String?
    /// The operator key's comment in the operators file.
    var keyComment: String?
    var sessionOpened = false
    /// Authentication requests answered so far (`none`, passwords, signed keys), successful or not.
    var authenticationRequests = 0
    /// Set when the client logs in: whether it took a session's place, or why not.
    var admission: ConnectionRegistry.SessionAdmission?
    /// When it logged in: the idle and duration limits count from here.
    var loggedIn: NIODeadline?
    /// Its console has started: the login timeout no longer applies.
    var consoleRunning = false
    /// Its session, while its console is starting, at the login timeout: tells the client, then closes.
    var consoleStartOverdue: (() -> Void)?
    /// Its row in the room, from login ("Logging in") until the console exits or the connection closes.
    var roomId: Int?

    init(address: String, handshake: Int) {
        self.address = address
        self.handshake = handshake
    }
}

/// One per connection. A stock OpenSSH client tries `none` first; refusing it makes the client
/// offer its keys, which is how a visitor with a key gets their project back at the next
/// connection. Whatever name a visitor types is their name in the room (`VisitorName`), with any key
/// or any password (an empty one too): that is how a client with no key gets in, asked for a
/// password it may leave empty (swift-nio-ssh has no keyboard-interactive method, which would let
/// it in without a prompt). A key from the operators file (whose signature swift-nio-ssh has already
/// checked) logs in as an operator under any name but the visitors' own (`--visitor-user`), and
/// the names operators use (`ReservedNames`) log in with nothing else.
final class UserAuthenticator: NIOSSHServerUserAuthenticationDelegate {
    private let identity: ConnectionIdentity
    private let visitorNames: Set<String>
    private let operatorKeys: OperatorKeys
    private let reserved: ReservedNames
    private let registry: ConnectionRegistry
    private let loggedIn: () -> Void

    /// `loggedIn` runs once the connection has taken a session's place.
    init(identity: ConnectionIdentity, visitorNames: Set<String>, operatorKeys: OperatorKeys, reserved: ReservedNames,
         registry: ConnectionRegistry, loggedIn: @escaping () -> Void) {
        self.identity = identity
        self.visitorNames = visitorNames
        self.operatorKeys = operatorKeys
        self.reserved = reserved
        self.registry = registry
        self.loggedIn = loggedIn
    }

    /// swift-nio-ssh reads this once for each request it answers but a key's query (`none`, a
    /// password, a signed key, however its signature turns out, which it checks before asking
    /// `requestReceived`): that is where requests are counted.
    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods {
        identity.authenticationRequests += 1
        if identity.authenticationRequests == 1 { registry.handshakeLoggingIn(identity.handshake) }
        return [.publicKey, .password]
    }

    func requestReceived(request: NIOSSHUserAuthenticationRequest,
                         responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        let decision = Self.decide(username: request.username, request: request.request,
                                   visitorNames: visitorNames, operatorKeys: operatorKeys, reserved: reserved)
        if let decision {
            if decision.role == .operator { reserved.reserve(request.username) }
            identity.user = decision.name
            identity.role = decision.role
            identity.keyFingerprint = decision.keyFingerprint
            identity.keyComment = decision.keyComment
            // A place is taken only now; one refused still logs in, to be told why.
            identity.admission = registry.claimSession(handshake: identity.handshake, address: identity.address, isOperator: decision.role == .operator)
            identity.loggedIn = .now()
            if identity.admission == .admitted { loggedIn() }
            responsePromise.succeed(.success)
        } else {
            responsePromise.succeed(.failure)
        }
    }

    struct Decision: Equatable {
        var role: SSHRole
        /// The name the room knows them by (made unique there): the user name, cleaned.
        var name: String
        var keyFingerprint: String?
        var keyComment: String?
    }

    /// An operator's key under any name but the visitors' own makes an operator; passwords never
    /// do. Anyone else is a visitor named by what they typed, with whatever key they offer (a key
    /// is not recorded as an operator's) or any password when they have none, unless the name is
    /// reserved for operators. `none` is refused so that the client offers its keys first.
    static func decide(username: String, request: NIOSSHUserAuthenticationRequest.Request,
                       visitorNames: Set<String>, operatorKeys: OperatorKeys, reserved: ReservedNames) -> Decision? {
        let name = VisitorName.clean(username)
        let alwaysVisitor = visitorNames.contains(username)
        switch request {
        case .none, .hostBased:
            return nil
        case let .publicKey(offer):
            let fingerprint = KeyFingerprint.sha256(offer.publicKey)
            if !alwaysVisitor, operatorKeys.contains(offer.publicKey) {
                return Decision(role: .operator, name: name, keyFingerprint: fingerprint, keyComment: operatorKeys.comments[offer.publicKey])
            }
            return !alwaysVisitor && reserved.contains(username) ? nil : Decision(role: .visitor, name: name, keyFingerprint: fingerprint)
        case .password:
            return !alwaysVisitor && reserved.contains(username) ? nil : Decision(role: .visitor, name: name)
        }
    }
}
