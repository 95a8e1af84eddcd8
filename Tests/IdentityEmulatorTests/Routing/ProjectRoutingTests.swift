import Crypto
import Foundation
@testable import IdentityEmulator
import Testing

@Suite struct ProjectRoutingTests {
    @Test func theProjectIsReadFromAnyPathThatNamesOne() {
        let cases: [(String, String?)] = [
            ("/identitytoolkit.googleapis.com/v1/projects/room-alpha/accounts:lookup", "room-alpha"),
            ("/identitytoolkit.googleapis.com/v1/projects/room-alpha:createSessionCookie", "room-alpha"),
            ("/emulator/v1/projects/room-alpha/oobCodes", "room-alpha"),
            ("/identitytoolkit.googleapis.com/v2/projects/room-alpha/config", "room-alpha"),
            ("/identitytoolkit.googleapis.com/v1/projects/", nil),
            ("/identitytoolkit.googleapis.com/v1/projects//accounts", nil),
            ("/identitytoolkit.googleapis.com/v1/accounts:signUp", nil),
            ("/projects", nil),
            ("", nil),
            ("/a/projectsx/b", nil),
        ]
        for (path, project) in cases {
            #expect(BackendProjects.projectNamed(in: Substring(path)) == project, "\(path)")
        }
    }

    @Test func projectIdsFollowFirebasesRule() {
        for valid in ["room-alpha", "authdeck-local", "a12345", String(repeating: "a", count: 30)] { #expect(ProjectId.isValid(valid), "\(valid)") }
        for invalid in ["", "abcde", "1abcdef", "Room-alpha", "room_alpha", "room-alpha-", "room alpha", "räume-alpha", "../../etc",
                        String(repeating: "a", count: 31)] {
            #expect(!ProjectId.isValid(invalid), "\(invalid)")
        }
    }

    @Test func aProjectKeyNamesItsProjectAndNothingElse() throws {
        let keys = ProjectAPIKeys(key: SymmetricKey(size: .bits256))
        let key = keys.apiKey(for: "room-alpha")
        #expect(key.hasPrefix("adk-room-alpha-"))
        #expect(try keys.project(of: key) == "room-alpha")
        #expect(try keys.project(of: "AIzaSyAnyOtherKey") == nil)
        let other = ProjectAPIKeys(key: SymmetricKey(size: .bits256))
        for forged in [other.apiKey(for: "room-alpha"), "adk-room-bravo-" + key.suffix(22), "adk-", String(key.dropLast()), key + "A"] {
            #expect(throws: BackendFailure.invalidAPIKey, "\(forged)") { try keys.project(of: forged) }
        }
    }
}
