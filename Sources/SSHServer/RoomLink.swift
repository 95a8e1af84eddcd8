import Logging
import NIOCore
import RoomChannel

/// The server's end of one console's room channel: lines in become `RoomMessage`s for the room,
/// messages out become lines. A line that is not a message, or too long, is logged and skipped:
/// a console cannot disturb the room with what it sends.
final class RoomLink: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var reader = RoomLineReader()
    private let received: (RoomMessage) -> Void
    private let logger: Logger

    init(logger: Logger, received: @escaping (RoomMessage) -> Void) {
        self.logger = logger
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for item in reader.read(buffer.readableBytesView) {
            switch item {
            case let .message(message): received(message)
            case .unreadable: logger.warning("room channel: a line that is not a message, skipped")
            case .tooLong: logger.warning("room channel: a line over \(RoomLine.maximumLine) bytes, skipped")
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Writes a message on the channel, from any thread; a droppable one is skipped while the
    /// console does not read (a frame or snapshot that waits is stale by the time it would go).
    static func send(_ message: RoomMessage, on channel: Channel, droppable: Bool) {
        if droppable, !channel.isWritable { return }
        let line = RoomLine.encode(message)
        var buffer = channel.allocator.buffer(capacity: line.count)
        buffer.writeBytes(line)
        channel.writeAndFlush(buffer, promise: nil)
    }
}
