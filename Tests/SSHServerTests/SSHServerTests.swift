import Crypto
import Foundation
import NIOCore
import NIOSSH
import Synchronization
import Testing
@testable import SSHServer

@Suite struct OperatorKeysTests {
    static let ed25519 = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey()).publicKey
    static let p256 = NIOSSHPrivateKey(p256Key: P256.Signing.PrivateKey()).publicKey

    @Test func takesSupportedKeysAndSaysWhyOthersAreSkipped() {
        let text = """
            # presenters

            \(String(openSSHPublicKey: Self.ed25519)) alice@laptop
            \(String(openSSHPublicKey: Self.p256))
            ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ bob
            from="10.0.0.1" \(String(openSSHPublicKey: Self.ed25519))
            ssh-ed25519 not-base64!
            garbage
            """
        let keys = OperatorKeys.parse(text)
        #expect(keys.keys == [Self.ed25519, Self.p256])
        #expect(keys.skipped == [
            "line 5: ssh-rsa keys are not supported (ed25519 and ECDSA are)",
            "line 6: key options are not supported",
            "line 7: the key does not decode",
            "line 8: not a key",
        ])
        // A key's comment names its operator; one without has none.
        #expect(keys.comments == [Self.ed25519: "alice@laptop"])
    }

    @Test func aCommentIsKeptPrintableAndShort() {
        let text = "\(String(openSSHPublicKey: Self.ed25519)) ada \u{1B}[31mlovelace\t" + String(repeating: "x", count: 100)
        let comment = OperatorKeys.parse(text).comments[Self.ed25519]
        #expect(comment?.hasPrefix("ada [31mlovelace") == true)
        #expect(comment?.count == 64)
        #expect(comment?.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } == true)
    }
}

