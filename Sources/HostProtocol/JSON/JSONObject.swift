#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON object: members kept sorted by the UTF-8 bytes of their keys, keys
/// unique and compared byte for byte.
///
/// Sorted storage makes writing the object's canonical (sorted-key) form a
/// straight copy, makes lookups a binary search without hashing, and keeps
/// keys that differ only in Unicode normalization apart (Swift's `String ==`
/// would equate them). It reads like a dictionary:
///
/// ```swift
/// var o: JSONObject = ["b": 1, "a": true]
/// o["c"] = "x"
/// o.keys            // ["a", "b", "c"]
/// o["a"]            // .bool(true)
/// ```
public struct JSONObject: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One member.
    public struct Member: Sendable {
        /// The member's name.
        public let key: String
        /// The member's value.
        public var value: JSONValue
    }

    /// The members in key order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() {
        members = []
    }

    /// The members of a dictionary.
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { Member(key: $0.key, value: $0.value) }
        members.sort { JSONObject.precedes($0.key, $1.key) }
    }

    /// Members in any order; for a repeated key the last one wins (as `JSON.parse` does).
    public init(lastWins pairs: [(String, JSONValue)]) {
        self.init(lastWins: pairs.map { Member(key: $0.0, value: $0.1) })
    }

    /// Members in any order (as parsed); for a repeated key the last one wins.
    init(lastWins parsed: [Member]) {
        // Already in order with no repeats (every object this protocol's writers
        // produce): taken as they are, one comparison per member.
        if JSONObject.strictlyIncreasing(parsed) {
            members = parsed
            return
        }
        members = []
        members.reserveCapacity(parsed.count)
        if parsed.count <= 16 {
            // Small objects (all of this protocol's): insertion, replacing repeats.
            for member in parsed {
                let (i, found) = search(member.key)
                if found { members[i].value = member.value } else { members.insert(member, at: i) }
            }
            return
        }
        var indexed = parsed.enumerated().map { (offset: $0.offset, member: $0.element) }
        indexed.sort { a, b in
            let c = JSONObject.compare(a.member.key, b.member.key)
            return c != 0 ? c < 0 : a.offset < b.offset
        }
        for entry in indexed {
            if let last = members.last, JSONObject.compare(last.key, entry.member.key) == 0 {
                members[members.count - 1] = entry.member
            } else {
                members.append(entry.member)
            }
        }
    }

    /// Members as an encoder wrote them (in declaration order, unique but for a
    /// flattened member that repeats one: the last wins), sorted in place: no second
    /// array, and a stable insertion sort, which is fastest for the few members a
    /// protocol type has.
    init(written: inout [Member]) {
        if JSONObject.strictlyIncreasing(written) {
            members = written
            return
        }
        var i = 1
        while i < written.count {
            let member = written[i]
            var j = i
            while j > 0, JSONObject.compare(written[j - 1].key, member.key) > 0 {
                written[j] = written[j - 1]
                j -= 1
            }
            written[j] = member
            i += 1
        }
        // Equal keys are now adjacent, in the order written: keep the last of each.
        var unique = true
        for k in 1..<written.count where JSONObject.same(written[k - 1].key, written[k].key) {
            unique = false
            break
        }
        if unique {
            members = written
        } else {
            members = []
            members.reserveCapacity(written.count)
            for member in written {
                if let last = members.last, JSONObject.same(last.key, member.key) {
                    members[members.count - 1] = member
                } else {
                    members.append(member)
                }
            }
        }
    }

    private static func strictlyIncreasing(_ members: [Member]) -> Bool {
        var i = 1
        while i < members.count {
            if compare(members[i - 1].key, members[i].key) >= 0 { return false }
            i += 1
        }
        return true
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(lastWins: elements)
    }

    /// Compares keys by their UTF-8 bytes: negative, zero or positive.
    static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb -> Int in
                let n = Swift.min(pa.count, pb.count)
                if n > 0 {
                    let c = memcmp(pa.baseAddress!, pb.baseAddress!, n)
                    if c != 0 { return Int(c) }
                }
                return pa.count - pb.count
            }
        }
        if let fast, let result = fast { return result }
        if a.utf8.lexicographicallyPrecedes(b.utf8) { return -1 }
        return a.utf8.elementsEqual(b.utf8) ? 0 : 1
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes.
    @inline(__always)
    static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Whether two keys are the same bytes.
    @inline(__always)
    static func same(_ a: String, _ b: String) -> Bool { compare(a, b) == 0 }

    /// The position of `key`, or where it would go.
    private func search(_ key: String) -> (index: Int, found: Bool) {
        if members.count <= 8 {
            for i in members.indices {
                let c = JSONObject.compare(members[i].key, key)
                if c == 0 { return (i, true) }
                if c > 0 { return (i, false) }
            }
            return (members.count, false)
        }
        var low = 0
        var high = members.count
        while low < high {
            let mid = (low + high) / 2
            if JSONObject.precedes(members[mid].key, key) { low = mid + 1 } else { high = mid }
        }
        return (low, low < members.count && JSONObject.same(members[low].key, key))
    }

    /// The member's value; setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            let (i, found) = search(key)
            return found ? members[i].value : nil
        }
        set {
            let (i, found) = search(key)
            switch (found, newValue) {
            case (true, let v?): members[i].value = v
            case (true, nil): members.remove(at: i)
            case (false, let v?): members.insert(Member(key: key, value: v), at: i)
            case (false, nil): break
            }
        }
    }

    /// Removes a member; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        let old = self[key]
        self[key] = nil
        return old
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }
    /// The values, in key order.
    public var values: [JSONValue] { members.map(\.value) }
    /// How many members.
    public var count: Int { members.count }
    /// Whether it has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        var d: [String: JSONValue] = [:]
        for m in members { d[m.key] = m.value }
        return d
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        members.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.members.count == b.members.count else { return false }
        for (x, y) in zip(a.members, b.members) where !same(x.key, y.key) || x.value != y.value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for m in members {
            for byte in m.key.utf8 { hasher.combine(byte) }
            hasher.combine(m.value)
        }
    }

    public var description: String { JSONValue.object(self).description }
}
