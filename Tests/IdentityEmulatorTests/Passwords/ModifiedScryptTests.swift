import Foundation
import Testing
@testable import IdentityEmulator

@Suite struct ModifiedScryptTests {
    @Test func reproducesTheFirebaseScryptReadmeVector() throws {
        let hash = try ModifiedScrypt.hash(
            password: "user1password",
            salt: try #require(Data(base64Encoded: "42xEC+ixf3L2lw==")),
            saltSeparator: try #require(Data(base64Encoded: "Bw==")),
            signerKey: try #require(Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")),
            rounds: 8, memCost: 14)
        #expect(hash.base64EncodedString() == "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")
    }
}
