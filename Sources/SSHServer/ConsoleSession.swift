import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH

/// One SSH session channel: collects the pty request and the allowed environment, starts the
/// console on `shell`, relays bytes both ways with back-pressure, forwards window changes, and
/// ends with the console's exit status. Everything here runs on the connection's event loop;
/// fork/exec and waitpid happen elsewhere.
final class ConsoleSession: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData
    typealias OutboundOut = SSHChannelData

    /// Client variables a console may see; nothing else of the client's environment passes.
    static func allowsVariable(_ name: String) -> Bool {
        name == "LANG" || name == "NO_COLOR" || name == "TERM" || name.hasPrefix("LC_")
    }

    /// Values that cannot smuggle anything: short, printable, no shell or terminal specials.
    static func acceptsValue(_ value: String) -> Bool {
        value.utf8.count <= 64 && value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-@+:".unicodeScalars.contains($0)) }
    }

    /// Whether curses will find the client's terminal type; an exotic one (say `xterm-kitty`)
    /// falls back to `xterm-256color` rather than a console that cannot start.
    static func knownTerminal(_ name: String) -> Bool {
        guard let first = name.first, !name.contains("/") else { return false }
        return ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"].contains { directory in
            FileManager.default.fileExists(atPath: "\(directory)/\(first)/\(name)")
        }
    }

    private enum Phase {
        case setUp
        case starting
        case running(pid: pid_t)
        case finished
    }

    private let identity: ConnectionIdentity
    private let launcher: ConsoleLauncher
    private let limits: SSHLimits
    private let registry: ConnectionRegistry
    private let logger: Logger

    private var phase = Phase.setUp
    private var size: WindowSize?
    private var term = "xterm-256color"
    private var environment: [String: String] = [:]
    private var context: ChannelHandlerContext?
    private var console: Channel?
    private var master: Int32 = -1
    private var exitStatus: Int32?
    private var consoleOutputEnded = false
    private var clientGone = false
    private var notice: String?
    /// The plan's end, run once the console has exited.
    private var ended: (@Sendable () -> Void)?
    private var lastInput = NIODeadline.now()
    private let started = Date()

    init(identity: ConnectionIdentity, launcher: ConsoleLauncher, limits: SSHLimits, registry: ConnectionRegistry, logger: Logger) {
        self.identity = identity
        self.launcher = launcher
        self.limits = limits
        self.registry = registry
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        _ = context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true)
    }

    // MARK: Requests

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let request as SSHChannelRequestEvent.PseudoTerminalRequest:
            guard case .setUp = phase, size == nil else { return reply(false, to: request.wantReply) }
            size = WindowSize(clampingColumns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
            if Self.acceptsValue(request.term), !request.term.isEmpty { term = request.term }
            reply(true, to: request.wantReply)
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            let accepted = Self.allowsVariable(request.name) && Self.acceptsValue(request.value) && environment.count < 16
            if accepted { environment[request.name] = request.value }
            reply(accepted, to: request.wantReply)
        case let request as SSHChannelRequestEvent.ShellRequest:
            guard case .setUp = phase else { return reply(false, to: request.wantReply) }
            reply(true, to: request.wantReply)
            guard let size else {
                return refuse("AuthDeck is a full-screen console and needs a terminal: connect without -T (add -t if ssh was given a command).")
            }
            start(size: size)
        case let request as SSHChannelRequestEvent.ExecRequest:
            guard case .setUp = phase else { return reply(false, to: request.wantReply) }
            reply(true, to: request.wantReply)
            refuse("AuthDeck runs its console only, never a command: connect with `ssh -t` and no command.")
        case let request as SSHChannelRequestEvent.SubsystemRequest:
            reply(false, to: request.wantReply)
            if case .setUp = phase { refuse("AuthDeck offers no subsystems (no sftp, no scp).") }
        case let request as SSHChannelRequestEvent.WindowChangeRequest:
            let newSize = WindowSize(clampingColumns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
            size = newSize
            if case .running = phase, master >= 0 { ConsoleProcess.resize(master: master, to: newSize) }
        case ChannelEvent.inputClosed:
            // The client's stdin ended; the console goes on until it is quit or the connection drops.
            break
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func reply(_ success: Bool, to wantReply: Bool) {
        guard wantReply, let context else { return }
        context.triggerUserOutboundEvent(success ? ChannelSuccessEvent() : ChannelFailureEvent(), promise: nil)
    }

    /// One line on the client's stderr, exit status 1, close: for what this host does not do.
    private func refuse(_ message: String) {
        phase = .finished
        guard let context else { return }
        var buffer = context.channel.allocator.buffer(capacity: message.utf8.count + 2)
        buffer.writeString(message + "\r\n")
        context.writeAndFlush(wrapOutboundOut(SSHChannelData(type: .stdErr, data: .byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 1)).assumeIsolated().whenComplete { _ in
            channel.close(promise: nil)
        }
        logSession(exitStatus: 1, outcome: "refused")
    }

    // MARK: The console

    private func start(size: WindowSize) {
        guard let context, let role = identity.role else { return }
        phase = .starting
        identity.sessionOpened = true
        var clientVariables = environment
        clientVariables["TERM"] = Self.knownTerminal(term) ? term : "xterm-256color"
        // A client that sends no locale (OpenSSH sends one only with SendEnv) most likely has a
        // UTF-8 terminal all the same; without this, curses would fall back to ASCII.
        if !["LANG", "LC_ALL", "LC_CTYPE"].contains(where: { environment[$0] != nil }) { clientVariables["LANG"] = "C.UTF-8" }
        let visit = ConsoleVisit(role: role, user: identity.user ?? "", keyFingerprint: identity.keyFingerprint, keyComment: identity.keyComment,
                                 address: identity.address)
        let launcher = launcher
        let loop = context.eventLoop
        let session = NIOLoopBound(self, eventLoop: loop)
        NIOThreadPool.singleton.runIfActive(eventLoop: loop) { () throws -> (ConsoleProcess, ConsolePlan) in
            let plan = try launcher.plan(visit)
            let variables = plan.environment.merging(clientVariables) { _, client in client }
            do {
                return (try ConsoleProcess.spawn(executable: launcher.executable, arguments: plan.arguments, environment: variables, size: size), plan)
            } catch {
                plan.ended()
                throw error
            }
        }.assumeIsolated().whenComplete { result in
            switch result {
            case let .success((process, plan)):
                session.value.ended = plan.ended
                session.value.attach(process)
            case let .failure(refusal as ConsoleRefusal):
                session.value.refuse(refusal.message)
            case let .failure(error):
                session.value.logger.error("cannot start a console", metadata: ["error": "\(error)"])
                session.value.refuse("AuthDeck could not start a console; try again later.")
            }
        }
        scheduleIdleCheck(in: limits.idleTimeout)
        loop.assumeIsolated().scheduleTask(in: limits.maxDuration) { [self] in
            end(notice: "AuthDeck: this session reached its limit of \(Self.describe(limits.maxDuration)).")
        }
    }

    private func attach(_ process: ConsoleProcess) {
        guard let context else { return }
        let loop = context.eventLoop
        phase = .running(pid: process.pid)
        registry.consoleStarted(process.pid)
        let session = NIOLoopBound(self, eventLoop: loop)
        ConsoleProcess.reap(process.pid) { status in
            loop.execute { session.value.consoleExited(status: status) }
        }
        master = process.master
        NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConsoleOutput(session: session.value))
                }
            }
            .takingOwnershipOfDescriptor(inputOutput: process.master)
            .assumeIsolated()
            .whenComplete { result in
                let session = session.value
                switch result {
                case let .success(channel):
                    session.console = channel
                    if session.clientGone { session.hangUp() }
                    // A window change may have come while the console was starting.
                    if let size = session.size { ConsoleProcess.resize(master: session.master, to: size) }
                case let .failure(error):
                    session.logger.error("cannot relay the console", metadata: ["error": "\(error)"])
                    session.master = -1
                    close(process.master)
                    session.consoleOutputEnded = true
                    session.hangUp()
                }
            }
    }

    /// Ends the console as a dropped connection would (SIGHUP), then for sure (SIGKILL) if it has
    /// not gone within three seconds.
    private func hangUp() {
        guard case let .running(pid) = phase, exitStatus == nil else { return }
        console?.close(promise: nil)
        kill(pid, SIGHUP)
        context?.eventLoop.assumeIsolated().scheduleTask(in: .seconds(3)) { [self] in
            if exitStatus == nil { kill(pid, SIGKILL) }
        }
    }

    private func end(notice: String) {
        guard case .running = phase, exitStatus == nil else { return }
        self.notice = notice
        hangUp()
    }

    private func scheduleIdleCheck(in delay: TimeAmount) {
        context?.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            let idle = NIODeadline.now() - lastInput
            if idle >= limits.idleTimeout {
                end(notice: "AuthDeck: this session was closed after \(Self.describe(limits.idleTimeout)) without input.")
            } else {
                switch phase {
                case .starting, .running: scheduleIdleCheck(in: limits.idleTimeout - idle)
                case .setUp, .finished: break
                }
            }
        }
    }

    fileprivate func consoleWrote(_ buffer: ByteBuffer) {
        guard let context, !clientGone else { return }
        context.write(wrapOutboundOut(SSHChannelData(type: .channel, data: .byteBuffer(buffer))), promise: nil)
    }

    fileprivate func consoleWriteBatchEnded() {
        context?.flush()
    }

    fileprivate func consoleWritabilityChanged(_ writable: Bool) {
        // The console reads slower than the visitor pastes: stop reading the SSH channel, so its
        // window fills and the client waits, instead of buffering megabytes here.
        guard let channel = context?.channel else { return }
        _ = channel.setOption(ChannelOptions.autoRead, value: writable)
        // An SSH child channel does not start reading again by itself when autoRead comes back.
        if writable { channel.read() }
    }

    fileprivate func consoleOutputClosed() {
        consoleOutputEnded = true
        console = nil
        master = -1
        finishIfDone()
    }

    private func consoleExited(status: Int32) {
        guard case let .running(pid) = phase else { return }
        exitStatus = status
        registry.consoleEnded(pid)
        if let ended {
            self.ended = nil
            NIOThreadPool.singleton.runIfActive(eventLoop: context?.eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()) { ended() }
                .whenFailure { [logger] error in logger.warning("after a console ended", metadata: ["error": "\(error)"]) }
        }
        // Output still buffered in the pty is read before EIO; a console that left the pty open in
        // a child of its own would hold the session, so the master is closed now.
        console?.close(promise: nil)
        finishIfDone()
    }

    private func finishIfDone() {
        guard case .running = phase, let exitStatus, consoleOutputEnded else { return }
        phase = .finished
        logSession(exitStatus: exitStatus, outcome: notice == nil ? "ended" : "closed by the server")
        guard let context, !clientGone else { return }
        if let notice {
            var buffer = context.channel.allocator.buffer(capacity: notice.utf8.count + 4)
            buffer.writeString("\r\n" + notice + "\r\n")
            context.write(wrapOutboundOut(SSHChannelData(type: .channel, data: .byteBuffer(buffer))), promise: nil)
        }
        context.flush()
        let channel = context.channel
        context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: Int(exitStatus))).assumeIsolated().whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    // MARK: Bytes from the client

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        guard case .channel = message.type, case let .byteBuffer(bytes) = message.data else { return }
        lastInput = .now()
        console?.write(bytes, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        console?.flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let console {
            _ = console.setOption(ChannelOptions.autoRead, value: context.channel.isWritable)
            if context.channel.isWritable { console.read() }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        clientGone = true
        switch phase {
        case .running: hangUp()
        case .setUp, .starting, .finished: break
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    // MARK: The log

    private func logSession(exitStatus: Int32, outcome: String) {
        logger.info("ssh session", metadata: [
            "address": "\(identity.address)",
            "user": "\(Self.printable(identity.user ?? "?"))",
            "key": "\(identity.keyFingerprint ?? "none")",
            "role": "\(identity.role?.rawValue ?? "?")",
            "start": "\(started.ISO8601Format())",
            "end": "\(Date().ISO8601Format())",
            "exit": "\(exitStatus)",
            "outcome": "\(outcome)",
        ])
    }

    /// A user name is the client's to choose: it reaches the log without control characters.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }

    static func describe(_ amount: TimeAmount) -> String {
        let seconds = amount.nanoseconds / 1_000_000_000
        if seconds % 3600 == 0 { return seconds == 3600 ? "1 hour" : "\(seconds / 3600) hours" }
        if seconds % 60 == 0 { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}

/// The pty master's side of the relay: what the console draws goes to the SSH channel.
private final class ConsoleOutput: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let session: ConsoleSession

    init(session: ConsoleSession) { self.session = session }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        session.consoleWrote(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        session.consoleWriteBatchEnded()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        session.consoleWritabilityChanged(context.channel.isWritable)
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.consoleOutputClosed()
    }

    /// EIO on the master: the console and every holder of its terminal are gone.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
