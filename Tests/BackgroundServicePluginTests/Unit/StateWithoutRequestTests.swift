import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// `PluginEngine.stateWithoutRequest(id:)`: the snapshot `plugin/state` would answer with,
/// or nil where the request would be answered otherwise.
@Suite("unit: plugin/state without the request")
struct StateWithoutRequestTests {
    static func engine(_ configure: (inout PluginOptions) throws -> Void = { _ in }) throws -> PluginEngine {
        var options = PluginOptions()
        try configure(&options)
        return try PluginEngine(options: options)
    }

    /// The value equals what the request answers, and nothing is written for it.
    @Test func theValueIsTheAnswer() throws {
        let engine = try Self.engine()
        engine.receive(Array((req(1, "startKeepalive") + "\n" + req(2, "waitForCancel") + "\n").utf8))
        _ = engine.takeOutput()
        let value = try #require(engine.stateWithoutRequest(id: .int(3)))
        #expect(!engine.hasOutput)
        engine.receive(Array((state(3) + "\n").utf8))
        let answer = try JSONParser.parse(engine.takeOutput().dropLast())
        #expect(try PluginStateSnapshot(json: #require(answer["result"])) == value)
        #expect(value.pendingCancelInvoke == .int(2))
    }

    /// An id still pending would be refused (-32600): only the request can say so.
    @Test func aPendingIDIsLeftToTheRequest() throws {
        let engine = try Self.engine()
        engine.receive(Array((req(1, "startKeepalive") + "\n" + req(2, "waitForCancel") + "\n").utf8))
        #expect(engine.stateWithoutRequest(id: .int(2)) == nil)
        #expect(engine.stateWithoutRequest(id: .int(3)) != nil)
        let duplicates = try Self.engine { $0.faults = try FaultSet.parse("allow-duplicate-id") }
        duplicates.receive(Array((req(2, "waitForCancel") + "\n").utf8))
        #expect(duplicates.stateWithoutRequest(id: .int(2)) != nil)
    }

    /// The real clock, a fault that replaces the method, and a shut-down engine give nil.
    @Test func otherwiseNil() throws {
        #expect(try Self.engine { $0.clock = .real }.stateWithoutRequest(id: .int(1)) == nil)
        for fault in ["garbage-on-state", "exit-mid-frame-on-state"] {
            #expect(try Self.engine { $0.faults = try FaultSet.parse(fault) }.stateWithoutRequest(id: .int(1)) == nil)
        }
        let engine = try Self.engine()
        engine.receive(Array((req(1, "shutdown") + "\n").utf8))
        #expect(engine.stateWithoutRequest(id: .int(2)) == nil)
    }
}
