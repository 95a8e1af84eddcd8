import Foundation
import IdentityToolkit

/// One user in the file formats of `firebase auth:export` / `auth:import`: the same JSON keys
/// (`lastSignedInAt` for `lastLoginAt`) and the same 28 CSV columns; hashes and salts in standard base64.
public struct ExportedUser: Codable, Sendable, Equatable {
    public struct Provider: Codable, Sendable, Equatable {
        public var providerId: String
        public var rawId: String
        public var email: String?
        public var displayName: String?
        public var photoUrl: String?

        public init(providerId: String, rawId: String, email: String? = nil, displayName: String? = nil, photoUrl: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.displayName = displayName
            self.photoUrl = photoUrl
        }
    }

    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var passwordHash: String?
    public var salt: String?
    public var displayName: String?
    public var photoUrl: String?
    /// Milliseconds since 1970, as a string.
    public var lastSignedInAt: String?
    /// Milliseconds since 1970, as a string.
    public var createdAt: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customAttributes: String?
    public var providerUserInfo: [Provider]?

    /// Anonymous, as Identity Platform's clean-up of anonymous accounts counts them: no email, no phone
    /// number, no linked provider.
    public var isAnonymous: Bool {
        (email ?? "").isEmpty && (phoneNumber ?? "").isEmpty && (providerUserInfo ?? []).isEmpty
    }

    /// When the account was created, if the record says.
    public var creationDate: Date? {
        createdAt.flatMap(Int64.init).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }

    public init(localId: String, email: String? = nil, emailVerified: Bool? = nil, passwordHash: String? = nil, salt: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, lastSignedInAt: String? = nil, createdAt: String? = nil,
                phoneNumber: String? = nil, disabled: Bool? = nil, customAttributes: String? = nil, providerUserInfo: [Provider]? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.salt = salt
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.lastSignedInAt = lastSignedInAt
        self.createdAt = createdAt
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.providerUserInfo = providerUserInfo
    }

    /// The providers `firebase auth:export` writes and `auth:import` reads (password and phone
    /// follow from the hash, the email and the number).
    public static let portableProviders = ["google.com", "facebook.com", "twitter.com", "github.com"]

    init(wire info: AccountInfo) {
        self.init(
            localId: info.localId, email: info.email, emailVerified: info.emailVerified ?? false,
            passwordHash: info.passwordHash.map(Self.standardBase64), salt: info.passwordHash == nil ? nil : info.salt.map(Self.standardBase64),
            displayName: info.displayName, photoUrl: info.photoUrl, lastSignedInAt: info.lastLoginAt, createdAt: info.createdAt,
            phoneNumber: info.phoneNumber, disabled: info.disabled ?? false, customAttributes: info.customAttributes,
            providerUserInfo: (info.providerUserInfo ?? []).filter { Self.portableProviders.contains($0.providerId) }.map {
                Provider(providerId: $0.providerId, rawId: $0.rawId ?? "", email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
            })
    }

    var wire: ImportedAccount {
        ImportedAccount(
            localId: localId, email: email.flatMap { $0.isEmpty ? nil : $0 }, emailVerified: emailVerified,
            displayName: displayName.flatMap { $0.isEmpty ? nil : $0 }, photoUrl: photoUrl.flatMap { $0.isEmpty ? nil : $0 },
            phoneNumber: phoneNumber.flatMap { $0.isEmpty ? nil : $0 }, disabled: disabled,
            passwordHash: passwordHash.flatMap { $0.isEmpty ? nil : Self.webSafeBase64($0) },
            salt: salt.flatMap { $0.isEmpty ? nil : Self.webSafeBase64($0) },
            customAttributes: customAttributes.flatMap { $0.isEmpty ? nil : $0 },
            createdAt: createdAt.flatMap { $0.isEmpty ? nil : $0 }, lastLoginAt: lastSignedInAt.flatMap { $0.isEmpty ? nil : $0 },
            providerUserInfo: providerUserInfo.map { $0.map {
                ProviderUserInfo(providerId: $0.providerId, rawId: $0.rawId, email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
            } })
    }

    /// Standard base64 with its padding, as `firebase auth:export` writes it (the API sends web-safe, maybe unpadded).
    static func standardBase64(_ text: String) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }

    static func webSafeBase64(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
