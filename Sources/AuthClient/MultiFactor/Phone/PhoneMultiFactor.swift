import Foundation

/// An enrolled SMS factor. `phoneNumber` is the whole number for the signed-in user's own factors,
/// and masked (`+*******0100`) in the hints of a second-factor sign-in.
public struct PhoneMultiFactorInfo: Sendable, Equatable, Codable {
    public var uid: String
    public var displayName: String?
    public var enrollmentDate: Date?
    public var phoneNumber: String

    public init(uid: String, displayName: String? = nil, enrollmentDate: Date? = nil, phoneNumber: String) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentDate = enrollmentDate
        self.phoneNumber = phoneNumber
    }
}

public enum PhoneMultiFactorGenerator {
    public static let factorID = "phone"

    public static func assertion(with credential: PhoneAuthCredential) -> MultiFactorAssertion { .phone(credential) }
}
