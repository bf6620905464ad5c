import HostProtocol
import Testing

func classify(_ text: String) throws -> Message { Message.classify(try parse(text)) }

/// The error of an invalid message, with the id it must be answered with.
func invalid(_ m: Message) -> (id: RequestID, error: RPCError)? {
    if case .invalid(let id, let error) = m { return (id, error) }
    return nil
}

@Suite("Message.classify")
struct MessageClassifyTests {
    @Test("a request has an id and a string method")
    func request() throws {
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":1,"method":"startKeepalive"}"#)
                == .request(Request(id: .int(1), method: "startKeepalive")))
        #expect(
            try classify(#"{"method":"m","params":{"a":[1]},"id":"x","jsonrpc":"2.0"}"#)
                == .request(Request(id: .string("x"), method: "m", params: ["a": [1]])))
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":2,"method":"m","params":[1,2]}"#)
                == .request(Request(id: .int(2), method: "m", params: [1, 2])))
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":3,"method":"m","params":{}}"#)
                == .request(Request(id: .int(3), method: "m", params: [:])))
    }

    @Test("an id of null makes a request, not a notification")
    func nullID() throws {
        #expect(try classify(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#) == .request(Request(id: .null, method: "m")))
    }

    @Test("no id makes a notification")
    func notification() throws {
        #expect(
            try classify(#"{"jsonrpc":"2.0","method":"os/taskLaunched"}"#)
                == .notification(RPCNotification(method: "os/taskLaunched")))
        #expect(
            try classify(#"{"jsonrpc":"2.0","method":"waitForCancel","params":{"x":1}}"#)
                == .notification(RPCNotification(method: "waitForCancel", params: ["x": 1])))
    }

    @Test("unknown members are ignored")
    func unknownMembers() throws {
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":1,"method":"m","extra":{"x":[]}}"#)
                == .request(Request(id: .int(1), method: "m")))
    }

    @Test("ids keep their type and literal text")
    func idIdentity() throws {
        func id(_ literal: String) throws -> RequestID? {
            guard case .request(let r) = try classify(#"{"jsonrpc":"2.0","method":"m","id":\#(literal)}"#) else {
                return nil
            }
            return r.id
        }
        #expect(try id("\"1\"") == .string("1"))
        #expect(try id("1") == .int(1))
        #expect(try id("\"1\"") != id("1"))
        #expect(try id("1") != id("1.0"))
        #expect(try id("1.0") == .number(JSONNumber(literal: "1.0")!))
        #expect(try id("-0") != id("0"))
        #expect(try id("1e400")?.description == "1e400")
        #expect(try id("12345678901234567890123")?.description == "12345678901234567890123")
        #expect(try id("\"\"") == .string(""))
        #expect(try id("null") == .null)
        #expect(try id("\"null\"") != .null)
        #expect(try Set([id("1"), id("\"1\""), id("1.0"), id("null"), id("\"null\"")]).count == 5)
    }

    @Test("string ids compare by their code points, not by Unicode canonical equivalence")
    func idsAreNotNormalized() {
        let precomposed = RequestID.string("\u{E9}")
        let decomposed = RequestID.string("e\u{301}")
        #expect(precomposed.json.compactBytes != decomposed.json.compactBytes, "they are different on the wire")
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
    }

    @Test(
        "an id of the wrong type is -32600 with id null", arguments: ["{}", "{\"a\":1}", "[]", "[1]", "true", "false"])
    func badIDType(_ idText: String) throws {
        let m = try classify(#"{"jsonrpc":"2.0","id":\#(idText),"method":"m"}"#)
        let e = try #require(invalid(m))
        #expect(e.id == .null)
        #expect(e.error.code == .invalidRequest)
        // Also without jsonrpc, and for a would-be response.
        #expect(try invalid(classify(#"{"id":\#(idText),"method":"m"}"#))?.id == .null)
        #expect(try invalid(classify(#"{"jsonrpc":"2.0","id":\#(idText),"result":1}"#))?.id == .null)
    }

    @Test(
        "jsonrpc missing or not exactly \"2.0\" is -32600",
        arguments: [
            "", #""jsonrpc":"1.0","#, #""jsonrpc":2.0,"#, #""jsonrpc":"2.00","#, #""jsonrpc":null,"#,
            #""jsonrpc":"2.0 ","#, #""jsonrpc":["2.0"],"#, #""JSONRPC":"2.0","#,
        ])
    func badVersion(_ member: String) throws {
        let m = try classify("{\(member)\"id\":5,\"method\":\"m\"}")
        let e = try #require(invalid(m))
        #expect(e.error.code == .invalidRequest)
        #expect(e.id == .int(5), "the usable id is echoed")
        let n = try #require(invalid(classify("{\(member)\"method\":\"m\"}")))
        #expect(n.id == .null)
    }

    @Test("method not a string is -32600", arguments: ["1", "null", "true", "[]", "{}"])
    func badMethod(_ method: String) throws {
        let e = try #require(invalid(classify(#"{"jsonrpc":"2.0","id":"q","method":\#(method)}"#)))
        #expect(e.error.code == .invalidRequest)
        #expect(e.id == .string("q"))
    }

    @Test("params other than an object or array are -32600", arguments: ["1", "\"x\"", "true", "null"])
    func badParams(_ params: String) throws {
        let e = try #require(invalid(classify(#"{"jsonrpc":"2.0","id":9,"method":"m","params":\#(params)}"#)))
        #expect(e.error.code == .invalidRequest)
        #expect(e.id == .int(9))
    }

    @Test("no method and no result/error is -32600")
    func missingMethod() throws {
        let e = try #require(invalid(classify(#"{"jsonrpc":"2.0","id":4}"#)))
        #expect(e.error.code == .invalidRequest)
        #expect(e.id == .int(4))
        #expect(try invalid(classify(#"{"jsonrpc":"2.0"}"#))?.error.code == .invalidRequest)
    }

    @Test("a value that is not an object is -32600 with id null", arguments: ["1", "\"x\"", "null", "true", "[1]"])
    func notAnObject(_ text: String) throws {
        let e = try #require(invalid(classify(text)))
        #expect(e.id == .null)
        #expect(e.error.code == .invalidRequest)
    }

    @Test("responses: a result (null included) or a valid error")
    func responses() throws {
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":1,"result":null}"#) == .response(.success(id: .int(1), result: .null)))
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":"a","result":{"now":28}}"#)
                == .response(.success(id: .string("a"), result: ["now": 28])))
        #expect(
            try classify(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#)
                == .response(.failure(id: .null, error: RPCError(code: .parseError, message: "bad"))))
        #expect(
            try classify(
                #"{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"r","data":{"reason":"completed"}}}"#)
                == .response(
                    .failure(
                        id: .int(7), error: .init(code: .invokeRejected, message: "r", data: ["reason": "completed"]))))
    }

    @Test(
        "malformed responses are -32600",
        arguments: [
            #""result":1,"error":{"code":1,"message":"m"}"#, #""error":{"code":"1","message":"m"}"#,
            #""error":{"code":1.5,"message":"m"}"#, #""error":{"message":"m"}"#, #""error":{"code":1}"#,
            #""error":"x""#,
        ])
    func badResponses(_ members: String) throws {
        let e = try #require(invalid(classify(#"{"jsonrpc":"2.0","id":3,\#(members)}"#)))
        #expect(e.error.code == .invalidRequest)
    }

    @Test("Message.json writes each kind back")
    func messageJSON() throws {
        let texts = [
            #"{"id":1,"jsonrpc":"2.0","method":"m","params":{"a":1}}"#, #"{"jsonrpc":"2.0","method":"n"}"#,
            #"{"id":"x","jsonrpc":"2.0","result":[1]}"#,
            #"{"error":{"code":-32601,"message":"no"},"id":null,"jsonrpc":"2.0"}"#,
        ]
        for t in texts {
            #expect(text(try classify(t).json) == t)
        }
        let bad = try classify(#"{"jsonrpc":"2.0","id":[],"method":"m"}"#)
        #expect(bad.json["id"] == .null)
        #expect(bad.json["error"]?["code"] == -32600)
        #expect(bad.json["jsonrpc"] == "2.0")
    }
}

