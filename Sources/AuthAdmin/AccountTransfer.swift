import Foundation

/// Export to a file and import from one, all or nothing: an export is written beside the target
/// and renamed into place at the end; an import whose records the backend refuses is undone.
extension AccountAdmin {
    /// Writes every account to `path`; `progress` hears the running count. Returns how many.
    public func export(to path: String, format: AccountFileFormat, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        let target = URL(fileURLWithPath: path)
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        // Exports hold password hashes: readable by the owner only, from the first byte.
        guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: partial.path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial.path])
        }
        var count = 0
        do {
            try handle.write(contentsOf: Data(AccountFileWriter.header(format).utf8))
            for try await page in exportPages() {
                var chunk = ""
                for user in page {
                    chunk += try AccountFileWriter.record(user, format: format, first: count == 0)
                    count += 1
                }
                try handle.write(contentsOf: Data(chunk.utf8))
                progress(count)
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
        return count
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
