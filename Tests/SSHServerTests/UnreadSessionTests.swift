import Crypto
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH
import RoomChannel
import Synchronization
import Testing
@testable import SSHServer

/// A visitor whose client stops reading, while every console floods the room with status lines:
/// the server's event loops go on, so another visitor's output and the operator's room snapshots
/// keep coming. The consoles are shell scripts, so that each does exactly that.
@Suite struct UnreadSessionTests {
    static let status = String(decoding: RoomLine.encode(.status(ConsoleStatus(screen: "Flooding"))), as: UTF8.self)
        .trimmingCharacters(in: .newlines)

    /// What each console runs: flooders write status lines to the room channel and text to the pty
    /// without end; the reader ticks; the operator's copies its room channel to its screen.
    static func script(for visit: ConsoleVisit) -> String {
        switch (visit.role, visit.user) {
        case (.operator, _): "exec cat <&3"
        case (.visitor, "reader"): "while :; do echo tick; sleep 0.1; done"
        case (.visitor, _): "while :; do echo '\(status)'; done >&3 & while :; do echo flood flood flood flood flood flood flood; done"
        }
    }

    /// One SSH client's session: what it received so far.
    final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = SSHChannelData
        let bytes = Mutex<[UInt8]>([])

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case let .byteBuffer(buffer) = unwrapInboundIn(data).data else { return }
            bytes.withLock { $0 += buffer.readableBytesView }
        }

        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    final class Login: NIOSSHClientUserAuthenticationDelegate, @unchecked Sendable {
        let user: String
        let key: NIOSSHPrivateKey?
        private var offered = false

        init(user: String, key: NIOSSHPrivateKey?) {
            self.user = user
            self.key = key
        }

        func nextAuthenticationType(availableMethods: NIOSSHAvailableUserAuthenticationMethods,
                                    nextChallengePromise: EventLoopPromise<NIOSSHUserAuthenticationOffer?>) {
            guard !offered else { return nextChallengePromise.succeed(nil) }
            offered = true
            let offer: NIOSSHUserAuthenticationOffer.Offer = key.map { .privateKey(.init(privateKey: $0)) } ?? .password(.init(password: ""))
            nextChallengePromise.succeed(NIOSSHUserAuthenticationOffer(username: user, serviceName: "", offer: offer))
        }
    }

    final class AnyHostKey: NIOSSHClientServerAuthenticationDelegate, Sendable {
        func validateHostKey(hostKey: NIOSSHPublicKey, validationCompletePromise: EventLoopPromise<Void>) {
            validationCompletePromise.succeed(())
        }
    }

    /// Logs in as `user` and opens a shell on an 80×24 pty; `reads` false leaves the output unread,
    /// so the server soon has the channel's whole window in flight and the console's pty fills.
    static func open(_ user: String, key: NIOSSHPrivateKey? = nil, port: Int, group: EventLoopGroup, reads: Bool = true) async throws -> (Channel, Received) {
        let connection = try await ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(NIOSSHHandler(
                    role: .client(.init(userAuthDelegate: Login(user: user, key: key), serverAuthDelegate: AnyHostKey())),
                    allocator: channel.allocator, inboundChildChannelInitializer: nil))
            }
        }.connect(host: "127.0.0.1", port: port).get()
        let received = Received()
        let session = try await connection.eventLoop.flatSubmit {
            let promise = connection.eventLoop.makePromise(of: Channel.self)
            do {
                try connection.pipeline.syncOperations.handler(type: NIOSSHHandler.self).createChannel(promise) { child, _ in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(received)
                        try child.syncOptions?.setOption(ChannelOptions.autoRead, value: reads)
                    }
                }
            } catch {
                promise.fail(error)
            }
            return promise.futureResult
        }.get()
        try await session.triggerUserOutboundEvent(SSHChannelRequestEvent.PseudoTerminalRequest(
            wantReply: true, term: "xterm", terminalCharacterWidth: 80, terminalRowHeight: 24, terminalPixelWidth: 0, terminalPixelHeight: 0,
            terminalModes: SSHTerminalModes([:]))).get()
        try await session.triggerUserOutboundEvent(SSHChannelRequestEvent.ShellRequest(wantReply: true)).get()
        return (connection, received)
    }

    static func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }

    @Test func anUnreadVisitorAndFloodingConsolesHoldUpNoOtherSession() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-unread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let operatorKey = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey())
        var limits = SSHLimits()
        limits.maxSessionsPerAddress = 10
        // The flooders keep both cores busy, and the suites run beside them: a later visitor's key
        // exchange may take longer than the default deadlines, which this test is not about.
        limits.handshakeTimeout = .seconds(120)
        limits.loginTimeout = .seconds(120)
        let launcher = ConsoleLauncher(executable: "/bin/sh") { visit in
            ConsolePlan(arguments: ["-c", Self.script(for: visit)], environment: [:])
        }
        var settings = SSHServerSettings(host: "127.0.0.1", port: 0, hostKey: try HostKey.loadOrCreate(at: directory.appendingPathComponent("host_key")),
                                         visitorNames: ["flood", "reader"], operatorKeys: OperatorKeys(keys: [operatorKey.publicKey]),
                                         limits: limits, launcher: launcher)
        settings.forkConsoles = false
        let server = try await SSHServer.start(settings: settings, logger: Logger(label: "test"))
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var connections: [Channel] = []

        let (presenter, room) = try await Self.open("presenter", key: operatorKey, port: server.port, group: clients)
        connections.append(presenter)
        for index in 0..<4 {
            // The first flooder's client never reads what its console writes.
            let (connection, _) = try await Self.open("flood", port: server.port, group: clients, reads: index > 0)
            connections.append(connection)
        }
        let (readerConnection, reader) = try await Self.open("reader", port: server.port, group: clients)
        connections.append(readerConnection)

        // Every flooder is in the room with its status, the unread one included.
        #expect(await Self.eventually(within: 30) { room.text.components(separatedBy: "Flooding").count > 4 })
        let snapshots = room.text.components(separatedBy: "\"room\"").count
        let ticks = reader.text.components(separatedBy: "tick").count
        #expect(await Self.eventually(within: 30) {
            room.text.components(separatedBy: "\"room\"").count >= snapshots + 3 && reader.text.components(separatedBy: "tick").count >= ticks + 10
        })

        for connection in connections { try? await connection.close() }
        await server.shutdown()
        try await clients.shutdownGracefully()
    }
}
