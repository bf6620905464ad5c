#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The growable input buffer shared by the frame decoders: bytes are appended at
/// the end and consumed from the front; consumed space is reclaimed in bulk.
struct ByteBuffer: Sendable {
    private(set) var storage: [UInt8] = []
    /// Index of the first unconsumed byte.
    private(set) var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { start == storage.count }
    var endIndex: Int { storage.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    /// Marks `n` bytes at the front as consumed.
    mutating func consume(_ n: Int) {
        start += n
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            start = 0
        }
    }

    /// Drops everything buffered.
    mutating func consumeAll() { consume(count) }

    /// Bytes `[from, to)` in absolute indices, sharing storage.
    func slice(_ from: Int, _ to: Int) -> ArraySlice<UInt8> { storage[from..<to] }

    subscript(i: Int) -> UInt8 { storage[i] }

    /// The absolute index of the first `byte` at or after `from`, or nil.
    func firstIndex(of byte: UInt8, from: Int) -> Int? {
        storage.withUnsafeBufferPointer { p in
            guard from < p.count, let found = memchr(p.baseAddress! + from, Int32(byte), p.count - from) else {
                return nil
            }
            return p.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func compactIfWorthIt() {
        if start > 0, start >= 4096, start * 2 >= storage.count {
            storage.removeSubrange(0..<start)
            start = 0
        }
    }
}
