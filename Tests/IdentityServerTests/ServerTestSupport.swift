import AsyncHTTPClient
import Foundation
import IdentityTestSupport
import IdentityToolkit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One raw HTTP exchange with a served backend, for what a typed transport would never send.
struct RawAnswer {
    let status: Int
    let contentType: String?
    let body: Data

    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    var errorMessage: String? { (json?["error"] as? [String: Any])?["message"] as? String }
    var errorCode: Int? { (json?["error"] as? [String: Any])?["code"] as? Int }
}

extension TestBackend {
    var baseURL: String { "http://\(emulatorAddress!.authority)" }

    func raw(_ method: HTTPMethod = .POST, _ path: String, body: Data? = nil,
             headers: [String: String] = ["Content-Type": "application/json"]) async throws -> RawAnswer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return RawAnswer(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"),
                         body: Data(buffer: bytes))
    }

    func raw(_ method: HTTPMethod = .POST, _ path: String, json: String, headers: [String: String] = ["Content-Type": "application/json"]) async throws -> RawAnswer {
        try await raw(method, path, body: Data(json.utf8), headers: headers)
    }
}

extension Endpoint {
    /// The emulator path with an API key, as an SDK would call it.
    var withKey: String { emulatorPath + "?key=test-key" }
}
