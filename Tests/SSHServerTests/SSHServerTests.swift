import Crypto
import Foundation
import NIOSSH
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

    func decide(_ user: String, _ request: NIOSSHUserAuthenticationRequest.Request) -> UserAuthenticator.Decision? {
        UserAuthenticator.decide(username: user, request: request, visitorNames: ["demo"], operatorKeys: operators)
    }

    @Test func noneIsRefusedSoThatClientsOfferTheirKeys() {
        #expect(decide("demo", .none) == nil)
        #expect(decide("alice", .none) == nil)
        #expect(decide("root", .none) == nil)
        let visitorKey = NIOSSHPrivateKey(ed25519Key: Curve25519.Signing.PrivateKey()).publicKey
        #expect(decide("demo", .publicKey(.init(publicKey: visitorKey))) == .init(role: .visitor, keyFingerprint: KeyFingerprint.sha256(visitorKey)))
    }

    @Test func anOperatorKeyMakesAnOperatorUnderAnyOtherName() {
        let fingerprint = KeyFingerprint.sha256(operatorKey)
        #expect(decide("alice", .publicKey(.init(publicKey: operatorKey))) == .init(role: .operator, keyFingerprint: fingerprint))
        #expect(decide("alice", .publicKey(.init(publicKey: otherKey))) == nil)
        // The visitors' name stays a visitor's, even with an operator's key.
        #expect(decide("demo", .publicKey(.init(publicKey: operatorKey))) == .init(role: .visitor, keyFingerprint: fingerprint))
    }

    @Test func anyPasswordLetsAVisitorWithoutAKeyInAndNeverMakesAnOperator() {
        #expect(decide("demo", .password(.init(password: ""))) == .init(role: .visitor))
        #expect(decide("demo", .password(.init(password: "anything"))) == .init(role: .visitor))
        #expect(decide("alice", .password(.init(password: "x"))) == nil)
        #expect(decide("root", .password(.init(password: ""))) == nil)
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
    func registry(sessions: Int = 2, perAddress: Int = 4, handshakes: Int = 3, handshakesPerAddress: Int = 2) -> ConnectionRegistry {
        var limits = SSHLimits()
        limits.maxSessions = sessions
        limits.maxSessionsPerAddress = perAddress
        limits.maxHandshakes = handshakes
        limits.maxHandshakesPerAddress = handshakesPerAddress
        return ConnectionRegistry(limits: limits)
    }

    @Test func handshakesHaveTheirOwnBoundsAndTakeNoSessionsPlace() {
        let registry = registry()
        #expect(registry.admitHandshake(address: "a") && registry.admitHandshake(address: "a"))
        #expect(!registry.admitHandshake(address: "a"))
        #expect(registry.admitHandshake(address: "b"))
        #expect(!registry.admitHandshake(address: "c"))
        // Three connections that never log in, and both sessions' places are still free.
        #expect(registry.claimSession(address: "a") == .admitted)
        #expect(registry.claimSession(address: "b") == .admitted)
        // A handshake's place comes back as the connection logs in.
        #expect(registry.admitHandshake(address: "c"))
        #expect(registry.claimSession(address: "a") == .full)
        registry.sessionEnded(address: "b")
        #expect(registry.claimSession(address: "a") == .admitted)
    }

    @Test func aRefusedLoginStaysAHandshakeUntilItCloses() {
        let registry = registry(sessions: 5, perAddress: 1, handshakes: 2, handshakesPerAddress: 2)
        #expect(registry.admitHandshake(address: "a") && registry.claimSession(address: "a") == .admitted)
        #expect(registry.admitHandshake(address: "a") && registry.claimSession(address: "a") == .tooManyFromAddress)
        #expect(registry.admitHandshake(address: "a") && !registry.admitHandshake(address: "a"))
        registry.handshakeEnded(address: "a")
        #expect(registry.admitHandshake(address: "a"))
        #expect(registry.openConnections == 3)
    }
}
