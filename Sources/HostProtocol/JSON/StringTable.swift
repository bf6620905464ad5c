#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed set of strings found by their UTF-8 bytes, so that a parser can return
/// a string it knows (an envelope key, a method name) without building a new one:
/// no allocation, no validation, and an immortal literal needs no reference counting.
///
/// ```swift
/// let table = StringTable(["id", "method"])
/// "method".utf8.withContiguousStorageIfAvailable { table.lookup(UnsafeRawBufferPointer($0)) }  // "method"
/// ```
package struct StringTable: Sendable {
    private let bytes: [UInt8]
    /// The strings, shortest first.
    package let entries: [(offset: Int, string: String)]
    /// `entries[starts[n]..<starts[n + 1]]` have `n` bytes.
    private let starts: [Int]

    /// The longest string, in bytes.
    package let maxCount: Int

    /// A table of `strings` (repeats are kept once).
    package init(_ strings: [String]) {
        // By length, then bytes; repeats (the same bytes) kept once.
        let sorted = strings.sorted {
            $0.utf8.count != $1.utf8.count ? $0.utf8.count < $1.utf8.count : $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        var bytes: [UInt8] = []
        var entries: [(offset: Int, string: String)] = []
        for s in sorted where entries.last.map({ !$0.string.utf8.elementsEqual(s.utf8) }) ?? true {
            entries.append((bytes.count, s))
            bytes.append(contentsOf: s.utf8)
        }
        maxCount = entries.last?.string.utf8.count ?? 0
        var starts: [Int] = []
        var i = 0
        for n in 0...(maxCount + 1) {
            while i < entries.count, entries[i].string.utf8.count < n { i += 1 }
            starts.append(i)
        }
        self.bytes = bytes
        self.entries = entries
        self.starts = starts
    }

    /// The string whose UTF-8 bytes are `candidate`, if the table has it.
    func lookup(_ candidate: UnsafeRawBufferPointer) -> String? {
        index(of: candidate).map { entries[$0].string }
    }

    /// The position in ``entries`` of the string whose UTF-8 bytes are `candidate`.
    package func index(of candidate: UnsafeRawBufferPointer) -> Int? {
        let n = candidate.count
        guard n <= maxCount, n > 0 else { return nil }
        return bytes.withUnsafeBytes { table in
            for i in starts[n]..<starts[n + 1]
            where memcmp(table.baseAddress! + entries[i].offset, candidate.baseAddress!, n) == 0 {
                return i
            }
            return nil
        }
    }

    /// The position in ``entries`` of `string` (compared by UTF-8 bytes).
    package func index(of string: String) -> Int? {
        var s = string
        return s.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
    }
}
