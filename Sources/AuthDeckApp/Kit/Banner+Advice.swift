import AuthClient
import Foundation
import TerminalUI

extension Banner {
    /// An error with what the user can do about it first, then the code and raw message.
    static func error(_ error: AuthError, advice: String) -> Banner {
        var banner = Banner.error(error)
        if !advice.isEmpty { banner.text = "\(error.message) \(advice)" }
        return banner
    }
}
