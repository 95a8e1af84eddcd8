import CAllocator
import Foundation
import IdentityEmulator
import Testing

@Suite struct CryptoBlocksTests {
    @Test func aPasswordHashTakesScryptsBlockFromTheCryptoAllocatorNotMalloc() throws {
        let before = authdeck_crypto_large_blocks_served()
        let hash = try ModifiedScrypt.hash(
            password: "user1password", salt: Data("salt".utf8), saltSeparator: Data([7]),
            signerKey: Data(repeating: 1, count: 64), rounds: 8, memCost: 14)
        #expect(hash.count == 64)
        #expect(authdeck_crypto_large_blocks_served() > before)
    }

    @Test func blocksReportTheirSizeAndALargeBlockComesBackWiped() throws {
        let small = try #require(OPENSSL_memory_alloc(100))
        #expect(OPENSSL_memory_get_size(small) == 100)
        #expect(Int(bitPattern: small) % 16 == 0)
        OPENSSL_memory_free(small)

        let size = 3 * 1024 * 1024 + 5
        let first = try #require(OPENSSL_memory_alloc(size))
        #expect(OPENSSL_memory_get_size(first) == size)
        #expect(Int(bitPattern: first) % 16 == 0)
        memset(first, 0xAB, size)
        OPENSSL_memory_free(first)

        // The next block of that size is the one just freed, kept for reuse, unless the kept blocks
        // were full or released meanwhile: wiped either way.
        let second = try #require(OPENSSL_memory_alloc(size))
        let bytes = UnsafeRawBufferPointer(start: second, count: size)
        #expect(bytes.allSatisfy { $0 == 0 })
        OPENSSL_memory_free(second)
        authdeck_release_crypto_blocks()
    }
}
