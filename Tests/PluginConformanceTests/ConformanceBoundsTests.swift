import Foundation
import HostProtocol
import PluginHost
import Testing

@testable import PluginConformance

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The suite's own bounds, without a plugin: linear splitting, frames past their size,
/// diffs of long outputs, progress lines, and how skips and broken transports are reported.
@Suite("conformance bounds")
struct ConformanceBoundsTests {
    /// A 4 MiB line that arrives 1 KiB at a time is searched once, not once per piece
    /// (the old splitter searched it from its start on every read: 8 GiB of reads).
    @Test func aLongLineCutSmallIsSearchedOnce() throws {
        var splitter = OutputSplitter(framing: .ndjson)
        let piece = [UInt8](repeating: 0x20, count: 1024)
        for _ in 0..<4096 {
            splitter.append(piece)
            #expect(try splitter.next() == nil)
        }
        splitter.append(Array(#"{"a":1}"#.utf8) + [0x0A])
        let frame = try #require(try splitter.next())
        #expect(frame.body.count == 4 << 20 + 7)
        #expect(splitter.bytesSearched <= 4 << 20 + 8 + 4096, "searched \(splitter.bytesSearched) bytes")
    }

    @Test func framesPastTheLimitAreRefusedUnheld() throws {
        var line = OutputSplitter(framing: .ndjson, maxFrameBytes: 1000)
        line.append([UInt8](repeating: 0x41, count: 1001))
        let endless = try #require(throws: OutputSplitter.Malformed.self) { try line.next() }
        #expect(endless.oversize && endless.description.hasPrefix("a line of 1001 bytes and no end yet on stdout"))

        var complete = OutputSplitter(framing: .ndjson, maxFrameBytes: 1000)
        complete.append([UInt8](repeating: 0x41, count: 1500) + [0x0A])
        #expect(throws: OutputSplitter.Malformed.self) { try complete.next() }

        var lsp = OutputSplitter(framing: .lsp, maxFrameBytes: 1000)
        lsp.append(Array("Content-Length: 1000000000\r\n\r\n{".utf8))
        let length = try #require(throws: OutputSplitter.Malformed.self) { try lsp.next() }
        #expect(length.oversize && length.description.contains("a Content-Length of 953.7 MiB"))

        var header = OutputSplitter(framing: .lsp)
        header.append(Array(("Content-Length: " + String(repeating: "9", count: 2000)).utf8))
        let long = try #require(throws: OutputSplitter.Malformed.self) { try header.next() }
        #expect(!long.oversize && long.description.hasPrefix("an LSP header line longer than 1024 bytes"))
    }

    @Test func frameSplittingStillWorksAcrossCompaction() throws {
        var splitter = OutputSplitter(framing: .ndjson)
        var bodies: [[UInt8]] = []
        let frame = Array(#"{"jsonrpc":"2.0","method":"x"}"#.utf8)
        for _ in 0..<10_000 {
            splitter.append(frame + [0x0A] + frame.prefix(5))
            splitter.append(Array(frame.dropFirst(5)) + [0x0A])
            while let f = try splitter.next() { bodies.append(f.body) }
        }
        #expect(bodies.count == 20_000 && bodies.allSatisfy { $0 == frame })
        #expect(splitter.pending.isEmpty)
    }

    /// Two outputs of 100,000 lines each are paired by their common ends, not by a
    /// 10^10-cell table (that table was the 20 GB of `determinism.virtual-clock`).
    @Test func longListsAreAlignedInLinearSpace() {
        let n = 100_000
        let pairs = ConformanceText.alignment(n, n) { i, j in i == j && i != 50_000 }
        #expect(pairs.count == n - 1)
        #expect(pairs.first! == (0, 0) && pairs.last! == (n - 1, n - 1))
        #expect(!pairs.contains { $0.0 == 50_000 })
        let small = ConformanceText.alignment(3, 4) { i, j in [(0, 0), (1, 2), (2, 3)].contains { $0 == (i, j) } }
        #expect(small.map { [$0.0, $0.1] } == [[0, 0], [1, 2], [2, 3]])
    }

    @Test func escapingALongInputCopiesOnlyWhatIsShown() {
        let text = ConformanceText.escape([UInt8](repeating: 0x1B, count: 10 << 20), limit: 10)
        #expect(text == String(repeating: "\\x1b", count: 10) + "… (10485760 bytes)")
    }

    @Test func theTranscriptKeepsOneMiBAndComparesAll() {
        var a = Transcript()
        var b = Transcript()
        let chunk = [UInt8](repeating: 0x61, count: 600_000)
        for _ in 0..<3 {
            a.append(chunk)
            b.append(chunk)
        }
        #expect(a == b && a.isCut && a.count == 1_800_000)
        b.append([0x62])
        #expect(a != b)
        var c = Transcript()
        c.append(chunk + chunk + chunk.dropLast() + [0x62])
        #expect(a.kept == c.kept && a != c)
    }

    @Test func onlyAfterInitializeJudgesUnnamedNotifications() throws {
        let check = try #require(ConformanceCatalogue.named("events.only-after-initialize"))
        let step = check.script(.seed)[0]
        #expect(step.judgesEveryNotification)
        let hello: JSONValue = ["jsonrpc": "2.0", "method": "x/hello"]
        let reply: JSONValue = ["jsonrpc": "2.0", "id": 1, "result": .null]
        let lenient = ExchangeMatch(expected: [Pattern(json: reply.description)], frames: [hello, reply])
        #expect(lenient.mismatch == nil && lenient.ignored == 1)
        let strict = ExchangeMatch(
            expected: [Pattern(json: reply.description)], frames: [hello, reply], judgesEveryNotification: true)
        #expect(strict.mismatch != nil && strict.ignored == 0)
    }
}
