import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket on loopback that accepts connections (the kernel does, from the backlog) and never answers.
private final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }

    /// Answers the first request with `response` as a web server that is no Identity Toolkit would.
    func answerOnce(_ response: String) {
        let fd = descriptor
        Thread.detachNewThread {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = read(client, &buffer, buffer.count)
            _ = Array(response.utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            _ = Glibc.close(client)
        }
    }
}

/// Runs `body`, then shuts the transport down even when `body` throws: a client left running traps
/// in its deinit (debug builds), which would end every other test in the process with it.
private func using(_ transport: HTTPTransport, _ body: (HTTPTransport) async throws -> Void) async throws {
    let outcome: Result<Void, any Error>
    do {
        try await body(transport)
        outcome = .success(())
    } catch {
        outcome = .failure(error)
    }
    try await transport.shutdown()
    try outcome.get()
}

@Suite("HTTP transport", .timeLimit(.minutes(3)))
struct HTTPTransportTests {
    @Test func urlsFollowTheEmulatorAndProductionSchemes() async throws {
        let loopbackV6 = try #require(EmulatorAddress("[::1]:9099"))
        let emulator = HTTPTransport(target: .emulator(EmulatorAddress(host: "localhost", port: 9099)), apiKey: "any")
        let production = HTTPTransport(target: .production, apiKey: "AIza+key&x=1")
        #expect(emulator.url(for: SignUpRequest.endpoint) == "http://localhost:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any")
        #expect(emulator.url(for: SecureTokenRequest.endpoint) == "http://localhost:9099/securetoken.googleapis.com/v1/token?key=any")
        #expect(production.url(for: SignUpRequest.endpoint) == "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=AIza%2Bkey%26x%3D1")
        #expect(production.url(for: .v2("accounts/mfaSignIn:start")) == "https://identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start?key=AIza%2Bkey%26x%3D1")
        #expect(production.url(for: SecureTokenRequest.endpoint) == "https://securetoken.googleapis.com/v1/token?key=AIza%2Bkey%26x%3D1")
        #expect(HTTPBackendTarget.production.recordedPath(for: SignUpRequest.endpoint) == "https://identitytoolkit.googleapis.com/v1/accounts:signUp")
        let ipv6 = HTTPTransport(target: .emulator(loopbackV6), apiKey: "k")
        #expect(ipv6.url(for: SignUpRequest.endpoint).hasPrefix("http://[::1]:9099/identitytoolkit.googleapis.com/"))
        for transport in [emulator, production, ipv6] { try await transport.shutdown() }
    }

    @Test func emulatorAddressesAreHostColonPort() {
        #expect(EmulatorAddress("localhost:9099") == EmulatorAddress(host: "localhost", port: 9099))
        #expect(EmulatorAddress("127.0.0.1:1") == EmulatorAddress(host: "127.0.0.1", port: 1))
        #expect(EmulatorAddress("[::1]:9099") == EmulatorAddress(host: "::1", port: 9099))
        for bad in ["localhost", "http://localhost:9099", "localhost:0", "localhost:65536", ":9099", "::1:9099", "host:port", "a b:1", ""] {
            #expect(EmulatorAddress(bad) == nil, "\(bad)")
        }
    }

