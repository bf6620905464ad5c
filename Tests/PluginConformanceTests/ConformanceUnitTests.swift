import Foundation
import HostProtocol
import PluginHost
import Testing

@testable import PluginConformance

/// The suite's parts: normalization, output splitting, diffs, escaping.
@Suite("conformance parts")
struct ConformanceUnitTests {
    @Test func normalizationMasksOnlyWhatTheContractLeavesFree() {
        var n = ReplyNormalizer()
        n.noteSent(.json(#"{"jsonrpc":"2.0","id":"s","method":"plugin/state"}"#))
        #expect(n.normalize(Array(#"{"jsonrpc":"2.0","id":4,"error":{"message":"Invalid params: x","code":-32602,"data":{"path":"x"}}}"#.utf8))
            == #"{"error":{"code":-32602,"message":"*"},"id":4,"jsonrpc":"2.0"}"#)
        #expect(n.normalize(Array(#"{"id":4,"jsonrpc":"2.0","error":{"code":-32000,"message":"no","data":{"reason":"completed"}}}"#.utf8))
            == #"{"error":{"code":-32000,"data":{"reason":"completed"},"message":"*"},"id":4,"jsonrpc":"2.0"}"#)
        #expect(n.normalize(Array(#"{"id":1.0,"jsonrpc":"2.0","result":{"now":900.0}}"#.utf8)) == #"{"id":1.0,"jsonrpc":"2.0","result":{"now":900}}"#)
        let state = #"{"id":"s","jsonrpc":"2.0","result":{"now":0,"cancelInvokePending":false,"counters":{"launched":0,"completed":0,"expired":0,"violations":0,"dropped":2},"registered":[{"identifier":"b"},{"identifier":"a"}]}}"#
        #expect(n.normalize(Array(state.utf8)) == #"{"id":"s","jsonrpc":"2.0","result":{"counters":{"completed":0,"expired":0,"launched":0,"violations":0},"now":0,"registered":[{"identifier":"a"},{"identifier":"b"}]}}"#)
        // Not a plugin/state reply: nothing is dropped.
        #expect(n.normalize(Array(#"{"id":"t","jsonrpc":"2.0","result":{"cancelInvokePending":false}}"#.utf8))?.contains("cancelInvokePending") == true)
        #expect(n.normalize(Array("not json".utf8)) == nil)
    }

    @Test func outputSplitterIsStrict() throws {
        var lsp = OutputSplitter(framing: .lsp)
        lsp.append(Array("Content-Length: 2\r\n\r".utf8))
        #expect(try lsp.next() == nil)
        lsp.append(Array("\n{}Content-Len".utf8))
        let frame = try #require(try lsp.next())
        #expect(frame.body == Array("{}".utf8) && frame.raw == Array("Content-Length: 2\r\n\r\n{}".utf8))
        #expect(try lsp.next() == nil)

        var ndjsonInsteadOfLSP = OutputSplitter(framing: .lsp)
        ndjsonInsteadOfLSP.append(Array("{\"id\"".utf8))
        #expect(throws: OutputSplitter.Malformed.self) { try ndjsonInsteadOfLSP.next() }

        var extraHeader = OutputSplitter(framing: .lsp)
        extraHeader.append(Array("Content-Length: 2\r\nContent-Type: json\r\n\r\n{}".utf8))
        #expect(throws: OutputSplitter.Malformed.self) { try extraHeader.next() }

        var lines = OutputSplitter(framing: .ndjson)
        lines.append(Array("{}\n[]\n{".utf8))
        #expect(try lines.next()?.body == Array("{}".utf8))
        #expect(try lines.next()?.body == Array("[]".utf8))
        #expect(try lines.next() == nil)
    }

    @Test func diffShowsMissingAndExtraReplies() {
        #expect(ConformanceText.diff(expected: ["a", "b", "c"], actual: ["a", "c", "d"]) == ["  a", "- b", "  c", "+ d"])
        #expect(ConformanceText.summary(expected: ["a", "b"], actual: ["a"]) == "reply 2 of 2 is missing")
        #expect(ConformanceText.summary(expected: ["a"], actual: ["a", "b"]) == "one unexpected reply after the 1 expected")
        #expect(ConformanceText.summary(expected: ["a", "b"], actual: ["a", "x"]) == "reply 2 of 2 differs")
        let long = (0..<20).map(String.init)
        var changed = long
        changed[10] = "x"
        #expect(ConformanceText.diff(expected: long, actual: changed, context: 1) == ["  … (9 identical)", "  9", "- 10", "+ x", "  11", "  … (8 identical)"])
    }

    @Test func escapingKeepsReportsPrintableAndXMLSafe() {
        #expect(ConformanceText.escape([0x7B, 0x0D, 0x0A, 0xFF, 0xC3, 0xA9, 0x00]) == "{\\r\\n\\xffé\\x00")
        #expect(ConformanceReport.escape("a<b>&\"'\u{1}") == "a&lt;b&gt;&amp;&quot;&apos;\u{FFFD}")
        #expect(ConformanceText.shorten(String(repeating: "x", count: 500), limit: 10) == "xxxxxxxxxx… (500 bytes)")
    }

    @Test func stepsDescribeThemselves() {
        let check = ConformanceCatalogue.named("profile.strict.superseded-rejected")!
        #expect(check.profiles == [.strict])
        #expect(!check.differsByProfile)
        #expect(ConformanceCatalogue.named("session.initialize.result")!.differsByProfile)
        let text = check.script(.strict)[1].description
        #expect(text == "→ {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"waitForCancel\"}\n← {\"error\":{\"code\":-32000,\"data\":{\"reason\":\"superseded\"},\"message\":\"*\"},\"id\":1,\"jsonrpc\":\"2.0\"}")
    }
}
