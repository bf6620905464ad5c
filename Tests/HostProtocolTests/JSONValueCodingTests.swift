import HostProtocol
import Testing

/// Small declarations that exercise the coder on its own, apart from the protocol's types.
private struct Sample: Codable, Hashable, JSONCodable {
    struct Inner: Codable, Hashable { var flag: Bool }
    var name: String
    var count: Int64
    var ratio: Double?
    var kind: TaskKind?
    var inner: Inner?
    var list: [Int64]?
    var maybe: Double??
}

private struct Nulls: Codable, Hashable, JSONCodable {
    @ExplicitNull var always: Double?
    @NullAsAbsent var sometimes: VirtualTime?
}

private struct Checked: Codable, Hashable, JSONCodable, JSONValidated {
    var low: Int64
    var high: Int64
    func validate() throws(JSONDecodingError) {
        if low > high { throw JSONDecodingError(path: "low", expected: "at most high", found: "\(low)") }
    }
}

@Suite("JSONValueDecoder and JSONValueEncoder")
struct JSONValueCodingTests {
    @Test("members round-trip; nil optionals are left out; keys come out sorted")
    func roundTrip() throws {
        let s = Sample(
            name: "a", count: 3, ratio: 0.5, kind: .processing, inner: .init(flag: true), list: [1, 2], maybe: nil)
        #expect(
            text(s.json)
                == #"{"count":3,"inner":{"flag":true},"kind":"processing","list":[1,2],"name":"a","ratio":0.5}"#)
        #expect(try Sample(json: s.json) == s)
    }

