import Foundation
import IdentityToolkit

/// Export to a file and import from one, all or nothing: an export is written beside the target
/// and renamed into place at the end; an import whose records the backend refuses is undone.
extension AccountAdmin {
    /// Writes every account to `path`; `progress` hears the running count. Returns how many, and
    /// what the format had no place for.
    public func export(to path: String, format: AccountFileFormat,
                       progress: @Sendable (Int) -> Void = { _ in }) async throws -> AccountExportSummary {
        let target = URL(fileURLWithPath: path)
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        // Exports hold password hashes: readable by the owner only, from the first byte.
        guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: partial.path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial.path])
        }
        var summary = AccountExportSummary()
        do {
            try handle.write(contentsOf: Data(AccountFileWriter.header(format).utf8))
            for try await page in accountInfoPages() {
                var chunk = ""
                for info in page {
                    chunk += try AccountFileWriter.record(ExportedUser(wire: info), format: format, first: summary.count == 0)
                    summary.add(info)
                }
                try handle.write(contentsOf: Data(chunk.utf8))
                progress(summary.count)
            }
            try handle.write(contentsOf: Data(AccountFileWriter.footer(format).utf8))
            try handle.close()
            // rename(2) replaces an earlier file in one step; Foundation's replaceItemAt on Linux removes it
            // and then fails, which would lose the earlier export.
            guard rename(partial.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path,
                                                              NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return summary
    }

    /// Imports `users` (already checked by `AccountFileReader`) in batches of 1000. When the
    /// backend refuses any record, the accounts this import created are deleted again and the
    /// refusals come back with their lines; nothing stays half-imported unless `keepAccepted`
    /// asks to keep the accounts the backend accepted.
    public func importUsers(_ users: [(line: Int, user: ExportedUser)], hash: PasswordHashParameters?, keepAccepted: Bool = false,
                            progress: @Sendable (Int) -> Void = { _ in }) async throws -> [AccountFileProblem] {
        var imported: [String] = []
        var refused: [AccountFileProblem] = []
        for start in stride(from: 0, to: users.count, by: 1000) {
            let batch = Array(users[start..<min(start + 1000, users.count)])
            let errors: [(index: Int, message: String)]
            do {
                errors = try await importBatch(batch.map(\.user), hash: hash)
            } catch {
                _ = try? await delete(uids: imported)
                throw error
            }
            let refusedIndexes = Set(errors.map(\.index))
            refused += errors.map { AccountFileProblem(line: batch[$0.index].line, uid: batch[$0.index].user.localId, reason: $0.message) }
            imported += batch.enumerated().filter { !refusedIndexes.contains($0.offset) }.map(\.element.user.localId)
            if !refused.isEmpty, !keepAccepted { break }
            progress(imported.count)
        }
        if !refused.isEmpty, !keepAccepted { _ = try await delete(uids: imported) }
        return refused
    }
}

/// What an export wrote, and what Firebase's file formats (those of `firebase auth:export`) have no
/// place for: sign-ins with providers other than Google, Facebook, Twitter and GitHub, and second
/// factors. An account imported from the file has neither.
public struct AccountExportSummary: Sendable, Equatable {
    public var count = 0
    /// How many accounts lost their sign-in with each provider, by provider id.
    public var providersLeftOut: [String: Int] = [:]
    /// How many accounts lost their second factors.
    public var secondFactorsLeftOut = 0

    public init() {}

    mutating func add(_ info: AccountInfo) {
        count += 1
        // Password and phone sign-ins travel as the hash, the email and the number.
        let carried = ExportedUser.portableProviders + ["password", "phone"]
        for provider in Set((info.providerUserInfo ?? []).map(\.providerId)) where !carried.contains(provider) {
            providersLeftOut[provider, default: 0] += 1
        }
        if !(info.mfaInfo ?? []).isEmpty { secondFactorsLeftOut += 1 }
    }

    /// One line for the operator, or nil when the file holds everything.
    public var leftOutNote: String? {
        var parts = providersLeftOut.sorted { $0.key < $1.key }.map { "\($0.key) sign-ins of \(Self.accounts($0.value))" }
        if secondFactorsLeftOut > 0 { parts.append("the second factors of \(Self.accounts(secondFactorsLeftOut))") }
        guard !parts.isEmpty else { return nil }
        return "Not in the file, which Firebase's format has no place for: " + parts.joined(separator: ", ")
            + ". Accounts imported from it come without them."
    }

    private static func accounts(_ count: Int) -> String { count == 1 ? "1 account" : "\(count) accounts" }
}
