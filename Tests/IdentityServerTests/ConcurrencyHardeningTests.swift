import Foundation
import IdentityEmulator
import IdentityTestSupport
import IdentityToolkit
import Testing

/// Concurrent clients over HTTP: lock-out counting that cannot be outrun, no 5xx when a sign-in races
/// the account's deletion, and two backends (two serves, a console beside a serve) on one directory.
@Suite("authdeck serve: concurrent clients", .timeLimit(.minutes(5)))
struct ConcurrencyHardeningTests {
    private static func statuses(_ count: Int, _ call: @escaping @Sendable () async throws -> Void) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        try await call()
                        return "OK"
                    } catch let IdentityToolkitError.server(status, message) {
                        return status >= 500 ? "\(status) \(message)" : String(message.prefix { $0 != " " })
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    // Sixteen, not more: every guess costs one scrypt (locked or not), and on a loaded 2-core machine
    // forty-eight of them queued past the client's connection-pool timeout.
    @Test func sixteenParallelGuessesCheckExactlyFiveAndAnUnknownEmailAnswersAlike() async throws {
        try await withTestBackend(.http) { served in
            let transport = served.makeTransport()
            _ = try await transport.call(SignUpRequest(email: "victim@example.com", password: "secret-1"))
            for email in ["victim@example.com", "nobody@example.com"] {
                let answers = await Self.statuses(16) {
                    _ = try await transport.call(SignInWithPasswordRequest(email: email, password: "wrong-guess"))
                }
                #expect(answers.filter { $0 == "INVALID_LOGIN_CREDENTIALS" }.count == 5, "\(email)")
                #expect(answers.filter { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }.count == 11, "\(email)")
                let correct = await Self.statuses(1) {
                    _ = try await transport.call(SignInWithPasswordRequest(email: email, password: "secret-1"))
                }
                #expect(correct == ["TOO_MANY_ATTEMPTS_TRY_LATER"], "\(email)")
            }
        }
    }

    @Test func aWrongPasswordRacingTheAccountsDeletionIsNeverA5xx() async throws {
        try await withTestBackend(.http) { served in
            let transport = served.makeTransport()
            var answers: [String] = []
            for round in 0..<12 {
                let email = "racer\(round)@example.com"
                let account = try await transport.call(SignUpRequest(email: email, password: "secret-1"))
                async let guesses = Self.statuses(3) {
                    _ = try await transport.call(SignInWithPasswordRequest(email: email, password: "wrong-guess"))
                }
                async let deletion = Self.statuses(1) { _ = try await transport.call(AccountsDeleteRequest(idToken: account.idToken)) }
                answers += await guesses + deletion
            }
            #expect(answers.filter { $0.hasPrefix("5") } == [])
            #expect(Set(answers).isSubset(of: ["OK", "INVALID_LOGIN_CREDENTIALS"]), "\(Set(answers))")
        }
    }

    @Test func twoBackendsOnOneDirectoryServeEveryWrite() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-two-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await withTestBackend(.http, directory: root) { first in
            let one = first.makeTransport()
            async let firstLoad = Self.statuses(20) {
                _ = try await one.call(SignUpRequest(email: "one-\(UUID().uuidString)@example.com", password: "secret-1"))
            }
            // The second opens its database while the first is writing.
            let secondLoad = try await withTestBackend(.http, directory: root) { second in
                let two = second.makeTransport()
                return await Self.statuses(20) {
                    _ = try await two.call(SignUpRequest(email: "two-\(UUID().uuidString)@example.com", password: "secret-1"))
                }
            }
            let answers = await firstLoad + secondLoad
            #expect(answers.filter { $0 != "OK" } == [])
        }
    }
}
