import Foundation

/// The names of one enum of the REST API, in the order of their numbers.
protocol EnumFieldNames {
    static var names: [String] { get }
}

/// An enum field: Google's JSON mapping writes it by name and reads the name or its number
/// (`"requestType": "PASSWORD_RESET"` or `"requestType": 1`).
struct EnumField<Names: EnumFieldNames>: Decodable, Equatable {
    let name: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            guard Names.names.indices.contains(number) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "no enum value \(number)")
            }
            name = Names.names[number]
        } else {
            name = try container.decode(String.self)
        }
    }
}

/// `GetOobCodeRequest.requestType`.
enum OobRequestTypeNames: EnumFieldNames {
    static let names = ["OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
                        "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION"]
}

/// `SetAccountInfoRequest.deleteAttribute[]`.
enum UserAttributeNames: EnumFieldNames {
    static let names = ["USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD", "RAW_USER_INFO"]
}
