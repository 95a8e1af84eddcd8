import ArgumentParser

@main
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
    /// everything else, help and errors included, goes through it.
    static func main() async {
        guard let launch = ConsoleLaunch.plain(arguments: Array(CommandLine.arguments.dropFirst())) else {
            await main(nil)
            return
        }
        do {
            try await launch.run()
        } catch {
            exit(withError: error)
        }
    }
}
