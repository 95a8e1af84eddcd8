import Logging
import NIOCore
import NIOPosix
import NIOSSH

/// `authdeck ssh`'s front door: SSH on a TCP port (swift-nio-ssh), one console process per
/// session. Only session channels are served: no forwarding of any kind, no subsystems, no
/// commands, no agent or X11; swift-nio-ssh refuses what it is not given a delegate for.
public final class SSHServer: Sendable {
    private let listener: Channel
    private let registry: ConnectionRegistry
    private let room: RoomRegistry
    private let forkServer: ConsoleForkServer?
    public let port: Int

    private init(listener: Channel, registry: ConnectionRegistry, room: RoomRegistry, forkServer: ConsoleForkServer?) {
        self.listener = listener
        self.registry = registry
        self.room = room
        self.forkServer = forkServer
        self.port = listener.localAddress?.port ?? 0
    }

    public static func start(settings: SSHServerSettings, logger: Logger,
                             group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> SSHServer {
        let registry = ConnectionRegistry(limits: settings.limits)
        // The operators' rooms follow the sessions within a second, however many there are.
        let snapshotLoop = group.next()
        let room = RoomRegistry(reset: settings.demoReset, logger: logger, everySecond: { tick in
            let task = snapshotLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in tick() }
            return { task.cancel() }
        })
        let reserved = ReservedNames(operatorKeys: settings.operatorKeys)
        let forkServer = settings.forkConsoles ? ConsoleForkServer(executable: settings.launcher.executable, logger: logger) : nil
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.setUp(connection: channel, settings: settings, registry: registry, room: room, reserved: reserved,
                                   forkServer: forkServer, logger: logger)
                }
            }
            .bind(host: settings.host, port: settings.port)
            .get()
        return SSHServer(listener: listener, registry: registry, room: room, forkServer: forkServer)
    }

    /// Connections open now, logged in or not.
    public var openConnections: Int { registry.openConnections }

    /// Stops listening and stops every console; returns once their sessions have closed (or after 5 s).
    ///
    /// Each console is told first (SIGTERM): it gives the terminal back (the normal screen, the cursor)
    /// and says why it is going, and its exit closes the session with its status (143), as any console's
    /// exit does. One still running after 3 s is hung up, as a dropped connection would be.
    public func shutdown() async {
        try? await listener.close()
        room.stopSnapshots()
        for pid in registry.consoles { kill(pid, SIGTERM) }
        for _ in 0..<30 where registry.openConnections > 0 && !registry.consoles.isEmpty {
            try? await Task.sleep(for: .milliseconds(100))
        }
        for pid in registry.consoles { kill(pid, SIGHUP) }
        for _ in 0..<20 where registry.openConnections > 0 {
            try? await Task.sleep(for: .milliseconds(100))
        }
        forkServer?.stop()
    }

    private static func setUp(connection channel: Channel, settings: SSHServerSettings, registry: ConnectionRegistry,
                              room: RoomRegistry, reserved: ReservedNames, forkServer: ConsoleForkServer?, logger: Logger) throws {
        let address = channel.remoteAddress?.ipAddress ?? "?"
        guard let handshake = registry.admitHandshake(address: address, close: { [channel] in channel.close(promise: nil) }) else {
            // Telling costs a handshake; a flood is closed before it costs one.
            channel.close(promise: nil)
            return
        }
        let limits = settings.limits
        let identity = ConnectionIdentity(address: address, handshake: handshake)
        let loop = channel.eventLoop.assumeIsolated()
        channel.closeFuture.assumeIsolated().whenComplete { _ in
            // A running console's session leaves the room as its console exits.
            if !identity.consoleRunning, let roomId = identity.roomId {
                identity.roomId = nil
                room.leave(roomId)
            }
            if identity.admission == .admitted {
                registry.sessionEnded(address: address, isOperator: identity.role == .operator)
            } else {
                registry.handshakeEnded(handshake)
                // Gone without logging in after a failed try (the first request, `none`, is refused to every
                // client): its source pays, not the others, as OpenSSH's `authfail`. Counting only connections
                // that used up their tries would let a flood stop one short of them, and reconnect for free.
                if identity.admission == nil, identity.authenticationRequests > 1 {
                    registry.penalise(address: address)
                    logger.notice("ssh connection left after failed authentication attempts", metadata: ["address": "\(address)"])
                }
            }
        }
        let delegate = UserAuthenticator(identity: identity, visitorNames: settings.visitorNames, operatorKeys: settings.operatorKeys,
                                         reserved: reserved, registry: registry) {
            // Until its console runs, the session is in the room as logging in, where the presenter can end it.
            identity.roomId = room.join(user: identity.user ?? "?", address: address, key: identity.keyFingerprint,
                                        isOperator: identity.role == .operator, project: nil,
                                        link: RoomRegistry.Link(send: { _, _ in }, end: { _ in channel.close(promise: nil) }), loggingIn: true)
        }
        var configuration = SSHServerConfiguration(hostKeys: [settings.hostKey.privateKey], userAuthDelegate: delegate)
        // Every request counts here, a key's query too, and a client queries each key before signing
        // with it: twice the tries, and the first `none`.
        configuration.maxAuthAttempts = 2 * limits.maxAuthTries + 1
        let ssh = NIOSSHHandler(
            role: .server(configuration),
            allocator: channel.allocator,
            inboundChildChannelInitializer: { child, type in
                // One session per connection, and nothing but sessions: no direct-tcpip (-L, -D).
                guard case .session = type, !identity.sessionOpened, let admission = identity.admission else {
                    return child.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
                }
                identity.sessionOpened = true
                let handler: any ChannelHandler
                switch admission {
                case .admitted:
                    handler = ConsoleSession(identity: identity, launcher: settings.launcher, forkServer: forkServer, limits: limits,
                                             registry: registry, room: room, reserved: reserved, logger: logger)
                case .full, .tooManyFromAddress:
                    logger.notice("ssh connection refused", metadata: ["address": "\(address)", "reason": "\(admission == .full ? "full" : "per-address limit")"])
                    room.refused(user: identity.user ?? "?", address: address, reason: admission == .full
                        ? "the room is full (--max-sessions \(limits.maxSessions))"
                        : "too many sessions from their address (--max-sessions-per-address \(limits.maxSessionsPerAddress))")
                    handler = Refusal(message: admission == .full
                        ? "AuthDeck is full (\(limits.maxSessions) sessions); try again later, or ask the presenter to raise `authdeck ssh --max-sessions`."
                        // A room behind one NAT address meets this limit first: the presenter is told how to lift it.
                        : "AuthDeck: too many sessions from your address (\(limits.maxSessionsPerAddress)); close one and try again. "
                            + "A room behind one address needs the presenter to raise `authdeck ssh --max-sessions-per-address`.")
                }
                return child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(handler) }
            })
        try channel.pipeline.syncOperations.addHandlers([HandshakeAcknowledgements(identity: identity), ssh, CloseOnError(logger: logger)])

        // A client that has not logged in soon gives its handshake place back. Handshake, login and
        // the console's start must fit in the login time; this also ends connections that log in
        // and then open no session, or a session that never asks for a shell.
        loop.scheduleTask(in: limits.handshakeTimeout) {
            if identity.admission == nil { channel.close(promise: nil) }
        }
        loop.scheduleTask(in: limits.loginTimeout) {
            guard !identity.consoleRunning else { return }
            if let overdue = identity.consoleStartOverdue { overdue() } else { channel.close(promise: nil) }
        }
    }
}

