/// Reading a JSON number as an integer whatever way it was written.
///
/// JSON has one number type, and writers differ in how they spell the same value:
/// Rust's serde_json writes an `f64` 2 as `2.0` and 10^16 as `1e16`, Swift's
/// `JSONNumber(Double)` writes `1e+16`, a hand-written client may send `2e0`. JSON
/// Schema counts every number with no fractional part as an `integer` (`1.0`
/// included), and so do the protocol's readers: an integer member accepts any literal
/// whose value is a whole number in the type's range, exactly (no detour through
/// `Double`, so `9007199254740993.0` is 9007199254740993, and `2.5e0` is not whole).
///
/// ```swift
/// JSONNumber(literal: "2.0")!.exactInteger(Int64.self)      // 2
/// JSONNumber(literal: "1e16")!.exactInteger(Int64.self)     // 10_000_000_000_000_000
/// JSONNumber(literal: "-0.0")!.exactInteger(Int64.self)     // 0
/// JSONNumber(literal: "2.5")!.exactInteger(Int64.self)      // nil
/// ```
///
/// Request ids are not read this way: they keep their literal (`1` and `1.0` are two ids).
extension JSONNumber {
    /// The value as a `T` when it is a whole number in `T`'s range, however the literal
    /// spells it (`12`, `12.0`, `1.2e1`, `120e-1`); nil otherwise.
    public func exactInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        if let plain = T(literal) { return plain }
        guard let (negative, magnitude) = JSONNumber.wholeMagnitude(Array(literal.utf8)) else { return nil }
        if !negative || magnitude == 0 { return T(exactly: magnitude) }
        guard T.isSigned, magnitude <= UInt64(T.max) + 1 else { return nil }
        return magnitude == UInt64(T.max) + 1 ? T.min : 0 - T(magnitude)
    }

    /// The sign and magnitude of a valid literal whose value is a whole number below
    /// 2^64; nil when it has a fractional part or is larger.
    static func wholeMagnitude(_ bytes: [UInt8]) -> (negative: Bool, magnitude: UInt64)? {
        var i = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { i += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while i < bytes.count, bytes[i] != UInt8(ascii: "e"), bytes[i] != UInt8(ascii: "E") {
            if bytes[i] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                digits.append(bytes[i] &- 0x30)
                if inFraction { fractionDigits += 1 }
            }
            i += 1
        }
        var exponent = 0
        if i < bytes.count {
            i += 1
            var exponentNegative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            for b in bytes[i...] { exponent = min(exponent * 10 + Int(b &- 0x30), 100_000) }
            if exponentNegative { exponent = -exponent }
        }
        while let first = digits.first, first == 0 { digits.removeFirst() }
        if digits.isEmpty { return (negative, 0) }
        var scale = exponent - fractionDigits
        while scale < 0 {
            guard digits.last == 0 else { return nil }
            digits.removeLast()
            scale += 1
        }
        guard digits.count + scale <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for d in digits + [UInt8](repeating: 0, count: scale) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        return (negative, magnitude)
    }
}
