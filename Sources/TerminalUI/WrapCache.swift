import Synchronization

/// Wrapped lines by text and width. Screens are drawn whole at every frame, and most of what they
/// wrap (a list item's detail, the banner, a hint) is the same from one frame to the next, so a frame
/// takes the lines an earlier one made. Bounded: when full it starts again empty, and text longer than
/// `longest` bytes is wrapped every time (a long body kept here would only take memory).
///
/// A table of its own (open addressing over an array) rather than a `Dictionary`: the first frame
/// wraps, and a dictionary keyed by a type of ours would have the runtime look up that type's
/// `Hashable` conformance, a scan of every conformance in the binary, before the frame is drawn.
final class WrapCache: Sendable {
    private struct Entry {
        var text: String
        var width: Int
        var lines: [String]
    }

    private struct Table {
        /// A power of two, at least twice the capacity: probes stay short.
        var slots: [Entry?]
        var count = 0

        init(slotCount: Int) { slots = Array(repeating: nil, count: slotCount) }

        /// The slot holding `text` at `width`, or the empty one where it would go.
        func slot(_ text: String, width: Int) -> Int {
            var hasher = Hasher()
            hasher.combine(text)
            hasher.combine(width)
            let mask = slots.count - 1
            var index = hasher.finalize() & mask
            while let entry = slots[index], entry.width != width || entry.text != text {
                index = (index + 1) & mask
            }
            return index
        }
    }

    private let table: Mutex<Table>
    let capacity: Int
    let longest: Int

    init(capacity: Int, longest: Int) {
        precondition(capacity > 0, "a wrap cache keeps at least one wrapping")
        self.capacity = capacity
        self.longest = longest
        var slotCount = 2
        while slotCount < capacity * 2 { slotCount *= 2 }
        table = Mutex(Table(slotCount: slotCount))
    }

    /// `text` wrapped at `width` by `wrap`, or as `wrap` wrapped it before.
    func lines(_ text: String, width: Int, wrap: (String, Int) -> [String]) -> [String] {
        guard text.utf8.count <= longest else { return wrap(text, width) }
        if let kept = table.withLock({ $0.slots[$0.slot(text, width: width)]?.lines }) { return kept }
        let lines = wrap(text, width)
        table.withLock { table in
            if table.count >= capacity {
                for index in table.slots.indices { table.slots[index] = nil }
                table.count = 0
            }
            let index = table.slot(text, width: width)
            if table.slots[index] == nil { table.count += 1 }
            table.slots[index] = Entry(text: text, width: width, lines: lines)
        }
        return lines
    }

    /// How many wrappings are kept.
    var count: Int { table.withLock { $0.count } }
}
