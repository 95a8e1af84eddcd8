import Foundation
import IdentityToolkit

/// One call to the backend as a developer inspects it: secrets already shortened, the ID token
/// of the answer decoded. The client records every call its backend makes (`Auth.observeExchanges`).
public struct BackendExchange: Equatable, Sendable {
    public var date: Date
    public var method: String
    public var path: String
    public var status: Int
    public var latencyMilliseconds: Int
    public var request: String
    public var response: String
    /// The `Authorization` header, its credential hidden; only calls to the emulator's administrator endpoints carry one.
    public var authorization: String?
    /// Claims of the ID token the response carried, if any.
    public var idTokenClaims: [String: JSONValue]?
    /// Made by the console's own periodic work, not by anything the user did.
    public var isBackground: Bool
    /// How many background calls in a row with the same answer this entry stands for.
    public var repeats: Int

    /// Shortens the secrets in both bodies and decodes the answer's ID token.
    public init(date: Date, method: String, path: String, status: Int, latency: TimeInterval, requestBody: Data, responseBody: Data,
                authorization: String? = nil, isBackground: Bool = false, repeats: Int = 1) {
        self.date = date
        self.method = method
        self.path = path
        self.status = status
        latencyMilliseconds = Int((latency * 1000).rounded())
        request = Redaction.redactJSON(requestBody)
        response = Redaction.redactJSON(responseBody)
        self.authorization = authorization
        self.isBackground = isBackground
        self.repeats = repeats
        idTokenClaims = Self.idToken(in: responseBody).flatMap(UnverifiedJWT.claims(of:))
    }

    init(_ exchange: Exchange) {
        self.init(date: exchange.date, method: exchange.method, path: exchange.path, status: exchange.status, latency: exchange.latency,
                  requestBody: exchange.requestBody, responseBody: exchange.responseBody, authorization: exchange.authorization,
                  isBackground: exchange.isBackground, repeats: exchange.repeats)
    }

    /// The call never got an HTTP answer (the transport records status 0 then).
    public var isFailure: Bool { status == 0 }

    static func idToken(in body: Data) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: body) else { return nil }
        return (object["idToken"] ?? object["id_token"])?.stringValue
    }
}

extension Auth {
    /// Calls `observer` with the backend's recent exchanges (oldest first) after each new one.
    public nonisolated func observeExchanges(_ observer: @escaping @Sendable ([BackendExchange]) -> Void) async {
        await backend.exchanges.observe { entries in observer(entries.map(BackendExchange.init)) }
    }

    /// Another client on the same backend that persists nothing and shares no session: it can
    /// look at an account (a link conflict's other one) while this one's session stays as it is.
    public nonisolated func sessionless() -> Auth {
        Auth(backend: backend, tenantID: tenantID)
    }

    /// The simulated providers of this client's backend. On a shared backend the people added with
    /// `ownerSecret` are that caller's alone.
    public nonisolated func simulatedIdentityProviders(ownerSecret: String? = nil) -> SimulatedIdentityProviders {
        SimulatedIdentityProviders(backend: backend, ownerSecret: ownerSecret)
    }
}
