// swift-tools-version:6.0
// libFuzzer targets for the bridge. A separate package, so that the main one stays
// toolchain-only and its `swift build`/`swift test` never see fuzzer flags.
// Build and run them with ../scripts/fuzz-decoder.sh and ../scripts/fuzz-orderings.sh,
// which pass `-sanitize=fuzzer,address` to every module (so the bridge's own code
// is instrumented for coverage, not just these files).
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the
// repository was cloned: read it rather than assume it.
let bridge = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let bridgePackage = bridge.lastPathComponent.lowercased()

// The executables' entry points are libFuzzer's driver (see FuzzDriver.swift);
// SwiftPM's renamed `main` is defined in each target's FuzzerEntry.swift, so no main.swift.
let fuzzerTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "FuzzTargets",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [
                "FuzzDriver",
                .product(name: "HostProtocol", package: bridgePackage),
                .product(name: "BackgroundServicePlugin", package: bridgePackage),
            ],
            swiftSettings: fuzzerTarget),
        .executableTarget(
            name: "OrderingsFuzzer",
            dependencies: [
                "FuzzDriver",
                .product(name: "HostProtocol", package: bridgePackage),
                .product(name: "BackgroundServicePlugin", package: bridgePackage),
                .product(name: "PluginFuzzing", package: bridgePackage),
            ],
            swiftSettings: fuzzerTarget),
    ],
    swiftLanguageModes: [.v6]
)
