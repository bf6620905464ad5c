import Foundation
import HostProtocol
import PluginHost
import Testing

@testable import PluginConformance

/// The suite's parts: normalization, output splitting, diffs, escaping.
@Suite("conformance parts")
struct ConformanceUnitTests {
    private func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    @Test func patternsJudgeNamedMembersAndAllowOthers() {
        let p = Pattern(json: #"{"error":{"code":-32602,"message":"*"},"id":4,"jsonrpc":"2.0"}"#)
        #expect(
            p.mismatch(
                with: json(
                    #"{"jsonrpc":"2.0","id":4,"error":{"message":"Invalid params","code":-32602,"data":{"x":1}}}"#))
                == nil)
        #expect(
            p.mismatch(with: json(#"{"jsonrpc":"2.0","id":4,"error":{"message":"m","code":-32600}}"#))
                == "/error/code: expected -32602, found -32600")
        #expect(
            p.mismatch(with: json(#"{"jsonrpc":"2.0","id":4,"result":null}"#))
                == #"(the frame): member "error" is missing"#)
        // Numbers by value; extra members at any depth.
        let now = Pattern(json: #"{"id":1,"jsonrpc":"2.0","result":{"now":900}}"#)
        #expect(now.mismatch(with: json(#"{"id":1.0,"jsonrpc":"2.0","result":{"now":900.0,"at":3},"x":true}"#)) == nil)
        #expect(now.mismatch(with: json(#"{"id":1,"jsonrpc":"2.0","result":{"now":900.000000001}}"#)) != nil)
        // Arrays in order and of the same length; unordered where the contract fixes no order.
        #expect(Pattern(json: "[1,2]").mismatch(with: json("[2,1]")) != nil)
        #expect(Pattern(json: "[1,2]").mismatch(with: json("[1,2,3]")) == "(the frame): expected 2 items, found 3")
        #expect(
            Pattern.unordered([Pattern(json: "1"), Pattern(json: #"{"a":2}"#)]).mismatch(
                with: json(#"[{"a":2,"b":0},1]"#)) == nil)
        #expect(Pattern.unordered([Pattern(json: "1"), Pattern(json: "1")]).mismatch(with: json("[1,2]")) != nil)
        // Alternatives, and the description that shows them.
        let invalid = ConformanceCatalogue.invalidRequest(3)
        #expect(invalid.mismatch(with: json(#"{"error":{"code":-32600,"message":"x"},"id":3,"jsonrpc":"2.0"}"#)) == nil)
        #expect(
            invalid.mismatch(with: json(#"{"error":{"code":-32600,"message":"x"},"id":null,"jsonrpc":"2.0"}"#)) == nil)
        #expect(invalid.mismatch(with: json(#"{"error":{"code":-32600,"message":"x"},"id":4,"jsonrpc":"2.0"}"#)) != nil)
        #expect(invalid.description == #"{"error":{"code":-32600,"message":"*"},"id":(3 | null),"jsonrpc":"2.0"}"#)
        #expect(invalid.openChoices == ["id: the request's id, or null (an Invalid Request)"])
    }

    @Test func registrationsAcceptEveryShapeButJudgeIdentifiersAndKinds() {
        let p = Pattern.registrations(["a.bg-refresh": "refresh", "a.bg-processing": "processing"])
        #expect(
            p.mismatch(
                with: json(
                    #"[{"identifier":"a.bg-refresh","kind":"refresh"},{"identifier":"a.bg-processing","#
                        + #""kind":"processing"}]"#
                )) == nil)
        #expect(p.mismatch(with: json(#"["a.bg-processing","a.bg-refresh"]"#)) == nil)
        #expect(
            p.mismatch(with: json(#"{"a.bg-refresh":"refresh","a.bg-processing":{"kind":"processing","x":1}}"#)) == nil)
        #expect(
            p.mismatch(with: json(#"{"a.bg-refresh":"processing","a.bg-processing":"processing"}"#))?.contains(
                "registered as processing") == true)
        #expect(p.mismatch(with: json(#"["a.bg-refresh"]"#))?.contains("registered") == true)
        #expect(p.mismatch(with: json("5")) != nil)
    }

    @Test func unknownNotificationsAreSetAsideAndEverythingElseJudged() {
        let expected = [ConformanceCatalogue.result(1), ConformanceCatalogue.cancelled(.refresh)]
        let frames = [
            json(#"{"jsonrpc":"2.0","method":"plugin/log","params":{"line":"hi"}}"#),
            json(#"{"id":1,"jsonrpc":"2.0","result":null}"#),
            json(
                #"{"jsonrpc":"2.0","method":"os/requestCancelled","#
                    + #""params":{"identifier":"com.example.app.bg-refresh","at":0}}"#
            ),
        ]
        let match = ExchangeMatch(expected: expected, frames: frames)
        #expect(match.mismatch == nil && match.ignored == 1)
        let extra = ExchangeMatch(expected: expected, frames: frames + [frames[2]])
        #expect(extra.mismatch == "one unexpected reply after the 2 expected")
        let swapped = ExchangeMatch(expected: expected, frames: [frames[2], frames[1]])
        #expect(swapped.mismatch?.hasPrefix("reply 1 of 2 differs: ") == true)
        #expect(ExchangeMatch.alignment(expected, swapped.judged).count == 1)
    }

    @Test func everyFrameIsValidatedAgainstTheDocument() {
        var v = FrameValidator()
        v.noteSent(
            json(#"[{"jsonrpc":"2.0","id":1,"method":"os/launch"},{"jsonrpc":"2.0","id":2,"method":"waitForCancel"}]"#))
        #expect(
            v.violations(
                of: json(#"{"id":1,"jsonrpc":"2.0","result":{"identifier":"x","kind":"refresh","at":0,"extra":1}}"#)
            ).isEmpty)
        #expect(
            v.violations(
                of: json(#"{"id":2,"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":{"reason":"nope"}}}"#)
            )
            .first?.contains("error -32000's data") == true)
        v.noteSent(json(#"{"jsonrpc":"2.0","id":3,"method":"os/launch"}"#))
        #expect(
            v.violations(of: json(#"{"id":3,"jsonrpc":"2.0","result":{"identifier":"x","kind":"sometimes","at":0}}"#))
                .count == 1)
        v.noteSent(json(#"{"jsonrpc":"2.0","id":4,"method":"startKeepalive"}"#))
        #expect(
            v.violations(of: json(#"{"id":4,"jsonrpc":"2.0","error":{"code":-32002,"message":"m"}}"#))
                == ["the response: startKeepalive does not list error -32002"])
        #expect(
            v.violations(of: json(#"{"jsonrpc":"2.0","method":"os/taskLaunched","params":{"identifier":"x","at":0}}"#))
                .count == 1)
        #expect(v.violations(of: json(#"{"jsonrpc":"2.0","method":"x/unknown","params":{"y":1}}"#)).isEmpty)
        #expect(v.violations(of: json(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#)).isEmpty)
        #expect(!v.violations(of: json(#"{"jsonrpc":"2.0","id":9}"#)).isEmpty)
        #expect(v.validated == 8)
    }

    @Test func textFormIsCompactWithSortedKeys() {
        #expect(JSONTextShape.problem(in: Array(#"{"a":{"b":1,"c":[{"d":" x ","e":null}]},"b":"}{"}"#.utf8)) == nil)
        #expect(JSONTextShape.problem(in: Array(#"{"b":1,"a":2}"#.utf8)) == #"key "a" after "b" (keys must be sorted)"#)
        #expect(JSONTextShape.problem(in: Array(#"{"a":[{"z":1,"y":2}]}"#.utf8))?.contains("after \"z\"") == true)
        #expect(JSONTextShape.problem(in: Array(#"{"a": 1}"#.utf8))?.hasPrefix("whitespace at byte 5") == true)
        #expect(JSONTextShape.problem(in: Array(#"{"a\"b":1,"a\u0063":2}"#.utf8)) == nil)
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
        let pairs = ConformanceText.alignment(3, 3) { ["a", "b", "c"][$0] == ["a", "c", "d"][$1] }
        #expect(
            ConformanceText.diff(expected: ["a", "b", "c"], actual: ["a", "c", "d"], matched: pairs) == [
                "  a", "- b", "  c", "+ d",
            ])
        #expect(ConformanceText.summary(expected: 2, actual: 1, firstMismatch: nil) == "reply 2 of 2 is missing")
        #expect(
            ConformanceText.summary(expected: 1, actual: 2, firstMismatch: nil)
                == "one unexpected reply after the 1 expected")
        #expect(
            ConformanceText.summary(expected: 2, actual: 2, firstMismatch: (1, "why")) == "reply 2 of 2 differs: why")
        let long = (0..<20).map(String.init)
        var changed = long
        changed[10] = "x"
        let aligned = ConformanceText.alignment(20, 20) { long[$0] == changed[$1] }
        #expect(
            ConformanceText.diff(expected: long, actual: changed, matched: aligned, context: 1)
                == ["  … (9 identical)", "  9", "- 10", "+ x", "  11", "  … (8 identical)"])
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
        #expect(
            text
                == "→ {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"waitForCancel\"}\n← "
                + "{\"error\":{\"code\":-32000,\"data\":{\"reason\":\"superseded\"},\"message\":\"*\"},"
                + "\"id\":1,\"jsonrpc\":\"2.0\"}"
        )
        #expect(
            ConformanceCatalogue.named("scheduler.os-submit.errors")!.acceptance.contains {
                $0 == "-32601 to os/submit: the check is skipped (extension not offered)"
            })
    }
}
