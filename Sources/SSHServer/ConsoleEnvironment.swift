import Foundation

/// What of the client's environment a console may see: a few variables, with values that cannot
/// smuggle anything, and a terminal type curses will find.
enum ConsoleEnvironment {
    /// Client variables a console may see; nothing else of the client's environment passes.
    static func allowsVariable(_ name: String) -> Bool {
        name == "LANG" || name == "NO_COLOR" || name == "TERM" || name.hasPrefix("LC_")
    }

    /// Values that cannot smuggle anything: short, printable, no shell or terminal specials.
    static func acceptsValue(_ value: String) -> Bool {
        value.utf8.count <= 64 && value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-@+:".unicodeScalars.contains($0)) }
    }

    /// Whether curses will find the client's terminal type; an exotic one (say `xterm-kitty`)
    /// falls back to `xterm-256color` rather than a console that cannot start.
    static func knownTerminal(_ name: String) -> Bool {
        guard let first = name.first, !name.contains("/") else { return false }
        return ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"].contains { directory in
            // A description is a file: `.` and `..` name directories (`terminfo/./.`), which curses cannot start with.
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(directory)/\(first)/\(name)", isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// The console's variables: the client's that passed, its terminal type or a known one, and a
    /// UTF-8 locale unless the client sent one.
    static func clientVariables(_ environment: [String: String], term: String) -> [String: String] {
        var variables = environment
        variables["TERM"] = knownTerminal(term) ? term : "xterm-256color"
        // A client that sends no locale (OpenSSH sends one only with SendEnv) most likely has a
        // UTF-8 terminal all the same; without this, curses would fall back to ASCII.
        if !["LANG", "LC_ALL", "LC_CTYPE"].contains(where: { environment[$0] != nil }) { variables["LANG"] = "C.UTF-8" }
        return variables
    }
}
