// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the toolchain's Foundation, Dispatch, Synchronization,
// XCTest and Swift Testing only.
let package = Package(
    name: "BackgroundServiceBridge",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HostProtocol", targets: ["HostProtocol"]),
        .library(name: "BackgroundServicePlugin", targets: ["BackgroundServicePlugin"]),
        .library(name: "PluginHost", targets: ["PluginHost"]),
        .executable(name: "background-service-plugin", targets: ["background-service-plugin"]),
        .executable(name: "plugin-host", targets: ["plugin-host"]),
    ],
    targets: [
        .target(name: "HostProtocol"),
        .target(name: "BackgroundServicePlugin", dependencies: ["HostProtocol"]),
        .target(name: "PluginHost", dependencies: ["HostProtocol"]),
        .executableTarget(name: "background-service-plugin", dependencies: ["BackgroundServicePlugin"]),
        // The host depends on the plugin's executable target only so that
        // `swift run plugin-host demo` builds the plugin binary it spawns.
        .executableTarget(name: "plugin-host", dependencies: ["PluginHost", "background-service-plugin"]),
        .testTarget(name: "HostProtocolTests", dependencies: ["HostProtocol"]),
        .testTarget(
            name: "BackgroundServicePluginTests",
            dependencies: ["BackgroundServicePlugin", "HostProtocol", "background-service-plugin"]
        ),
        .testTarget(
            name: "PluginHostTests",
            dependencies: ["PluginHost", "HostProtocol", "plugin-host", "background-service-plugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
