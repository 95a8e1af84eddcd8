import Foundation
import IdentityToolkit
import Testing
@testable import IdentityEmulator

@Suite struct AccountImportTests {
    private func importRows(_ harness: Harness, localId: String) throws -> Int {
        try harness.backend.store.read { try ImportedPasswordHashRecord.fetchOne($0, key: localId) } == nil ? 0 : 1
    }

    @Test func scryptHashesFromAnotherProjectSignInAndAreReHashedOnce() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let vector = ScryptReadmeVector.self
        let result = try await harness.adminCall("/accounts:batchCreate", vector.hashOptions.merging(["users": [
            ["localId": "scrypt-readme", "email": "user1@example.com", "emailVerified": true,
             "passwordHash": vector.webSafe(vector.passwordHash), "salt": vector.webSafe(vector.salt),
             "customAttributes": #"{"plan":"gold"}"#, "createdAt": "1600000000000", "lastLoginAt": 1_650_000_000_000],
        ]]) { $1 }, as: UploadAccountResponse.self)
        #expect(result.error == [])
        let imported = try #require(try await harness.adminLookup(["localId": ["scrypt-readme"]]).first)
        #expect(imported.passwordHash == vector.webSafe(vector.passwordHash).replacingOccurrences(of: "=", with: ""))
        #expect(imported.createdAt == "1600000000000")
        #expect(imported.lastLoginAt == "1650000000000")
        #expect(imported.providerUserInfo?.map(\.providerId) == ["password"])
        #expect(try importRows(harness, localId: "scrypt-readme") == 1)
        let importedAt = Int64(harness.clock.now.timeIntervalSince1970 * 1000)
        harness.clock.advance(60)

        // A wrong password is refused and changes nothing.
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("user1@example.com", "user2password") }
        #expect(try harness.stored("scrypt-readme")?.passwordHash?.base64EncodedString() == vector.passwordHash)

