import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// OpenSSH's client sends its handshake without TCP_NODELAY, so Nagle's algorithm holds back the
/// second of two small messages until the first is acknowledged, and the kernel delays that
/// acknowledgement (about 40 ms) when the server has nothing to send: twice per connection, at the
/// key exchange and at the service request. Acknowledging each read at once while the client logs
/// in removes both waits. Quick-ack mode is not sticky, so it is asked for after every read; once
/// the client has logged in it sets TCP_NODELAY itself, and this handler leaves the pipeline.
final class HandshakeAcknowledgements: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private static let quickAcknowledgement = ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_QUICKACK))
    private let identity: ConnectionIdentity

    init(identity: ConnectionIdentity) { self.identity = identity }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        if identity.admission != nil {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } else {
            try? context.channel.syncOptions?.setOption(Self.quickAcknowledgement, value: 1)
        }
    }
}
