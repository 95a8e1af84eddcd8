import AppData
import AuthDeckApp
import CPty
import IdentityToolkit
import Foundation

/// The process's entry. `AuthDeck`'s async main runs on the main actor once `authdeck ssh`'s
/// fork server, if this process is one, has forked it a console: a fork copies only the calling
/// thread, so the fork server serves from here, before anything starts a thread.
@main
enum Program {
    static func main() {
        if authdeck_fork_server_socket() >= 0 {
            warmUp()
            authdeck_fork_server_serve()
        }
        // Started on this thread, not enqueued: the console's start runs here up to its first wait, its
        // terminal thread and its order to draw included. Enqueued, it would wait for `dispatchMain` to
        // hand the main queue to a new thread of libdispatch's first.
        Task.immediate { @MainActor in
            await AuthDeck.main()
            exit(0)
        }
        dispatchMain()
    }

    /// What every console's start would otherwise do again: read a visitor's command line and pick
    /// its backend, make its HTTP transport (no client yet, so no thread), open and migrate an app-data store, draw
    /// the first screen (`ConsoleApp.warmUp`).
    private static func warmUp() {
        if let launch = ConsoleLaunch.plain(arguments: ["console", "--data", "/", "--ssh-role", "visitor", "--emulator", "127.0.0.1:9099", "--project", "warm-up"]),
           case let .emulator(address, _)? = try? launch.backendChoice() {
            _ = HTTPTransport(target: .emulator(address), apiKey: "warm-up").url(for: .secureToken)
        }
        keptStore = try? CartStore()
        ConsoleApp.warmUp()
    }

    /// In memory, and never closed: closing a GRDB database starts libdispatch's worker threads,
    /// after which the fork server could not fork.
    nonisolated(unsafe) private static var keptStore: CartStore?
}
