import BackgroundServicePlugin
import HostProtocol
import HostTestSupport
import Testing

/// What the libFuzzer orderings target found in the in-process engine
/// (docs/reliability.md, "found and fixed"), as plain tests. The inputs themselves
/// are in FuzzTargets/Seeds/orderings and replay in every fuzz run.
@Suite("fuzz findings, in-process")
struct FuzzFindingTests {
    func engine(_ profile: Profile = .seed) throws -> PluginEngine {
        var options = PluginOptions()
        options.profile = profile
        options.events = true
        return try PluginEngine(options: options)
    }

    /// Finding 1: releasing an engine with a `waitForCancel` pending (alone, or
    /// holding a batch reply open) crashed on an unowned reference.
    @Test(arguments: [Profile.seed, .strict])
    func anEngineReleasedWithAPendingWaitDoesNotCrash(_ profile: Profile) throws {
        for input in [
            req(1, "waitForCancel"),
            "[\(req(1, "waitForCancel")),\(state(2))]",
            req(1, "waitForCancel") + "\n" + req(2, "waitForCancel"),  // seed: the first is dropped
        ] {
            var engine: PluginEngine? = try self.engine(profile)
            engine!.receive(Array((input + "\n").utf8))
            _ = engine!.takeOutput()
            engine = nil  // the pending invoke outlives the engine
            #expect(engine == nil)
        }
    }

    /// Finding 2: an invalid message, or a response object, carrying the id of a
    /// pending request must not free that id.
    @Test func invalidMessagesDoNotFreeAPendingID() throws {
        let engine = try self.engine()
        let lines = [
            req(1, "waitForCancel"),
            #"{"jsonrpc":"2.0","id":1,"method":"stopKeepalive","params":null}"#,
            #"{"jsonrpc":"2.0","id":1,"result":5}"#,
            #"{"jsonrpc":"1.0","id":1,"method":"plugin/state"}"#,
            req(1, "os/pendingTaskRequests"),
        ]
        engine.receive(Array(lines.map { $0 + "\n" }.joined().utf8))
        let out = String(decoding: engine.takeOutput(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(out.count == 4)
        #expect(out.last == failure(1, -32600, "Invalid Request: id 1 is already used by a pending request"))
    }
}
