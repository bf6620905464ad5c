import HostProtocol
import HostTestSupport

/// The generated part of the malformed-input corpus: systematic families of bad
/// input, each case with the reply the contract (and docs/protocol.md's recorded
/// choices) prescribe. The plugin runs with its defaults (`seed` profile, events
/// off), and every case starts from a freshly reset plugin.
enum GeneratedCorpus {
    static var all: [CorpusCase] {
        truncations + envelopeTypes + paramsTypes + memberTypes + invalidUTF8 + numbers
    }

    /// One value of every JSON type (and a few shapes of each).
    static let everyType: [(name: String, json: String)] = [
        ("null", "null"), ("true", "true"), ("false", "false"), ("zero", "0"), ("negative", "-1"), ("fraction", "1.5"),
        ("1e400", "1e400"), ("empty string", #""""#), ("string", #""x""#), ("empty array", "[]"), ("array", "[1]"),
        ("empty object", "{}"), ("object", #"{"a":1}"#),
    ]

    static func isString(_ json: String) -> Bool { json.hasPrefix("\"") }
    static func isBool(_ json: String) -> Bool { json == "true" || json == "false" }
    static func isNumber(_ json: String) -> Bool { json.first.map { $0 == "-" || $0.isNumber } ?? false }
    static func isFiniteNumber(_ json: String) -> Bool { isNumber(json) && json != "1e400" }

    static func request(id: String = "7", method: String, params: String? = nil) -> String {
        req(rawID: id, method, params)
    }

    // MARK: Truncation

    /// A valid request cut at every byte: `-32700` for every proper prefix; the
    /// empty prefix is a blank ndjson line (skipped) or an empty lsp body (`-32700`).
    static var truncations: [CorpusCase] {
        let full = request(id: "7", method: "os/advanceTime", params: #"{"seconds":0}"#).bytes
        var cases = (1..<full.count).map { n in
            CorpusCase("truncated at byte \(n) of \(full.count)", body: Array(full[..<n]), [.parseError()])
        }
        cases.append(CorpusCase("truncated to nothing", body: [], ndjson: [], lsp: [.parseError()]))
        cases.append(CorpusCase("the full request, for reference", body: full, [.result("7", #"{"now":0}"#)]))
        // A batch cut at every tenth byte.
        let batch =
            "[\(request(id: "1", method: "plugin/state")),\(request(id: "2", method: "os/pendingTaskRequests"))]".bytes
        for n in stride(from: 1, to: batch.count, by: 10) {
            cases.append(
                CorpusCase("batch truncated at byte \(n) of \(batch.count)", body: Array(batch[..<n]), [.parseError()]))
        }
        return cases
    }

    // MARK: Every JSON type in every envelope field

    static var envelopeTypes: [CorpusCase] {
        var cases: [CorpusCase] = []
        for (name, v) in everyType {
            // jsonrpc: only "2.0" is valid; the reply keeps the usable id.
            cases.append(
                CorpusCase(
                    "jsonrpc is \(name)", body: #"{"jsonrpc":\#(v),"id":7,"method":"plugin/state"}"#,
                    [.invalidRequest("7")]))
            // id: a string, a number or null is an id; anything else is -32600 with id null.
            let idUsable = isString(v) || isNumber(v) || v == "null"
            cases.append(
                CorpusCase(
                    "id is \(name)", body: request(id: v, method: "os/pendingTaskRequests"),
                    idUsable ? [.result(v, "[]")] : [.invalidRequest()]))
            // method: a string names a method (these are unknown); anything else is -32600.
            cases.append(
                CorpusCase(
                    "method is \(name)", body: #"{"jsonrpc":"2.0","id":7,"method":\#(v)}"#,
                    isString(v) ? [.error("7", -32601)] : [.invalidRequest("7")]))
            // params: an object is fine, an array -32602, anything else -32600.
            let paramsReply: Reply =
                v.hasPrefix("{") ? .result("7", "[]") : v.hasPrefix("[") ? .error("7", -32602) : .invalidRequest("7")
            cases.append(
                CorpusCase(
                    "params is \(name)", body: request(method: "os/pendingTaskRequests", params: v), [paramsReply]))
            // The same in a notification: never answered, except params of a type that
            // makes the message invalid (-32600, id null).
            let notification = #"{"jsonrpc":"2.0","method":"os/pendingTaskRequests","params":\#(v)}"#
            let notificationReply: [Reply] = (v.hasPrefix("{") || v.hasPrefix("[")) ? [] : [.invalidRequest()]
            cases.append(CorpusCase("notification params is \(name)", body: notification, notificationReply))
            // A response-shaped object: the plugin takes requests only.
            cases.append(
                CorpusCase(
                    "response with result \(name)", body: #"{"jsonrpc":"2.0","id":7,"result":\#(v)}"#,
                    [.invalidRequest("7")]))
            // A batch member of each type.
            let member: Reply =
                v.hasPrefix("{") ? .invalidRequest() : v.hasPrefix("[") ? .invalidRequest() : .invalidRequest()
            let batchReply: Reply = v == "[]" ? .batch([.invalidRequest()]) : .batch([member])
            cases.append(CorpusCase("batch of one \(name)", body: "[\(v)]", [batchReply]))
            // A top-level value of each type.
            let top: Reply = v.hasPrefix("[") && v != "[]" ? .batch([.invalidRequest()]) : .invalidRequest()
            cases.append(CorpusCase("top-level \(name)", body: v, [top]))
        }
        return cases
    }

    // MARK: Every JSON type in every params member

    /// One member of one method's params, given every type: (method, member,
    /// extra params, which values are accepted, what an accepted value gets).
    static var paramsTypes: [CorpusCase] {
        var cases: [CorpusCase] = []
        let refresh = #""com.example.app.bg-refresh""#
        for (name, v) in everyType {
            // os/advanceTime seconds: a finite number >= 0.
            let secondsOK = isFiniteNumber(v) && !v.hasPrefix("-")
            cases.append(
                CorpusCase(
                    "os/advanceTime seconds is \(name)",
                    body: request(method: "os/advanceTime", params: #"{"seconds":\#(v)}"#),
                    [secondsOK ? .result("7", nil) : .error("7", -32602)]))
            // os/launch and os/expire identifier: a registered identifier (nothing pending
            // or running after a reset: -32002), anything else -32602.
            for method in ["os/launch", "os/expire"] {
                cases.append(
                    CorpusCase(
                        "\(method) identifier is \(name)",
                        body: request(method: method, params: #"{"identifier":\#(v)}"#),
                        [.error("7", -32602)]))
            }
            // os/setConditions: three booleans and one status string.
            for member in ["autoLaunch", "externalPower", "networkConnected"] {
                cases.append(
                    CorpusCase(
                        "os/setConditions \(member) is \(name)",
                        body: request(method: "os/setConditions", params: #"{"\#(member)":\#(v)}"#),
                        [isBool(v) ? .result("7", nil) : .error("7", -32602)]))
            }
            cases.append(
                CorpusCase(
                    "os/setConditions backgroundRefreshStatus is \(name)",
                    body: request(method: "os/setConditions", params: #"{"backgroundRefreshStatus":\#(v)}"#),
                    [.error("7", -32602)]))
            // startKeepalive (seed profile): a member of the wrong type is ignored; always resolves.
            for member in [
                "label", "foregroundServiceType", "iosSafetyTimeoutSecs", "iosProcessingSafetyTimeoutSecs",
                "iosEarliestRefreshBeginMinutes",
                "iosEarliestProcessingBeginMinutes", "iosRequiresExternalPower", "iosRequiresNetworkConnectivity",
            ] {
                cases.append(
                    CorpusCase(
                        "startKeepalive \(member) is \(name)",
                        body: request(method: "startKeepalive", params: #"{"\#(member)":\#(v)}"#),
                        [.result("7", "null")]))
            }
            // completeBgTask success (seed): anything that is not a boolean means true; resolves.
            cases.append(
                CorpusCase(
                    "completeBgTask success is \(name)",
                    body: request(method: "completeBgTask", params: #"{"success":\#(v)}"#),
                    [.result("7", "null")]))
            // initialize: capabilities must be an object, events a boolean. (`true` would turn
            // events on for the rest of the session; `false` stands for the booleans.)
            cases.append(
                CorpusCase(
                    "initialize capabilities is \(name)",
                    body: request(method: "initialize", params: #"{"capabilities":\#(v)}"#),
                    [v.hasPrefix("{") ? .result("7", nil) : .error("7", -32602)]))
            if v != "true" {
                cases.append(
                    CorpusCase(
                        "initialize capabilities.events is \(name)",
                        body: request(method: "initialize", params: #"{"capabilities":{"events":\#(v)}}"#),
                        [v == "false" ? .result("7", nil) : .error("7", -32602)]))
            }
        }
        // The registered identifiers, for contrast: well-formed, but nothing to launch or expire.
        cases.append(
            CorpusCase(
                "os/launch with nothing pending",
                body: request(method: "os/launch", params: #"{"identifier":\#(refresh)}"#), [.error("7", -32002)]))
        cases.append(
            CorpusCase(
                "os/expire with nothing running",
                body: request(method: "os/expire", params: #"{"identifier":\#(refresh)}"#), [.error("7", -32002)]))
        return cases
    }

    /// Unknown members are ignored; required members missing are -32602.
    static var memberTypes: [CorpusCase] {
        [
            CorpusCase(
                "os/advanceTime without seconds", body: request(method: "os/advanceTime", params: "{}"),
                [.error("7", -32602)]),
            CorpusCase(
                "os/launch without identifier", body: request(method: "os/launch", params: "{}"),
                [.error("7", -32602)]),
            CorpusCase("os/expire without params", body: request(method: "os/expire"), [.error("7", -32602)]),
            CorpusCase(
                "unknown members ignored",
                body: request(method: "os/pendingTaskRequests", params: #"{"zzz":[{"a":null}],"":1}"#),
                [.result("7", "[]")]),
            CorpusCase(
                "stopKeepalive with members", body: request(method: "stopKeepalive", params: #"{"now":true}"#),
                [.result("7", "null")]),
            CorpusCase(
                "cancelCancelListener with array params", body: request(method: "cancelCancelListener", params: "[]"),
                [.error("7", -32602)]),
            CorpusCase(
                "unknown method with array params", body: request(method: "nope", params: "[1,2]"),
                [.error("7", -32601)]),
            CorpusCase("method name differing in case", body: request(method: "Plugin/State"), [.error("7", -32601)]),
            CorpusCase(
                "method name with an escaped NUL", body: request(method: #"plugin/state\u0000"#),
                [.error("7", -32601)]),
            CorpusCase(
                "method name with trailing space", body: request(method: "plugin/state "), [.error("7", -32601)]),
        ]
    }

    // MARK: Invalid UTF-8

    /// Bytes that are not UTF-8, inside a string and outside one: `-32700`.
    static var invalidUTF8: [CorpusCase] {
        let sequences: [(String, [UInt8])] = [
            ("overlong slash", [0xC0, 0xAF]), ("overlong NUL", [0xC0, 0x80]), ("overlong 3-byte", [0xE0, 0x80, 0xAF]),
            ("overlong 4-byte", [0xF0, 0x80, 0x80, 0xAF]), ("encoded high surrogate", [0xED, 0xA0, 0x80]),
            ("encoded low surrogate", [0xED, 0xBF, 0xBF]),
            ("encoded surrogate pair", [0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9]),
            ("stray continuation byte", [0x80]), ("two stray continuation bytes", [0xBF, 0x80]),
            ("lead byte without continuation", [0xC3]), ("3-byte lead cut short", [0xE2, 0x82]),
            ("4-byte lead cut short", [0xF0, 0x9F, 0x98]), ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
            ("0xF5 lead", [0xF5, 0x80, 0x80, 0x80]), ("0xFE", [0xFE]), ("0xFF", [0xFF]),
            ("Latin-1 e-acute", [0xE9]), ("UTF-16 BOM", [0xFF, 0xFE]),
        ]
        var cases: [CorpusCase] = []
        for (name, bad) in sequences {
            let inString =
                #"{"jsonrpc":"2.0","id":7,"method":"plugin/state","params":{"label":""#.bytes + bad + #""}}"#.bytes
            cases.append(CorpusCase("invalid UTF-8 in a string: \(name)", body: inString, [.parseError()]))
            let inKey = #"{"jsonrpc":"2.0","id":7,"method":"plugin/state","params":{""#.bytes + bad + #"":1}}"#.bytes
            cases.append(CorpusCase("invalid UTF-8 in a key: \(name)", body: inKey, [.parseError()]))
            let outside = #"{"jsonrpc":"2.0","id":7,"#.bytes + bad + #""method":"plugin/state"}"#.bytes
            cases.append(CorpusCase("invalid UTF-8 between members: \(name)", body: outside, [.parseError()]))
        }
        // Lone surrogates written as escapes are not text either.
        for escape in [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"\udbff\udbff"#, #"\ud800x"#] {
            cases.append(
                CorpusCase(
                    "lone surrogate escape \(escape)",
                    body: request(method: "plugin/state", params: #"{"label":"\#(escape)"}"#), [.parseError()]))
        }
        // Valid multi-byte text for contrast: accepted.
        cases.append(
            CorpusCase(
                "valid 4-byte UTF-8 and a surrogate pair escape",
                body: request(id: #""\#u{1F600}\ud83d\ude00""#, method: "os/pendingTaskRequests"),
                [.result(#""\#u{1F600}\#u{1F600}""#, "[]")]))
        return cases
    }

    // MARK: Numbers

    static var numbers: [CorpusCase] {
        var cases: [CorpusCase] = []
        // Ids beyond Int64 and other odd literals are ids, echoed exactly.
        for id in [
            "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "1e400", "-1e400", "-0",
            "0.0", "1E+2", "1e-400",
        ] {
            cases.append(
                CorpusCase("id \(id)", body: request(id: id, method: "os/pendingTaskRequests"), [.result(id, "[]")]))
        }
        // Not JSON numbers at all.
        for text in [
            "NaN", "-NaN", "Infinity", "-Infinity", "+1", "01", "1.", ".5", "1e", "1e+", "0x10", "1_000", "--1", "-",
            "1.5.2",
        ] {
            cases.append(
                CorpusCase(
                    "id \(text) (not a number)", body: request(id: text, method: "os/pendingTaskRequests"),
                    [.parseError()]))
            cases.append(
                CorpusCase(
                    "seconds \(text) (not a number)",
                    body: request(method: "os/advanceTime", params: #"{"seconds":\#(text)}"#), [.parseError()]))
        }
        // Numbers that are JSON but out of range for what they mean.
        for seconds in ["1e400", "-1e400", "-0.0000000001", "1e308", "-1"] {
            let ok = seconds == "1e308"
            cases.append(
                CorpusCase(
                    "seconds \(seconds)", body: request(method: "os/advanceTime", params: #"{"seconds":\#(seconds)}"#),
                    [ok ? .result("7", nil) : .error("7", -32602)]))
        }
        cases.append(
            CorpusCase(
                "seconds -0", body: request(method: "os/advanceTime", params: #"{"seconds":-0}"#),
                [.result("7", #"{"now":0}"#)]))
        cases.append(
            CorpusCase(
                "startKeepalive minutes 1e300 (clamped)",
                body: request(method: "startKeepalive", params: #"{"iosEarliestRefreshBeginMinutes":1e300}"#),
                [.result("7", "null")]))
        return cases
    }
}
