import Foundation
import IdentityTestSupport
import IdentityToolkit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Answers every request with an empty object.
private struct EmptyAnswers: WireHandler {
    func handle(_ request: WireRequest) async -> WireResponse {
        WireResponse(status: 200, body: Data("{}".utf8))
    }
}

@Suite("authdeck serve: idle connections", .timeLimit(.minutes(1)))
struct IdleConnectionTests {
    /// A request whose body stops half-way is not kept open until the client gives up: once the
    /// connection has been idle for the timeout, it closes.
    @Test func aHalfSentRequestIsClosedOnceIdle() async throws {
        let closedAfter = try await withServedHandler(EmptyAnswers(), idleTimeout: .seconds(1)) { port in
            try await Task.detached { try Self.secondsUntilClosed(port: port, sending: """
                POST /identitytoolkit.googleapis.com/v1/accounts:lookup?key=k HTTP/1.1\r
                Host: 127.0.0.1\r
                Content-Type: application/json\r
                Content-Length: 50\r
                \r
                {"a":
                """) }.value
        }
        // Closed after about the timeout (the server checks once a timeout has passed since the last read).
        #expect(try #require(closedAfter) < 5)
    }

    /// Sends `text` on a new connection to `port`, then reads until the server closes it (nil when it
    /// has not within 20 s); the seconds it took.
    private static func secondsUntilClosed(port: Int, sending text: String) throws -> Double? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { _ = Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let start = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 { return Date().timeIntervalSince(start) }
            if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? nil : Date().timeIntervalSince(start) }
        }
    }
}
