import NIOCore
import NIOEmbedded
import Testing
@testable import SSHServer

@Suite struct HandshakeAcknowledgementsTests {
    @Test func passesEveryReadOnAndLeavesThePipelineOnceTheClientHasLoggedIn() throws {
        let identity = ConnectionIdentity(address: "127.0.0.1", handshake: 0)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HandshakeAcknowledgements(identity: identity), name: "acknowledgements")

        try channel.writeInbound(ByteBuffer(string: "SSH-2.0-OpenSSH_9.2p1\r\n"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "SSH-2.0-OpenSSH_9.2p1\r\n"))
        #expect(throws: Never.self) { try channel.pipeline.syncOperations.context(name: "acknowledgements") }

        identity.admission = .admitted
        try channel.writeInbound(ByteBuffer(string: "the read that follows the login"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "the read that follows the login"))
        #expect(throws: ChannelPipelineError.self) { try channel.pipeline.syncOperations.context(name: "acknowledgements") }
        try channel.writeInbound(ByteBuffer(string: "after"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "after"))
        _ = try channel.finish()
    }
}
