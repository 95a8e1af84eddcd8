// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "AuthDeck",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "authdeck", targets: ["authdeck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssh.git", from: "0.15.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // No pkg-config: its `-L/usr/lib/x86_64-linux-gnu` would come before Linking/ (below).
        .systemLibrary(name: "CCurses", path: "Sources/CCurses", providers: [.apt(["libncurses-dev"])]),
        // libqrencode, loaded with dlopen at the first QR code (Sources/CQREncode/qrencode.c).
        .target(name: "CQREncode", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "TerminalUI", dependencies: ["CCurses", "CQREncode", "CThreads"]),
        // Naming threads and placing a new one on another core: GNU extensions Swift's Glibc module leaves out.
        .target(name: "CThreads"),
        .target(name: "CAllocator"),
        // posix_openpt and posix_spawn with a new session and controlling terminal, and the consoles'
        // fork server, in C: a forked child of a multi-threaded Swift process may run nothing but
        // async-signal-safe code, and the fork server runs before any Swift code.
        .target(name: "CPty"),
        // The room channel between `authdeck ssh` and its consoles: messages and their framing.
        .target(name: "RoomChannel"),
        .target(name: "SSHServer", dependencies: [
            "CPty", "CThreads", "RoomChannel",
            .product(name: "NIOSSH", package: "swift-nio-ssh"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "IdentityToolkit", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // RS256 through the system's OpenSSL 3, loaded with dlopen at the first signature (Tokens/SystemRSAKey.swift).
        .target(name: "CLibcrypto", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "IdentityEmulator", dependencies: [
            "IdentityToolkit", "CLibcrypto", "CThreads",
            .product(name: "GRDB", package: "GRDB.swift"),
            // The SQLite C API, for the log's checkpoint hook (Storage/LogCheckpointer.swift).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "IdentityServer", dependencies: [
            "IdentityToolkit", "CAllocator", "CThreads",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "AuthClient", dependencies: [
            "IdentityToolkit",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "AuthAdmin", dependencies: [
            "IdentityToolkit",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
        ]),
        .target(name: "AppData", dependencies: [
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "AuthDeckApp", dependencies: [
            "TerminalUI", "AuthClient", "AuthAdmin", "AppData", "RoomChannel",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "authdeck", dependencies: [
            "AuthDeckApp", "IdentityEmulator", "IdentityServer", "IdentityToolkit", "TerminalUI", "AuthClient", "AppData", "SSHServer", "AuthAdmin",
            "CThreads", "CPty", "CAllocator",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], linkerSettings: [
            // Swift's link with its runtime built in exports every symbol of the executable (`-export-dynamic`):
            // nothing here looks them up, and resolving and searching 56,000 exported symbols cost every start
            // about a millisecond in the dynamic loader and the runtime's dladdr.
            // Linking/ first on the library path: SQLite, ncurses, zlib and libstdc++ linked in (Linking/README.md).
            // lld, because it takes archives in any order (gold would skip libstdc++.a, met before ICU needs it), and
            // it packs the 155,000 relative relocations (3.7 MB of table to read at every start) into 30 kB (DT_RELR).
            // The code a console runs before its first frame first and side by side, in the order of
            // Linking/startup-order.txt (Linking/startup_order.py writes it).
            .unsafeFlags(["-Xlinker", "--no-export-dynamic", "-L", Context.packageDirectory + "/Linking",
                          "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                          "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linking/startup-order.txt",
                          "-Xlinker", "--no-warn-symbol-ordering"]),
        ]),
        .testTarget(name: "TerminalUITests", dependencies: [
            "TerminalUI", "CCurses",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["__Snapshots__"]),
        .testTarget(name: "IdentityToolkitTests", dependencies: ["IdentityToolkit"]),
        .testTarget(name: "IdentityEmulatorTests", dependencies: [
            "IdentityEmulator", "IdentityToolkit", "IdentityTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        .target(name: "IdentityTestSupport", dependencies: [
            "IdentityEmulator", "IdentityServer", "IdentityToolkit",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/IdentityTestSupport"),
        .testTarget(name: "AuthClientTests", dependencies: ["AuthClient", "IdentityEmulator", "IdentityToolkit", "IdentityTestSupport"]),
        .testTarget(name: "IdentityServerTests", dependencies: [
            "IdentityServer", "IdentityEmulator", "IdentityToolkit", "IdentityTestSupport", "CAllocator",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AppDataTests", dependencies: ["AppData"]),
        .testTarget(name: "SSHServerTests", dependencies: [
            "SSHServer", "RoomChannel",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOSSH", package: "swift-nio-ssh"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "AuthAdminTests", dependencies: [
            "AuthAdmin", "IdentityEmulator", "IdentityServer", "IdentityToolkit", "IdentityTestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AuthDeckAppTests", dependencies: [
            "AuthDeckApp", "TerminalUI", "AuthClient", "AuthAdmin", "IdentityEmulator", "IdentityTestSupport", "AppData", "RoomChannel",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["Root/__Snapshots__", "Journeys/Federated/__Snapshots__", "Journeys/Verification/__Snapshots__",
                   "Features/Accounts/__Snapshots__", "Features/EmailLink/__Snapshots__", "Features/Room/__Snapshots__",
                   "Overlays/Outbox/__Snapshots__", "Overlays/Teaching/__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)
