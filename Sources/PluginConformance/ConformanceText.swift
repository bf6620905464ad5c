import Dispatch

/// Text helpers for the conformance reports: escaping raw bytes, shortening long
/// frames, and a line diff of expected and actual replies.
enum ConformanceText {
    /// Frames longer than this are shortened in reports.
    static let displayLimit = 400

    /// Bytes as readable text: printable ASCII and valid UTF-8 as they are, `\r`,
    /// `\n`, `\t` and `\\` escaped, any other byte as `\xNN`. The result never
    /// contains a control character, so it is safe in XML and on a terminal.
    static func escape(_ bytes: some Collection<UInt8>, limit: Int = displayLimit) -> String {
        var out = ""
        var count = 0
        // At most 4 bytes a character are shown: a long input is not copied whole.
        let decoded = Array(bytes.prefix(limit * 4 + 4))
        var i = 0
        while i < decoded.count {
            if count >= limit {
                out += "… (\(bytes.count) bytes)"
                break
            }
            let b = decoded[i]
            switch b {
            case 0x0D: out += "\\r"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                if let (scalar, length) = utf8Scalar(decoded, at: i), scalar.value >= 0xA0 {
                    out.unicodeScalars.append(scalar)
                    i += length
                    count += 1
                    continue
                }
                out += "\\x" + hex(b)
            }
            i += 1
            count += 1
        }
        return out
    }

    /// A string shortened to `limit` characters, control characters escaped.
    static func shorten(_ s: String, limit: Int = displayLimit) -> String {
        escape(Array(s.utf8), limit: limit)
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }

    /// Decodes one well-formed UTF-8 sequence of 2 to 4 bytes.
    private static func utf8Scalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let b0 = bytes[i]
        let length: Int
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[i..<(i + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return nil
    }

    /// A line diff: `  ` both, `- ` expected only, `+ ` actual only, along `matched`
    /// ((expected, actual) index pairs, increasing): a missing or extra reply shows as
    /// one line. With `context`, runs of unchanged lines longer than twice the context
    /// are cut to `context` lines each side of a change.
    static func diff(expected: [String], actual: [String], matched: [(Int, Int)], context: Int? = nil) -> [String] {
        var full: [String] = []
        var i = 0
        var j = 0
        for (mi, mj) in matched + [(expected.count, actual.count)] {
            while i < mi {
                full.append("- " + shorten(expected[i]))
                i += 1
            }
            while j < mj {
                full.append("+ " + shorten(actual[j]))
                j += 1
            }
            if mi < expected.count, mj < actual.count {
                full.append("  " + shorten(actual[mj]))
                i += 1
                j += 1
            }
        }
        guard let context else { return full }
        let changed = full.indices.filter { !full[$0].hasPrefix("  ") }
        var out: [String] = []
        var skipped = 0
        for (k, line) in full.enumerated() {
            if changed.contains(where: { abs($0 - k) <= context }) {
                if skipped > 0 { out.append("  … (\(skipped) identical)") }
                skipped = 0
                out.append(line)
            } else {
                skipped += 1
            }
        }
        if skipped > 0 { out.append("  … (\(skipped) identical)") }
        return out
    }

    /// The most cells (`n × m`) the longest-common-subsequence table may have; longer
    /// lists are paired by their common start and end only (linear).
    static let alignmentCells = 250_000

    /// The longest in-order pairing of expected and actual items under `same`, as
    /// (expected, actual) index pairs; for lists past ``alignmentCells``, their common
    /// start and common end.
    static func alignment(_ n: Int, _ m: Int, same: (Int, Int) -> Bool) -> [(Int, Int)] {
        guard n.multipliedReportingOverflow(by: m).partialValue <= alignmentCells, n < alignmentCells,
            m < alignmentCells
        else {
            var head = 0
            while head < min(n, m), same(head, head) { head += 1 }
            var tail = 0
            while tail < min(n, m) - head, same(n - 1 - tail, m - 1 - tail) { tail += 1 }
            return (0..<head).map { ($0, $0) } + (0..<tail).reversed().map { (n - 1 - $0, m - 1 - $0) }
        }
        var lcs = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = same(i, j) ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < n, j < m {
            if same(i, j), lcs[i][j] == lcs[i + 1][j + 1] + 1 {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if lcs[i + 1][j] >= lcs[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }

    /// A time limit in words: `10 s`, `0.5 s`.
    static func seconds(_ interval: DispatchTimeInterval) -> String {
        let nanoseconds: Int
        switch interval {
        case .seconds(let n): nanoseconds = n * 1_000_000_000
        case .milliseconds(let n): nanoseconds = n * 1_000_000
        case .microseconds(let n): nanoseconds = n * 1_000
        case .nanoseconds(let n): nanoseconds = n
        default: return "no limit"
        }
        return seconds(Double(nanoseconds) / 1e9)
    }

    /// Seconds in words, with a tenth where it counts: `10 s`, `9.8 s`.
    static func seconds(_ s: Double) -> String {
        let tenths = Int((s * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// The time since `start`, in words.
    static func seconds(since start: DispatchTime) -> String {
        seconds(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }

    /// A one-line summary of how two reply lists differ (1-based positions): the first
    /// reply that does not match (and why), or the replies missing or unexpected.
    static func summary(expected: Int, actual: Int, firstMismatch: (index: Int, why: String)?) -> String {
        if let (k, why) = firstMismatch {
            return "reply \(k + 1) of \(expected) differs" + (why.isEmpty ? "" : ": \(why)")
        }
        if actual < expected {
            return expected - actual == 1
                ? "reply \(actual + 1) of \(expected) is missing"
                : "replies \(actual + 1) to \(expected) are missing"
        }
        return actual - expected == 1
            ? "one unexpected reply after the \(expected) expected"
            : "\(actual - expected) unexpected replies after the \(expected) expected"
    }
}
