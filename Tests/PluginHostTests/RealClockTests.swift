import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import PluginHost

/// `--clock real`: timers fire on the plugin's serial owner at their scaled deadlines.
@Suite("Real clock")
struct RealClockTests {
    /// In a process, and in this one (where only the transport's timer can wake the
    /// engine: nothing is sent while the timer runs).
    @Test(arguments: [false, true])
    func safetyTimerFiresOnTheRealClock(inProcess: Bool) async throws {
        // 1000 virtual seconds per real second: the 28 s safety timer fires after about 28 ms.
        let arguments = ["--clock", "real", "--time-scale", "1000", "--events"]
        let binary = PluginLauncher(executable: Binaries.plugin, arguments: arguments)
        let launcher = inProcess ? .inProcess(arguments: arguments) : binary
        let client = BackgroundServiceClient(
            connection: try PluginConnection(launcher: launcher, options: .init(stderrLine: { _ in })))
        defer { client.connection.close() }
        try await client.startKeepalive(StartKeepaliveConfig())
        // Written before the launch (an `async let` could be written after it); the
        // timeout is a generous bound that catches a hang.
        let wait = client.armWaitForCancel(timeout: .seconds(20))
        let launch = try await client.os.launch("com.example.app.bg-refresh")
        #expect(try await wait.signal() == .resolved)
        let state = try await client.os.state()
        #expect(state.counters.completed == 1)
        #expect(state.activeTask == nil)
        let deadline = launch.at.adding(seconds: 28)
        #expect(state.now >= deadline, "the timer fired before its deadline on the scaled clock")
        // The refresh request was rescheduled at the timer's time, 15 minutes later.
        let refresh = state.pendingRequests.first { $0.kind == .refresh }
        #expect(refresh?.earliestBeginDate.map { $0 >= deadline.adding(seconds: 900) } == true)
        // os/advanceTime does not apply to the real clock.
        do {
            _ = try await client.os.advanceTime(seconds: 1)
            Issue.record("os/advanceTime succeeded under --clock real")
        } catch {
            #expect(error.rpcCode == .invalidState)
        }
    }
}
