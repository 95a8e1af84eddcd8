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
        #expect(try keys.scope(of: key) == ProjectAPIKeys.Scope(projectId: "room-alpha"))
        #expect(try keys.scope(of: "AIzaSyAnyOtherKey") == nil)
        let other = ProjectAPIKeys(key: SymmetricKey(size: .bits256))
        for forged in [other.apiKey(for: "room-alpha"), "adk-room-bravo-" + key.suffix(22), "adk-", String(key.dropLast()), key + "A"] {
            #expect(throws: BackendFailure.invalidAPIKey, "\(forged)") { try keys.scope(of: forged) }
        }
    }

    @Test func aTenantKeyNamesItsProjectAndTenantAndNothingElse() throws {
        let keys = ProjectAPIKeys(key: SymmetricKey(size: .bits256))
        let key = keys.apiKey(for: "room-alpha", tenant: "Visitor-7")
        #expect(key.hasPrefix("adk-room-alpha.Visitor-7-"))
        #expect(try keys.scope(of: key) == ProjectAPIKeys.Scope(projectId: "room-alpha", tenantId: "Visitor-7"))
        let mac = String(key.suffix(22))
        let projectMac = String(keys.apiKey(for: "room-alpha").suffix(22))
        let otherSecret = ProjectAPIKeys(key: SymmetricKey(size: .bits256)).apiKey(for: "room-alpha", tenant: "Visitor-7")
        let altered: [String] = ["adk-room-alpha.Visitor-8-", "adk-room-bravo.Visitor-7-", "adk-room-alpha-", "adk-room-alpha.-",
                                 "adk-.Visitor-7-", "adk-room-alpha.Visitor.7-", "adk-room-alpha.Visitor_7-"].map { $0 + mac }
        for forged in altered + ["adk-room-alpha.Visitor-7-" + projectMac, otherSecret] {
            #expect(throws: BackendFailure.invalidAPIKey, "\(forged)") { try keys.scope(of: forged) }
        }
    }
}
