import Synchronization

/// Wrapped lines by text and width. Screens are drawn whole at every frame, and most of what they
/// wrap (a list item's detail, the banner, a hint) is the same from one frame to the next, so a frame
/// takes the lines an earlier one made. Bounded: when full it starts again empty, and text longer than
/// `longest` bytes is wrapped every time (a long body kept here would only take memory).
final class WrapCache: Sendable {
    private struct Key: Hashable {
        var text: String
        var width: Int
    }

    private let entries = Mutex<[Key: [String]]>([:])
    let capacity: Int
    let longest: Int

    init(capacity: Int, longest: Int) {
        self.capacity = capacity
        self.longest = longest
    }

    /// `text` wrapped at `width` by `wrap`, or as `wrap` wrapped it before.
    func lines(_ text: String, width: Int, wrap: (String, Int) -> [String]) -> [String] {
        guard text.utf8.count <= longest else { return wrap(text, width) }
        let key = Key(text: text, width: width)
        if let kept = entries.withLock({ $0[key] }) { return kept }
        let lines = wrap(text, width)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = lines
        }
        return lines
    }

    /// How many wrappings are kept.
    var count: Int { entries.withLock { $0.count } }
}
