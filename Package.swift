// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the toolchain's Foundation, Dispatch, Synchronization,
// XCTest and Swift Testing only.
//
// Targets (docs/architecture.md): the protocol, the plugin, the embedding library
// `PluginHost`, and the tools built on it, each its own library so that a host
// importing `PluginHost` compiles none of them:
//
//   PluginHost ← RustSide ← HostSimulation (the emulated Rust side; the system simulation)
//   PluginHost ← PluginConformance, PluginBench; HostSimulation ← PluginFuzzing
//   PluginHost, BackgroundServicePlugin ← PluginInProcess (the engine behind the seam)
//   PluginFuzzing, PluginBench ← PluginSoak
//   all of them ← HostCLI ← plugin-host

// What a test target needs to run `plugin-host` and the plugin it spawns.
let runsPluginHost: [Target.Dependency] = [
    "HostProtocol", "HostTestSupport", "plugin-host", "background-service-plugin", "hostile-plugin",
]

let package = Package(
    name: "BackgroundServiceBridge",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HostProtocol", targets: ["HostProtocol"]),
        .library(name: "BackgroundServicePlugin", targets: ["BackgroundServicePlugin"]),
        .library(name: "PluginHost", targets: ["PluginHost"]),
        .library(name: "RustSide", targets: ["RustSide"]),
        .library(name: "HostSimulation", targets: ["HostSimulation"]),
        .library(name: "PluginInProcess", targets: ["PluginInProcess"]),
        .library(name: "PluginFuzzing", targets: ["PluginFuzzing"]),
        .library(name: "PluginBench", targets: ["PluginBench"]),
        .library(name: "HostCLI", targets: ["HostCLI"]),
        .executable(name: "background-service-plugin", targets: ["background-service-plugin"]),
        .executable(name: "plugin-host", targets: ["plugin-host"]),
        .executable(name: "bench-floor", targets: ["bench-floor"]),
    ],
    targets: [
        .target(name: "HostProtocol"),
        // The emulated iOS (scheduler, clock, the manual and iOS policies) the plugin runs on;
        // it sees the app through `EmulatedApp` only.
        .target(name: "EmulatedIOS", dependencies: ["HostProtocol"]),
        .target(name: "BackgroundServicePlugin", dependencies: ["EmulatedIOS", "HostProtocol"]),
        // The embedding library: transport, process, connections, client, errors.
        .target(name: "PluginHost", dependencies: ["HostProtocol"]),
        // The emulated Rust side (the service manager over the blocking bridge).
        .target(name: "RustSide", dependencies: ["PluginHost", "HostProtocol"]),
        // The deterministic system simulation: host and plugin on one timeline.
        .target(name: "HostSimulation", dependencies: ["RustSide", "PluginHost", "HostProtocol"]),
        // The plugin's engine behind the transport seam, in the host's process (tests,
        // `--plugin builtin`); apart from PluginHost, so that an embedder that spawns a
        // binary does not link the engine.
        .target(name: "PluginInProcess", dependencies: ["PluginHost", "BackgroundServicePlugin", "HostProtocol"]),
        .target(name: "PluginConformance", dependencies: ["PluginHost", "HostProtocol"]),
        .target(name: "PluginFuzzing", dependencies: ["HostSimulation", "RustSide", "PluginHost", "HostProtocol"]),
        .target(name: "PluginBench", dependencies: ["PluginHost", "HostProtocol"]),
        .target(name: "PluginSoak", dependencies: ["PluginFuzzing", "PluginBench", "PluginHost", "HostProtocol"]),
        .target(
            name: "HostCLI",
            dependencies: [
                "PluginConformance", "PluginFuzzing", "PluginBench", "PluginSoak", "PluginInProcess", "HostSimulation",
                "RustSide", "PluginHost", "HostProtocol",
            ]
        ),
        .executableTarget(name: "background-service-plugin", dependencies: ["BackgroundServicePlugin"]),
        // The C floor of `plugin-host bench` (a pipe echo between two C processes).
        .executableTarget(name: "bench-floor"),
        // The host depends on the plugin's and the C floor's executable targets only so
        // that `swift run plugin-host demo` and `bench` build the binaries they spawn.
        .executableTarget(name: "plugin-host", dependencies: ["HostCLI", "background-service-plugin", "bench-floor"]),

        // Helpers for the test targets that run the built binaries (not a test target,
        // so that several test targets can share it).
        .target(name: "HostTestSupport", dependencies: ["HostProtocol"], path: "Tests/HostTestSupport"),
        .testTarget(name: "HostProtocolTests", dependencies: ["HostProtocol", "HostTestSupport"]),
        // The emulated OS alone, without the plugin's port.
        .testTarget(name: "EmulatedIOSTests", dependencies: ["EmulatedIOS", "HostProtocol"]),
        .testTarget(
            name: "BackgroundServicePluginTests",
            dependencies: [
                "BackgroundServicePlugin", "EmulatedIOS", "HostProtocol", "HostTestSupport",
                "background-service-plugin",
            ]
        ),
        .testTarget(
            name: "PluginHostTests",
            // PluginSoak for `FaultLatency` and `SoakMemory` (the process-fault tests).
            dependencies: [
                "PluginHost", "RustSide", "HostSimulation", "PluginInProcess", "HostProtocol", "PluginSoak",
                "HostTestSupport",
                "background-service-plugin", "hostile-plugin",
            ]
        ),
        // A second, deliberately different but conforming plugin for the conformance
        // suite's tests (not a product: never shipped).
        .executableTarget(
            name: "conformance-double", dependencies: ["BackgroundServicePlugin", "HostProtocol"],
            path: "Tests/ConformanceDouble"),
        // A plugin that misbehaves on purpose (flood, silence, answering twice, ...), for
        // the hostile-peer suite: the real plugin behind a proxy (test-only, never shipped).
        .executableTarget(name: "hostile-plugin", dependencies: ["HostProtocol"], path: "Tests/HostilePlugin"),
        .testTarget(
            name: "PluginConformanceTests",
            dependencies: ["PluginConformance", "PluginHost", "conformance-double"] + runsPluginHost),
        .testTarget(
            name: "PluginFuzzingTests",
            dependencies: ["PluginFuzzing", "HostSimulation", "RustSide", "PluginHost", "PluginInProcess"]
                + runsPluginHost),
        .testTarget(
            name: "PluginSoakTests", dependencies: ["PluginSoak", "PluginHost", "PluginBench"] + runsPluginHost),
        .testTarget(name: "HostCLITests", dependencies: runsPluginHost + ["HostCLI"], exclude: ["DocsShim"]),
    ],
    swiftLanguageModes: [.v6]
)