@Suite struct UserAuthenticationTests {
    let operatorKey = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey()).publicKey
    let otherKey = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey()).publicKey
    var operators: OperatorKeys { OperatorKeys(keys: [operatorKey]) }

    func decide(_ user: String, _ request: NIOSSHUserAuthenticationRequest.Request,
                reserved: ReservedNames? = nil) -> UserAuthenticator.Decision? {
        UserAuthenticator.decide(username: user, request: request, visitorNames: ["demo"], operatorKeys: operators,
                                 reserved: reserved ?? ReservedNames(operatorKeys: operators))
    }

    @Test func noneIsRefusedSoThatClientsOfferTheirKeys() {
        #expect(decide("demo", .none) == nil)
        #expect(decide("alice", .none) == nil)
        #expect(decide("root", .none) == nil)
        let visitorKey = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey()).publicKey
        #expect(decide("demo", .publicKey(.init(publicKey: visitorKey))) == .init(role: .visitor, name: "demo", keyFingerprint: KeyFingerprint.sha256(visitorKey)))
    }

    @Test func anOperatorKeyMakesAnOperatorUnderAnyNameButTheVisitorsOwn() {
        let fingerprint = KeyFingerprint.sha256(operatorKey)
        #expect(decide("alice", .publicKey(.init(publicKey: operatorKey))) == .init(role: .operator, name: "alice", keyFingerprint: fingerprint))
        // The visitors' name stays a visitor's, even with an operator's key.
        #expect(decide("demo", .publicKey(.init(publicKey: operatorKey))) == .init(role: .visitor, name: "demo", keyFingerprint: fingerprint))
    }

    /// A visitor is whoever they say, with any key or password, but never under a name operators use.
    @Test func anyOtherNameIsAVisitorsUnlessOperatorsUseIt() {
        let otherFingerprint = KeyFingerprint.sha256(otherKey)
        #expect(decide("Ada", .publicKey(.init(publicKey: otherKey))) == .init(role: .visitor, name: "ada", keyFingerprint: otherFingerprint))
        #expect(decide("ada", .password(.init(password: "x"))) == .init(role: .visitor, name: "ada"))
        #expect(decide("root", .password(.init(password: ""))) == .init(role: .visitor, name: "root"))
        // The operators file's comment reserves its name; an operator's login reserves theirs.
        let commented = OperatorKeys(keys: [operatorKey], comments: [operatorKey: "Alice@laptop"])
        let reserved = ReservedNames(operatorKeys: commented)
        #expect(decide("alice", .publicKey(.init(publicKey: otherKey)), reserved: reserved) == nil)
        #expect(decide("alice", .password(.init(password: "")), reserved: reserved) == nil)
        #expect(decide("bob", .password(.init(password: "")), reserved: reserved) == .init(role: .visitor, name: "bob"))
        reserved.reserve("Bob")
        #expect(decide("bob", .password(.init(password: "")), reserved: reserved) == nil)
        #expect(decide("bob", .publicKey(.init(publicKey: operatorKey)), reserved: reserved)?.role == .operator)
        // The visitors' own names are never reserved.
        reserved.reserve("demo")
        #expect(decide("demo", .password(.init(password: "")), reserved: reserved) == .init(role: .visitor, name: "demo"))
    }

    @Test func anyPasswordLetsAVisitorWithoutAKeyInAndNeverMakesAnOperator() {
        #expect(decide("demo", .password(.init(password: ""))) == .init(role: .visitor, name: "demo"))
        #expect(decide("demo", .password(.init(password: "anything"))) == .init(role: .visitor, name: "demo"))
        #expect(decide("alice", .password(.init(password: "x")))?.role == .visitor)
    }

    /// Names as the room shows them: what a table and a log can hold, whatever was typed.
    @Test func namesAreCleanedAndMadeUnique() {
        #expect(VisitorName.clean("Ada") == "ada")
        #expect(VisitorName.clean("ada\u{1B}[2J\u{07}") == "ada2j")
        #expect(VisitorName.clean("José_O.k-1") == "jos_o.k-1")
        #expect(VisitorName.clean("漢字") == VisitorName.fallback && VisitorName.clean("") == VisitorName.fallback)
        #expect(VisitorName.clean(String(repeating: "a", count: 40)).count == VisitorName.maximumLength)
        #expect(VisitorName.unique("ada", among: []) == "ada")
        #expect(VisitorName.unique("ada", among: ["ada", "ada-2"]) == "ada-3")
        #expect(VisitorName.unique("ada", among: ["ada-2"]) == "ada")
    }
}

@Suite struct SessionInputTests {
    @Test func windowSizesAreClamped() {
        #expect(WindowSize(clampingColumns: 0, rows: 0) == .fallback)
        #expect(WindowSize(clampingColumns: 120, rows: 0) == .fallback)
        #expect(WindowSize(clampingColumns: 10000, rows: 10000) == WindowSize(columns: WindowSize.maxColumns, rows: WindowSize.maxRows))
        #expect(WindowSize(clampingColumns: 132, rows: 43) == WindowSize(columns: 132, rows: 43))
        #expect(WindowSize(clampingColumns: Int(UInt32.max), rows: 1) == WindowSize(columns: WindowSize.maxColumns, rows: 1))
    }

