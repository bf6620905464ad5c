import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import PluginHost

/// The typed OS driver covers the `--os ios` controls too: explain, terminate, openApp
/// and setPolicy, with the HostProtocol types.
@Suite("OperatingSystem client under --os ios")
struct OperatingSystemClientTests {
    @Test func theIOSControlsAreTyped() async throws {
        let connection = try PluginConnection.inProcess(
            arguments: ["--os", "ios"], options: .init(stderrLine: { _ in }))
        defer { connection.close() }
        let client = BackgroundServiceClient(connection: connection)
        let os = client.os
        let policy = try await os.setPolicy(.init(refreshDelayMaxSecs: 0, refreshEarlyExpiryChance: 0))
        #expect(policy.refreshEarlyExpiryChance == 0)
        try await client.startKeepalive(StartKeepaliveConfig())
        let pending = try await os.explain("com.example.app.bg-refresh")
        #expect(pending.status == .pending)
        #expect(pending.reasons.map(\.factor).contains(.earliestBeginDate))
        let ended = try await os.terminate(.forceQuit)
        #expect(ended.forceQuit)
        let quit = try await os.explain("com.example.app.bg-refresh")
        #expect(quit.reasons.first?.factor == .forceQuit)
        let opened = try await os.openApp()
        #expect(!opened.forceQuit)
        let after = try await os.explain("com.example.app.bg-refresh")
        #expect(!after.reasons.map(\.factor).contains(.forceQuit))
    }
}
