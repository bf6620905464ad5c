import Foundation
import HostProtocol

/// A transport's output cut into frames, read on the caller's thread: what the
/// single-threaded ``DirectConnection`` and the reader threads of the others use.
///
/// ```swift
/// let reader = FrameReader(transport)
/// while let frame = try reader.next() { handle(frame) }
/// ```
public final class FrameReader {
    private let transport: any PluginTransport
    private var decoder: FrameDecoder
    private let buffer: UnsafeMutableRawBufferPointer
    private var ended = false

    /// Reads `transport` with its framing and frame limit.
    public init(_ transport: any PluginTransport) {
        self.transport = transport
        decoder = FrameDecoder(
            mode: transport.framing == .ndjson ? .ndjson : .lsp, maxFrameBytes: transport.maxFrameBytes)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    }

    deinit { buffer.deallocate() }

    /// The next frame, waiting for the plugin's output; nil once it has ended. A
    /// framing error is thrown once, and reading goes on after it.
    public func next() throws(FramingError) -> ArraySlice<UInt8>? {
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            if ended { return nil }
            let n = transport.receive(into: buffer)
            if n == 0 {
                ended = true
            } else {
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
    }

    /// A frame already read, without waiting; nil when none is.
    public func buffered() throws(FramingError) -> ArraySlice<UInt8>? {
        try decoder.nextFrame()
    }

    /// Bytes left over once the output has ended: a frame cut off by the plugin's end.
    public var leftover: Int { decoder.bufferedByteCount }
}