    @Test("strict errors: path, expected and found as the hand-written readers gave them")
    func strictErrors() {
        let cases: [(String, String)] = [
            (#"[]"#, "expected an object, got array"),
            (#"{"count":1}"#, #""name" must be a string, got nothing"#),
            (#"{"name":"a","count":1.5}"#, #""count" must be an integer, got number"#),
            (#"{"name":"a","count":1,"ratio":"x"}"#, #""ratio" must be a finite number, got string"#),
            (#"{"name":"a","count":1,"ratio":1e400}"#, #""ratio" must be a finite number, got number"#),
            (#"{"name":"a","count":1,"ratio":null}"#, #""ratio" must be a finite number, got null"#),
            (#"{"name":"a","count":1,"kind":"x"}"#, #""kind" must be one of refresh, processing, got string"#),
            (#"{"name":"a","count":1,"inner":{}}"#, #""inner.flag" must be a boolean, got nothing"#),
            (#"{"name":"a","count":1,"inner":3}"#, #""inner" must be an object, got number"#),
            (#"{"name":"a","count":1,"list":[1,"x"]}"#, #""list.1" must be an integer, got string"#),
        ]
        for (input, message) in cases {
            #expect(decodeError(Sample.self, json(input))?.description == message, "\(input)")
        }
    }

    @Test("Double?? tells an absent member from an explicit null")
    func doubleOptional() throws {
        #expect(try Sample(json: json(#"{"name":"a","count":1}"#)).maybe == nil)
        #expect(try Sample(json: json(#"{"name":"a","count":1,"maybe":null}"#)).maybe == .some(nil))
        #expect(try Sample(json: json(#"{"name":"a","count":1,"maybe":2}"#)).maybe == .some(2))
        var s = try Sample(json: json(#"{"name":"a","count":1}"#))
        s.maybe = .some(nil)
        #expect(text(s.json) == #"{"count":1,"maybe":null,"name":"a"}"#)
    }

    @Test("lenient reading: wrong-typed optionals, null included, are left out and listed; required ones throw")
    func lenient() throws {
        let (s, mismatches) = try Sample.lenient(
            json(#"{"name":"a","count":1,"ratio":"x","kind":"nope","maybe":null,"list":[true]}"#))
        #expect(s == Sample(name: "a", count: 1))
        #expect(
            mismatches.map(\.description) == [
                #""ratio" must be a finite number, got string"#,
                #""kind" must be one of refresh, processing, got string"#,
                #""list.0" must be an integer, got boolean"#, #""maybe" must be a finite number, got null"#,
            ])
        #expect(throws: JSONDecodingError.self) { try Sample.lenient(json(#"{"count":1}"#)) }
    }

    @Test("ExplicitNull writes null and reads null or absence as nil; NullAsAbsent leaves nil out")
    func nullWrappers() throws {
        #expect(text(Nulls(always: nil, sometimes: nil).json) == #"{"always":null}"#)
        #expect(text(Nulls(always: 1, sometimes: .zero).json) == #"{"always":1,"sometimes":0}"#)
        #expect(try Nulls(json: json(#"{}"#)) == Nulls(always: nil, sometimes: nil))
        #expect(try Nulls(json: json(#"{"always":null,"sometimes":null}"#)) == Nulls(always: nil, sometimes: nil))
        #expect(
            decodeError(Nulls.self, json(#"{"sometimes":"x"}"#))?.description
                == #""sometimes" must be a finite number of seconds, got string"#)
    }

    @Test("JSONValidated rules run after the members are read")
    func validated() {
        #expect(
            decodeError(Checked.self, json(#"{"low":2,"high":1}"#))?.description
                == #""low" must be at most high, got 2"#)
        #expect(decodeError(Checked.self, json(#"{"low":1,"high":2}"#)) == nil)
    }

    @Test(
        "UnitInterval checks its range as the member is read, so the first bad member in order is the one reported",
        arguments: [
            (#"{"batteryLevel":1.5,"lowPowerMode":"x"}"#, #""batteryLevel" must be a number from 0 to 1, got 1.5"#),
            (#"{"batteryLevel":-0.5}"#, #""batteryLevel" must be a number from 0 to 1, got -0.5"#),
            (#"{"batteryLevel":null}"#, #""batteryLevel" must be a finite number, got null"#),
            (#"{"batteryLevel":"1"}"#, #""batteryLevel" must be a finite number, got string"#),
            (#"{"batteryLevel":0.5,"lowPowerMode":"x"}"#, #""lowPowerMode" must be a boolean, got string"#),
        ])
    func unitInterval(input: String, message: String) {
        #expect(decodeError(OSSetConditions.IOSParams.self, json(input))?.description == message)
    }

    @Test("UnitInterval: absent is nil and left out when written; in range reads and writes the number")
    func unitIntervalValues() throws {
        let absent = try JSONValueDecoder().decode(OSSetConditions.IOSParams.self, from: json("{}"))
        #expect(absent.batteryLevel == nil)
        #expect(text(JSONValueEncoder().encode(absent)) == "{}")
        let half = try JSONValueDecoder().decode(OSSetConditions.IOSParams.self, from: json(#"{"batteryLevel":0.5}"#))
        #expect(half.batteryLevel == 0.5)
        #expect(text(JSONValueEncoder().encode(half)) == #"{"batteryLevel":0.5}"#)
    }

    @Test("Flattened members sit in the containing object; an optional one only when its key is there")
    func flattened() throws {
        let manual = Conditions.defaults
        #expect(
            text(manual.json)
                == #"{"autoLaunch":false,"backgroundRefreshStatus":"available","#
                + #""externalPower":false,"networkConnected":true}"#
        )
        #expect(try Conditions(json: manual.json) == manual)
        let ios = Conditions.iosDefaults
        #expect(
            text(ios.json)
                == #"{"autoLaunch":true,"backgroundRefreshStatus":"available","batteryLevel":1,"deviceInUse":false,"#
                + #""externalPower":false,"lowPowerMode":false,"networkConnected":true}"#
        )
        #expect(try Conditions(json: ios.json) == ios)
        #expect(
            decodeError(
                Conditions.self,
                json(
                    #"{"autoLaunch":true,"backgroundRefreshStatus":"available","batteryLevel":1,"#
                        + #""externalPower":false,"networkConnected":true}"#
                ))?
                .description == #""lowPowerMode" must be a boolean, got nothing"#)
    }

    @Test("scalars: UInt64 keeps all its digits; VirtualTime its exact decimals")
    func scalars() throws {
        #expect(JSONValueEncoder().encode(UInt64.max) == .number(JSONNumber(literal: "18446744073709551615")!))
        #expect(try JSONValueDecoder().decode(UInt64.self, from: json("18446744073709551615")) == .max)
        #expect(
            (try? JSONValueDecoder().decode(UInt64.self, from: json("-1"))) == nil)
        let t = VirtualTime(nanoseconds: 28_000_000_001)
        #expect(text(JSONValueEncoder().encode(t)) == "28.000000001")
        #expect(try JSONValueDecoder().decode(VirtualTime.self, from: json("28.000000001")) == t)
    }
}
