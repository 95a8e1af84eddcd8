import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A running count on standard error. On a terminal it is rewritten in place (`\r`); into a file or
/// a pipe, where each `\r` would run the counts together on one line, only the final line is written.
final class ProgressLine: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// The length of the count on the terminal's line, not yet ended; 0: none.
    private let shown = Mutex(0)

    func update(_ text: String) {
        guard isTerminal else { return }
        let previous = shown.withLock { previous in defer { previous = text.count }; return previous }
        write((previous > 0 ? "\r" : "") + text + Self.blanks(covering: previous, after: text))
    }

    /// Ends the count's line, so that what is written next (an error, a refused record) starts its own.
    func end() {
        if take() > 0 { write("\n") }
    }

    /// The last line, over the count on a terminal.
    func finish(_ text: String) {
        let previous = take()
        write((previous > 0 ? "\r" : "") + text + Self.blanks(covering: previous, after: text) + "\n")
    }

    private func take() -> Int { shown.withLock { shown in defer { shown = 0 }; return shown } }

    /// Spaces over what is left of a longer count.
    private static func blanks(covering previous: Int, after text: String) -> String {
        String(repeating: " ", count: max(0, previous - text.count))
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
