import Foundation

/// The room's effects: commands on the console's room channel, answered by the server as events.
extension EffectRunner {
    func perform(_ effect: RoomFeature.Effect) -> ConsoleEvent? {
        switch effect {
        case let .send(command):
            guard let room else { return .feature(RoomFeature.Event.refused("This console is not in a room.")) }
            room.send(.command(command))
            return nil
        }
    }
}
