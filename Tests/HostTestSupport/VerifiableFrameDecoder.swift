import HostProtocol

/// A frame decoder as ``FrameDecoderVerifier`` drives it: the protocol's three
/// decoders (ndjson, lsp, auto-detecting) behind one interface.
package protocol VerifiableFrameDecoder {
    /// Appends input bytes.
    mutating func feed(_ bytes: [UInt8])
    /// The next frame, nil when more input is needed; throws a framing error.
    mutating func next() throws(FramingError) -> ArraySlice<UInt8>?
    /// End of input: a last unterminated frame, or the error of a cut-off one.
    mutating func end() throws(FramingError) -> ArraySlice<UInt8>?
    /// Bytes held that belong to no complete frame yet.
    var buffered: Int { get }
}

extension NDJSONFrameDecoder: VerifiableFrameDecoder {
    package mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    package mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    package mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { try finish() }
    package var buffered: Int { bufferedByteCount }
}

extension LSPFrameDecoder: VerifiableFrameDecoder {
    package mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    package mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    package mutating func end() throws(FramingError) -> ArraySlice<UInt8>? {
        try finish()
        return nil
    }
    package var buffered: Int { bufferedByteCount }
}

extension FrameDecoder: VerifiableFrameDecoder {
    package mutating func feed(_ bytes: [UInt8]) { append(bytes) }
    package mutating func next() throws(FramingError) -> ArraySlice<UInt8>? { try nextFrame() }
    package mutating func end() throws(FramingError) -> ArraySlice<UInt8>? { try finish() }
    package var buffered: Int { bufferedByteCount }
}
