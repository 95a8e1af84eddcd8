import Foundation
import Testing
@testable import IdentityEmulator

@Suite struct SecureRandomTests {
    @Test func localIdsAreTwentyEightAlphanumericsAndDistinct() {
        let ids = (0..<2_000).map { _ in SecureRandom.localId() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 28)
            #expect(id.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        }
        // Every character of the alphabet turns up in 56,000 draws (each missing with odds below 1e-300).
        #expect(Set(ids.joined()).count == 62)
    }

    @Test func bytesAreAsManyAsAskedAndVary() {
        #expect(SecureRandom.bytes(48).count == 48)
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
    }
}
