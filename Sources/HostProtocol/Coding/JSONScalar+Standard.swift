extension Bool: JSONScalar {
    /// `"a boolean"`.
    public static var jsonExpected: String { "a boolean" }
    /// A JSON boolean.
    public init?(jsonValue: JSONValue) {
        guard case .bool(let b) = jsonValue else { return nil }
        self = b
    }
    /// `true` or `false`.
    public var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONScalar {
    /// `"a finite number"` (`1e400` does not fit).
    public static var jsonExpected: String { "a finite number" }
    /// A JSON number that fits a finite `Double`.
    public init?(jsonValue: JSONValue) {
        guard case .number(let n) = jsonValue, let d = n.doubleValue else { return nil }
        self = d
    }
    /// The number (finite, as the protocol's values are).
    public var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

extension String: JSONScalar {
    /// `"a string"`.
    public static var jsonExpected: String { "a string" }
    /// A JSON string.
    public init?(jsonValue: JSONValue) {
        guard case .string(let s) = jsonValue else { return nil }
        self = s
    }
    /// The string.
    public var jsonValue: JSONValue { .string(self) }
}

extension Int64: JSONScalar {
    /// `"an integer"`.
    public static var jsonExpected: String { "an integer" }
    /// A JSON number whose value is a whole number in `Int64` range (`2`, `2.0`, `2e0`).
    public init?(jsonValue: JSONValue) {
        guard case .number(let n) = jsonValue, let i = n.int64Value else { return nil }
        self = i
    }
    /// The integer.
    public var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

extension Int: JSONScalar {
    /// `"an integer"`.
    public static var jsonExpected: String { "an integer" }
    /// A JSON number whose value is a whole number in `Int` range (`2`, `2.0`, `2e0`).
    public init?(jsonValue: JSONValue) {
        guard case .number(let n) = jsonValue, let i = n.exactInteger(Int.self) else { return nil }
        self = i
    }
    /// The integer.
    public var jsonValue: JSONValue { .number(JSONNumber(self)) }
}

extension UInt64: JSONScalar {
    /// `"an integer from 0 to 2^64-1"`.
    public static var jsonExpected: String { "an integer from 0 to 2^64-1" }
    /// A JSON number whose value is a whole number from 0 to 2^64-1 (`7`, `7.0`, `7e0`).
    public init?(jsonValue: JSONValue) {
        guard case .number(let n) = jsonValue, let u = n.exactInteger(UInt64.self) else { return nil }
        self = u
    }
    /// The integer, written exactly.
    public var jsonValue: JSONValue { .number(JSONNumber(uncheckedLiteral: String(self))) }
}

extension JSONValue: JSONScalar {
    /// `"any value"`.
    public static var jsonExpected: String { "any value" }
    /// Any JSON value.
    public init?(jsonValue: JSONValue) { self = jsonValue }
    /// The value itself.
    public var jsonValue: JSONValue { self }
}

extension VirtualTime: JSONScalar {
    /// `"a finite number of seconds"`.
    public static var jsonExpected: String { "a finite number of seconds" }
    /// A number of seconds on the plugin's clock.
    public init?(jsonValue: JSONValue) {
        guard case .number(let n) = jsonValue else { return nil }
        self.init(seconds: n)
    }
    /// The exact decimal seconds.
    public var jsonValue: JSONValue { json }
}

extension RequestID: JSONScalar {
    /// `"a string, a number or null"`.
    public static var jsonExpected: String { "a string, a number or null" }
    /// An id: a string, a number or `null`.
    public init?(jsonValue: JSONValue) { self.init(json: jsonValue) }
    /// The id as JSON.
    public var jsonValue: JSONValue { json }
}
