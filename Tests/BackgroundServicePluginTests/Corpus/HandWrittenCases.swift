import HostProtocol
import HostTestSupport

/// The hand-written part of the malformed-input corpus: size and depth limits,
/// duplicate keys, BOMs, NUL bytes, line endings, LSP header defects, frames
/// split across reads, and inputs the fuzzers found.
enum HandWrittenCorpus {
    static var all: [CorpusCase] {
        sizes + structure + controlBytes + ndjsonLines + lspHeaders + split + fuzzFindings + numberForms
    }

    static let state = #"{"jsonrpc":"2.0","id":7,"method":"plugin/state"}"#
    static let pending = #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests"}"#

    // MARK: Sizes and depth

    static var sizes: [CorpusCase] {
        let megabyte = 1 << 20
        func withLabel(_ length: Int) -> [UInt8] {
            #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","params":{"label":""#.bytes
                + [UInt8](repeating: UInt8(ascii: "y"), count: length) + #""}}"#.bytes
        }
        let overhead = withLabel(0).count
        return [
            // The default limit is 1 MiB per frame (without the line terminator).
            CorpusCase(
                "a huge string, 1 MiB frame exactly", body: withLabel(megabyte - overhead), [.result("7", "[]")]),
            CorpusCase(
                "a huge string, 1 byte over the limit", body: withLabel(megabyte - overhead + 1), [.invalidRequest()]),
            CorpusCase("a 3 MiB string", body: withLabel(3 * megabyte), [.invalidRequest()]),
            CorpusCase(
                "a huge id string",
                body: #"{"jsonrpc":"2.0","id":""#.bytes + [UInt8](repeating: 0x61, count: 500_000)
                    + #"","method":"nope"}"#.bytes,
                [.error("\"" + String(repeating: "a", count: 500_000) + "\"", -32601)]),
            CorpusCase(
                "a huge method name",
                body: #"{"jsonrpc":"2.0","id":7,"method":""#.bytes + [UInt8](repeating: 0x6D, count: 500_000)
                    + #""}"#.bytes,
                [.error("7", -32601)]),
            CorpusCase(
                "50,000 members in params",
                body: (#"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","params":{"#
                    + (0..<50_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}}").bytes,
                [.result("7", "[]")]),
            CorpusCase(
                "a batch of 2,000 requests",
                body: ("["
                    + (0..<2_000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"nope"}"# }.joined(separator: ",")
                    + "]").bytes,
                [.batch((0..<2_000).map { .error("\($0)", -32601) })]),
            // Nesting: refused beyond 256 levels, so no input exhausts the stack.
            CorpusCase("100,000-deep arrays", body: String(repeating: "[", count: 100_000), [.parseError()]),
            CorpusCase(
                "100,000-deep arrays, closed",
                body: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), [.parseError()]),
            CorpusCase(
                "100,000-deep objects in params",
                body: #"{"jsonrpc":"2.0","id":7,"method":"plugin/state","params":"#
                    + String(repeating: #"{"a":"#, count: 100_000), [.parseError()]),
            CorpusCase(
                "100,000-deep arrays in the id",
                body: #"{"jsonrpc":"2.0","id":"# + String(repeating: "[", count: 100_000), [.parseError()]),
            CorpusCase(
                "255-deep params: within the limit",
                body: #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","params":{"a":"#
                    + String(repeating: "[", count: 254) + String(repeating: "]", count: 254) + "}}",
                [.result("7", "[]")]),
            CorpusCase(
                "257-deep params: beyond the limit",
                body: #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","params":{"a":"#
                    + String(repeating: "[", count: 256) + String(repeating: "]", count: 256) + "}}", [.parseError()]),
            CorpusCase(
                "a number of 100,000 digits",
                body: #"{"jsonrpc":"2.0","id":"# + String(repeating: "9", count: 100_000) + #","method":"nope"}"#,
                [.error(String(repeating: "9", count: 100_000), -32601)]),
        ]
    }

    // MARK: Structure

    static var structure: [CorpusCase] {
        [
            // Duplicate keys: the last one wins (as JSON.parse does).
            CorpusCase(
                "duplicate id, last wins", body: #"{"jsonrpc":"2.0","id":1,"id":7,"method":"os/pendingTaskRequests"}"#,
                [.result("7", "[]")]),
            CorpusCase(
                "duplicate method, last wins",
                body: #"{"jsonrpc":"2.0","id":7,"method":"plugin/state","method":"nope"}"#, [.error("7", -32601)]),
            CorpusCase(
                "duplicate jsonrpc, last is bad",
                body: #"{"jsonrpc":"2.0","jsonrpc":"1.0","id":7,"method":"plugin/state"}"#, [.invalidRequest("7")]),
            CorpusCase(
                "duplicate jsonrpc, last is good",
                body: #"{"jsonrpc":"1.0","jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests"}"#,
                [.result("7", "[]")]),
            CorpusCase(
                "duplicate params member",
                body: #"{"jsonrpc":"2.0","id":7,"method":"os/advanceTime","params":{"seconds":-1,"seconds":2}}"#,
                [.result("7", #"{"now":2}"#)]),
            CorpusCase(
                "duplicate params, last is an array",
                body: #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","params":{},"params":[]}"#,
                [.error("7", -32602)]),
            // Keys that differ only in Unicode normalization are two members.
            CorpusCase(
                "id with a combining accent is another member",
                body: "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"os/pendingTaskRequests\",\"id\u{0301}\":1}",
                [.result("7", "[]")]),
            CorpusCase(
                "a response and a request at once",
                body: #"{"jsonrpc":"2.0","id":7,"method":"os/pendingTaskRequests","result":1}"#, [.result("7", "[]")]),
            CorpusCase(
                "error object in a request", body: #"{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x"}}"#,
                [.invalidRequest("7")]),
            CorpusCase(
                "result and error", body: #"{"jsonrpc":"2.0","id":7,"result":1,"error":{"code":1,"message":"x"}}"#,
                [.invalidRequest("7")]),
            CorpusCase("no members", body: "{}", [.invalidRequest()]),
            CorpusCase("only jsonrpc", body: #"{"jsonrpc":"2.0"}"#, [.invalidRequest()]),
            CorpusCase("only an id", body: #"{"jsonrpc":"2.0","id":7}"#, [.invalidRequest("7")]),
            CorpusCase("trailing comma", body: #"{"jsonrpc":"2.0","id":7,"method":"plugin/state",}"#, [.parseError()]),
            CorpusCase("single quotes", body: #"{'jsonrpc':'2.0','id':7,'method':'plugin/state'}"#, [.parseError()]),
            CorpusCase("unquoted keys", body: #"{jsonrpc:"2.0",id:7,method:"plugin/state"}"#, [.parseError()]),
            CorpusCase(
                "a comment", body: #"{"jsonrpc":"2.0","id":7,/* hi */"method":"plugin/state"}"#, [.parseError()]),
            CorpusCase("two values on one frame", body: state + state, [.parseError()]),
            CorpusCase("a value and a comma", body: state + ",", [.parseError()]),
            CorpusCase("bare word", body: "hello", [.parseError()]),
            CorpusCase(
                "True, capitalised",
                body: #"{"jsonrpc":"2.0","id":7,"method":"completeBgTask","params":{"success":True}}"#,
                [.parseError()]),
            CorpusCase(
                "a batch of junk and a good request", body: "[1,\(pending),\"x\"]",
                [.batch([.invalidRequest(), .result("7", "[]"), .invalidRequest()])]),
            CorpusCase(
                "a batch of notifications only",
                body: #"[{"jsonrpc":"2.0","method":"nope"},{"jsonrpc":"2.0","method":"plugin/state"}]"#, []),
            CorpusCase("a batch inside a batch", body: "[[\(pending)]]", [.batch([.invalidRequest()])]),
            CorpusCase(
                "the same id twice in a batch", body: "[\(pending),\(pending)]",
                [.batch([.result("7", "[]"), .result("7", "[]")])]),
            CorpusCase(
                "escapes everywhere",
                body: #"{"\u006asonrpc":"\u0032.0","\u0069d":"\u0037","method":"os\/pendingTaskRequests"}"#,
                [.result(#""7""#, "[]")]),
            CorpusCase(
                "a bad escape", body: #"{"jsonrpc":"2.0","id":"\x41","method":"plugin/state"}"#, [.parseError()]),
            CorpusCase(
                "a short unicode escape", body: #"{"jsonrpc":"2.0","id":"\u41","method":"plugin/state"}"#,
                [.parseError()]),
        ]
    }

    // MARK: NUL, BOM, control bytes

    static var controlBytes: [CorpusCase] {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        return [
            CorpusCase("NUL before the frame", body: [0] + state.bytes, [.parseError()]),
            CorpusCase("NUL after the frame", body: state.bytes + [0], [.parseError()]),
            CorpusCase(
                "NUL between members", body: #"{"jsonrpc":"2.0",\#u{0}"id":7,"method":"plugin/state"}"#, [.parseError()]
            ),
            CorpusCase(
                "NUL raw inside a string", body: #"{"jsonrpc":"2.0","id":"a\#u{0}b","method":"plugin/state"}"#,
                [.parseError()]),
            CorpusCase("only NUL bytes", body: [UInt8](repeating: 0, count: 64), [.parseError()]),
            CorpusCase(
                "escaped NUL inside a string is fine",
                body: #"{"jsonrpc":"2.0","id":"a\u0000b","method":"os/pendingTaskRequests"}"#,
                [.result(#""a\u0000b""#, "[]")]),
            CorpusCase(
                "a raw tab inside a string", body: "{\"jsonrpc\":\"2.0\",\"id\":\"a\tb\",\"method\":\"plugin/state\"}",
                [.parseError()]),
            CorpusCase(
                "a raw DEL inside a string is fine",
                body: "{\"jsonrpc\":\"2.0\",\"id\":\"a\u{7F}b\",\"method\":\"os/pendingTaskRequests\"}",
                [.result("\"a\u{7F}b\"", "[]")]),
            CorpusCase("a BOM before a later frame", body: bom + pending.bytes, [.parseError()]),
            CorpusCase(
                "a BOM inside a string is fine",
                body: #"{"jsonrpc":"2.0","id":"\#u{FEFF}","method":"os/pendingTaskRequests"}"#,
                [.result("\"\u{FEFF}\"", "[]")]),
            CorpusCase(
                "a BOM between members", body: #"{"jsonrpc":"2.0",\#u{FEFF}"id":7,"method":"plugin/state"}"#,
                [.parseError()]),
            CorpusCase(
                "form feed as whitespace", body: "{\"jsonrpc\":\"2.0\",\u{0C}\"id\":7,\"method\":\"plugin/state\"}",
                [.parseError()]),
            CorpusCase(
                "vertical tab as whitespace", body: "{\"jsonrpc\":\"2.0\",\u{0B}\"id\":7,\"method\":\"plugin/state\"}",
                [.parseError()]),
            CorpusCase(
                "non-breaking space as whitespace",
                body: "{\"jsonrpc\":\"2.0\",\u{A0}\"id\":7,\"method\":\"plugin/state\"}", [.parseError()]),
            CorpusCase(
                "JSON whitespace around everything is fine",
                body: " \t{ \"jsonrpc\" : \"2.0\" ,\r\"id\"\t: 7 , \"method\" : \"os/pendingTaskRequests\" } \t",
                [.result("7", "[]")]),
        ]
    }

    // MARK: ndjson line endings

    static var ndjsonLines: [CorpusCase] {
        [
            CorpusCase(
                "CR without LF between two frames", raw: state + "\r" + state + "\n", framing: .ndjson,
                [.parseError()]),
            CorpusCase(
                "CR without LF at the end of a line", raw: pending + "\r\r\n", framing: .ndjson, [.result("7", "[]")]),
            CorpusCase("CRLF line", raw: pending + "\r\n", framing: .ndjson, [.result("7", "[]")]),
            CorpusCase("CR only lines", raw: "\r\r\r\n\r\n", framing: .ndjson, []),
            CorpusCase(
                "CR inside a string", raw: #"{"jsonrpc":"2.0","id":"a\#rb","method":"plugin/state"}"# + "\n",
                framing: .ndjson, [.parseError()]),
            CorpusCase(
                "LF inside a string splits the line",
                raw: #"{"jsonrpc":"2.0","id":"a"# + "\n" + #"b","method":"plugin/state"}"# + "\n", framing: .ndjson,
                [.parseError(), .parseError()]),
            CorpusCase("blank and whitespace lines", raw: "\n\n \t \n\t\n", framing: .ndjson, []),
            CorpusCase(
                "two frames on two lines",
                raw: pending + "\n" + pending.replacingOccurrences(of: ":7", with: ":8") + "\n", framing: .ndjson,
                [.result("7", "[]"), .result("8", "[]")]),
            CorpusCase(
                "an oversized line then a good one",
                raw: [UInt8](repeating: 0x20, count: 1 << 20) + "x\n".bytes + (pending + "\n").bytes, framing: .ndjson,
                [.invalidRequest(), .result("7", "[]")]),
        ]
    }
}
