import Foundation
import Logging
import NIOCore

/// The log line each SSH session ends with, and the text it is written with.
enum SessionLog {
    static func ended(_ identity: ConnectionIdentity, project: String?, started: Date, exitStatus: Int32, outcome: String, logger: Logger) {
        var metadata: Logger.Metadata = [
            "address": "\(identity.address)",
            "user": "\(printable(identity.user ?? "?"))",
            "key": "\(identity.keyFingerprint ?? "none")",
            "role": "\(identity.role?.rawValue ?? "?")",
            "start": "\(started.ISO8601Format())",
            "end": "\(Date().ISO8601Format())",
            "exit": "\(exitStatus)",
            "outcome": "\(outcome)",
        ]
        if let project { metadata["project"] = "\(project)" }
        logger.info("ssh session", metadata: metadata)
    }

    /// A user name is the client's to choose: it reaches the log without control characters.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }

    static func describe(_ amount: TimeAmount) -> String {
        let seconds = amount.nanoseconds / 1_000_000_000
        if seconds % 3600 == 0 { return seconds == 3600 ? "1 hour" : "\(seconds / 3600) hours" }
        if seconds % 60 == 0 { return seconds == 60 ? "1 minute" : "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