    @Test func onlyTheAllowedVariablesPass() {
        for name in ["LANG", "LC_ALL", "LC_CTYPE", "NO_COLOR", "TERM"] { #expect(ConsoleEnvironment.allowsVariable(name)) }
        for name in ["LD_PRELOAD", "PATH", "AUTHDECK_ADMIN_TOKEN", "HOME", "TERMINFO", "lang"] { #expect(!ConsoleEnvironment.allowsVariable(name)) }
        #expect(ConsoleEnvironment.acceptsValue("en_US.UTF-8"))
        #expect(!ConsoleEnvironment.acceptsValue("x\u{1b}]0;pwned\u{07}"))
        #expect(!ConsoleEnvironment.acceptsValue(String(repeating: "a", count: 65)))
        #expect(!ConsoleEnvironment.acceptsValue("$(reboot)"))
    }

    @Test func dotNamesAreNoTerminalDescription() {
        #expect(ConsoleEnvironment.knownTerminal("xterm"))
        for name in [".", "..", "...", "", "x/../xterm"] { #expect(!ConsoleEnvironment.knownTerminal(name)) }
        #expect(ConsoleEnvironment.clientVariables([:], term: "..")["TERM"] == "xterm-256color")
    }

    @Test func userNamesReachTheLogWithoutControlCharacters() {
        #expect(SessionLog.printable("eve\u{1b}[2J\nroot") == "eve?[2J?root")
    }
}

@Suite struct HostKeyTests {
    @Test func isCreatedOnceWithMode0600AndFingerprintedAsOpenSSHDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-hostkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ssh_host_ed25519_key")
        let first = try HostKey.loadOrCreate(at: url)
        let second = try HostKey.loadOrCreate(at: url)
        #expect(first.publicKey == second.publicKey)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // ssh-keygen -lf prints SHA256: and 43 characters of unpadded base64.
        #expect(first.fingerprint.hasPrefix("SHA256:") && first.fingerprint.count == 7 + 43 && !first.fingerprint.hasSuffix("="))
    }

    @Test func aDamagedKeyIsRefusedNotReplaced() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-hostkey-\(UUID().uuidString)")
        try Data("not a key\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: HostKeyError.self) { try HostKey.loadOrCreate(at: url) }
        #expect(try String(contentsOf: url, encoding: .utf8) == "not a key\n")
    }
}

@Suite struct ConnectionRegistryTests {
    func registry(sessions: Int = 2, perAddress: Int = 4, handshakes: Int = 3, handshakesPerAddress: Int = 2, reserve: Int = 0,
                  clock: @escaping @Sendable () -> NIODeadline = { .now() }) -> ConnectionRegistry {
        var limits = SSHLimits()
        limits.maxSessions = sessions
        limits.maxSessionsPerAddress = perAddress
        limits.maxHandshakes = handshakes
        limits.maxHandshakesPerAddress = handshakesPerAddress
        limits.operatorReserve = reserve
        return ConnectionRegistry(limits: limits, clock: clock)
    }

    /// Which handshakes the registry closed to make room.
    final class Closed: Sendable {
        let ids = Mutex<[String]>([])
        func closer(_ name: String) -> @Sendable () -> Void { { self.ids.withLock { $0.append(name) } } }
        var names: [String] { ids.withLock { $0 } }
    }

    @Test func handshakesHaveTheirOwnBoundsAndTakeNoSessionsPlace() throws {
        let registry = registry()
        let closed = Closed()
        let a1 = try #require(registry.admitHandshake(address: "a", close: closed.closer("a1")))
        let a2 = try #require(registry.admitHandshake(address: "a", close: closed.closer("a2")))
        #expect(registry.admitHandshake(address: "a", close: closed.closer("a3")) == nil)
        let b = try #require(registry.admitHandshake(address: "b", close: closed.closer("b")))
        // Three connections that never log in, and both sessions' places are still free.
        #expect(registry.claimSession(handshake: a1, address: "a", isOperator: false) == .admitted)
        #expect(registry.claimSession(handshake: b, address: "b", isOperator: false) == .admitted)
        // A handshake's place comes back as the connection logs in.
        #expect(registry.admitHandshake(address: "c", close: closed.closer("c")) != nil)
        #expect(registry.claimSession(handshake: a2, address: "a", isOperator: false) == .full)
        registry.sessionEnded(address: "b", isOperator: false)
        #expect(registry.claimSession(handshake: a2, address: "a", isOperator: false) == .admitted)
        #expect(closed.names.isEmpty)
    }

    @Test func aRefusedLoginStaysAHandshakeUntilItCloses() throws {
        let registry = registry(sessions: 5, perAddress: 1, handshakes: 5, handshakesPerAddress: 2)
        let first = try #require(registry.admitHandshake(address: "a") {})
        #expect(registry.claimSession(handshake: first, address: "a", isOperator: false) == .admitted)
        let second = try #require(registry.admitHandshake(address: "a") {})
        #expect(registry.claimSession(handshake: second, address: "a", isOperator: false) == .tooManyFromAddress)
        #expect(registry.admitHandshake(address: "a") {} != nil)
        #expect(registry.admitHandshake(address: "a") {} == nil)
        registry.handshakeEnded(second)
        #expect(registry.admitHandshake(address: "a") {} != nil)
        #expect(registry.openConnections == 3)
    }

    @Test func aFullPoolClosesTheLongestWaitingConnectionThatHasNotStartedToLogIn() throws {
        let now = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000_000))
        let registry = registry(handshakes: 3, handshakesPerAddress: 3, clock: { now.withLock { $0 } })
        let closed = Closed()
        let visitor = try #require(registry.admitHandshake(address: "v", close: closed.closer("visitor")))
        registry.handshakeLoggingIn(visitor)
        _ = try #require(registry.admitHandshake(address: "s1", close: closed.closer("s1")))
        _ = try #require(registry.admitHandshake(address: "s2", close: closed.closer("s2")))
        // However long the flood is renewed, the stalled ones make room for each other and the visitor stays.
        for round in 3..<300 {
            now.withLock { $0 = $0 + .seconds(2) }
            #expect(registry.admitHandshake(address: "s\(round)", close: closed.closer("s\(round)")) != nil)
        }
        #expect(closed.names == (1..<298).map { "s\($0)" })
        #expect(registry.claimSession(handshake: visitor, address: "v", isOperator: false) == .admitted)
        // With every one logging in, the one that has waited longest goes.
        let others = try (0..<3).map { index in try #require(registry.admitHandshake(address: "l\(index)", close: closed.closer("l\(index)"))) }
        for id in others { registry.handshakeLoggingIn(id) }
        #expect(registry.admitHandshake(address: "n", close: closed.closer("n")) != nil)
        #expect(closed.names.last == "l0")
        #expect(registry.openConnections == 4)
    }

    @Test func aStreamOfNewcomersCannotCloseAKeyExchangeAsSoonAsItStarts() throws {
        let now = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000_000))
        let registry = registry(handshakes: 4, handshakesPerAddress: 4, clock: { now.withLock { $0 } })
        let closed = Closed()
        // The flood holds the rest of the pool logging in (key exchange done, then silent)...
        for index in 0..<3 {
            registry.handshakeLoggingIn(try #require(registry.admitHandshake(address: "l\(index)", close: closed.closer("l\(index)"))))
        }
        now.withLock { $0 = $0 + .seconds(5) }
        let visitor = try #require(registry.admitHandshake(address: "v", close: closed.closer("visitor")))
        // ...and sends a new connection every 50 ms while the visitor's key exchange runs.
        for round in 0..<3 {
            now.withLock { $0 = $0 + .milliseconds(50) }
            #expect(registry.admitHandshake(address: "s\(round)", close: closed.closer("s\(round)")) != nil)
        }
        #expect(!closed.names.contains("visitor"))
        registry.handshakeLoggingIn(visitor)
        // Key exchanges that stall past their grace are the first to make room again.
        now.withLock { $0 = $0 + .seconds(3) }
        #expect(registry.admitHandshake(address: "n", close: closed.closer("n")) != nil)
        #expect(closed.names == ["l0", "l1", "l2", "s0"])
        #expect(registry.claimSession(handshake: visitor, address: "v", isOperator: false) == .admitted)
    }

