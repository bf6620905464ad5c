import HostProtocol
import Testing

/// The bytes MessageWriter produces for a message.
func writerBytes(_ m: Message) -> [UInt8] {
    var out: [UInt8] = []
    switch m {
    case .request(let r): MessageWriter.appendRequest(id: r.id, method: r.method, params: r.params, to: &out)
    case .notification(let n): MessageWriter.appendNotification(method: n.method, params: n.params, to: &out)
    case .response(let r): MessageWriter.append(r, to: &out)
    case .invalid(let id, let error): MessageWriter.appendFailure(id: id, error: error, to: &out)
    }
    return out
}

func utf8(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite("Golden JSON-RPC messages")
struct GoldenMessageTests {
    @Test("success response")
    func success() {
        let m = Message.response(.success(id: .int(1), result: .null))
        #expect(utf8(writerBytes(m)) == #"{"id":1,"jsonrpc":"2.0","result":null}"#)
        let r = Message.response(.success(id: .string("a"), result: ["now": 28.5, "at": [1, "x"]]))
        #expect(utf8(writerBytes(r)) == #"{"id":"a","jsonrpc":"2.0","result":{"at":[1,"x"],"now":28.5}}"#)
    }

    @Test("error response without data")
    func errorWithoutData() {
        let m = Message.response(.failure(id: .string("abc"), error: .methodNotFound("foo")))
        #expect(
            utf8(writerBytes(m))
                == #"{"error":{"code":-32601,"message":"Method not found: foo"},"id":"abc","jsonrpc":"2.0"}"#)
    }

    @Test("error response with data")
    func errorWithData() {
        let m = Message.response(.failure(id: .int(7), error: .rejected(.completed)))
        #expect(
            utf8(writerBytes(m))
                == #"{"error":{"code":-32000,"data":{"reason":"completed"},"message":"invoke rejected: "#
                + #"completed"},"id":7,"jsonrpc":"2.0"}"#
        )
        let nullData = Message.response(
            .failure(id: .null, error: RPCError(code: .internalError, message: "m", data: .null)))
        #expect(
            utf8(writerBytes(nullData))
                == #"{"error":{"code":-32603,"data":null,"message":"m"},"id":null,"jsonrpc":"2.0"}"#)
    }

    @Test("request, with and without params")
    func request() {
        let m = Message.request(Request(id: .int(2), method: "os/advanceTime", params: ["seconds": 28]))
        #expect(utf8(writerBytes(m)) == #"{"id":2,"jsonrpc":"2.0","method":"os/advanceTime","params":{"seconds":28}}"#)
        let bare = Message.request(Request(id: .null, method: "waitForCancel"))
        #expect(utf8(writerBytes(bare)) == #"{"id":null,"jsonrpc":"2.0","method":"waitForCancel"}"#)
        let empty = Message.request(Request(id: .string("s"), method: "plugin/state", params: [:]))
        #expect(utf8(writerBytes(empty)) == #"{"id":"s","jsonrpc":"2.0","method":"plugin/state","params":{}}"#)
    }

    @Test("notification")
    func notification() {
        let params = TaskEventParams(
            identifier: "com.example.app.bg-refresh", at: VirtualTime(seconds: 900)!, kind: .refresh)
        let m = Message.notification(RPCNotification(method: TaskLaunchedEvent.name, params: params.json))
        #expect(
            utf8(writerBytes(m))
                == #"{"jsonrpc":"2.0","method":"os/taskLaunched","params":{"at":900,"#
                + #""identifier":"com.example.app.bg-refresh","kind":"refresh"}}"#
        )
        #expect(utf8(writerBytes(.notification(RPCNotification(method: "x")))) == #"{"jsonrpc":"2.0","method":"x"}"#)
    }

    @Test("batch reply")
    func batch() {
        let responses: [Response] = [
            .success(id: .int(1), result: .null), .failure(id: .int(2), error: .invalidParams("bad")),
        ]
        let v = JSONValue.array(responses.map(\.json))
        #expect(
            text(v)
                == #"[{"id":1,"jsonrpc":"2.0","result":null},{"error":{"code":-32602,"message":"Invalid params: "#
                + #"bad"},"id":2,"jsonrpc":"2.0"}]"#
        )
    }

    static let perCode: [(RPCError, String)] = [
        (
            .parseError("unexpected end of input at byte 0"),
            #"{"code":-32700,"message":"Parse error: unexpected end of input at byte 0"}"#
        ),
        (.invalidRequest("empty batch"), #"{"code":-32600,"message":"Invalid Request: empty batch"}"#),
        (.methodNotFound("os/nope"), #"{"code":-32601,"message":"Method not found: os/nope"}"#),
        (
            .invalidParams(#""seconds" must be a number"#),
            #"{"code":-32602,"message":"Invalid params: \"seconds\" must be a number"}"#
        ),
        (.internalError("boom"), #"{"code":-32603,"message":"Internal error: boom"}"#),
        (
            .rejected(.listenerCancelled),
            #"{"code":-32000,"data":{"reason":"listenerCancelled"},"message":"invoke rejected: listenerCancelled"}"#
        ),
        (
            .scheduler(.tooManyPendingTaskRequests, identifier: "com.example.app.bg-processing"),
            #"{"code":-32001,"data":{"scheduler":"tooManyPendingTaskRequests"},"message":"BGTaskScheduler.submit "#
                + #"failed for com.example.app.bg-processing: tooManyPendingTaskRequests"}"#
        ),
        (.invalidState("no task is running"), #"{"code":-32002,"message":"Invalid state: no task is running"}"#),
    ]

    @Test("an error response for each error code", arguments: perCode)
    func perErrorCode(error: RPCError, errorJSON: String) {
        #expect(text(error.json) == errorJSON)
        let expected = #"{"error":\#(errorJSON),"id":3,"jsonrpc":"2.0"}"#
        #expect(utf8(writerBytes(.response(.failure(id: .int(3), error: error)))) == expected)
        #expect(text(Response.failure(id: .int(3), error: error).json) == expected)
    }

    static let ids: [RequestID] = [
        .int(1), .int(-42), .string(""), .string("a\"\\\n😀\u{0}"), .null, .number(JSONNumber(literal: "1e400")!),
        .number(JSONNumber(literal: "-0")!), .number(JSONNumber(literal: "1.0")!), .string("1"),
    ]

    static var messages: [Message] {
        var out: [Message] = []
        let values: [JSONValue] = [.null, [], [:], ["b": [1, 2.5, "x"], "a": ["\u{1F}": true]], "s", 0, false]
        let errors: [RPCError] =
            GoldenMessageTests.perCode.map(\.0) + [
                RPCError(code: ErrorCode(rawValue: 0), message: "", data: .null),
                RPCError(code: .invalidParams, message: "é\t", data: [["deep": [[:]]]]),
            ]
        for id in ids {
            for v in values {
                out.append(.response(.success(id: id, result: v)))
                out.append(.request(Request(id: id, method: "m/\(v.typeName)", params: v)))
            }
            out.append(.request(Request(id: id, method: "startKeepalive")))
            for e in errors {
                out.append(.response(.failure(id: id, error: e)))
                out.append(.invalid(id: id, error: e))
            }
        }
        for v in values {
            out.append(.notification(RPCNotification(method: "n\"\\", params: v)))
        }
        out.append(.notification(RPCNotification(method: "", params: nil)))
        var rng = SplitMix64(seed: 99)
        for i in 0..<100 {
            let v = randomValue(depth: 3, using: &rng)
            out.append(.response(.success(id: .int(i), result: v)))
            out.append(
                .request(Request(id: .string(randomString(using: &rng)), method: randomString(using: &rng), params: v)))
            out.append(.notification(RPCNotification(method: randomString(using: &rng), params: v)))
        }
        return out
    }

    @Test("MessageWriter output equals JSONWriter.write(message.json) for many messages")
    func writerMatchesJSONWriter() throws {
        let all = GoldenMessageTests.messages
        #expect(all.count > 400)
        for m in all {
            var viaJSON: [UInt8] = []
            JSONWriter.write(m.json, to: &viaJSON)
            let direct = writerBytes(m)
            #expect(direct == viaJSON, "\(utf8(direct)) vs \(utf8(viaJSON))")
        }
    }

    @Test("written messages classify back to themselves (scalar params back to -32600)")
    func classifyRoundTrip() throws {
        for m in GoldenMessageTests.messages {
            let back = Message.classify(try JSONParser.parse(writerBytes(m)))
            let params: JSONValue?
            switch m {
            case .invalid: continue  // written as an error response, not as itself
            case .request(let r): params = r.params
            case .notification(let n): params = n.params
            case .response: params = nil
            }
            if GoldenMessageTests.isStructured(params) {
                #expect(back == m, "\(utf8(writerBytes(m)))")
            } else {
                #expect(invalid(back)?.error.code == .invalidRequest, "\(utf8(writerBytes(m)))")
            }
        }
    }

    static func isStructured(_ params: JSONValue?) -> Bool {
        switch params {
        case nil, .object?, .array?: true
        default: false
        }
    }

    @Test("MessageWriter appends to what is already in the buffer")
    func appends() {
        var out = Array("[".utf8)
        MessageWriter.appendSuccess(id: .int(1), result: 2, to: &out)
        out.append(UInt8(ascii: ","))
        MessageWriter.appendNotification(method: "e", params: nil, to: &out)
        #expect(utf8(out) == #"[{"id":1,"jsonrpc":"2.0","result":2},{"jsonrpc":"2.0","method":"e"}"#)
    }
}
