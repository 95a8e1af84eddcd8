import Foundation
import Hummingbird

/// A bare JSON handler shaped like `accounts:lookup`: decode a body with an `idToken`, answer
/// one user. What AuthDeck's lookup costs beyond this is its own work.
struct LookupBody: Decodable {
    var idToken: String
}

struct LookupAnswer: ResponseEncodable {
    struct User: Codable {
        var localId: String
        var email: String
        var emailVerified: Bool
        var createdAt: String
        var lastLoginAt: String
    }
    var kind = "identitytoolkit#GetAccountInfoResponse"
    var users: [User]
}

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
let router = Router()
router.post("lookup") { request, context -> LookupAnswer in
    let body = try await request.decode(as: LookupBody.self, context: context)
    let user = LookupAnswer.User(localId: String(body.idToken.prefix(28)), email: "user@example.com", emailVerified: false,
                                 createdAt: "1700000000000", lastLoginAt: "1700000000000")
    return LookupAnswer(users: [user])
}
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        // Unbuffered: the benchmark reads this line through a pipe.
        FileHandle.standardOutput.write(Data("listening on \(channel.localAddress?.port ?? 0)\n".utf8))
    })
try await app.runService()
