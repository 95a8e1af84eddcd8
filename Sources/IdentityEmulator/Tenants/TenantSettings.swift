import Foundation

/// A tenant of a project, as `projects/{p}/tenants/{t}` shows it: the settings the emulator keeps,
/// with the test phone numbers production keeps beside them.
struct TenantSettings: Codable, Equatable {
    struct MfaConfig: Codable, Equatable {
        var state: String?
        var enabledProviders: [String]?
    }

    var name: String
    var tenantId: String
    var displayName: String?
    var allowPasswordSignup: Bool
    var enableEmailLinkSignin: Bool
    var enableAnonymousUser: Bool
    var disableAuth: Bool
    var mfaConfig: MfaConfig
    var testPhoneNumbers: [String: String]?

    /// A tenant made by `create`, or replaced by a patch without `updateMask`: what the body leaves
    /// out takes production's default (off), as the emulator does.
    init(project: String, tenantId: String, body: TenantBody) {
        name = "projects/\(project)/tenants/\(tenantId)"
        self.tenantId = tenantId
        displayName = body.displayName
        allowPasswordSignup = body.allowPasswordSignup ?? false
        enableEmailLinkSignin = body.enableEmailLinkSignin ?? false
        enableAnonymousUser = body.enableAnonymousUser ?? false
        disableAuth = body.disableAuth ?? false
        mfaConfig = MfaConfig(state: body.mfaConfig?.state ?? "DISABLED", enabledProviders: body.mfaConfig?.enabledProviders ?? [])
        testPhoneNumbers = body.testPhoneNumbers
    }

    /// A tenant named before anyone created it, as the emulator makes one: every method on, for convenience.
    static func implicit(project: String, tenantId: String) -> TenantSettings {
        TenantSettings(project: project, tenantId: tenantId, body: TenantBody(
            allowPasswordSignup: true, enableEmailLinkSignin: true, enableAnonymousUser: true, disableAuth: false,
            mfaConfig: .init(state: "ENABLED", enabledProviders: ["PHONE_SMS"])))
    }

    /// The fields `updateMask` names, taken from `body`; a field the body leaves out, or a path into
    /// a value that has no parts (`displayName.0`), changes nothing, as in the emulator.
    mutating func apply(_ body: TenantBody, updateMask: String) {
        for path in updateMask.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let fields = path.split(separator: ".", maxSplits: 1).map(String.init)
            let field = fields[0], rest = fields.count > 1 ? fields[1] : nil
            switch field {
            case "displayName" where rest == nil: displayName = body.displayName ?? displayName
            case "allowPasswordSignup" where rest == nil: allowPasswordSignup = body.allowPasswordSignup ?? allowPasswordSignup
            case "enableEmailLinkSignin" where rest == nil: enableEmailLinkSignin = body.enableEmailLinkSignin ?? enableEmailLinkSignin
            case "enableAnonymousUser" where rest == nil: enableAnonymousUser = body.enableAnonymousUser ?? enableAnonymousUser
            case "disableAuth" where rest == nil: disableAuth = body.disableAuth ?? disableAuth
            case "mfaConfig":
                guard let update = body.mfaConfig else { continue }
                switch rest {
                case nil: mfaConfig = update
                case "state": mfaConfig.state = update.state ?? mfaConfig.state
                case "enabledProviders": mfaConfig.enabledProviders = update.enabledProviders ?? mfaConfig.enabledProviders
                case .some: continue
                }
            case "testPhoneNumbers":
                guard let update = body.testPhoneNumbers else { continue }
                if let number = rest {
                    guard let code = update[number] else { continue }
                    testPhoneNumbers = (testPhoneNumbers ?? [:]).merging([number: code]) { $1 }
                } else {
                    testPhoneNumbers = update
                }
            default:
                continue
            }
        }
    }
}

/// What a create or patch sends; every field may be left out.
struct TenantBody: Decodable {
    var displayName: String?
    var allowPasswordSignup: Bool?
    var enableEmailLinkSignin: Bool?
    var enableAnonymousUser: Bool?
    var disableAuth: Bool?
    var mfaConfig: TenantSettings.MfaConfig?
    var testPhoneNumbers: [String: String]?

    init(displayName: String? = nil, allowPasswordSignup: Bool? = nil, enableEmailLinkSignin: Bool? = nil, enableAnonymousUser: Bool? = nil,
         disableAuth: Bool? = nil, mfaConfig: TenantSettings.MfaConfig? = nil, testPhoneNumbers: [String: String]? = nil) {
        self.displayName = displayName
        self.allowPasswordSignup = allowPasswordSignup
        self.enableEmailLinkSignin = enableEmailLinkSignin
        self.enableAnonymousUser = enableAnonymousUser
        self.disableAuth = disableAuth
        self.mfaConfig = mfaConfig
        self.testPhoneNumbers = testPhoneNumbers
    }
}

/// `GET projects/{p}/tenants`: a page, and where the next begins.
struct ListTenantsResponse: Encodable {
    var tenants: [TenantSettings]
    var nextPageToken: String?
}
