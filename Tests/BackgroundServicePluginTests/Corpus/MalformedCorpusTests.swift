import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// Issue 8, part 1: the malformed-input corpus through the plugin binary, in both
/// framings. Every case runs in one long-lived plugin process and is followed by a
/// `plugin/reset` and a `plugin/state`: the case must get exactly the contract's
/// replies, the plugin must answer both followers (it is still serving), and the
/// state must be the fresh one. The whole corpus runs four times; after two warm-up
/// passes, the plugin's memory (resident and peak) must not grow by more than 1 MiB.
@Suite("malformed-input corpus", .serialized)
struct MalformedCorpusTests {
    static var cases: [CorpusCase] { GeneratedCorpus.all + HandWrittenCorpus.all }

    /// "Did not grow": resident memory after the second pass within this of the first.
    static let growthSlackKB = 1024
    /// glibc raises its mmap threshold each time a large block is freed, so the
    /// corpus's multi-megabyte transients end up on the heap wherever they fit and
    /// the resident size wanders by a megabyte or two from pass to pass. A fixed
    /// threshold (which also turns that adjustment off) makes blocks of 64 KiB and
    /// more go straight back to the system, so that RSS measures live memory.
    static let preciseMalloc = ["MALLOC_MMAP_THRESHOLD_": "65536"]
    static let warmUpPasses = 2
    /// Passes in all (`BSP_CORPUS_PASSES` raises it, for a longer look at memory).
    static let passes = max(warmUpPasses + 1, Int(ProcessInfo.processInfo.environment["BSP_CORPUS_PASSES"] ?? "") ?? 4)

    @Test func theCorpusIsLargeAndNamed() {
        let cases = Self.cases
        let runs = cases.reduce(0) { $0 + $1.wire.count }
        let generated = GeneratedCorpus.all.count
        let handWritten = HandWrittenCorpus.all.count
        let size =
            "corpus: \(cases.count) cases (\(generated) generated, \(handWritten) hand-written), "
            + "\(runs) case runs over both framings, plus \(StreamEnd.cases.count) stream-ending inputs"
        #expect(cases.count >= 200, "\(size)")
        #expect(runs >= 400, "\(size)")
        var seen: Set<String> = []
        for c in cases { #expect(seen.insert(c.name).inserted, "duplicate case name \(c.name)") }
    }

    @Test(arguments: [Framing.ndjson, .lsp])
    func everyCaseGetsTheContractsReply(framing: Framing) throws {
        let plugin = try StreamingPlugin(environment: Self.preciseMalloc)
        let cases = Self.cases.filter { $0.wire[framing] != nil }
        var runner = CorpusRunner(plugin: plugin, framing: framing)
        // The first good frame fixes the framing (auto-detection) and the fresh state.
        guard let fresh = runner.resetAndState() else {
            Issue.record("the plugin did not answer its first request; stderr: \(plugin.stderr)")
            return
        }

        // Two warm-up passes (the allocator's peak settles over the first two), then
        // two measured passes; every pass checks every reply.
        var failures: [String] = []
        var memory: [(rss: Int, hwm: Int)] = []
        for pass in 1...Self.passes {
            for c in cases { if let f = runner.run(c, fresh: fresh) { failures.append("(pass \(pass)) " + f) } }
            memory.append(plugin.memory())
        }
        let afterWarmUp = memory[Self.warmUpPasses - 1]
        let afterSecond = memory[Self.passes - 1]
        let trace = memory.map { "\($0.rss)/\($0.hwm)" }.joined(separator: ", ")
        let figures = "\(cases.count) cases × \(Self.passes) passes; VmRSS/VmHWM KiB after each pass: \(trace)"

        let shown = failures.prefix(25).joined(separator: "\n")
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(Self.passes * cases.count) case runs failed (\(framing)):\n\(shown)")
        #expect(afterWarmUp.rss > 0, "could not read the plugin's memory")
        let checkMemory = !SanitizerBuild.active
        #expect(
            !checkMemory || afterSecond.rss - afterWarmUp.rss <= Self.growthSlackKB,
            "resident memory grew from \(afterWarmUp.rss) KiB to \(afterSecond.rss) KiB (\(figures))")
        #expect(
            !checkMemory || afterSecond.hwm - afterWarmUp.hwm <= Self.growthSlackKB,
            "peak memory grew from \(afterWarmUp.hwm) KiB to \(afterSecond.hwm) KiB (\(figures))")

