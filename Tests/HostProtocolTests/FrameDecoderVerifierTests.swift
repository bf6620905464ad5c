import HostProtocol
import HostTestSupport
import Testing

/// The verifier itself: it must pass the real decoders and catch broken ones.
@Suite("FrameDecoderVerifier")
struct FrameDecoderVerifierTests {
    /// Splits at `\n` but decides per read: a frame cut across two reads is lost.
    struct ReadBoundDecoder: VerifiableFrameDecoder {
        var ready: [ArraySlice<UInt8>] = []
        mutating func feed(_ bytes: [UInt8]) {
            ready += bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        }
        mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { ready.isEmpty ? nil : ready.removeFirst() }
        mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { nil }
        var buffered: Int { 0 }
    }

    /// Correct frames, but keeps what follows the last `\n` after finishing.
    struct LeakyDecoder: VerifiableFrameDecoder {
        var inner = NDJSONFrameDecoder(maxFrameBytes: 1 << 10)
        var tail = 0
        mutating func feed(_ bytes: [UInt8]) {
            inner.append(bytes)
            if let newline = bytes.lastIndex(of: 0x0A) { tail = bytes.count - newline - 1 } else { tail += bytes.count }
        }
        mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try inner.nextFrame() }
        mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { nil }
        var buffered: Int { tail }
    }

    /// Yields the same frame for ever.
    struct StuckDecoder: VerifiableFrameDecoder {
        mutating func feed(_ bytes: [UInt8]) {}
        mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { [0x7B, 0x7D] }
        mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { nil }
        var buffered: Int { 0 }
    }

    @Test func passesTheRealDecoders() {
        let input = bytes("{\"a\":1}\n\n[2]\r\n{\"tail\":3}")
        let report = FrameDecoderVerifier { NDJSONFrameDecoder(maxFrameBytes: 1 << 10) }.verify(input)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.outcomes == [.frame("{\"a\":1}"), .frame("[2]"), .frame("{\"tail\":3}")])
        let lsp = FrameDecoderVerifier { FrameDecoder(mode: .auto, maxFrameBytes: 1 << 10) }
        #expect(lsp.verify(bytes(lspFrame("{}") + lspFrame("[1]"))).problems.isEmpty)
    }

    @Test func catchesADecoderThatDependsOnReads() {
        let report = FrameDecoderVerifier { ReadBoundDecoder() }.verify(bytes("{\"a\":1}\n[2]\n"))
        #expect(report.outcomes == [.frame("{\"a\":1}"), .frame("[2]")])
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.hasPrefix("byte by byte:") == true, "\(report.problems)")
    }

    @Test func catchesLeftOvers() {
        let report = FrameDecoderVerifier { LeakyDecoder() }.verify(bytes("[1]\nxy"))
        #expect(report.problems.contains("whole: 2 bytes left over after finishing"), "\(report.problems)")
    }

    @Test func catchesNoProgress() {
        let decoding = FrameDecoderVerifier { StuckDecoder() }.decode([bytes("x")])
        #expect(decoding.problems == ["no progress after 17 calls of nextFrame()"])
        #expect(decoding.outcomes.count == 17)
    }
}
