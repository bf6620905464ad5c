/// A plugin's whole stdout in one check, for comparing two runs byte for byte while
/// holding at most ``keptLimit`` bytes of it: its first bytes (for the report), its
/// length and a 64-bit FNV-1a hash of all of it.
struct Transcript: Equatable {
    /// How many bytes are kept for the report (1 MiB).
    static let keptLimit = 1 << 20

    /// The first bytes, up to ``keptLimit``.
    private(set) var kept: [UInt8] = []
    /// How many bytes the output had.
    private(set) var count = 0
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds bytes read from stdout.
    mutating func append(_ bytes: [UInt8]) {
        count += bytes.count
        let room = Self.keptLimit - kept.count
        if room > 0 { kept += bytes.prefix(room) }
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
        }
    }

    /// Whether only the first bytes are kept.
    var isCut: Bool { count > kept.count }

    /// The kept bytes as lines, for showing two runs side by side.
    var lines: [String] {
        var lines = kept.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
