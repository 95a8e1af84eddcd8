import CAllocator
import CThreads
import Foundation
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The bounds a served backend keeps whoever connects: connections at once, in all and per address,
/// the time a request's body may take, and the memory the bodies being read may hold together.
public struct ConnectionLimits: Sendable {
    public var maxConnections = 512
    public var maxConnectionsPerAddress = 64
    /// From a request's head to the end of its body; a client that stops sending is closed.
    public var bodyTimeout: TimeAmount = .seconds(20)
    /// Bytes of request bodies being read, all connections together, beyond the first
    /// `bodyAllowance` of each: a client that sends most of a large body and stops holds memory
    /// until the deadline, so many such cannot hold more than this.
    public var bodyMemory = 32 * 1024 * 1024
    /// What every request's body may hold whatever the others do, so that small requests are read
    /// even while large ones have taken `bodyMemory`.
    public var bodyAllowance = 64 * 1024

    public init() {}
}

/// The connections and body bytes a server holds now, against its `ConnectionLimits`.
final class ConnectionLedger: Sendable {
    private struct State {
        var total = 0
        var perAddress: [String: Int] = [:]
        var bodyBytes = 0
        /// The most body bytes held since they were last all released.
        var highWater = 0
    }

    /// Body bytes held at once past which their release gives the memory back to the system.
    static let trimThreshold = 4 * 1024 * 1024

    let limits: ConnectionLimits
    private let state = Mutex(State())
    /// Called when every body is released after more than `trimThreshold` were held at once.
    private let bodiesReleased: @Sendable () -> Void

    init(limits: ConnectionLimits, bodiesReleased: @escaping @Sendable () -> Void = MemoryTrim.request) {
        self.limits = limits
        self.bodiesReleased = bodiesReleased
    }

    func admit(_ address: String) -> Bool {
        state.withLock { state in
            guard state.total < limits.maxConnections, state.perAddress[address, default: 0] < limits.maxConnectionsPerAddress else { return false }
            state.total += 1
            state.perAddress[address, default: 0] += 1
            return true
        }
    }

    func release(_ address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = left > 0 ? left : nil
        }
    }

    func reserveBody(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.bodyBytes + bytes <= limits.bodyMemory else { return false }
            state.bodyBytes += bytes
            state.highWater = max(state.highWater, state.bodyBytes)
            return true
        }
    }

    func releaseBody(_ bytes: Int) {
        let trim = state.withLock { state in
            state.bodyBytes -= bytes
            guard state.bodyBytes == 0, state.highWater > Self.trimThreshold else { return false }
            state.highWater = 0
            return true
        }
        if trim { bodiesReleased() }
    }
}

/// Gives the allocator's free memory back to the system. Large request bodies are read on the
/// event loops' threads, each with a malloc arena of its own, and freed chunks stay in those arenas
/// (counted in the server's resident memory) until something asks for them back.
enum MemoryTrim {
    private static let running = Atomic<Bool>(false)

    /// Large request bodies (from 128 KiB) in mappings of their own, given back as soon as they are
    /// freed. glibc otherwise raises that threshold to the largest block freed (up to 32 MiB), and
    /// from then on large bodies come from the arenas, whose freed tops it keeps. scrypt's 16 MiB
    /// block does not pay for it: BoringSSL's large blocks bypass malloc (crypto_blocks.c).
    static func mapLargeBlocks() {
        _ = authdeck_map_blocks_from(128 * 1024)
    }

    /// Trims on a thread of its own (a trim walks every arena: never on an event loop), once at a time.
    @Sendable static func request() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Thread.detachNewThread {
            authdeck_name_thread("authdeck-trim")
            authdeck_release_free_memory()
            running.store(false, ordering: .releasing)
        }
    }
}

/// First in each connection's pipeline after HTTP decoding: closes a connection over the
/// connection bounds at once, and one whose request body is late or would take more than its
/// share of the body memory. Closing (not a 5xx) is what a client that misbehaves gets: the
/// request is not answered, and whatever it had sent is freed with the connection.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let ledger: ConnectionLedger
    private let logger: Logger
    private var address = "?"
    private var admitted = false
    /// Body bytes of the request being read, and how many of them are reserved in the ledger.
    private var bodyBytes = 0
    private var reserved = 0
    private var deadline: Scheduled<Void>?

    init(ledger: ConnectionLedger, logger: Logger) {
        self.ledger = ledger
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        address = context.channel.remoteAddress?.ipAddress ?? "?"
        admitted = ledger.admit(address)
        guard admitted else {
            logger.notice("connection refused: too many connections", metadata: ["address": "\(address)"])
            context.close(promise: nil)
            return
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endBody()
        if admitted { ledger.release(address) }
        admitted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            endBody()
            let channel = context.channel
            let address = address, logger = logger
            deadline = context.eventLoop.scheduleTask(in: ledger.limits.bodyTimeout) {
                logger.notice("connection closed: request body too slow", metadata: ["address": "\(address)"])
                channel.close(promise: nil)
            }
        case let .body(buffer):
            bodyBytes += buffer.readableBytes
            let needed = max(0, bodyBytes - ledger.limits.bodyAllowance) - reserved
            if needed > 0 {
                guard ledger.reserveBody(needed) else {
                    logger.notice("connection closed: request bodies hold too much memory", metadata: ["address": "\(address)"])
                    context.close(promise: nil)
                    return
                }
                reserved += needed
            }
        case .end:
            endBody()
        }
        context.fireChannelRead(data)
    }

    private func endBody() {
        deadline?.cancel()
        deadline = nil
        if reserved > 0 { ledger.releaseBody(reserved) }
        reserved = 0
        bodyBytes = 0
    }
}
