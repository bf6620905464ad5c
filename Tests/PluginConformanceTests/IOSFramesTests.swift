import Dispatch
import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginConformance

/// The OpenRPC document also describes what `--os ios` writes: a session that uses
/// every `--os ios` method, and makes the OS launch, defer, expire and terminate on
/// its own, writes only frames that validate against it.
@Suite("OpenRPC document and --os ios")
struct IOSFramesTests {
    static let refresh = "com.example.app.bg-refresh"

    static let script: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"events":true}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"os/setPolicy","params":"#
            + #"{"refreshDelayMaxSecs":0,"refreshEarlyExpiryChance":0}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"startKeepalive","params":{"iosProcessingSafetyTimeoutSecs":60}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"waitForCancel"}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"os/setConditions","params":{"lowPowerMode":true,"batteryLevel":0.5}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"os/advanceTime","params":{"seconds":1000}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"os/explain","params":{"identifier":"\#(refresh)"}}"#,
        #"{"jsonrpc":"2.0","id":8,"method":"os/setConditions","params":{"lowPowerMode":false}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"os/advanceTime","params":{"seconds":86400}}"#,
        #"{"jsonrpc":"2.0","id":10,"method":"plugin/state"}"#,
        #"{"jsonrpc":"2.0","id":11,"method":"waitForCancel"}"#,
        #"{"jsonrpc":"2.0","id":12,"method":"os/terminate","params":{"reason":"system"}}"#,
        #"{"jsonrpc":"2.0","id":13,"method":"startKeepalive"}"#,
        #"{"jsonrpc":"2.0","id":14,"method":"plugin/state"}"#,
        #"{"jsonrpc":"2.0","id":15,"method":"os/openApp"}"#,
        #"{"jsonrpc":"2.0","id":16,"method":"os/terminate","params":{"reason":"forceQuit"}}"#,
        #"{"jsonrpc":"2.0","id":17,"method":"os/openApp"}"#,
        #"{"jsonrpc":"2.0","id":18,"method":"startKeepalive"}"#,
        #"{"jsonrpc":"2.0","id":23,"method":"os/launch","params":{"identifier":"\#(refresh)"}}"#,
        #"{"jsonrpc":"2.0","id":19,"method":"os/expire","params":{"identifier":"\#(refresh)"}}"#,
        #"{"jsonrpc":"2.0","id":20,"method":"os/advanceTime","params":{"seconds":600}}"#,
        #"{"jsonrpc":"2.0","id":21,"method":"os/setPolicy","params":{"energyBudgetLaunches":0}}"#,
        #"{"jsonrpc":"2.0","id":22,"method":"plugin/state"}"#,
        #"{"jsonrpc":"2.0","id":24,"method":"os/setPolicy","params":{"appStates":true,"jetsamChance":0}}"#,
        #"{"jsonrpc":"2.0","id":25,"method":"os/openApp"}"#,
        #"{"jsonrpc":"2.0","id":26,"method":"os/sendToBackground"}"#,
        #"{"jsonrpc":"2.0","id":27,"method":"os/advanceTime","params":{"seconds":10}}"#,
        #"{"jsonrpc":"2.0","id":28,"method":"plugin/state"}"#,
    ]

    @Test func everyFrameOfAnIOSSessionValidates() async throws {
        let frames = try await onThread { () -> [JSONValue] in
            let pipe = try PluginPipe(
                executable: Binaries.plugin, arguments: ["--os", "ios", "--os-seed", "7"], environment: [:])
            _ = pipe.write(Array(Self.script.map { $0 + "\n" }.joined().utf8))
            pipe.closeStdin()
            var stdout: [UInt8] = []
            while let more = pipe.take(deadline: .now() + 30) {
                stdout += more.bytes
                if more.closed { break }
            }
            pipe.stop()
            return stdout.split(separator: 0x0A).compactMap { try? JSONParser.parse(Array($0)) }
        }
        var validator = FrameValidator()
        for line in Self.script { validator.noteSent(try JSONParser.parse(Array(line.utf8))) }
        var violations: [String] = []
        for frame in frames { violations += validator.violations(of: frame) }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        let events = Set(frames.compactMap { $0["id"] == nil ? $0["method"]?.stringValue : nil })
        for name in MethodRegistry.iosEvents + ["os/taskLaunched", "os/taskExpired", "os/taskCompleted"] {
            #expect(events.contains(name), "the session never wrote \(name): \(events.sorted())")
        }
        let answered = Set(frames.compactMap { $0["id"]?.int64Value })
        #expect(answered.isSuperset(of: Set(1...23).subtracting([4, 11])), "\(answered.sorted())")
        #expect(frames.contains { $0["error"]?["data"]?["reason"] == "terminated" })
        #expect(validator.validated == frames.count)
    }
}
