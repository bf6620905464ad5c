import HostProtocol
import Synchronization

/// Reading a transport that hands its output over on the writing thread
/// (``InlineOutput``, the engine in this process): no reader thread; an answer reaches
/// its call before the write that asked for it returns, unless another thread (or this
/// one, further up its stack) is handing output over: that one delivers it.
extension PluginConnection {
    /// Becomes `transport`'s consumer: its bytes are cut into frames as a reader
    /// thread would cut them (the same limits), and each frame is handled as one
    /// read from a pipe is.
    func readInline(_ transport: any InlineOutput) {
        let decoder = Mutex(
            FrameDecoder(mode: transport.framing == .ndjson ? .ndjson : .lsp, maxFrameBytes: transport.maxFrameBytes))
        transport.deliverInline { [weak self] chunk in
            switch chunk {
            case .bytes(let bytes):
                // Frames are cut under the lock and handled after it: handling one may
                // write (a completion's next call), which pumps again.
                let frames = decoder.withLock { decoder in
                    decoder.append(bytes)
                    return Self.frames(from: &decoder)
                }
                for frame in frames {
                    switch frame {
                    case .success(let frame): self?.received(frame)
                    case .failure(let error): self?.protocolError("unreadable frame: \(error.description)")
                    }
                }
            case .end(let status):
                self?.readingEnded(status, leftover: decoder.withLock { $0.bufferedByteCount })
            }
        }
    }

    /// Every whole frame `decoder` holds, and the framing errors between them, in order.
    private static func frames(from decoder: inout FrameDecoder) -> [Result<ArraySlice<UInt8>, FramingError>] {
        var frames: [Result<ArraySlice<UInt8>, FramingError>] = []
        while true {
            do throws(FramingError) {
                guard let frame = try decoder.nextFrame() else { return frames }
                frames.append(.success(frame))
            } catch {
                frames.append(.failure(error))
            }
        }
    }

    /// Hands what the transport has made to this connection on this thread, for an
    /// ``InlineOutput`` transport (after a write, outside the writer lock).
    func pumpInline() { inline?.pump() }
}
