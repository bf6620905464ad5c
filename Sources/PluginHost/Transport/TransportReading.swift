import Foundation
import HostProtocol

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
