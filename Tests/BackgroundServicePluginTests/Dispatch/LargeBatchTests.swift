import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// A large batch under `--dispatch tauri`: every member stays pending until its job runs, so
/// the pending ids and the queues hold the whole batch at once. Each operation on them is
/// constant time; they used to be arrays searched and shifted per member (quadratic: a
/// 20,000-member batch took 76 s in a debug build, against 0.3 s under `serial`).
@Suite("dispatch: large batches")
struct LargeBatchTests {
    /// 20,000 members, answered in order, within a timeout meant only to catch the quadratic
    /// behaviour (about 1 s in a debug build when linear). Under a sanitizer (instrumented
    /// and sharing the machine with the whole suite: 94 to 144 s for linear work under TSan)
    /// time says nothing: 2,000 members, order checked, no timeout.
    @Test(arguments: [DispatchMode.serial, .tauri])
    func twentyThousandMembers(dispatch: DispatchMode) throws {
        let count = SanitizerBuild.active ? 2_000 : 20_000
        var options = try Dispatching.options(dispatch)
        options.maxFrameBytes = 100_000_000
        let engine = try PluginEngine(options: options)
        let batch = "[" + (0..<count).map { req($0, "cancelCancelListener") }.joined(separator: ",") + "]\n"
        let elapsed = ContinuousClock().measure { engine.receive(Array(batch.utf8)) }
        if !SanitizerBuild.active { #expect(elapsed < .seconds(20), "\(elapsed) for \(count) members") }
        let reply = try JSONParser.parse(engine.takeOutput().dropLast())
        let ids = try #require(reply.arrayValue).map { $0["id"]?.int64Value }
        #expect(ids == (0..<count).map { Int64($0) })
    }

    /// The pending ids compare as the wire does: by their JSON text (`1`, `1.0` and `"1"` are
    /// three ids; two spellings of "é" are two), and count each request holding an id.
    @Test func pendingIDsCompareByteForByte() throws {
        var pending = PendingIDs()
        let one = try #require(RequestID(json: try JSONParser.parse(Array("1".utf8))))
        let onePointZero = try #require(RequestID(json: try JSONParser.parse(Array("1.0".utf8))))
        pending.insert(one)
        #expect(pending.contains(.int(1)) && !pending.contains(onePointZero) && !pending.contains(.string("1")))
        pending.insert(.string("\u{E9}"))
        #expect(pending.contains(.string("\u{E9}")) && !pending.contains(.string("e\u{301}")))
        pending.insert(one)
        pending.remove(one)
        #expect(pending.contains(one), "a second request with the id is still pending")
        pending.remove(one)
        pending.remove(.string("\u{E9}"))
        pending.remove(.string("never"))
        #expect(pending.isEmpty)
    }
}
