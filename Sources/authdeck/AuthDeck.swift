import ArgumentParser
import CAllocator
import CPty

struct AuthDeck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authdeck",
        abstract: "A terminal account console for Firebase Authentication.",
        discussion: """
            `authdeck` runs the console; `authdeck serve` serves the embedded backend over HTTP \
            on the Firebase Auth Emulator's paths, for other SDKs and for several consoles at once; \
            `authdeck accounts` lists, exports and imports accounts for scripts. \
            The console's options (--emulator, --project, --api-key, --data, …): `authdeck help console`.
            """,
        version: "0.1.0",
        subcommands: [AuthDeckCommand.self, ServeCommand.self, SSHCommand.self, AccountsCommand.self],
        defaultSubcommand: AuthDeckCommand.self)

    /// A plain console command line starts the console without ArgumentParser (`ConsoleLaunch.plain`);
    /// everything else, help and errors included, goes through it. On its caller's executor: the
    /// console's start stays on the main thread.
    nonisolated(nonsending) static func main() async {
        let arguments = forkedConsoleArguments ?? Array(CommandLine.arguments.dropFirst())
        guard let launch = ConsoleLaunch.plain(arguments: arguments) else {
            await main(arguments)
            return
        }
        // Before the console starts its first thread, the terminal's.
        _ = authdeck_use_one_arena()
        do {
            try await launch.run()
        } catch {
            exit(withError: error)
        }
    }

    /// A console that `authdeck ssh`'s fork server started has its request's arguments; its own
    /// command line is the fork server's.
    private static var forkedConsoleArguments: [String]? {
        var count: Int32 = 0
        guard let argv = authdeck_forked_console_arguments(&count) else { return nil }
        return (1..<Int(count)).map { String(cString: argv[$0]!) }
    }
}
