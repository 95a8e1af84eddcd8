// swift-tools-version:6.1
// The benchmark's floor for an HTTP JSON round trip: Hummingbird 2 with nothing behind it.
import PackageDescription

let package = Package(
    name: "ReferenceServer",
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "ReferenceServer", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
