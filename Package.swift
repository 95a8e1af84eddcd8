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
    ],
    targets: [
        .systemLibrary(name: "CCurses", path: "Sources/CCurses", pkgConfig: "ncursesw",
                       providers: [.apt(["libncurses-dev"])]),
        .target(name: "TerminalUI", dependencies: ["CCurses"]),
        .target(name: "IdentityToolkit"),
        .target(name: "IdentityEmulator", dependencies: [
            "IdentityToolkit",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "AuthClient", dependencies: [
            "IdentityToolkit",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "AppData", dependencies: [
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "AuthDeckApp", dependencies: [
            "TerminalUI", "AuthClient", "AppData",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "authdeck", dependencies: [
            "AuthDeckApp", "IdentityEmulator", "TerminalUI", "AuthClient", "AppData",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TerminalUITests", dependencies: [
            "TerminalUI",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["__Snapshots__"]),
        .testTarget(name: "IdentityToolkitTests", dependencies: ["IdentityToolkit"]),
        .testTarget(name: "IdentityEmulatorTests", dependencies: [
            "IdentityEmulator", "IdentityToolkit",
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        .testTarget(name: "AuthClientTests", dependencies: ["AuthClient", "IdentityEmulator", "IdentityToolkit"]),
        .testTarget(name: "AppDataTests", dependencies: ["AppData"]),
        .testTarget(name: "AuthDeckAppTests", dependencies: [
            "AuthDeckApp", "TerminalUI", "AuthClient", "IdentityEmulator", "AppData", "IdentityToolkit",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)
