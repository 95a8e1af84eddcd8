import Foundation
import Logging
import RoomChannel
import Synchronization
import Testing
@testable import SSHServer

/// Consoles of the real binary started through its fork server: set up as a spawned console is
/// (session, controlling terminal, descriptors, signals), adopted and reaped by this process, and
/// a fork server that holds nothing of the server's and is replaced when it dies.
@Suite(.serialized) struct ConsoleForkServerTests {
    /// The binary built beside these tests.
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("authdeck").path

    /// A visitor's console on the embedded backend of a data directory of its own.
    final class Console {
        let process: ConsoleProcess
        let directory: URL
        /// Its exit status, once reaped.
        final class Status: Sendable {
            let code = Mutex<Int32?>(nil)
        }

        private let status = Status()
        private var output: [UInt8] = []
        private var room = RoomLineReader()

        private var hungUp = false

        init(forkServer: ConsoleForkServer?, secret: String = "none", arguments: [String]? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-console-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            process = try ConsoleProcess.start(
                executable: ConsoleForkServerTests.executable,
                arguments: arguments ?? ["console", "--data", directory.path, "--ssh-role", "visitor", "--no-color"],
                environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": directory.path, ConsoleProcess.roomVariable: "3",
                              "AUTHDECK_TEST_SECRET": secret],
                size: WindowSize(columns: 80, rows: 24), forkServer: forkServer)
            let status = status
            ConsoleProcess.reap(process.pid) { code in status.code.withLock { $0 = code } }
        }

        deinit {
            if status.code.withLock({ $0 }) == nil { kill(process.pid, SIGKILL) }
            hangUp()
            close(process.room)
            try? FileManager.default.removeItem(at: directory)
        }

        /// Closes the pty's master, as a dropped connection does.
        func hangUp() {
            guard !hungUp else { return }
            hungUp = true
            close(process.master)
        }

