import Foundation
import RoomChannel
import Testing

/// The room channel's lines: what a console or the server writes reads back the same, and what a
/// broken or hostile console writes is skipped without losing the lines after it.
@Suite struct RoomChannelTests {
    static let messages: [RoomMessage] = [
        .status(ConsoleStatus(screen: "Phone sign-in: code sent", uid: "u1", methods: ["phone", "google.com"], anonymous: false, failure: "INVALID_CODE")),
        .command(.message("Hello, room")), .command(.messageOne(session: 4, "Try again")), .command(.end(session: 3)), .command(.previewReset), .command(.reset),
        .command(.follow(session: 2)), .command(.follow(session: nil)),
        .frame(ScreenFrame(columns: 80, rows: ["AuthDeck · Sign in", "", "  > Email and password"])),
        .notice(.message("Break in 5 minutes")), .notice(.watched(true)), .notice(.ending("The presenter ended this session.")),
        .notice(.accountReset),
        .room(RoomSnapshot(sessions: [RoomSession(id: 1, user: "demo", address: "10.0.0.5", key: nil, isOperator: false, project: "guest-0a1b2c3d4e5f",
                                                  connectedSeconds: 90, idleSeconds: 4, status: nil)], viewer: 2)),
        .resetPreview(ResetCounts(sessions: 3, projects: 4, accounts: 12)), .resetDone(ResetCounts(sessions: 3, projects: 4, accounts: 12)),
        .answered("Sent to 3 visitors"), .refused("That session has already ended."), .sendFrames(false),
        .followed(session: 1, ScreenFrame(columns: 2, rows: ["ab"])), .followEnded(session: 1, reason: "demo@10.0.0.5 left."),
    ]

    @Test func everyMessageReadsBackAsWritten() {
        var reader = RoomLineReader()
        let bytes = Self.messages.reduce(Data()) { $0 + RoomLine.encode($1) }
        #expect(reader.read(bytes) == Self.messages.map(RoomLineReader.Item.message))
    }

    @Test func aLineSplitAcrossReadsIsOneMessage() {
        var reader = RoomLineReader()
        let line = RoomLine.encode(.notice(.message("split")))
        #expect(reader.read(line.prefix(7)).isEmpty)
        #expect(reader.read(line.dropFirst(7)) == [.message(.notice(.message("split")))])
    }

    @Test func badLinesAreSkippedAndTheNextOneReads() {
        var reader = RoomLineReader()
        let good = RoomLine.encode(.sendFrames(true))
        let items = reader.read(Data("not json\n{\"status\":{\"screen\":1}}\n\n{\"unknown\":{}}\n".utf8) + good)
        #expect(items == [.unreadable, .unreadable, .unreadable, .message(.sendFrames(true))])
    }

    @Test func aHugeLineIsDroppedWholeWithoutBufferingIt() {
        var reader = RoomLineReader(maximumLine: 1000)
        var items = reader.read(Data(repeating: UInt8(ascii: "x"), count: 600))
        items += reader.read(Data(repeating: UInt8(ascii: "x"), count: 600))
        // The rest of the long line, however long, is skipped up to its newline.
        items += reader.read(Data(repeating: UInt8(ascii: "y"), count: 5000) + Data("\n".utf8))
        items += reader.read(RoomLine.encode(.notice(.watched(false))))
        #expect(items == [.tooLong, .message(.notice(.watched(false)))])
    }

    @Test func aMessageLosesItsControlCharactersAndIsCutAtTheLimit() {
        #expect(RoomText.clean("Hi\u{1B}[2J\u{07} there\r\nall\t ").text == "Hi [2J there all")
        // Right-to-left overrides would reorder what the room reads.
        #expect(RoomText.clean("abc\u{202E}fed").text == "abc fed")
        #expect(RoomText.clean("\u{1B}\u{00}\n").text.isEmpty)
        let long = RoomText.clean(String(repeating: "é", count: 10_000))
        #expect(long.cut && long.text.count == RoomText.messageLimit)
        #expect(RoomText.clean("short").cut == false)
    }
}
