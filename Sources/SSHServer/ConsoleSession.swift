import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH
import RoomChannel

/// One SSH session channel: collects the pty request and the allowed environment
/// (`ConsoleEnvironment`), starts the console on `shell` and ends with its exit status. The bytes
/// between client and console are relayed in `+Relay`, the console's room channel is linked in
/// `+Room`. Everything here runs on the connection's event loop; fork/exec and waitpid happen elsewhere.
final class ConsoleSession: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData
    typealias OutboundOut = SSHChannelData

    private enum Phase {
        case setUp
        case starting
        case running(pid: pid_t)
        case finished
    }

    let identity: ConnectionIdentity
    private let launcher: ConsoleLauncher
    private let forkServer: ConsoleForkServer?
    private let limits: SSHLimits
    private let registry: ConnectionRegistry
    let room: RoomRegistry
    let logger: Logger

    private var phase = Phase.setUp
    private var size: WindowSize?
    private var term = "xterm-256color"
    private var environment: [String: String] = [:]
    var context: ChannelHandlerContext?
    var console: Channel?
    private var master: Int32 = -1
    private var exitStatus: Int32?
    private var consoleOutputEnded = false
    var clientGone = false
    var notice: String?
    /// The plan's end, run once the console has exited.
    private var ended: (@Sendable () async -> Void)?
    var lastInput: NIODeadline
    private let started = Date()
    /// The visitor's project, once the plan has named it.
    var project: String?
    /// The name their project keeps, when it is not the user name they typed this time.
    var keptName: String?
    /// This session in the room, from login until its console exits.
    var roomId: Int? {
        get { identity.roomId }
        set { identity.roomId = newValue }
    }
    private let reserved: ReservedNames
    var roomChannel: Channel?

    init(identity: ConnectionIdentity, launcher: ConsoleLauncher, forkServer: ConsoleForkServer?, limits: SSHLimits, registry: ConnectionRegistry,
         room: RoomRegistry, reserved: ReservedNames, logger: Logger) {
        self.identity = identity
        self.reserved = reserved
        self.launcher = launcher
        self.forkServer = forkServer
        self.limits = limits
        self.registry = registry
        self.room = room
        self.logger = logger
        lastInput = identity.loggedIn ?? .now()
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
            if ConsoleEnvironment.acceptsValue(request.term), !request.term.isEmpty { term = request.term }
            reply(true, to: request.wantReply)
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            let accepted = ConsoleEnvironment.allowsVariable(request.name) && ConsoleEnvironment.acceptsValue(request.value) && environment.count < 16
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
        SessionLog.ended(identity, project: project, started: started, exitStatus: 1, outcome: "refused", logger: logger)
    }

    // MARK: The console

    private func start(size: WindowSize) {
        guard let context, let role = identity.role else { return }
        phase = .starting
        var clientVariables = ConsoleEnvironment.clientVariables(environment, term: term)
        clientVariables[ConsoleProcess.roomVariable] = "3"
        let visit = ConsoleVisit(role: role, user: identity.user ?? "", keyFingerprint: identity.keyFingerprint, keyComment: identity.keyComment,
                                 address: identity.address)
        let launcher = launcher
        let forkServer = forkServer
        let loop = context.eventLoop
        let session = NIOLoopBound(self, eventLoop: loop)
        identity.consoleStartOverdue = { session.value.consoleStartOverdue() }
        let starting = loop.makePromise(of: (ConsoleProcess, ConsolePlan).self)
        starting.completeWithTask {
            let plan = try await launcher.plan(visit)
            let variables = plan.environment.merging(clientVariables) { _, client in client }
            do {
                // fork(2) and the fork server's socket block: on the thread pool.
                return (try await BlockingWork.run {
                    try ConsoleProcess.start(executable: launcher.executable, arguments: plan.arguments, environment: variables, size: size,
                                             forkServer: forkServer)
                }, plan)
            } catch {
                await plan.ended()
                throw error
            }
        }
        starting.futureResult.assumeIsolated().whenComplete { result in
            session.value.identity.consoleStartOverdue = nil
            // Given up on at the login timeout, and the client told: a console that came too late goes at once.
            guard case .starting = session.value.phase else {
                if case let .success((process, plan)) = result { Self.discard(process, ended: plan.ended) }
                return
            }
            switch result {
            case let .success((process, plan)):
                session.value.ended = plan.ended
                session.value.project = plan.project
                // The name first chosen, unless an operator has used it since: a visitor never passes for one.
                if let name = plan.name, name != session.value.identity.user, !session.value.reserved.contains(name) {
                    session.value.keptName = name
                    session.value.identity.user = name
                }
                session.value.attach(process)
            case let .failure(refusal as ConsoleRefusal):
                session.value.refuse(refusal.message)
            case let .failure(error):
                session.value.logger.error("cannot start a console", metadata: ["error": "\(error)"])
                session.value.refuse("AuthDeck could not start a console; try again later.")
            }
        }
        // Both count from login, not from the shell request.
        scheduleIdleCheck(in: limits.idleTimeout - (NIODeadline.now() - lastInput))
        loop.assumeIsolated().scheduleTask(deadline: (identity.loggedIn ?? .now()) + limits.maxDuration) { [self] in
            end(notice: "AuthDeck: this session reached its limit of \(SessionLog.describe(limits.maxDuration)).")
        }
    }

    /// The login time ran out while the console was starting (its sandbox, on a slow backend): one line
    /// on the client's stderr, not a silent close; the connection goes once the client has read it.
    private func consoleStartOverdue() {
        guard case .starting = phase else { return }
        logger.warning("console not started within the login timeout", metadata: ["address": "\(identity.address)"])
        refuse("AuthDeck: your console did not start within \(SessionLog.describe(limits.loginTimeout)); try again later.")
        if let connection = context?.channel.parent {
            connection.eventLoop.scheduleTask(in: .seconds(5)) { connection.close(promise: nil) }
        }
    }

    private static func discard(_ process: ConsoleProcess, ended: @escaping @Sendable () async -> Void) {
        kill(process.pid, SIGKILL)
        close(process.master)
        close(process.room)
        ConsoleProcess.reap(process.pid) { _ in Task { await ended() } }
    }

    private func attach(_ process: ConsoleProcess) {
        guard let context else { return }
        let loop = context.eventLoop
        phase = .running(pid: process.pid)
        identity.consoleRunning = true
        registry.consoleStarted(process.pid)
        joinRoom(channel: process.room)
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
        // Ended while it was starting (its time or idle limit, the presenter): it never gets to run unbounded.
        if notice != nil { stop(process.pid, with: SIGHUP) }
    }

    /// The client is gone: the console ends as a dropped connection would (SIGHUP), with nobody left
    /// to read its last output.
    func hangUp() {
        guard case let .running(pid) = phase, exitStatus == nil else { return }
        console?.close(promise: nil)
        stop(pid, with: SIGHUP)
    }

    /// The server ends the session while the client is there: SIGHUP, whose handler gives the
    /// terminal back (the normal screen, the cursor); that output is relayed before the notice.
    /// A limit reached while the console is still starting ends it as soon as it runs (`attach`).
    func end(notice: String) {
        switch phase {
        case .starting: self.notice = notice
        case let .running(pid):
            guard exitStatus == nil else { return }
            self.notice = notice
            stop(pid, with: SIGHUP)
        case .setUp, .finished: break
        }
    }

    /// `number` to the console, then SIGKILL if it has not gone within three seconds.
    private func stop(_ pid: pid_t, with number: Int32) {
        kill(pid, number)
        context?.eventLoop.assumeIsolated().scheduleTask(in: .seconds(3)) { [self] in
            if exitStatus == nil { kill(pid, SIGKILL) }
        }
    }

    private func scheduleIdleCheck(in delay: TimeAmount) {
        context?.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            let idle = NIODeadline.now() - lastInput
            if idle >= limits.idleTimeout {
                end(notice: "AuthDeck: this session was closed after \(SessionLog.describe(limits.idleTimeout)) without input.")
            } else {
                switch phase {
                case .starting, .running: scheduleIdleCheck(in: limits.idleTimeout - idle)
                case .setUp, .finished: break
                }
            }
        }
    }

    func consoleOutputClosed() {
        consoleOutputEnded = true
        console = nil
        master = -1
        finishIfDone()
    }

    private func consoleExited(status: Int32) {
        guard case let .running(pid) = phase else { return }
        exitStatus = status
        registry.consoleEnded(pid)
        leaveRoom()
        if let ended {
            self.ended = nil
            Task { await ended() }
        }
        // Its last output (the terminal given back) may still be in the pty: the master reads it
        // up to EIO. A console that left the pty open in a child of its own would hold the session
        // past that, so the master is closed after a moment whatever it holds.
        context?.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(250)) { [self] in
            console?.close(promise: nil)
        }
        finishIfDone()
    }

    private func finishIfDone() {
        guard case .running = phase, let exitStatus, consoleOutputEnded else { return }
        phase = .finished
        SessionLog.ended(identity, project: project, started: started, exitStatus: exitStatus, outcome: notice == nil ? "ended" : "closed by the server", logger: logger)
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
}