@Suite("Envelope.classify and Envelope.parse")
struct EnvelopeTests {
    @Test("a single object is .single")
    func single() throws {
        #expect(
            Envelope.classify(try parse(#"{"jsonrpc":"2.0","method":"m"}"#))
                == .single(.notification(RPCNotification(method: "m"))))
    }

    @Test("an empty batch is one -32600 with id null")
    func emptyBatch() throws {
        guard case .single(.invalid(let id, let error)) = Envelope.classify(try parse("[]")) else {
            Issue.record("not a single invalid message")
            return
        }
        #expect(id == .null)
        #expect(error.code == .invalidRequest)
    }

    @Test("a batch of junk is one invalid per element")
    func junkBatch() throws {
        guard case .batch(let messages) = Envelope.classify(try parse(#"[1,"x",null,[],{},true]"#)) else {
            Issue.record("not a batch")
            return
        }
        #expect(messages.count == 6)
        for m in messages {
            #expect(invalid(m)?.error.code == .invalidRequest)
            #expect(invalid(m)?.id == .null)
        }
    }

    @Test("a mixed batch keeps its order")
    func mixedBatch() throws {
        let v = try parse(
            #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},2,{"jsonrpc":"2.0","id":"r","#
                + #""result":0}]"#
        )
        guard case .batch(let m) = Envelope.classify(v) else {
            Issue.record("not a batch")
            return
        }
        #expect(m.count == 4)
        #expect(m.first == .request(Request(id: .int(1), method: "a")))
        #expect(m.dropFirst().first == .notification(RPCNotification(method: "b")))
        #expect(invalid(m[2])?.error.code == .invalidRequest)
        #expect(m.last == .response(.success(id: .string("r"), result: 0)))
    }

    @Test("a nested empty batch is one invalid element, not an empty batch")
    func nestedBatch() throws {
        guard case .batch(let m) = Envelope.classify(try parse("[[]]")) else {
            Issue.record("not a batch")
            return
        }
        #expect(m.count == 1)
        #expect(invalid(m[0])?.error.code == .invalidRequest)
    }

    @Test(
        "frames that are not JSON or not UTF-8 are -32700 with id null",
        arguments: [
            Array("{".utf8), Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"".utf8), [0x22, 0xC0, 0xAF, 0x22], [],
            Array("[1,]".utf8),
        ])
    func parseErrors(_ frame: [UInt8]) {
        guard case .single(.invalid(let id, let error)) = Envelope.parse(frame[...]) else {
            Issue.record("not a single invalid message")
            return
        }
        #expect(id == .null)
        #expect(error.code == .parseError)
    }

    @Test("Envelope.parse classifies valid frames, slices included")
    func parseValid() {
        let storage = Array("xx{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}yy".utf8)
        #expect(
            Envelope.parse(storage[2..<(storage.count - 2)]) == .single(.request(Request(id: .int(1), method: "m"))))
    }
}
