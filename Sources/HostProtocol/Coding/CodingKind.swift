import Synchronization

/// What the coders need to know about a member's type, found once per type.
///
/// The coders ask of every member "is this a ``JSONScalar``?", and of every nested
/// value "is it a number type?" and "does it have a rule to check?". Asked with
/// `as?`, each is a dynamic cast to an existential, about 600 instructions (a
/// quarter of the plugin's coding time in callgrind); here the answer is looked up
/// by the type's identity under a lock, and the cast is made once per type for the
/// process's lifetime (the protocol has a few dozen types).
enum CodingKind {
    /// Read and written as one JSON value.
    case scalar(any JSONScalar.Type)
    /// A number type the protocol does not use (it would recurse through the single
    /// value container forever).
    case unusedNumber
    /// Anything else: a nested container; `validated` when it is ``JSONValidated``.
    case nested(validated: Bool)

    /// The kind of `type`.
    static func of(_ type: Any.Type) -> CodingKind {
        let id = UInt(bitPattern: ObjectIdentifier(type))
        if let known = cache.withLock({ $0.find(id) }) { return known }
        let kind: CodingKind
        if let scalar = type as? any JSONScalar.Type {
            kind = .scalar(scalar)
        } else if type is any Numeric.Type {
            kind = .unusedNumber
        } else {
            kind = .nested(validated: type is any JSONValidated.Type)
        }
        cache.withLock { $0.insert(id, kind) }
        return kind
    }

    private static let cache = Mutex(KindTable())
}

/// An open-addressing table from a type's address to its kind: a lookup is a
/// shift, a mask and a comparison or two (a `Dictionary` would hash the key with
/// SipHash first). When it is full, kinds are simply not cached any more.
private struct KindTable {
    private static let size = 1024
    private var keys = [UInt](repeating: 0, count: size)
    private var kinds = [CodingKind?](repeating: nil, count: size)

    func find(_ id: UInt) -> CodingKind? {
        var i = Self.slot(id)
        for _ in 0..<Self.size {
            if keys[i] == id { return kinds[i] }
            if keys[i] == 0 { return nil }
            i = (i + 1) & (Self.size - 1)
        }
        return nil
    }

    mutating func insert(_ id: UInt, _ kind: CodingKind) {
        var i = Self.slot(id)
        for _ in 0..<Self.size {
            if keys[i] == 0 || keys[i] == id {
                keys[i] = id
                kinds[i] = kind
                return
            }
            i = (i + 1) & (Self.size - 1)
        }
    }

    private static func slot(_ id: UInt) -> Int { Int(truncatingIfNeeded: (id >> 4) ^ (id >> 14)) & (size - 1) }
}

extension JSONScalar {
    /// `value`'s JSON, where `T` is known to be `Self` (no cast: the memory is read as
    /// the type it is).
    static func jsonValue<T>(of value: T) -> JSONValue {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: Self.self, capacity: 1) { $0.pointee.jsonValue } }
    }

    /// The value read from `json` as a `T`, where `T` is known to be `Self`.
    static func read<T>(_ json: JSONValue, as _: T.Type) -> T? {
        guard let value = Self(jsonValue: json) else { return nil }
        return withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }
}