    @Test func operatorsHaveAReserveAndNoPerAddressLimit() throws {
        let registry = registry(sessions: 2, perAddress: 1, handshakes: 10, handshakesPerAddress: 10, reserve: 2)
        func claim(_ address: String, operator isOperator: Bool) throws -> ConnectionRegistry.SessionAdmission {
            registry.claimSession(handshake: try #require(registry.admitHandshake(address: address) {}), address: address, isOperator: isOperator)
        }
        #expect(try claim("v1", operator: false) == .admitted)
        #expect(try claim("v2", operator: false) == .admitted)
        #expect(try claim("v3", operator: false) == .full)
        #expect(try claim("o", operator: true) == .admitted)
        #expect(try claim("o", operator: true) == .admitted)
        #expect(try claim("o", operator: true) == .full)
        // Operators count among the sessions: a visitor's place comes back once they are N in all again.
        registry.sessionEnded(address: "o", isOperator: true)
        registry.sessionEnded(address: "v1", isOperator: false)
        #expect(try claim("v3", operator: false) == .full)
        registry.sessionEnded(address: "o", isOperator: true)
        #expect(try claim("v3", operator: false) == .admitted)
    }

    @Test func anIPv6SlashSixtyFourIsOneAddress() throws {
        #expect(SourceAddress.of("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(SourceAddress.of("2001:0db8:0001:0002:ffff:1:2:3") == "2001:db8:1:2::/64")
        #expect(SourceAddress.of("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(SourceAddress.of("192.0.2.7") == "192.0.2.7")
        let registry = registry(sessions: 10, perAddress: 1, handshakes: 10, handshakesPerAddress: 2)
        #expect(registry.admitHandshake(address: "2001:db8:1:2::1") {} != nil)
        #expect(registry.admitHandshake(address: "2001:db8:1:2::2") {} != nil)
        #expect(registry.admitHandshake(address: "2001:db8:1:2:ffff:ffff:ffff:ffff") {} == nil)
        #expect(registry.admitHandshake(address: "2001:db8:1:3::1") {} != nil)
        let id = try #require(registry.admitHandshake(address: "2001:db8:9:9::1") {})
        #expect(registry.claimSession(handshake: id, address: "2001:db8:9:9::1", isOperator: false) == .admitted)
        let other = try #require(registry.admitHandshake(address: "2001:db8:9:9::2") {})
        #expect(registry.claimSession(handshake: other, address: "2001:db8:9:9::2", isOperator: false) == .tooManyFromAddress)
    }

    @Test func penaltiesRefuseOnlyTheOffendingSourceAndRunOut() {
        let now = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000_000))
        let registry = registry(handshakes: 10, handshakesPerAddress: 10, clock: { now.withLock { $0 } })
        // 5 s each, enforced beyond 15 s: three spent connections cost nothing yet, a fourth does.
        for _ in 0..<3 { registry.penalise(address: "10.0.0.1") }
        #expect(registry.admitHandshake(address: "10.0.0.1") {} != nil)
        registry.penalise(address: "10.0.0.1")
        #expect(registry.admitHandshake(address: "10.0.0.1") {} == nil)
        #expect(registry.admitHandshake(address: "10.0.0.2") {} != nil)
        // A /64 pays as one.
        for _ in 0..<4 { registry.penalise(address: "2001:db8::\(Int.random(in: 1...9))") }
        #expect(registry.admitHandshake(address: "2001:db8::ab") {} == nil)
        now.withLock { $0 = $0 + .seconds(6) }
        #expect(registry.admitHandshake(address: "10.0.0.1") {} != nil)
    }

    @Test func anExemptSourceIsNeverRefusedForItsFailedTries() {
        var limits = SSHLimits()
        limits.penalties.exempt(address: "192.0.2.7")
        limits.penalties.exempt(address: "2001:db8:1:2::1")
        let registry = ConnectionRegistry(limits: limits)
        for _ in 0..<20 {
            registry.penalise(address: "192.0.2.7")
            registry.penalise(address: "2001:db8:1:2:ffff::9")
        }
        #expect(registry.admitHandshake(address: "192.0.2.7") {} != nil)
        #expect(registry.admitHandshake(address: "::ffff:192.0.2.7") {} != nil)
        #expect(registry.admitHandshake(address: "2001:db8:1:2::3") {} != nil)
        #expect(SourcePenalties.isAddress("192.0.2.7") && SourcePenalties.isAddress("2001:db8::1"))
        #expect(!SourcePenalties.isAddress("room.example") && !SourcePenalties.isAddress("192.0.2.0/24"))
    }
}
