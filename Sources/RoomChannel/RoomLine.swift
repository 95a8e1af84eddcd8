import Foundation

/// The room channel's framing: one JSON `RoomMessage` per line. A line longer than `maximumLine`
/// is dropped whole (up to its newline) rather than buffered; a line that is not a message is
/// reported and skipped. Either way the next line reads as usual.
public enum RoomLine {
    /// A frame of the largest window a console gets (500×200, four bytes a cell) and its JSON.
    public static let maximumLine = 1 << 20

    public static func encode(_ message: RoomMessage) -> Data {
        var data = (try? JSONEncoder().encode(message)) ?? Data()
        data.append(0x0A)
        return data
    }

    public static func decode(_ line: some DataProtocol) -> RoomMessage? {
        try? JSONDecoder().decode(RoomMessage.self, from: Data(line))
    }
}

/// Splits the bytes read from a room channel into messages.
public struct RoomLineReader: Sendable {
    public enum Item: Equatable, Sendable {
        case message(RoomMessage)
        case unreadable
        case tooLong
    }

    private var buffer: [UInt8] = []
    private var skipping = false
    private let maximumLine: Int

    public init(maximumLine: Int = RoomLine.maximumLine) { self.maximumLine = maximumLine }

    public mutating func read(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == 0x0A {
                if skipping {
                    skipping = false
                } else if !buffer.isEmpty {
                    items.append(RoomLine.decode(buffer).map(Item.message) ?? .unreadable)
                }
                buffer.removeAll(keepingCapacity: true)
            } else if !skipping {
                buffer.append(byte)
                if buffer.count > maximumLine {
                    buffer.removeAll()
                    skipping = true
                    items.append(.tooLong)
                }
            }
        }
        return items
    }
}

/// Text a person typed for other screens: one line of printable characters, at most `limit`.
public enum RoomText {
    /// A message to the room, at most this many characters.
    public static let messageLimit = 200

    /// Control characters (C0, C1, and the bidirectional overrides that reorder what others read)
    /// become spaces, runs of spaces one; the result is trimmed and cut at `limit`. `cut` says whether it was.
    public static func clean(_ text: String, limit: Int = messageLimit) -> (text: String, cut: Bool) {
        var scalars = String.UnicodeScalarView()
        var lastSpace = true
        for scalar in text.unicodeScalars {
            let control = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator
            let space = control || scalar.properties.isWhitespace
            if space {
                if !lastSpace { scalars.append(" ") }
                lastSpace = true
            } else {
                scalars.append(scalar)
                lastSpace = false
            }
        }
        var cleaned = String(scalars)
        while cleaned.last == " " { cleaned.removeLast() }
        guard cleaned.count > limit else { return (cleaned, false) }
        return (String(cleaned.prefix(limit)), true)
    }
}