    @Test func serverErrorsDecodeAsInProcess() async throws {
        for transport in BackendTransport.allCases {
            try await withTestBackend(transport) { served in
                let backend = served.makeTransport()
                _ = try await backend.call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
                await #expect(throws: IdentityToolkitError.server(status: 400, message: "EMAIL_EXISTS")) {
                    _ = try await backend.call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
                }
                await #expect(throws: IdentityToolkitError.server(status: 400, message: "WEAK_PASSWORD : Password should be at least 6 characters")) {
                    _ = try await backend.call(SignUpRequest(email: "bob@example.com", password: "12345"))
                }
            }
        }
    }

    @Test func everyExchangeIsRecordedWithItsBodies() async throws {
        try await withTestBackend(.http) { served in
            let backend = served.makeTransport()
            _ = try await backend.call(SignUpRequest(email: "ada@example.com", password: "hunter22"))
            _ = try? await backend.call(SignInWithPasswordRequest(email: "ada@example.com", password: "wrong!!"))
            let entries = await backend.exchanges.entries
            #expect(entries.map(\.method) == ["POST", "POST"])
            #expect(entries.map(\.path) == [SignUpRequest.endpoint.emulatorPath, SignInWithPasswordRequest.endpoint.emulatorPath])
            #expect(entries.map(\.status) == [200, 400])
            #expect(entries.allSatisfy { $0.latency > 0 })
            #expect(String(decoding: entries[0].requestBody, as: UTF8.self).contains("hunter22"))
            #expect(!Redaction.redactJSON(entries[0].requestBody).contains("hunter22"))
            #expect(String(decoding: entries[1].responseBody, as: UTF8.self).contains("INVALID_LOGIN_CREDENTIALS"))
        }
    }

    // The message names the refusal, not a timeout: a refused connection is reported as such
    // rather than retried until the connect timeout. No wall-clock bound: the machine may be loaded.
    @Test func aRefusedConnectionIsANetworkErrorNamingTheRefusal() async throws {
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        try await using(HTTPTransport(target: .emulator(EmulatorAddress(host: "127.0.0.1", port: port)), apiKey: "k")) { transport in
            do {
                _ = try await transport.call(SignUpRequest())
                Issue.record("expected a network error")
            } catch let IdentityToolkitError.network(message) {
                #expect(message == "the emulator at 127.0.0.1:\(port) refused the connection (is it running?)")
            }
            let entry = try #require(await transport.exchanges.entries.first)
            #expect(entry.status == 0)
            #expect(String(decoding: entry.responseBody, as: UTF8.self).contains("refused the connection"))
        }
    }

    /// A 404 page (or nothing) where the API should be is told as what came instead, not as an empty detail or as
    /// raw HTML cut mid-character.
    @Test func anAnswerThatIsNotTheAPIsSaysWhatCameInstead() async throws {
        let page = "<html><head><title>404 Not Found</title></head><body><h1>Página não encontrada</h1>"
            + String(repeating: "<p>Nenhuma página aqui — nada.</p>", count: 8) + "</body></html>"
        for (body, shown) in [(page, "\"404 Not Found Página não encontrada" + String(repeating: " Nenhuma página aqui — nada.", count: 3) + "…\""),
                              ("", "an empty body")] {
            let server = try SilentListener()
            defer { server.close() }
            server.answerOnce("HTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            try await using(HTTPTransport(target: .emulator(EmulatorAddress(host: "127.0.0.1", port: server.port)), apiKey: "k")) { transport in
                await #expect(throws: IdentityToolkitError.server(status: 404, message: "HTTP_404 : The server answered HTTP 404 with \(shown), not an Identity Toolkit error. "
                    + "Is this address an Auth Emulator or Identity Toolkit? Check the host, port and project.")) {
                    _ = try await transport.call(SignUpRequest())
                }
            }
        }
    }

    // The client is made at the first call; a transport shut down before one makes none, and a call
    // after the shutdown fails as a network error rather than starting a client nobody shuts down.
    @Test func aCallAfterShutdownIsANetworkError() async throws {
        let transport = HTTPTransport(target: .emulator(EmulatorAddress(host: "127.0.0.1", port: 9)), apiKey: "k")
        try await transport.shutdown()
        await #expect(throws: IdentityToolkitError.self) { _ = try await transport.call(SignUpRequest()) }
        let entry = try #require(await transport.exchanges.entries.first)
        #expect(entry.status == 0)
        try await transport.shutdown()
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let transport = HTTPTransport(target: .emulator(EmulatorAddress(host: "127.0.0.1", port: silent.port)), apiKey: "k",
                                      connectTimeout: .seconds(1), requestTimeout: .milliseconds(600))
        await #expect(throws: IdentityToolkitError.network("no answer from the emulator at 127.0.0.1:\(silent.port) within 0.6 seconds")) {
            _ = try await transport.call(SignUpRequest())
        }
        try await transport.shutdown()
        await #expect(throws: IdentityToolkitError.network("the connection to the emulator at 127.0.0.1:\(silent.port) was shut down")) {
            _ = try await transport.call(SignUpRequest())
        }
    }
}
