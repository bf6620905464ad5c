// This file is the example of docs/embedding.md, between the markers; a test
// checks the two are identical and runs it.
// BEGIN EXAMPLE
import HostProtocol
import PluginHost
import RustSide

/// The app's own background work: uploads a few photos once iOS has launched
/// the background task, stopping when asked.
struct PhotoUpload: BackgroundService {
    var photos = 3
    /// Ends when iOS has launched the task.
    let launched: AsyncStream<Void>

    func initialize(_ context: ServiceContext) async throws {
        context.log("upload run \(context.generation): connecting")
    }

    func run(_ context: ServiceContext) async throws {
        for await _ in launched {}
        for _ in 0..<photos {
            try await context.sleep(seconds: 0.05)  // throws once the service is stopped
        }
    }
}

/// Starts the plugin, plays iOS launching the refresh task, runs the upload
/// under the service manager until it ends on its own, and returns what the
/// plugin saw. The service's log lines go to `log`.
func runUploadOnce(
    pluginPath: String, log: @escaping @Sendable (String) -> Void = { print("upload: \($0)") }
) async throws -> PluginStateSnapshot {
    let client = try BackgroundServiceClient(
        plugin: .init(executable: pluginPath, arguments: ["--clock", "real", "--profile", "strict"]))
    defer { client.connection.close() }
    let info = try await client.os.initialize(events: false)

    let (events, sink) = AsyncStream.makeStream(of: ServiceEvent.self)
    let (launched, launch) = AsyncStream.makeStream(of: Void.self)
    let manager = ServiceManager(
        client: client, factory: { PhotoUpload(launched: launched) },
        configuration: .init(behaviour: .strict, onEvent: { sink.yield($0) }, log: log))

    var config = StartKeepaliveConfig()
    config.iosSafetyTimeoutSecs = 20
    try await manager.start(config)

    // Play the OS: launch the background task that keeps the app alive.
    try await client.os.launch(info.refreshIdentifier)
    launch.finish()

    // Wait until the run has ended and its completion callback has completed the task.
    for await event in events {
        if case .runFinished = event { break }
    }
    return try await client.os.state()
}
// END EXAMPLE
