import Foundation

/// One backend call as the inspector shows it. Bodies are kept raw here and shortened
/// by `Redaction` before anything is displayed or logged.
public struct Exchange: Sendable, Identifiable {
    public let id = UUID()
    public let date: Date
    public let method: String
    public let path: String
    public let status: Int
    public let latency: TimeInterval
    public let requestBody: Data
    public let responseBody: Data
    /// The `Authorization` header the call carried, its credential already hidden (`Bearer •••(32)`).
    public let authorization: String?

    public init(date: Date, method: String, path: String, status: Int, latency: TimeInterval, requestBody: Data, responseBody: Data,
                authorization: String? = nil) {
        self.date = date
        self.method = method
        self.path = path
        self.status = status
        self.latency = latency
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.authorization = authorization
    }
}

/// The last exchanges, newest last; bounded so a long demo does not grow without limit.
public actor ExchangeLog {
    public private(set) var entries: [Exchange] = []
    private let capacity: Int
    private var observers: [UUID: @Sendable ([Exchange]) -> Void] = [:]

    public init(capacity: Int = 200) { self.capacity = capacity }

    public func record(_ exchange: Exchange) {
        entries.append(exchange)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        for observer in observers.values { observer(entries) }
    }

    /// Called with all entries after each new exchange, in recording order; the TUI uses it
    /// to refresh the inspector.
    public func observe(_ observer: @escaping @Sendable ([Exchange]) -> Void) {
        observers[UUID()] = observer
    }
}
