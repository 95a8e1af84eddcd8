import AuthClient
import Foundation
import RoomChannel
import TerminalUI

extension ConsoleApp {
    /// A visitor's console start, off-screen and on this thread alone: the first screen, its frame
    /// drawn, two arrow keys, and the status and frame the room receives. A process that forks
    /// consoles (`authdeck ssh`'s fork server) runs it before it forks, so that each console finds
    /// the Swift runtime's type-metadata and conformance caches filled rather than filling them
    /// again. It starts no thread and keeps nothing.
    public static func warmUp(size: Size = Size(width: 80, height: 24)) {
        var (model, _) = ConsoleModel.start(backendName: "", inRoom: true, sessionSaved: false)
        model.remoteTerminal = true
        _ = model.handle(.resized(size))
        for key in [Key.down, .up] {
            _ = model.handle(.key(key))
            ConsoleView.draw(model, on: TextCanvas(size: size))
        }
        let frame = ScreenFrame(columns: size.width, rows: RoomPublisher.frameRows(model, size: size))
        for message in [RoomMessage.status(model.roomStatus), .frame(frame)] {
            _ = RoomLine.decode(RoomLine.encode(message))
        }
        // The first dictionary of a key type costs a scan of every conformance in the binary (to find
        // the key's Hashable): the terminal's farewell lines, made before the first frame, and `Auth`'s
        // listeners, made as the console starts observing it.
        var farewells: [Int32: String] = [:]
        farewells[SIGTERM] = ""
        var listeners: [UUID: AsyncStream<User?>.Continuation] = [:]
        listeners.reserveCapacity(1)
    }
}