        let signedIn = try await harness.signIn("user1@example.com", vector.password)
        #expect(signedIn.localId == "scrypt-readme")
        #expect(claims(of: signedIn.idToken)["plan"] as? String == "gold")
        let rehashed = try #require(try harness.stored("scrypt-readme"))
        let newHash = try #require(rehashed.passwordHash)
        #expect(newHash.base64EncodedString() != vector.passwordHash)
        #expect(try await harness.backend.store.scrypt.hash(password: vector.password, salt: try #require(rehashed.salt)) == newHash)
        #expect(try importRows(harness, localId: "scrypt-readme") == 0)
        // Re-hashing is not a password change: sessions and passwordUpdatedAt stay.
        #expect(rehashed.passwordUpdatedAt == importedAt)
        _ = try await harness.refresh(signedIn.refreshToken)
        #expect(try await harness.signIn("user1@example.com", vector.password).localId == "scrypt-readme")
        #expect(try harness.stored("scrypt-readme")?.passwordHash == newHash)
    }

    @Test func eachBatchUsesItsOwnHashParameters() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let key = Data((0..<64).map { UInt8($0 * 3 % 251) })
        let separator = Data([0x01, 0x02])
        let salt = Data("pepper-salt".utf8)
        let hash = try ModifiedScrypt.hash(password: "other-project-pw", salt: salt, saltSeparator: separator, signerKey: key, rounds: 4, memCost: 10)
        let options: [String: Any] = ["hashAlgorithm": "SCRYPT", "signerKey": key.base64URLEncodedString(),
                                      "saltSeparator": separator.base64URLEncodedString(), "rounds": 4, "memoryCost": 10]
        _ = try await harness.adminCall("/accounts:batchCreate", options.merging(["users": [
            ["localId": "other-params", "email": "kai@example.com", "passwordHash": hash.base64URLEncodedString(),
             "salt": salt.base64URLEncodedString()],
        ]]) { $1 }, as: UploadAccountResponse.self)
        // The README's parameters do not fit this hash.
        let vector = ScryptReadmeVector.self
        _ = try await harness.adminCall("/accounts:batchCreate", vector.hashOptions.merging(["users": [
            ["localId": "wrong-params", "email": "lou@example.com", "passwordHash": hash.base64URLEncodedString(),
             "salt": salt.base64URLEncodedString()],
        ]]) { $1 }, as: UploadAccountResponse.self)

        #expect(try await harness.signIn("kai@example.com", "other-project-pw").localId == "other-params")
        #expect(try importRows(harness, localId: "other-params") == 0)
        await #expect(throws: server("INVALID_LOGIN_CREDENTIALS")) { try await harness.signIn("lou@example.com", "other-project-pw") }
        #expect(try importRows(harness, localId: "wrong-params") == 1)
    }

    @Test func hashesMadeWithThisProjectsParametersNeedNoReHash() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let own = harness.backend.store.scrypt
        let salt = Data("own-salt".utf8)
        let hash = try await own.hash(password: "round-trip-1", salt: salt)
        _ = try await harness.adminCall("/accounts:batchCreate", [
            "hashAlgorithm": "SCRYPT", "signerKey": own.signerKey.base64URLEncodedString(),
            "saltSeparator": own.saltSeparator.base64URLEncodedString(), "rounds": own.rounds, "memoryCost": own.memCost,
            "users": [["localId": "own", "email": "mia@example.com", "passwordHash": hash.base64URLEncodedString(),
                       "salt": salt.base64URLEncodedString()]],
        ], as: UploadAccountResponse.self)
        #expect(try importRows(harness, localId: "own") == 0)
        _ = try await harness.signIn("mia@example.com", "round-trip-1")
        #expect(try harness.stored("own")?.passwordHash == hash)
    }

    @Test func problemsWithOneUserAreReportedByIndexAndTheRestIsImported() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        _ = try await harness.signUp("taken@example.com")
        _ = try await harness.adminCall("/accounts", ["localId": "existing"], as: SignUpResponse.self)
        let users: [[String: Any]] = [
            ["localId": "ok-1", "email": "ned@example.com", "displayName": "Ned", "phoneNumber": "+15555550110", "disabled": true,
             "providerUserInfo": [["providerId": "github.com", "rawId": "gh-1", "displayName": "ned"], ["providerId": "password", "rawId": "x"]]],
            ["email": "no-id@example.com"],
            ["localId": "bad-email", "email": "nope"],
            ["localId": "existing"],
            ["localId": "reserved", "customAttributes": #"{"sub":"x"}"#],
            ["localId": "large", "customAttributes": "{\"a\":\"" + String(repeating: "y", count: 1000) + "\"}"],
            ["localId": "dup-email", "email": "TAKEN@example.com"],
            ["localId": "bad-phone", "phoneNumber": "12345"],
            ["localId": "factor", "mfaInfo": [["phoneInfo": "+15555550111"]]],
            ["localId": "dup-raw", "providerUserInfo": [["providerId": "github.com", "rawId": "gh-1"]]],
            ["localId": "no-raw", "providerUserInfo": [["providerId": "github.com"]]],
            ["localId": "ok-2"],
        ]
        let result = try await harness.adminCall("/accounts:batchCreate", ["users": users], as: UploadAccountResponse.self)
        let errors = try #require(result.error)
        #expect(errors.map(\.index) == Array(1...10))
        #expect(errors.map(\.message) == [
            "localId is missing", "email is invalid", "localId belongs to an existing account - can not overwrite.",
            "Custom claims provided include a reserved claim.", "Custom claims provided are too large.",
            "email exists in other account in database", "phone number format is invalid",
            "Second factor account requires email to be presented.",
            "raw id exists in other account in database", "federatedId or (providerId & rawId) is required",
        ])
        let imported = try await harness.adminLookup(["localId": ["ok-1", "ok-2", "bad-email", "reserved", "dup-raw"]])
        #expect(imported.map(\.localId) == ["ok-1", "ok-2"])
        let ned = try #require(imported.first)
        #expect(ned.disabled == true)
        #expect(ned.phoneNumber == "+15555550110")
        #expect(ned.providerUserInfo?.map(\.providerId) == ["github.com", "phone"])
        #expect(ned.passwordHash == nil)
    }

    @Test func aUserLinkedTwiceToOneProviderIsRefusedAloneNotTheBatch() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let result = try await harness.adminCall("/accounts:batchCreate", ["users": [
            ["localId": "twice", "providerUserInfo": [["providerId": "google.com", "rawId": "g-1"], ["providerId": "google.com", "rawId": "g-2"]]],
            ["localId": "once", "providerUserInfo": [["providerId": "google.com", "rawId": "g-2"]]],
        ]], as: UploadAccountResponse.self)
        #expect(result.error == [BatchAccountError(index: 0, message: "((google.com is linked more than once))")])
        let imported = try await harness.adminLookup(["localId": ["twice", "once"]])
        #expect(imported.map(\.localId) == ["once"])
        #expect(imported.first?.providerUserInfo?.map(\.rawId) == ["g-2"])
    }

    @Test func problemsWithTheRequestRefuseItWhole() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let path = harness.projectPath + "/accounts:batchCreate"
        let hashed: [String: Any] = ["localId": "h", "passwordHash": "aGFzaA", "salt": "c2FsdA"]
        var options = ScryptReadmeVector.hashOptions
        #expect(errorMessage(try await harness.send("POST", path, ["users": [[String: Any]]()])) == "MISSING_USER_ACCOUNT")
        #expect(errorMessage(try await harness.send("POST", path, ["users": [["localId": "a"], ["localId": "a"]]])) == "DUPLICATE_LOCAL_ID : a")
        #expect(errorMessage(try await harness.send("POST", path, ["users": [hashed]]))?.hasPrefix("INVALID_ARGUMENT") == true)
        #expect(errorMessage(try await harness.send("POST", path, ["users": [hashed], "hashAlgorithm": "BCRYPT"]))
            == "INVALID_HASH_ALGORITHM : ((AuthDeck imports Firebase SCRYPT password hashes only, not BCRYPT))")
        options["rounds"] = 9
        #expect(errorMessage(try await harness.send("POST", path, options.merging(["users": [hashed]]) { $1 }))?.hasPrefix("INVALID_ARGUMENT") == true)
        options["rounds"] = 8
        options["signerKey"] = nil
        #expect(errorMessage(try await harness.send("POST", path, options.merging(["users": [hashed]]) { $1 }))?.hasPrefix("INVALID_ARGUMENT") == true)
        #expect(errorMessage(try await harness.send("POST", path, ["users": (0...1000).map { ["localId": "u\($0)"] }]))?
            .hasPrefix("INVALID_ARGUMENT") == true)
        #expect(try await harness.adminLookup(["localId": ["a", "h", "u0"]]).isEmpty)
        // Users without passwords need no hash algorithm.
        #expect(try await harness.adminCall("/accounts:batchCreate", ["users": [["localId": "plain"]]], as: UploadAccountResponse.self).error == [])
    }

    @Test func allowOverwriteReplacesAnExistingUser() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let signedUp = try await harness.adminCall("/accounts", ["localId": "over", "email": "oli@example.com", "password": "secret-1"],
                                                   as: SignUpResponse.self)
        let session = try await harness.signIn("oli@example.com")
        let result = try await harness.adminCall("/accounts:batchCreate", [
            "allowOverwrite": true, "users": [["localId": signedUp.localId, "email": "oli.new@example.com", "displayName": "Oli"]],
        ], as: UploadAccountResponse.self)
        #expect(result.error == [])
        let user = try #require(try await harness.adminLookup(["localId": ["over"]]).first)
        #expect(user.email == "oli.new@example.com")
        #expect(user.passwordHash == nil)
        await #expect(throws: server("TOKEN_EXPIRED")) { try await harness.refresh(session.refreshToken) }
    }
}
