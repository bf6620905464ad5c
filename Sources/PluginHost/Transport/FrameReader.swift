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

/// Reading a transport's output on a thread of its own, for the connections and
/// tools that are answered from a reader thread.
package enum TransportReading {
    /// Reads frames until the output ends, then calls `onEnd` once with the plugin's
    /// exit status (if it exits within 100 ms) and the bytes of a frame cut off at the end.
    package static func frames(
        of transport: any PluginTransport, thread name: String,
        onFrame: @escaping @Sendable (ArraySlice<UInt8>) -> Void,
        onFramingError: @escaping @Sendable (FramingError) -> Void,
        onEnd: @escaping @Sendable (ExitStatus?, Int) -> Void
    ) {
        start(name) {
            let reader = FrameReader(transport)
            while true {
                do throws(FramingError) {
                    guard let frame = try reader.next() else { break }
                    onFrame(frame)
                } catch {
                    onFramingError(error)
                }
            }
            onEnd(transport.waitForExit(timeout: .milliseconds(100)), reader.leftover)
        }
    }

    /// Reads raw bytes until the output ends, then calls `onEnd` once.
    package static func bytes(
        of transport: any PluginTransport, thread name: String,
        onBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, onEnd: @escaping @Sendable () -> Void
    ) {
        start(name) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let n = transport.receive(into: buffer)
                if n == 0 { break }
                onBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
            onEnd()
        }
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
