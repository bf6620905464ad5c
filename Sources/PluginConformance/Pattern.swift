import HostProtocol

/// What a check expects of a JSON value: the members the contract names, compared
/// where the contract fixes their values, anything else allowed.
///
/// - An object matches when every member the pattern names is present and matches;
///   members the pattern does not name are allowed (contract § 6, "Extra members").
/// - `"*"` matches any value (human text such as `error.message`, free strings such
///   as `serverInfo.name`).
/// - Numbers compare by value (`900` matches `900.0`); other scalars exactly.
/// - An array matches item by item, in order, and must have as many items;
///   ``unordered(_:)`` where the contract fixes no order.
/// - ``oneOf(_:because:)``: any of several answers the contract allows (an invalid
///   request's id: the request's, or `null`), with the reason in words.
/// - ``includes(_:)``: an array that holds, among others, an item for each pattern.
/// - ``registrations(_:)``: `plugin/state.registered` in any of the shapes the
///   document allows, with these identifiers and kinds.
///
/// ```swift
/// let p = Pattern(json: #"{"id":1,"result":{"now":900}}"#)
/// p.mismatch(with: try JSONParser.parse(Array(#"{"id":1,"result":{"now":900.0,"x":2}}"#.utf8)))  // nil
/// ```
indirect enum Pattern: Sendable, CustomStringConvertible {
    /// Any value.
    case any
    /// This scalar (numbers by value).
    case value(JSONValue)
    /// An object with at least these members, each matching.
    case object([Member])
    /// An array of exactly these items, in order.
    case array([Pattern])
    /// An array of exactly these items, in any order.
    case unordered([Pattern])
    /// An array holding, among any others, an item for each of these.
    case includes([Pattern])
    /// Any of these; `because` says, in words, which choice the contract leaves open.
    case oneOf([Pattern], because: String)
    /// `registered`: identifier → kind, as an array of `{identifier, kind}`, an array
    /// of identifiers, or an object keyed by identifier.
    case registrations([String: String])

    /// A named member of an object pattern.
    struct Member: Sendable {
        let key: String
        let pattern: Pattern
    }

    /// The pattern of a JSON text written in the catalogue's notation (`"*"`: any value).
    init(json text: String) {
        guard let value = try? JSONParser.parse(Array(text.utf8)) else {
            preconditionFailure("catalogue pattern is not JSON: \(text)")
        }
        self.init(value)
    }

    /// The pattern of a JSON value (`"*"`: any value).
    init(_ value: JSONValue) {
        switch value {
        case .string("*"): self = .any
        case .array(let items): self = .array(items.map(Pattern.init))
        case .object(let o): self = .object(o.map { Member(key: $0.key, pattern: Pattern($0.value)) })
        default: self = .value(value)
        }
    }

    /// This object pattern with `key`'s member replaced (or added).
    func replacing(_ key: String, with pattern: Pattern) -> Pattern {
        guard case .object(var members) = self else { return self }
        members.removeAll { $0.key == key }
        members.append(Member(key: key, pattern: pattern))
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return .object(members)
    }

    /// The member pattern under `key`, for an object pattern.
    subscript(key: String) -> Pattern? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.pattern
    }

    /// Why `value` does not match, as `"/result/now: expected 28, found 29"`; nil when it does.
    func mismatch(with value: JSONValue, at path: String = "") -> String? {
        let place = path.isEmpty ? "(the frame)" : path
        switch self {
        case .any:
            return nil
        case .value(let expected):
            return Pattern.equal(expected, value) ? nil : "\(place): expected \(expected), found \(Pattern.show(value))"
        case .object(let members):
            guard case .object(let o) = value else { return "\(place): expected an object, found \(value.typeName)" }
            for m in members {
                guard let member = o[m.key] else { return "\(place): member \"\(m.key)\" is missing" }
                if let why = m.pattern.mismatch(with: member, at: "\(path)/\(m.key)") { return why }
            }
            return nil
        case .array(let items):
            guard case .array(let a) = value else { return "\(place): expected an array, found \(value.typeName)" }
            guard a.count == items.count else { return "\(place): expected \(items.count) items, found \(a.count)" }
            for (i, (p, v)) in zip(items, a).enumerated() {
                if let why = p.mismatch(with: v, at: "\(path)/\(i)") { return why }
            }
            return nil
        case .unordered(let items):
            guard case .array(let a) = value else { return "\(place): expected an array, found \(value.typeName)" }
            guard a.count == items.count else { return "\(place): expected \(items.count) items, found \(a.count)" }
            return Pattern.assign(items, a) ? nil : "\(place): the items are not \(self) (in any order)"
        case .includes(let items):
            guard case .array(let a) = value else { return "\(place): expected an array, found \(value.typeName)" }
            for p in items where !a.contains(where: { p.mismatch(with: $0) == nil }) {
                return "\(place): no item matches \(p)"
            }
            return nil
        case .oneOf(let options, _):
            return options.contains { $0.mismatch(with: value) == nil }
                ? nil : "\(place): expected \(self), found \(Pattern.show(value))"
        case .registrations(let expected):
            guard let found = Pattern.registrations(in: value) else {
                return "\(place): not a list of registrations (an array of {identifier, kind} or of identifiers, "
                    + "or an object keyed by identifier): \(Pattern.show(value))"
            }
            guard Set(found.keys) == Set(expected.keys) else {
                return "\(place): registered \(found.keys.sorted()), expected \(expected.keys.sorted())"
            }
            for (id, kind) in found.sorted(by: { $0.key < $1.key }) where kind != nil && kind != expected[id] {
                return "\(place): \(id) is registered as \(kind ?? ""), expected \(expected[id] ?? "")"
            }
            return nil
        }
    }

    /// Whether every pattern can be paired with its own value (a perfect matching; lists are short).
    private static func assign(_ patterns: [Pattern], _ values: [JSONValue]) -> Bool {
        guard let first = patterns.first else { return values.isEmpty }
        for (i, v) in values.enumerated() where first.mismatch(with: v) == nil {
            var rest = values
            rest.remove(at: i)
            if assign(Array(patterns.dropFirst()), rest) { return true }
        }
        return false
    }

    /// identifier → kind (nil when the shape gives none), from any accepted shape of `registered`.
    static func registrations(in value: JSONValue) -> [String: String?]? {
        var out: [String: String?] = [:]
        switch value {
        case .array(let items):
            for item in items {
                if let id = item.stringValue {
                    out.updateValue(nil, forKey: id)
                } else if let id = item["identifier"]?.stringValue {
                    out.updateValue(item["kind"]?.stringValue, forKey: id)
                } else {
                    return nil
                }
            }
        case .object(let o):
            for (id, v) in o { out.updateValue(v.stringValue ?? v["kind"]?.stringValue, forKey: id) }
        default:
            return nil
        }
        return out
    }

    /// JSON equality with numbers by value.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b {
            if let i = x.int64Value, let j = y.int64Value { return i == j }
            if let d = x.doubleValue, let e = y.doubleValue { return d == e }
            return x.literal == y.literal
        }
        return a == b
    }

    private static func show(_ value: JSONValue) -> String { ConformanceText.shorten(value.description, limit: 200) }

    /// The pattern in the catalogue's notation: compact JSON, keys sorted, `"*"` for any
    /// value, `(a | b)` for alternatives, `(any order)[...]`, `(registered: ...)`.
    var description: String {
        switch self {
        case .any: "\"*\""
        case .value(let v): v.description
        case .object(let members):
            "{" + members.map { "\(JSONValue.string($0.key)):\($0.pattern)" }.joined(separator: ",") + "}"
        case .array(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .unordered(let items): "(any order)[" + items.map(\.description).joined(separator: ",") + "]"
        case .includes(let items): "(including)[" + items.map(\.description).joined(separator: ",") + "]"
        case .oneOf(let options, _): "(" + options.map(\.description).joined(separator: " | ") + ")"
        case .registrations(let r):
            "(registered: " + r.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
    }

    /// Every open choice inside the pattern, in words, for the catalogue's "accepts" lines.
    var openChoices: [String] {
        switch self {
        case .any, .value: []
        case .object(let members): members.flatMap { m in m.pattern.openChoices.map { "\(m.key): \($0)" } }
        case .array(let items): items.flatMap(\.openChoices)
        case .unordered(let items): ["the items in any order"] + items.flatMap(\.openChoices)
        case .includes: ["other items, in any order"]
        case .oneOf(_, let because): [because]
        case .registrations:
            ["an array of {identifier, kind}, an array of identifiers, or an object keyed by identifier"]
        }
    }
}
