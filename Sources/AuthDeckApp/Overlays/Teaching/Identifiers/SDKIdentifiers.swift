/// Every identifier the snippets name on a platform, with where each group was checked: the
/// snippet identifier test fails on a name missing here, so a typo or a renamed API shows up.
struct IdentifierList: Sendable {
    /// The Firebase SDK, its version and the public sources the Firebase names were checked against.
    var source: String
    var firebase: Set<String>
    /// The language, OS and web libraries the platform names come from.
    var platformSource: String
    var platform: Set<String>
    /// Names the snippets' app code uses without declaring them (the app's cart store).
    var app: Set<String>

    var all: Set<String> {
        firebase.union(platform).union(app)
    }
}

enum SDKIdentifiers {
    static func list(for platform: SDKPlatform) -> IdentifierList {
        switch platform {
        case .swift: swift
        case .kotlin: kotlin
        case .javascript: javascript
        case .cpp: cpp
        }
    }

    /// The cart of the link-conflict merge: the app's own store, the same on every platform.
    static let appCart: Set<String> = ["items", "add", "Items", "Add", "CartItem"]
}
