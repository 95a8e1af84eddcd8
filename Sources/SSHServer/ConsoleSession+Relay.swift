import NIOCore
import NIOSSH

/// The bytes between the client and the console's pty, both ways, with back-pressure.
extension ConsoleSession {
    func consoleWrote(_ buffer: ByteBuffer) {
        guard let context, !clientGone else { return }
        context.write(wrapOutboundOut(SSHChannelData(type: .channel, data: .byteBuffer(buffer))), promise: nil)
    }

    func consoleWriteBatchEnded() {
        context?.flush()
    }

    func consoleWritabilityChanged(_ writable: Bool) {
        // The console reads slower than the visitor pastes: stop reading the SSH channel, so its
        // window fills and the client waits, instead of buffering megabytes here.
        guard let channel = context?.channel else { return }
        _ = channel.setOption(ChannelOptions.autoRead, value: writable)
        // An SSH child channel does not start reading again by itself when autoRead comes back.
        if writable { channel.read() }
    }

    // MARK: Bytes from the client

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        guard case .channel = message.type, case let .byteBuffer(bytes) = message.data else { return }
        lastInput = .now()
        if let roomId { room.touch(roomId) }
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
}

/// The pty master's side of the relay: what the console draws goes to the SSH channel.
final class ConsoleOutput: ChannelInboundHandler {
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
