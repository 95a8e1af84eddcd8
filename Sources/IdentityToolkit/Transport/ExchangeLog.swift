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
    /// Made by work nobody asked for (the console's periodic reload), under `ExchangeLog.$background`.
    public let isBackground: Bool
    /// How many background calls in a row this one stands for: each gave the same answer as the one before.
    public internal(set) var repeats = 1

    public init(date: Date, method: String, path: String, status: Int, latency: TimeInterval, requestBody: Data, responseBody: Data,
                authorization: String? = nil, isBackground: Bool = ExchangeLog.background) {
        self.date = date
        self.method = method
        self.path = path
        self.status = status
        self.latency = latency
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.authorization = authorization
        self.isBackground = isBackground
    }

    /// The same call with the same answer: a background repeat that changed nothing.
    func repeats(_ other: Exchange) -> Bool {
        isBackground && other.isBackground && method == other.method && path == other.path && status == other.status
            && responseBody == other.responseBody
    }
}

/// The last exchanges, newest last; bounded so a long demo does not grow without limit.
public actor ExchangeLog {
    public private(set) var entries: [Exchange] = []
    private let capacity: Int
    private var observers: [UUID: @Sendable ([Exchange]) -> Void] = [:]

    public init(capacity: Int = 200) { self.capacity = capacity }

    /// Whether the calls made in this task are background work, which the log folds when they repeat.
    @TaskLocal public static var background = false

    public func record(_ exchange: Exchange) {
        // A run of background calls that changed nothing is one entry with a count, so a long-open
        // console keeps the calls its user made in view (and in the log's bounds).
        if let last = entries.last, exchange.repeats(last) {
            var folded = exchange
            folded.repeats = last.repeats + 1
            entries[entries.count - 1] = folded
        } else {
            entries.append(exchange)
        }
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        for observer in observers.values { observer(entries) }
    }

    /// Called with all entries after each new exchange, in recording order; the TUI uses it
    /// to refresh the inspector.
    public func observe(_ observer: @escaping @Sendable ([Exchange]) -> Void) {
        observers[UUID()] = observer
    }
}
