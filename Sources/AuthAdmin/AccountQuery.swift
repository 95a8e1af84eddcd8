import Foundation

/// What the operator's table shows: a filter (typed text and chips) and a sort.
public struct AccountFilter: Sendable, Equatable {
    /// The start of an email (any case), phone number or uid.
    public var text: String
    public var anonymous: Bool
    public var disabled: Bool
    public var emailUnverified: Bool
    public var hasSecondFactor: Bool
    /// Linked to this provider (`password`, `phone`, `google.com`, …).
    public var providerId: String?
    /// Anonymous accounts created more than this many days ago (the clean-up's selection).
    public var anonymousOlderThanDays: Int?
    /// Accounts whose email wrong passwords have locked out now.
    public var locked: Bool

    public init(text: String = "", anonymous: Bool = false, disabled: Bool = false, emailUnverified: Bool = false,
                hasSecondFactor: Bool = false, providerId: String? = nil, anonymousOlderThanDays: Int? = nil, locked: Bool = false) {
        self.locked = locked
        self.text = text
        self.anonymous = anonymous
        self.disabled = disabled
        self.emailUnverified = emailUnverified
        self.hasSecondFactor = hasSecondFactor
        self.providerId = providerId
        self.anonymousOlderThanDays = anonymousOlderThanDays
    }

    public static let none = AccountFilter()

    public var isEmpty: Bool {
        var chips = self
        chips.text = ""
        return trimmedText.isEmpty && chips == .none
    }

    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The creation time before which an anonymous account counts as old.
    func createdBefore(now: Date) -> Date? {
        anonymousOlderThanDays.map { now.addingTimeInterval(-Double($0) * 86_400) }
    }

    /// The same selection as the backend's SQL, for backends that cannot filter (the Firebase
    /// Auth Emulator, Google for anything but an exact match).
    public func matches(_ user: UserRecord, now: Date) -> Bool {
        let text = trimmedText
        if !text.isEmpty {
            let lower = text.lowercased()
            let phonePrefix = text.hasPrefix("+") ? text : "+" + text
            let phoneMatches = text.first.map { $0 == "+" || ($0.isASCII && $0.isNumber) } == true
                && user.phoneNumber?.hasPrefix(phonePrefix) == true
            guard user.email?.lowercased().hasPrefix(lower) == true || user.uid.hasPrefix(text) || phoneMatches else { return false }
        }
        if anonymous || anonymousOlderThanDays != nil, !user.isAnonymous { return false }
        if disabled, !user.disabled { return false }
        if emailUnverified, user.email == nil || user.emailVerified { return false }
        if hasSecondFactor, user.multiFactor.isEmpty { return false }
        if let providerId, !providerId.isEmpty, !user.providerData.contains(where: { $0.providerId == providerId }) { return false }
        if let cutoff = createdBefore(now: now), (user.metadata.creationTime ?? .distantFuture) >= cutoff { return false }
        // Only AuthDeck's backends keep lock-outs, and they filter themselves.
        if locked { return false }
        return true
    }
}

public struct AccountSort: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case createdAt = "created"
        case lastSignIn = "last sign-in"
        case email
        case uid
        case name
    }

    public var field: Field
    public var descending: Bool

    public init(field: Field = .createdAt, descending: Bool = true) {
        self.field = field
        self.descending = descending
    }

    /// The order the client applies when the backend cannot sort; the uid breaks ties (the backend
    /// breaks them by the order accounts were stored).
    func areInIncreasingOrder(_ a: UserRecord, _ b: UserRecord) -> Bool {
        descending ? Self.ascending(field, b, a) : Self.ascending(field, a, b)
    }

    private static func ascending(_ field: Field, _ a: UserRecord, _ b: UserRecord) -> Bool {
        func key(_ user: UserRecord) -> String? {
            switch field {
            case .createdAt: user.metadata.creationTime.map { String(format: "%020.3f", $0.timeIntervalSince1970) }
            case .lastSignIn: user.metadata.lastSignInTime.map { String(format: "%020.3f", $0.timeIntervalSince1970) }
            case .email: user.email
            case .uid: user.uid
            case .name: user.displayName
            }
        }
        let (x, y) = (key(a), key(b))
        switch (x, y) {
        case let (x?, y?) where x != y: return x < y
        case (nil, _?): return true
        case (_?, nil): return false
        default: return a.uid < b.uid
        }
    }
}

/// One page of the table, and how many accounts match in all (nil when not counted with the page).
public struct AccountPage: Sendable, Equatable {
    public var users: [UserRecord]
    public var offset: Int
    public var totalCount: Int?
    /// Each row's project, for a page across every project; nil for a page of one project.
    public var projects: [String]?
    /// The lock-outs of the project (or of every project) shown, read with the page so the table marks
    /// its locked rows without a question per row.
    public var lockouts: [EmailLockout]

    public init(users: [UserRecord], offset: Int, totalCount: Int?, projects: [String]? = nil, lockouts: [EmailLockout] = []) {
        self.users = users
        self.offset = offset
        self.totalCount = totalCount
        self.projects = projects
        self.lockouts = lockouts
    }
}
