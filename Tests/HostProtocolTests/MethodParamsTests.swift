import HostProtocol
import Testing

/// Reads params from JSON text.
func json(_ text: String) -> JSONValue { try! parse(text) }

func paths(_ errors: [JSONDecodingError]) -> Set<String> { Set(errors.map(\.path)) }

func decodeError<T: JSONDecodable>(_: T.Type, _ v: JSONValue) -> JSONDecodingError? {
    do {
        _ = try T(json: v)
        return nil
    } catch {
        return error
    }
}

@Suite("StartKeepalive.Params: strict and lenient")
struct StartKeepaliveParamsTests {
    static let allFields = [
        "label", "foregroundServiceType", "iosSafetyTimeoutSecs", "iosProcessingSafetyTimeoutSecs",
        "iosEarliestRefreshBeginMinutes", "iosEarliestProcessingBeginMinutes", "iosRequiresExternalPower",
        "iosRequiresNetworkConnectivity",
    ]

    @Test("well-typed fields are read the same by both")
    func wellTyped() throws {
        let v = json(
            #"{"label":"sync","foregroundServiceType":"dataSync","iosSafetyTimeoutSecs":20,"#
                + #""iosProcessingSafetyTimeoutSecs":60.5,"iosEarliestRefreshBeginMinutes":1,"#
                + #""iosEarliestProcessingBeginMinutes":30,"iosRequiresExternalPower":true,"#
                + #""iosRequiresNetworkConnectivity":false,"unknown":[1]}"#
        )
        let expected = StartKeepalive.Params(
            label: "sync", foregroundServiceType: "dataSync", iosSafetyTimeoutSecs: 20,
            iosProcessingSafetyTimeoutSecs: .some(60.5),
            iosEarliestRefreshBeginMinutes: 1, iosEarliestProcessingBeginMinutes: 30, iosRequiresExternalPower: true,
            iosRequiresNetworkConnectivity: false)
        #expect(try StartKeepalive.Params(json: v) == expected)
        let (lenient, mismatches) = try StartKeepalive.Params.lenient(v)
        #expect(lenient == expected)
        #expect(mismatches.isEmpty)
    }

    @Test("absent fields stay nil")
    func absent() throws {
        #expect(try StartKeepalive.Params(json: [:]) == StartKeepalive.Params())
        let (p, m) = try StartKeepalive.Params.lenient(["iosSafetyTimeoutSecs": 5])
        #expect(p == StartKeepalive.Params(iosSafetyTimeoutSecs: 5))
        #expect(p.iosProcessingSafetyTimeoutSecs == nil)
        #expect(m.isEmpty)
    }

    @Test("every wrong-typed field is listed by lenient and thrown by strict")
    func allWrong() throws {
        let v = json(
            #"{"label":1,"foregroundServiceType":true,"iosSafetyTimeoutSecs":"28","iosProcessingSafetyTimeoutSecs":"#
                + #""x","iosEarliestRefreshBeginMinutes":[],"iosEarliestProcessingBeginMinutes":{},"#
                + #""iosRequiresExternalPower":"true","iosRequiresNetworkConnectivity":1}"#
        )
        let (p, m) = try StartKeepalive.Params.lenient(v)
        #expect(p == StartKeepalive.Params())
        #expect(paths(m) == Set(StartKeepaliveParamsTests.allFields))
        #expect(m.count == 8)
        let e = try #require(decodeError(StartKeepalive.Params.self, v))
        #expect(StartKeepaliveParamsTests.allFields.contains(e.path))
    }

