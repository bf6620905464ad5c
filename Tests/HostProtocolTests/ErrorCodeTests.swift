import HostProtocol
import Testing

@Suite("Error codes, reject reasons and scheduler errors")
struct ErrorCodeTests {
    static let codes: [(ErrorCode, Int, String)] = [
        (.parseError, -32700, "Parse error"),
        (.invalidRequest, -32600, "Invalid Request"),
        (.methodNotFound, -32601, "Method not found"),
        (.invalidParams, -32602, "Invalid params"),
        (.internalError, -32603, "Internal error"),
        (.invokeRejected, -32000, "InvokeRejected"),
        (.schedulerError, -32001, "SchedulerError"),
        (.invalidState, -32002, "InvalidState"),
    ]

    @Test("every ErrorCode has the contract's number and name", arguments: codes)
    func pinned(code: ErrorCode, value: Int, name: String) {
        #expect(code.rawValue == value)
        #expect(code.name == name)
        #expect(ErrorCode(rawValue: value) == code)
        #expect(code.description == "\(value) (\(name))")
    }

    @Test("the codes are distinct")
    func distinct() {
        #expect(Set(ErrorCodeTests.codes.map(\.0)).count == 8)
    }

    @Test("an unknown code still has a name")
    func unknownCode() {
        #expect(ErrorCode(rawValue: 42).name == "Error 42")
        #expect(ErrorCode(rawValue: -32099) != .invokeRejected)
    }

    @Test("RejectReason raw values are the contract's data.reason strings")
    func rejectReasons() {
        #expect(
            RejectReason.allCases.map(\.rawValue) == [
                "completed", "stopped", "listenerCancelled", "superseded", "reset", "shutdown", "terminated",
            ])
        #expect(RejectReason(rawValue: "listenerCancelled") == .listenerCancelled)
        #expect(RejectReason(rawValue: "Completed") == nil)
    }

    @Test("SchedulerErrorKind raw values are the contract's data.scheduler strings")
    func schedulerKinds() {
        #expect(
            SchedulerErrorKind.allCases.map(\.rawValue) == [
                "unavailable", "tooManyPendingTaskRequests", "notPermitted",
            ])
    }

    @Test("other contract enums: framing, task kind, profile, clock, refresh status, safety timer state")
    func otherEnums() {
        #expect(Framing.allCases.map(\.rawValue) == ["ndjson", "lsp"])
        #expect(Set(FramingMode.allCases.map(\.rawValue)) == ["auto", "ndjson", "lsp"])
        #expect(TaskKind.allCases.map(\.rawValue) == ["refresh", "processing"])
        #expect(Set(Profile.allCases.map(\.rawValue)) == ["seed", "strict"])
        #expect(Set(ClockKind.allCases.map(\.rawValue)) == ["virtual", "real"])
        #expect(BackgroundRefreshStatus.allCases.map(\.rawValue) == ["available", "denied", "restricted"])
        #expect(SafetyTimerEvent.State.allCases.map(\.rawValue) == ["started", "fired", "invalidated"])
    }

    @Test("RPCError constructors use the right codes")
    func constructors() {
        #expect(RPCError.parseError("x").code == .parseError)
        #expect(RPCError.invalidRequest("x").code == .invalidRequest)
        #expect(RPCError.methodNotFound("nope").code == .methodNotFound)
        #expect(RPCError.methodNotFound("nope").message.contains("nope"))
        #expect(RPCError.invalidParams("x").code == .invalidParams)
        #expect(RPCError.internalError("x").code == .internalError)
        #expect(RPCError.invalidState("x").code == .invalidState)
        for c in [
            RPCError.parseError("x"), .invalidRequest("x"), .methodNotFound("x"), .invalidParams("x"),
            .internalError("x"), .invalidState("x"),
        ] {
            #expect(c.data == nil)
            #expect(c.rejectReason == nil)
        }
    }

    @Test("rejected(reason) is -32000 with data.reason", arguments: RejectReason.allCases)
    func rejected(reason: RejectReason) {
        let e = RPCError.rejected(reason)
        #expect(e.code == .invokeRejected)
        #expect(e.data == ["reason": .string(reason.rawValue)])
        #expect(e.rejectReason == reason)
        #expect(e.json["data"]?["reason"]?.stringValue == reason.rawValue)
    }

    @Test("scheduler(kind) is -32001 with data.scheduler", arguments: SchedulerErrorKind.allCases)
    func scheduler(kind: SchedulerErrorKind) {
        let e = RPCError.scheduler(kind, identifier: "com.example.app.bg-refresh")
        #expect(e.code == .schedulerError)
        #expect(e.data == ["scheduler": .string(kind.rawValue)])
        #expect(e.rejectReason == nil)
        #expect(e.message.contains("com.example.app.bg-refresh"))
    }

    @Test("rejectReason needs code -32000 and a known reason")
    func rejectReasonAccessor() {
        #expect(RPCError(code: .invalidState, message: "m", data: ["reason": "completed"]).rejectReason == nil)
        #expect(RPCError(code: .invokeRejected, message: "m", data: ["reason": "bogus"]).rejectReason == nil)
        #expect(RPCError(code: .invokeRejected, message: "m", data: ["reason": 1]).rejectReason == nil)
        #expect(RPCError(code: .invokeRejected, message: "m", data: ["reason": "reset"]).rejectReason == .reset)
    }

    @Test("RPCError JSON round trip")
    func jsonRoundTrip() throws {
        let errors: [RPCError] = [
            .parseError("p"), .rejected(.superseded), .scheduler(.notPermitted, identifier: "i"),
            RPCError(code: ErrorCode(rawValue: 1), message: "", data: .null),
            RPCError(code: .internalError, message: "é\n", data: [1, "two"]),
        ]
        for e in errors {
            #expect(RPCError(json: e.json) == e)
            #expect(RPCError(json: try JSONParser.parse(e.json.compactBytes)) == e)
        }
    }

    @Test(
        "RPCError(json:) needs an integer code and a string message",
        arguments: [
            #"{"code":"1","message":"m"}"#, #"{"code":1.5,"message":"m"}"#, #"{"message":"m"}"#, #"{"code":1}"#,
            #"{"code":1,"message":2}"#, "[]", "null",
        ])
    func badErrorObjects(_ t: String) throws {
        #expect(RPCError(json: try parse(t)) == nil)
    }

    @Test("framing errors map to the contract's codes")
    func framingErrors() {
        #expect(FramingError.oversized(length: 10, limit: 5).rpcError.code == .invalidRequest)
        #expect(FramingError.oversized(length: nil, limit: 5).rpcError.code == .invalidRequest)
        #expect(FramingError.malformedHeader("x").rpcError.code == .parseError)
        #expect(FramingError.truncated("x").rpcError.code == .parseError)
        #expect(FramingError.oversized(length: 10, limit: 5).rpcError.message.contains("5"))
        for e in [FramingError.oversized(length: 1, limit: 0), .malformedHeader("h"), .truncated("t")] {
            #expect(e.description == e.rpcError.message)
            #expect(e.rpcError.data == nil)
        }
    }
}
