/// A `Double` written as Rust's serde_json writes an `f64` (its `ryu` formatter), so
/// that the double answers with numbers in the other writer's form (issue 27, item 5):
/// `28.0`, `0.000006` as `6e-6`, 10^16 as `1e16`, 9.5 × 10^15 as
/// `9500000000000000.0`, negative zero as `-0.0`. Swift's own text gives the shortest
/// digits (as ryu's do); only their layout differs.
///
/// ```swift
/// SerdeNumberText.text(1e16)      // "1e16"
/// SerdeNumberText.text(2.5e-6)    // "2.5e-6"
/// SerdeNumberText.text(900)       // "900.0"
/// ```
enum SerdeNumberText {
    /// The text of a finite `Double`.
    static func text(_ value: Double) -> String {
        let swift = "\(value)"
        let negative = swift.hasPrefix("-")
        let unsigned = negative ? String(swift.dropFirst()) : swift
        let parts = unsigned.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(mantissa[0] + (mantissa.count > 1 ? mantissa[1] : ""))
        // The value is 0.DIGITS × 10^point.
        var point = mantissa[0].count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let sign = negative ? "-" : ""
        guard !digits.isEmpty else { return sign + "0.0" }
        return sign + layout(String(digits), point: point)
    }

    /// ryu's `format64` layout of digits `d` with the decimal point after `point` of them.
    static func layout(_ d: String, point kk: Int) -> String {
        let length = d.count
        if length <= kk, kk <= 16 { return d + String(repeating: "0", count: kk - length) + ".0" }
        if 0 < kk, kk <= 16 { return String(d.prefix(kk)) + "." + String(d.dropFirst(kk)) }
        if -5 < kk, kk <= 0 { return "0." + String(repeating: "0", count: -kk) + d }
        let mantissa = length == 1 ? d : String(d.prefix(1)) + "." + String(d.dropFirst())
        return mantissa + "e" + String(kk - 1)
    }
}
