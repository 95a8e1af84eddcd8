import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IdentityEmulator
import Logging

/// The start-up steps the console and `authdeck serve` share. A failure is a `StartupError`:
/// one clear line, since the command line itself was fine.
enum StartupSteps {
    /// Prepares the data directory (`--data`, else the default) and sends the process's log, from
    /// `logLevel` up, to `authdeck.log` in it.
    /// Everything it creates is owner-only: the umask is set before the first file exists, so SQLite's
    /// WAL and shared-memory files, the log and the session files are 0600 and directories 0700.
    static func openDataDirectory(explicit: String?, logLevel: Logger.Level = .info,
                                  environment: Environment = .process) throws -> DataDirectory {
        umask(0o077)
        let directory: DataDirectory
        do {
            directory = try DataDirectory.prepare(DataDirectory.resolve(explicit: explicit, environment: environment))
        } catch {
            throw StartupError(String(describing: error))
        }
        LoggingSystem.bootstrap(try FileLogHandler.open(path: directory.filePath("authdeck.log"), level: logLevel))
        return directory
    }

    /// Opens the embedded backend on the data directory; a failure is also logged.
    static func openEmbeddedBackend(in directory: DataDirectory, configuration: EmbeddedBackendConfiguration,
                                    logger: Logger) throws -> EmbeddedBackend {
        raiseDescriptorLimit()
        do {
            return try EmbeddedBackend(dataDirectory: directory.url, configuration: configuration)
        } catch {
            logger.critical("cannot open the data", metadata: ["error": "\(error)"])
            throw StartupError(String(describing: error))
        }
    }

    /// The soft limit of open files raised to the hard one, as Go's runtime and most servers do: each
    /// project a backend serves holds several descriptors (`BackendProjects` keeps within the limit).
    /// Best effort: a limit that cannot be raised is the budget.
    private static func raiseDescriptorLimit() {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