    @Test("one wrong field: lenient keeps the others, strict throws for it", arguments: allFields)
    func oneWrong(field: String) throws {
        var o: [String: JSONValue] = ["iosEarliestRefreshBeginMinutes": 5, "label": "keep"]
        // A type that is wrong for every field: strings for numbers and bools, a number for strings.
        o[field] = field == "label" || field == "foregroundServiceType" ? 7 : "7"
        let (p, m) = try StartKeepalive.Params.lenient(.object(o))
        #expect(m.map(\.path) == [field])
        #expect(m.first?.found == (field == "label" || field == "foregroundServiceType" ? "number" : "string"))
        if field != "iosEarliestRefreshBeginMinutes" { #expect(p.iosEarliestRefreshBeginMinutes == 5) }
        if field != "label" { #expect(p.label == "keep") }
        #expect(decodeError(StartKeepalive.Params.self, .object(o))?.path == field)
    }

    @Test("iosProcessingSafetyTimeoutSecs: null is accepted by strict as .some(nil), a mismatch for lenient")
    func processingNull() throws {
        let v = json(#"{"iosProcessingSafetyTimeoutSecs":null,"iosSafetyTimeoutSecs":10}"#)
        let strict = try StartKeepalive.Params(json: v)
        #expect(strict.iosProcessingSafetyTimeoutSecs == .some(nil))
        #expect(strict.iosSafetyTimeoutSecs == 10)
        let (lenient, m) = try StartKeepalive.Params.lenient(v)
        #expect(lenient.iosProcessingSafetyTimeoutSecs == nil)
        #expect(m.map(\.path) == ["iosProcessingSafetyTimeoutSecs"])
        #expect(m.first?.found == "null")
        // null is still a wrong type for the other fields under strict.
        #expect(
            decodeError(StartKeepalive.Params.self, json(#"{"iosSafetyTimeoutSecs":null}"#))?.path
                == "iosSafetyTimeoutSecs")
        #expect(decodeError(StartKeepalive.Params.self, json(#"{"label":null}"#))?.path == "label")
        // ...and strict with null processing still rejects another wrong field.
        #expect(
            decodeError(StartKeepalive.Params.self, json(#"{"iosProcessingSafetyTimeoutSecs":null,"label":1}"#))?.path
                == "label")
    }

    @Test("zero and negative processing timeouts are numbers (meaning: no timer)")
    func processingNonPositive() throws {
        #expect(
            try StartKeepalive.Params(json: ["iosProcessingSafetyTimeoutSecs": 0]).iosProcessingSafetyTimeoutSecs
                == .some(0))
        #expect(
            try StartKeepalive.Params(json: ["iosProcessingSafetyTimeoutSecs": -5]).iosProcessingSafetyTimeoutSecs
                == .some(-5))
    }

    @Test("a number too large for a Double is a wrong type")
    func hugeNumber() throws {
        let v = json(#"{"iosSafetyTimeoutSecs":1e400}"#)
        let (_, m) = try StartKeepalive.Params.lenient(v)
        #expect(m.map(\.path) == ["iosSafetyTimeoutSecs"])
        #expect(decodeError(StartKeepalive.Params.self, v) != nil)
    }

    @Test(
        "params that are not an object throw in both readings", arguments: ["[]", "[1]", "5", "\"x\"", "null", "true"])
    func notAnObject(_ text: String) {
        #expect(decodeError(StartKeepalive.Params.self, json(text)) != nil)
        #expect(throws: JSONDecodingError.self) { try StartKeepalive.Params.lenient(json(text)) }
    }

    @Test("JSON round trip, explicit null included")
    func roundTrip() throws {
        let values: [StartKeepalive.Params] = [
            .init(), .init(label: "l"), .init(iosProcessingSafetyTimeoutSecs: .some(nil)),
            .init(iosProcessingSafetyTimeoutSecs: .some(0.25)),
            .init(
                label: "é\n", foregroundServiceType: "location", iosSafetyTimeoutSecs: 0.1,
                iosProcessingSafetyTimeoutSecs: .some(300),
                iosEarliestRefreshBeginMinutes: 15, iosEarliestProcessingBeginMinutes: 0,
                iosRequiresExternalPower: false, iosRequiresNetworkConnectivity: true),
        ]
        for p in values {
            #expect(try StartKeepalive.Params(json: JSONParser.parse(p.json.compactBytes)) == p)
        }
        #expect(text(StartKeepalive.Params().json) == "{}")
        #expect(
            text(StartKeepalive.Params(iosProcessingSafetyTimeoutSecs: .some(nil)).json)
                == #"{"iosProcessingSafetyTimeoutSecs":null}"#)
    }
}

@Suite("CompleteBgTask.Params: strict and lenient")
struct CompleteBgTaskParamsTests {
    @Test(
        "booleans and absence",
        arguments: [("{}", nil), (#"{"success":true}"#, true), (#"{"success":false}"#, false)] as [(String, Bool?)])
    func valid(text: String, success: Bool?) throws {
        #expect(try CompleteBgTask.Params(json: json(text)).success == success)
        let (p, m) = try CompleteBgTask.Params.lenient(json(text))
        #expect(p.success == success)
        #expect(m.isEmpty)
    }

    @Test(
        "non-booleans: strict throws, lenient leaves success out",
        arguments: ["null", "\"yes\"", "0", "1", "[]", "{}", "\"true\""])
    func wrongType(_ value: String) throws {
        let v = json(#"{"success":\#(value)}"#)
        #expect(decodeError(CompleteBgTask.Params.self, v)?.path == "success")
        let (p, m) = try CompleteBgTask.Params.lenient(v)
        #expect(p.success == nil)
        #expect(m.map(\.path) == ["success"])
    }

    @Test("JSON round trip")
    func roundTrip() throws {
        for p in [CompleteBgTask.Params(), .init(success: true), .init(success: false)] {
            #expect(try CompleteBgTask.Params(json: JSONParser.parse(p.json.compactBytes)) == p)
        }
        #expect(text(CompleteBgTask.Params(success: false).json) == #"{"success":false}"#)
        #expect(text(CompleteBgTask.Params().json) == "{}")
    }
}

@Suite("OSAdvanceTime.Params")
struct OSAdvanceTimeParamsTests {
    @Test(
        "non-negative seconds are accepted",
        arguments: [
            ("28", 28_000_000_000), ("0", 0), ("28.5", 28_500_000_000), ("0.000000001", 1), ("900", 900_000_000_000),
        ] as [(String, Int64)])
    func accepted(text: String, ns: Int64) throws {
        let p = try OSAdvanceTime.Params(json: json(#"{"seconds":\#(text)}"#))
        #expect(p.duration.nanoseconds == ns)
        #expect(p.seconds == Double(text)!)
    }

    @Test(
        "negative, non-numeric, missing and non-finite seconds are rejected",
        arguments: [
            #"{"seconds":-1}"#, #"{"seconds":-0.000000001}"#, #"{"seconds":-1e-10}"#, #"{"seconds":"28"}"#,
            #"{"seconds":null}"#,
            #"{"seconds":1e400}"#, "{}", #"{"second":1}"#, "[28]",
        ])
    func rejected(_ text: String) {
        let e = decodeError(OSAdvanceTime.Params.self, json(text))
        #expect(e != nil)
        if text.hasPrefix("{\"seconds\"") { #expect(e?.path == "seconds") }
    }

    @Test("JSON round trip and shape")
    func roundTrip() throws {
        let p = OSAdvanceTime.Params(seconds: 28.5)
        #expect(text(p.json) == #"{"seconds":28.5}"#)
        #expect(try OSAdvanceTime.Params(json: p.json) == p)
        let exact = OSAdvanceTime.Params(duration: VirtualTime(nanoseconds: 1))
        #expect(text(exact.json) == #"{"seconds":0.000000001}"#)
        #expect(try OSAdvanceTime.Params(json: exact.json) == exact)
        let r = OSAdvanceTime.Result(now: VirtualTime(seconds: 928)!)
        #expect(text(r.json) == #"{"now":928}"#)
        #expect(try OSAdvanceTime.Result(json: r.json) == r)
    }
}

@Suite("Initialize.Params and small types")
struct SmallParamsTests {
    @Test("initialize: capabilities.events")
    func initialize() throws {
        #expect(try Initialize.Params(json: json(#"{"capabilities":{"events":true}}"#)).events == true)
        #expect(try Initialize.Params(json: json(#"{"capabilities":{"events":false}}"#)).events == false)
        #expect(try Initialize.Params(json: json(#"{"capabilities":{}}"#)).events == nil)
        #expect(try Initialize.Params(json: json("{}")).events == nil)
        #expect(
            decodeError(Initialize.Params.self, json(#"{"capabilities":{"events":"yes"}}"#))?.path
                == "capabilities.events")
        #expect(decodeError(Initialize.Params.self, json(#"{"capabilities":1}"#))?.path == "capabilities")
        for p in [Initialize.Params(), .init(events: true), .init(events: false)] {
            #expect(try Initialize.Params(json: JSONParser.parse(p.json.compactBytes)) == p)
        }
    }

    @Test("EmptyParams accepts any object; NullResult requires null")
    func emptyAndNull() throws {
        #expect(throws: Never.self) { try EmptyParams(json: json(#"{"anything":[1]}"#)) }
        #expect(text(EmptyParams().json) == "{}")
        #expect(try NullResult(json: .null) == NullResult())
        #expect(text(NullResult().json) == "null")
        for v in [json("{}"), json("0"), json("false"), json("[]")] {
            #expect(decodeError(NullResult.self, v) != nil)
        }
    }

    @Test("a decoding error names the path, what was expected and what was found")
    func decodingErrorText() {
        let error = JSONDecodingError(path: "outer.a", expected: "a boolean", found: "string")
        #expect(error.description == #""outer.a" must be a boolean, got string"#)
        #expect(
            JSONDecodingError(path: "", expected: "null", found: "number").description == "expected null, got number")
    }

    @Test("identifier params need a string")
    func identifier() throws {
        #expect(try IdentifierParams(json: json(#"{"identifier":"a.b"}"#)).identifier == "a.b")
        #expect(decodeError(IdentifierParams.self, json("{}"))?.found == "nothing")
        #expect(decodeError(IdentifierParams.self, json(#"{"identifier":1}"#))?.found == "number")
    }

    @Test("os/setConditions params: enum strings and booleans")
    func setConditions() throws {
        let p = try OSSetConditions.Params(json: json(#"{"backgroundRefreshStatus":"denied","autoLaunch":true}"#))
        #expect(p == OSSetConditions.Params(backgroundRefreshStatus: .denied, autoLaunch: true))
        #expect(
            decodeError(OSSetConditions.Params.self, json(#"{"backgroundRefreshStatus":"Denied"}"#))?.path
                == "backgroundRefreshStatus")
        #expect(decodeError(OSSetConditions.Params.self, json(#"{"externalPower":"true"}"#))?.path == "externalPower")
        #expect(try OSSetConditions.Params(json: json("{}")) == OSSetConditions.Params())
    }

    @Test("os/submit params: constraints only on processing requests")
    func submit() throws {
        #expect(
            decodeError(
                OSSubmit.Params.self, json(#"{"identifier":"r","kind":"refresh","requiresExternalPower":true}"#)) != nil
        )
        #expect(
            decodeError(
                OSSubmit.Params.self, json(#"{"identifier":"r","kind":"refresh","requiresExternalPower":false}"#))
                == nil)
        #expect(decodeError(OSSubmit.Params.self, json(#"{"identifier":"p","kind":"background"}"#))?.path == "kind")
        let p = try OSSubmit.Params(
            json: json(
                #"{"identifier":"p","kind":"processing","earliestBeginDate":null,"requiresNetworkConnectivity":true}"#))
        #expect(p == OSSubmit.Params(identifier: "p", kind: .processing, requiresNetworkConnectivity: true))
    }
}
