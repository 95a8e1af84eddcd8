import NIOCore
import NIOPosix
import RoomChannel
import Synchronization

/// The console's room channel: the session joins the room when its console starts and leaves when
/// it exits; what the console says goes to the room, what the room says goes to the console.
extension ConsoleSession {
    func joinRoom(channel descriptor: Int32) {
        guard let context, let role = identity.role else {
            close(descriptor)
            return
        }
        let loop = context.eventLoop
        let session = NIOLoopBound(self, eventLoop: loop)
        let outlet = RoomOutlet()
        let room = room
        let link = RoomRegistry.Link(send: { message, droppable in
            guard let channel = outlet.channel.withLock({ $0 }) else { return }
            RoomLink.send(message, on: channel, droppable: droppable)
        }, end: { notice in
            loop.execute { session.value.endAsked(notice: notice) }
        })
        // The session has been in the room since it logged in; its row now reaches the console.
        let id: Int
        if let roomId {
            id = roomId
            room.consoleStarted(id, project: project, name: keptName, link: link)
        } else {
            id = room.join(user: identity.user ?? "?", address: identity.address, key: identity.keyFingerprint, isOperator: role == .operator,
                           project: project, link: link)
            roomId = id
        }
        let logger = logger
        ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RoomLink(logger: logger) { message in room.received(message, from: id) })
                }
            }
            .withConnectedSocket(descriptor)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case let .success(channel):
                    outlet.channel.withLock { $0 = channel }
                    session.value.roomChannel = channel
                    // The console exited while the channel was being set up.
                    if session.value.roomId == nil { channel.close(promise: nil) }
                case let .failure(error):
                    logger.warning("cannot link the console to the room", metadata: ["error": "\(error)"])
                    close(descriptor)
                }
            }
    }

    func leaveRoom() {
        guard let roomId else { return }
        self.roomId = nil
        room.leave(roomId)
        roomChannel?.close(promise: nil)
        roomChannel = nil
    }

    /// The presenter ended the session: the console was told and quits by itself, restoring the
    /// visitor's terminal; one that has not within three seconds is hung up.
    func endAsked(notice: String) {
        self.notice = notice
        context?.eventLoop.assumeIsolated().scheduleTask(in: .seconds(3)) { [self] in
            end(notice: notice)
        }
    }
}

/// The room channel once it is set up, for the room's threads to write to.
private final class RoomOutlet: Sendable {
    let channel = Mutex<Channel?>(nil)
}
