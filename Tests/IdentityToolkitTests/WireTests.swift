import Foundation
@testable import IdentityToolkit
import Testing

@Suite("Wire format, errors and redaction")
struct WireTests {
    @Test func serverMessagesSplitAtTheFirstColon() {
        let error = IdentityToolkitError.server(status: 400, message: "WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(error.serverCode == "WEAK_PASSWORD")
        #expect(error.serverDetail == "Password should be at least 6 characters")
        #expect(IdentityToolkitError.server(status: 400, message: "EMAIL_EXISTS").serverDetail == nil)
    }

    @Test func errorBodiesHaveGooglesShapeAndDecodeBack() throws {
        let body = WireCoding.errorBody(status: 400, message: "EMAIL_EXISTS")
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? Int == 400)
        #expect(error["message"] as? String == "EMAIL_EXISTS")
        #expect((error["errors"] as? [[String: Any]])?.first?["reason"] as? String == "invalid")
        #expect(throws: IdentityToolkitError.server(status: 400, message: "EMAIL_EXISTS")) {
            try WireCoding.decode(SignUpResponse.self, from: WireResponse(status: 400, body: body))
        }
        let notFound = try JSONSerialization.jsonObject(with: WireCoding.errorBody(status: 404, message: "NOT_FOUND")) as? [String: Any]
        #expect((notFound?["error"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
    }

    @Test func aGarbledSuccessIsAMalformedResponse() {
        #expect(throws: IdentityToolkitError.self) {
            try WireCoding.decode(SignUpResponse.self, from: WireResponse(status: 200, body: Data("<html>".utf8)))
        }
    }

    @Test func requestsEncodeWithTheRESTFieldNamesAndOmitNils() throws {
        let json = try String(decoding: WireCoding.encoder().encode(AccountsUpdateRequest(idToken: "t", deleteProvider: ["password"], returnSecureToken: nil)), as: UTF8.self)
        #expect(json == #"{"deleteProvider":["password"],"idToken":"t"}"#)
        #expect(SignUpRequest.endpoint.emulatorPath == "/identitytoolkit.googleapis.com/v1/accounts:signUp")
        #expect(SecureTokenRequest.endpoint.emulatorPath == "/securetoken.googleapis.com/v1/token")
        let token = try WireCoding.encoder().encode(SecureTokenRequest(refreshToken: "r"))
        #expect(String(decoding: token, as: UTF8.self) == #"{"grantType":"refresh_token","refreshToken":"r"}"#)
    }

    @Test func secureTokenResponsesUseSnakeCase() throws {
        let json = #"{"access_token":"a","id_token":"a","refresh_token":"r","expires_in":"3600","token_type":"Bearer","user_id":"u","project_id":"12345"}"#
        let response = try JSONDecoder().decode(SecureTokenResponse.self, from: Data(json.utf8))
        #expect(response.idToken == "a" && response.expiresIn == "3600" && response.userId == "u")
    }

    @Test func secretsAreShortenedEverywhereInABody() {
        let body = #"{"email":"ada@example.com","password":"hunter22","idToken":"eyJhbGciOiJSUzI1NiJ9.payload.signature","nested":[{"refreshToken":"AMf-vBxyz0123456789"}]}"#
        let redacted = Redaction.redactJSON(Data(body.utf8))
        #expect(redacted.contains("ada@example.com"))
        #expect(!redacted.contains("hunter22"))
        #expect(redacted.contains("•••(8)"))
        #expect(!redacted.contains("payload.signature"))
        #expect(redacted.contains("eyJhbGciOi…(38)"))
        #expect(!redacted.contains("AMf-vBxyz0123456789"))
        #expect(Redaction.redactJSON(Data("not json at all".utf8)).count < 60)
    }

    @Test func jwtPayloadsDecodeWithoutPadding() throws {
        let payload = Data(#"{"sub":"u1","iat":1790000000,"firebase":{"sign_in_provider":"anonymous"}}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let claims = try #require(UnverifiedJWT.claims(of: "eyJhbGciOiJub25lIn0.\(payload)."))
        #expect(claims["sub"] == .string("u1"))
        #expect(claims["firebase"]?["sign_in_provider"] == .string("anonymous"))
        #expect(claims["iat"]?.numberValue == 1_790_000_000)
        #expect(UnverifiedJWT.claims(of: "garbage") == nil)
        #expect(JSONValue.object(["b": .number(2), "a": .bool(true)]).compactText == #"{"a":true,"b":2}"#)
    }
}