/// Garbage instead of a handshake, a protocol error, a reset: close this connection (the others
/// go on), with a line in the log.
private final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.info("ssh connection closed on an error", metadata: [
            "address": "\(context.channel.remoteAddress?.ipAddress ?? "?")", "error": "\(String(describing: error).prefix(200))",
        ])
        context.close(promise: nil)
    }
}

/// The session of a connection over the limits: its one line on stderr, exit status 1, close.
private final class Refusal: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData
    typealias OutboundOut = SSHChannelData

    private let message: String
    private var told = false

    init(message: String) { self.message = message }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let wantReply: Bool
        var starts = false
        switch event {
        case let request as SSHChannelRequestEvent.PseudoTerminalRequest: wantReply = request.wantReply
        case let request as SSHChannelRequestEvent.EnvironmentRequest: wantReply = request.wantReply
        case let request as SSHChannelRequestEvent.ShellRequest: (wantReply, starts) = (request.wantReply, true)
        case let request as SSHChannelRequestEvent.ExecRequest: (wantReply, starts) = (request.wantReply, true)
        case let request as SSHChannelRequestEvent.SubsystemRequest: (wantReply, starts) = (request.wantReply, true)
        default: return context.fireUserInboundEventTriggered(event)
        }
        // The request's answer first, then the message, the status and the close.
        if wantReply { context.triggerUserOutboundEvent(ChannelSuccessEvent(), promise: nil) }
        if starts { tell(context) }
    }

    private func tell(_ context: ChannelHandlerContext) {
        guard !told else { return }
        told = true
        var buffer = context.channel.allocator.buffer(capacity: message.utf8.count + 2)
        buffer.writeString(message + "\r\n")
        context.writeAndFlush(wrapOutboundOut(SSHChannelData(type: .stdErr, data: .byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 1)).assumeIsolated().whenComplete { _ in
            channel.close(promise: nil)
            // The client ends the connection once it has the status and the channel's close. Closed here
            // at once, the connection could go before the client's last messages did, and OpenSSH then
            // exits 255 ("Broken pipe") instead of with the status; a client that stays is dropped later.
            if let connection = channel.parent {
                connection.eventLoop.scheduleTask(in: .seconds(5)) { connection.close(promise: nil) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