        plugin.closeStdin()
        #expect(plugin.remainingFrames()?.isEmpty == true)
        #expect(plugin.waitForExit() == 0)
    }

    /// Frames longer than the limit are discarded as they arrive: a 64 MiB frame
    /// raises the plugin's peak memory by far less than its size.
    @Test(arguments: [Framing.ndjson, .lsp])
    func anOversizedFrameIsNeverHeldWhole(framing: Framing) throws {
        let plugin = try StreamingPlugin()
        var runner = CorpusRunner(plugin: plugin, framing: framing)
        #expect(runner.resetAndState() != nil)
        let before = plugin.memory()
        let size = 64 << 20
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        if framing == .lsp { plugin.write(Array("Content-Length: \(size)\r\n\r\n".utf8)) }
        for _ in 0..<(size / chunk.count) { plugin.write(chunk) }
        if framing == .ndjson { plugin.write([0x0A]) }
        let reply = try #require(plugin.frames(through: "null", timeout: 60))
        #expect(Reply.invalidRequest().matches(try JSONParser.parse(reply.reply)))
        #expect(runner.resetAndState() != nil, "the plugin stopped serving after a 64 MiB frame")
        let after = plugin.memory()
        #expect(
            SanitizerBuild.active || after.hwm - before.hwm < 8 << 10,
            "peak memory rose by \(after.hwm - before.hwm) KiB for a 64 MiB frame")
        plugin.closeStdin()
        #expect(plugin.waitForExit() == 0)
    }

    /// A `Content-Length` within 18 digits but beyond the limit is answered at once
    /// (-32600); the plugin then discards that many bytes, so the stream cannot
    /// continue, and the plugin still exits 0 at the end of its input.
    @Test func aHugeContentLengthIsAnsweredAtOnce() throws {
        let plugin = try StreamingPlugin()
        var runner = CorpusRunner(plugin: plugin, framing: .lsp)
        #expect(runner.resetAndState() != nil)
        plugin.write(Array("Content-Length: 999999999999999999\r\n\r\n".utf8))
        let reply = try #require(plugin.frames(through: "null", timeout: 10), "no reply before the body arrived")
        #expect(Reply.invalidRequest().matches(try JSONParser.parse(reply.reply)))
        plugin.write(FrameEncoder.frame(Array(HandWrittenCorpus.pending.utf8), framing: .lsp))
        plugin.closeStdin()
        #expect(plugin.remainingFrames() == [], "the bytes of the declared body are discarded")
        #expect(plugin.waitForExit() == 0)
    }

    /// Input quoted in a diagnostic cannot forge or flood stderr lines: control
    /// characters are escaped and long names cut, so every line is the plugin's own.
    @Test func inputCannotSplitOrFloodStderrLines() throws {
        let input =
            #"{"jsonrpc":"2.0","id":1,"method":"a\nforged: line\u0000\u001b[31m\u009b1m"}"# + "\n"
            + #"{"jsonrpc":"2.0","id":2,"method":""# + String(repeating: "m", count: 100_000) + "\"}\n"
        let run = try Plugin.run([], input: Array(input.utf8))
        #expect(run.status == 0)
        #expect(run.lines.count == 2)
        #expect(run.stderrLines.count == 2, "\(run.stderrLines.map { $0.prefix(80) })")
        #expect(run.stderrLines.allSatisfy { $0.hasPrefix("background-service-plugin: ") })
        #expect(run.stderr.contains(#"a\u{a}forged: line\u{0}\u{1b}[31m\u{9b}1m"#))
        #expect(!run.stderr.unicodeScalars.contains("\u{9b}"), "a C1 control (CSI) reached stderr raw")
        #expect(!run.stderr.utf8.contains(0) && !run.stderr.utf8.contains(0x1B))
        #expect(run.stderr.utf8.count < 10_000, "a 100 KB method name made \(run.stderr.utf8.count) bytes of stderr")
    }

    /// Inputs after which the stream cannot continue (it ends mid-frame, or the
    /// plugin shuts down): each gets the contract's replies, then a clean exit 0,
    /// and a clear message on stderr where the input was cut off.
    @Test(arguments: StreamEnd.cases)
    func streamsThatCannotContinueEndCleanly(_ c: StreamEnd) throws {
        let run = try Plugin.run(c.arguments, input: c.input, timeout: 20)
        #expect(!run.timedOut, "the plugin hung")
        #expect(run.status == 0, "exit status \(run.status); stderr: \(run.stderr)")
        let frames = CorpusRunner.frames(of: run.stdout)
        let head = String(decoding: run.stdout.prefix(500), as: UTF8.self)
        #expect(
            frames.count == c.replies.count,
            "got \(frames.count) replies, expected \(c.replies): \(head)"
        )
        for (reply, frame) in zip(c.replies, frames) {
            #expect(reply.matches(frame), "expected \(reply), got \(frame)")
        }
        if let message = c.stderr {
            #expect(run.stderr.contains(message), "stderr lacks \"\(message)\": \(run.stderr)")
        }
        #expect(
            !run.stderr.contains("Fatal error") && !run.stderr.contains("Crash"),
            "crash report on stderr: \(run.stderr)")
    }
}
