import Foundation
import GRDB

/// A second factor an administrator asked for (`mfa.enrollments[]` or `mfaInfo[]`), checked but not stored.
struct RequestedSecondFactor: Equatable {
    enum Kind: Equatable {
        case phone(String)
        /// A TOTP factor the account already has, named by its id: an administrator cannot make a
        /// TOTP secret (the user's authenticator must scan it), only keep one across a replacement.
        case keptTotp
    }

    var mfaEnrollmentId: String?
    var displayName: String?
    var kind: Kind
    /// Milliseconds since 1970.
    var enrolledAt: Int64?
}

extension BackendFailure {
    static let invalidMfaPhoneNumber = badRequest("INVALID_MFA_PHONE_NUMBER : Invalid format.")
    static let duplicateMfaEnrollmentId = badRequest("DUPLICATE_MFA_ENROLLMENT_ID")
    static let mfaEnrollmentsNotAList = badRequest("Invalid JSON payload received. /mfa/enrollments must be array")
    static let missingMfaEnrollmentIdOnUpdate = badRequest("INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
    static let totpFactorNotKept = badRequest(
        "INVALID_ARGUMENT : ((an administrator cannot enroll a TOTP factor, only keep an enrolled one by its mfaEnrollmentId))")
    static let secondFactorsOnSharedSignUp = badRequest(
        "INSUFFICIENT_PERMISSION : ((only an administrator may set mfaInfo on a shared backend; enroll a second factor with mfaEnrollment:start and mfaEnrollment:finalize))")
}

extension EmbeddedBackend {
    /// Checks an administrator's list of second factors: E.164 numbers, each number and id once,
    /// at most five. `field` names the list in errors, as Google's messages do.
    /// `requireIds`: an update names every factor it keeps or adds (`INVALID_MFA_ENROLLMENT_ID`);
    /// creation and import make ids up. A number listed twice is one factor, the first, as in the emulator.
    func requestedSecondFactors(_ entries: [AdminMfaEnrollment], field: String, requireIds: Bool = false) throws -> [RequestedSecondFactor] {
        var numbers = Set<String>()
        var ids = Set<String>()
        let factors = try entries.enumerated().compactMap { index, entry -> RequestedSecondFactor? in
            let id = entry.mfaEnrollmentId.flatMap { $0.isEmpty ? nil : $0 }
            let kind: RequestedSecondFactor.Kind
            if let phone = entry.phoneInfo {
                guard entry.totpInfo == nil else { throw BackendFailure.mfaProviderNotSupported }
                guard let number = E164PhoneNumber.validated(phone) else { throw BackendFailure.invalidMfaPhoneNumber }
                guard numbers.insert(number).inserted else { return nil }
                kind = .phone(number)
            } else if entry.totpInfo != nil, id != nil {
                kind = .keptTotp
            } else {
                throw entry.totpInfo == nil ? BackendFailure.invalidMfaPhoneNumber : BackendFailure.totpFactorNotKept
            }
            if requireIds, id == nil { throw BackendFailure.missingMfaEnrollmentIdOnUpdate }
            if let id, !ids.insert(id).inserted { throw BackendFailure.duplicateMfaEnrollmentId }
            let enrolledAt = try entry.enrolledAt.map { text -> Int64 in
                guard let date = Self.parseRFC3339(text) else {
                    throw BackendFailure.invalidArgument("Invalid value at '\(field)[\(index)].enrolled_at' (type.googleapis.com/google.protobuf.Timestamp), \"\(text)\"")
                }
                return Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            }
            return RequestedSecondFactor(mfaEnrollmentId: id, displayName: entry.displayName.flatMap { $0.isEmpty ? nil : $0 },
                                         kind: kind, enrolledAt: enrolledAt)
        }
        guard factors.count <= Self.maximumSecondFactors else { throw BackendFailure.secondFactorLimitExceeded }
        return factors
    }

    /// `mfaInfo` of a new account: every factor is new, so the ids it names are ignored and made up, as
    /// the emulator does.
    func newSecondFactors(_ entries: [AdminMfaEnrollment]) throws -> [RequestedSecondFactor] {
        try requestedSecondFactors(entries.map { entry in
            var entry = entry
            entry.mfaEnrollmentId = nil
            return entry
        }, field: "mfa_info")
    }

    /// Replaces the account's second factors with `requested`. A factor named by an id the account
    /// already has keeps its enrollment time unless one is given (and a TOTP factor its secret); a
    /// factor without an id gets a new one. Another account may have a factor with the same id, as in the emulator.
    func replaceSecondFactors(of localId: String, with requested: [RequestedSecondFactor], in db: Database) throws {
        let current = try MfaEnrollmentRecord.filter(MfaEnrollmentRecord.Columns.localId == localId).fetchAll(db)
        let currentById = Dictionary(uniqueKeysWithValues: current.map { ($0.mfaEnrollmentId, $0) })
        let records = try requested.map { factor -> MfaEnrollmentRecord in
            let existing = factor.mfaEnrollmentId.flatMap { currentById[$0] }
            switch factor.kind {
            case .keptTotp:
                guard var kept = existing, kept.factor == .totp else { throw BackendFailure.totpFactorNotKept }
                kept.displayName = factor.displayName
                kept.enrolledAt = factor.enrolledAt ?? kept.enrolledAt
                return kept
            case let .phone(number):
                let id = factor.mfaEnrollmentId ?? SecureRandom.localId()
                return MfaEnrollmentRecord(mfaEnrollmentId: id, localId: localId, factor: .phone, displayName: factor.displayName,
                                           phoneNumber: number, enrolledAt: factor.enrolledAt ?? existing?.enrolledAt ?? nowMilliseconds)
            }
        }
        for record in current { try record.delete(db) }
        for record in records { try record.insert(db) }
    }

    static func parseRFC3339(_ text: String) -> Date? {
        (try? EmbeddedBackend.rfc3339Style.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