        /// Reads the screen until `text` shows, escape sequences left out.
        func waitFor(_ text: String, seconds: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if Self.plain(output).contains(text) { return true }
                guard let chunk = Self.read(process.master, until: deadline) else { return false }
                output += chunk
            }
            return false
        }

        /// The next message the console sends on its room channel.
        func roomMessage(seconds: Double = 30) -> RoomMessage? {
            let deadline = Date().addingTimeInterval(seconds)
            while let chunk = Self.read(process.room, until: deadline) {
                for case let .message(message) in room.read(Data(chunk)) { return message }
            }
            return nil
        }

        /// Its exit status, once this process has reaped it.
        func exitStatus() -> Int32? {
            _ = eventually { status.code.withLock { $0 } != nil }
            return status.code.withLock { $0 }
        }

        func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        func proc(_ name: String) -> String {
            (try? String(contentsOfFile: "/proc/\(process.pid)/\(name)", encoding: .utf8)) ?? ""
        }

        /// Its descriptors and what each is.
        var descriptors: [Int32: String] {
            ConsoleForkServerTests.descriptors(of: process.pid)
        }

        /// A line of /proc/PID/status.
        func statusField(_ name: String) -> String? {
            proc("status").split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }

        private static func read(_ descriptor: Int32, until deadline: Date) -> [UInt8]? {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard poll(&ready, 1, left) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            return count > 0 ? Array(buffer[..<count]) : nil
        }

        /// The text of terminal output without its escape sequences.
        static func plain(_ bytes: [UInt8]) -> String {
            var text: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x1B, index + 1 < bytes.count {
                    if bytes[index + 1] == UInt8(ascii: "[") {
                        index += 2
                        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    } else if bytes[index + 1] == UInt8(ascii: "(") || bytes[index + 1] == UInt8(ascii: ")") {
                        index += 2
                    } else {
                        index += 1
                    }
                } else {
                    text.append(bytes[index])
                }
                index += 1
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    static func descriptors(of pid: pid_t) -> [Int32: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in
            Int32(name).map { ($0, (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) ?? "?") }
        })
    }

    static func forkServer() throws -> ConsoleForkServer {
        try #require(ConsoleForkServer(executable: executable, logger: Logger(label: "test")))
    }

    @Test func aForkedConsoleIsSetUpAsASpawnedOneIsAndThisProcessReapsIt() throws {
        let forkServer = try Self.forkServer()
        defer { forkServer.stop() }
        let forked = try Console(forkServer: forkServer)
        let spawned = try Console(forkServer: nil)
        // Its arguments: a visitor's console (the title says so) on its own data directory.
        #expect(forked.waitFor("Choose a sign-in method"))
        #expect(forked.waitFor("shared demo server"))
        #expect(forked.eventually { FileManager.default.fileExists(atPath: forked.directory.appendingPathComponent("identity.sqlite").path) })
        // Its environment named descriptor 3, where the room channel is.
        guard case .status = forked.roomMessage() else {
            Issue.record("no status on the room channel")
            return
        }
        #expect(spawned.waitFor("Choose a sign-in method"))

        // Adopted by this process, in a session of its own whose controlling terminal is the pty.
        #expect(forked.statusField("PPid") == "\(getpid())")
        let fields = forked.proc("stat").split(separator: ")").last?.split(separator: " ").map(String.init) ?? []
        let pid = "\(forked.process.pid)"
        #expect(fields.count > 6 && fields[2] == pid && fields[3] == pid && fields[5] == pid, "pgrp, session and foreground group: \(fields)")
        var terminal = stat()
        #expect(fields.count > 4 && stat(forked.descriptors[0] ?? "", &terminal) == 0 && fields[4] == "\(terminal.st_rdev)")

        // The pty on 0, 1 and 2, the room channel on 3, nothing of the fork server's.
        let descriptors = forked.descriptors
        #expect(descriptors[0]?.hasPrefix("/dev/pts/") == true && descriptors[1] == descriptors[0] && descriptors[2] == descriptors[0])
        #expect(descriptors.filter { $0.value.hasPrefix("socket:") }.map(\.key) == [3])
        #expect(descriptors.filter { $0.value.hasPrefix("/dev/pts/") || $0.value == "/dev/ptmx" }.keys.sorted() == [0, 1, 2])

        // The signals the fork server ignores are the console's own again, and the runtime's crash
        // handlers are there: as a spawned console's.
        Self.settleSignals(of: forked, and: spawned)
        for field in ["SigBlk", "SigIgn", "SigCgt"] {
            #expect(forked.statusField(field) != nil && forked.statusField(field) == spawned.statusField(field),
                    "\(field): \(forked.statusField(field) ?? "-") forked, \(spawned.statusField(field) ?? "-") spawned")
        }

        // A window change is a SIGWINCH: below 80×24 the console says so.
        ConsoleProcess.resize(master: forked.process.master, to: WindowSize(columns: 60, rows: 20))
        #expect(forked.waitFor("Terminal too small"))

        // A hang-up ends it, and this process reports its exit: the console quits at the end of its
        // input (0) or on the SIGHUP (129), whichever its loop sees first, as a spawned console does.
        forked.hangUp()
        spawned.hangUp()
        #expect([0, 128 + SIGHUP].contains(forked.exitStatus()))
        #expect([0, 128 + SIGHUP].contains(spawned.exitStatus()))
    }

    @Test func aConsoleEndedWithSIGTERMReportsIt() throws {
        let forkServer = try Self.forkServer()
        defer { forkServer.stop() }
        let console = try Console(forkServer: forkServer)
        #expect(console.waitFor("Choose a sign-in method"))
        kill(console.process.pid, SIGTERM)
        #expect(console.exitStatus() == 128 + SIGTERM)
    }

    @Test func theForkServerIsOneThreadHoldingNothingOfTheServerOrOfEarlierConsoles() throws {
        let forkServer = try Self.forkServer()
        defer { forkServer.stop() }
        let secret = "secret-\(UUID().uuidString)"
        let console = try Console(forkServer: forkServer, secret: secret)
        #expect(console.waitFor("Choose a sign-in method"))
        let server = try #require(forkServer.pid)

        #expect(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server)/task") == ["\(server)"])
        #expect(try String(contentsOfFile: "/proc/\(server)/environ", encoding: .utf8) == "AUTHDECK_FORK_SERVER=3\0")
        let descriptors = Self.descriptors(of: server)
        #expect(descriptors.keys.sorted() == [0, 1, 2, 3])
        #expect([0, 1, 2].allSatisfy { descriptors[$0] == "/dev/null" } && descriptors[3]?.hasPrefix("socket:") == true)
        // It mapped nothing but the program and its libraries: no data directory, no database.
        let maps = try String(contentsOfFile: "/proc/\(server)/maps", encoding: .utf8).split(separator: "\n")
        let files = Set(maps.compactMap { line in line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init) }
            .filter { $0.hasPrefix("/") })
        #expect(files.allSatisfy { $0 == URL(fileURLWithPath: Self.executable).resolvingSymlinksInPath().path || $0.contains("/lib") }, "\(files)")
        // The console's environment (a project's key, an admin token) was wiped once it was forked.
        #expect(!Self.memory(of: server, contains: Array(secret.utf8)))
        // The console has it: the same search finds it there.
        #expect(Self.memory(of: console.process.pid, contains: Array(secret.utf8)))
    }

    @Test func aKilledForkServerIsReplacedAndItsConsolesGoOn() throws {
        let forkServer = try Self.forkServer()
        defer { forkServer.stop() }
        let first = try Console(forkServer: forkServer)
        #expect(first.waitFor("Choose a sign-in method"))
        let killed = try #require(forkServer.pid)
        kill(killed, SIGKILL)
        let second = try Console(forkServer: forkServer)
        #expect(second.waitFor("Choose a sign-in method"))
        #expect(second.statusField("PPid") == "\(getpid())")
        #expect(forkServer.pid != nil && forkServer.pid != killed)
        #expect(kill(first.process.pid, 0) == 0)
        first.hangUp()
        second.hangUp()
        #expect([0, 128 + SIGHUP].contains(first.exitStatus()) && [0, 128 + SIGHUP].contains(second.exitStatus()))
    }

    @Test func theForkServerTakesANewLayoutAfterAHundredConsoles() throws {
        let forkServer = try Self.forkServer()
        defer { forkServer.stop() }
        func layout() throws -> Substring? {
            let server = try #require(forkServer.pid)
            return try String(contentsOfFile: "/proc/\(server)/maps", encoding: .utf8).split(separator: "\n").first?.split(separator: "-").first
        }
        var versions = [try Console(forkServer: forkServer, arguments: ["--version"])]
        let first = try layout()
        for _ in 1..<100 { versions.append(try Console(forkServer: forkServer, arguments: ["--version"])) }
        // Its arguments, not the fork server's, reached it: it printed the version and ended.
        #expect(versions.allSatisfy { $0.waitFor("0.1.0") && $0.exitStatus() == 0 })
        #expect(try layout() != first)
        // The new image starts its consoles as the first did.
        let forked = try Console(forkServer: forkServer)
        let spawned = try Console(forkServer: nil)
        #expect(forked.waitFor("Choose a sign-in method") && spawned.waitFor("Choose a sign-in method"))
        Self.settleSignals(of: forked, and: spawned)
        #expect(["SigBlk", "SigIgn", "SigCgt"].allSatisfy { forked.statusField($0) != nil && forked.statusField($0) == spawned.statusField($0) })
    }

    /// Waits until the two consoles' signal mask, ignored and caught signals are the same: the terminal's
    /// thread draws the first frame while the main thread is still starting (its mask is set as it enters
    /// libdispatch's main loop), so a reading taken just then may catch one of them half-way.
    static func settleSignals(of first: Console, and second: Console, seconds: Double = 10) {
        let deadline = Date().addingTimeInterval(seconds)
        let fields = ["SigBlk", "SigIgn", "SigCgt"]
        while Date() < deadline, !fields.allSatisfy({ first.statusField($0) != nil && first.statusField($0) == second.statusField($0) }) {
            usleep(50_000)
        }
    }

    /// Whether `needle` is anywhere in the writable memory of `pid` (a child of this process).
    static func memory(of pid: pid_t, contains needle: [UInt8]) -> Bool {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return false }
        let memory = open("/proc/\(pid)/mem", O_RDONLY)
        guard memory >= 0 else { return false }
        defer { close(memory) }
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 1, fields[1].hasPrefix("rw") else { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard range.count == 2 else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(range[1] - range[0]))
            let count = pread(memory, &bytes, bytes.count, off_t(Int64(bitPattern: range[0])))
            guard count > 0 else { continue }
            if bytes[..<count].firstRange(of: needle) != nil { return true }
        }
        return false
    }
}
