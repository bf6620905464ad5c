import Dispatch
import Foundation
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// `PluginPipe.write(_:deadline:)`: the watchdog and the write it guards.
@Suite("PluginPipe write deadline")
struct PluginPipeWriteDeadlineTests {
    static let big =
        Array(String(repeating: " ", count: 20_000).utf8)
        + Array(#"{"jsonrpc":"2.0","id":1,"method":"plugin/state"}"#.utf8) + [0x0A]

    /// A watchdog already running when the write returns (too late to cancel) must not
    /// kill a plugin whose write finished in time.
    @Test func aWatchdogThatRunsAfterTheWriteLeavesThePluginAlone() throws {
        let pipe = try PluginPipe(executable: Binaries.plugin, arguments: [], environment: [:])
        defer { pipe.stop() }
        let late = Box<(@Sendable () -> Void)?>(nil)
        let ok = pipe.write(
            Self.big, deadline: .now(),
            arm: { _, body in
                late.set(body)
                return {}  // as a cancel() that comes too late to stop a running item
            })
        #expect(ok)
        let watchdog = try #require(late.get, "the write armed its watchdog")
        watchdog()
        #expect(!pipe.killedByWatchdog)
        let answer = pipe.take(deadline: .now() + .seconds(20))
        #expect(answer?.closed == false)
        let text = String(decoding: answer?.bytes ?? [], as: UTF8.self)
        #expect(text.hasPrefix(#"{"id":1,"#))
    }

    /// A watchdog that fires while the write is still blocked kills the plugin, and the
    /// write reports it.
    @Test func aWatchdogFirstKillsThePlugin() throws {
        let pipe = try PluginPipe(executable: Binaries.plugin, arguments: [], environment: [:])
        defer { pipe.stop() }
        let ok = pipe.write(
            Self.big, deadline: .now(),
            arm: { _, body in
                body()
                return {}
            })
        #expect(!ok)
        #expect(pipe.killedByWatchdog)
        #expect(pipe.waitForExit(timeout: .seconds(10)) == .signaled(SIGKILL))
    }
}
