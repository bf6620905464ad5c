import BackgroundServicePlugin
import HostProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The framing decoder and message parsing, fuzzed.
///
/// Input layout: byte 0 configures the run, the rest is the stdin stream.
///
/// | bits of byte 0 | meaning |
/// | --- | --- |
/// | 0-1 | framing mode: auto, ndjson, lsp, auto |
/// | 2-3 | `maxFrameBytes`: 64, 300, 4096, 1 MiB |
/// | 4-6 | how the stream is cut into reads (see ``chunkSizes(pattern:total:)``) |
/// | 7 | plugin profile: seed, strict |
///
/// Oracles (any failure traps, and libFuzzer keeps the input):
/// 1. No crash, no hang, no sanitizer report (memory errors, leaks).
/// 2. Chunk independence: the decoder yields the same frames and errors, and the
///    engine writes the same bytes, whether the stream arrives whole or in pieces.
/// 3. Bounded memory: after the decoder has been drained, it holds at most
///    `max(maxFrameBytes + 1, LSPFrameDecoder.maxHeaderBytes + 1)` bytes.
/// 4. Parsing: a frame that parses writes back canonically (write, parse, write is
///    stable) and a classified message survives a round trip through its JSON.
/// 5. The engine's output: every frame is valid JSON-RPC (a response, a batch of
///    responses or an event), never -32603, never an `os/violation`.
enum DecoderFuzzer {
    static let limits = [64, 300, 4096, 1 << 20]
    static let modes: [FramingMode] = [.auto, .ndjson, .lsp, .auto]

    static func run(_ input: UnsafeRawBufferPointer) {
        guard let config = input.first else { return }
        let stream = Array(input.dropFirst())
        let mode = modes[Int(config & 3)]
        let limit = limits[Int(config >> 2) & 3]
        let pattern = Int(config >> 4) & 7
        let profile: Profile = config & 0x80 == 0 ? .seed : .strict

        let pieces = chunkSizes(pattern: pattern, total: stream.count)
        let whole = decode(stream, mode: mode, limit: limit, chunks: [stream.count])
        let split = decode(stream, mode: mode, limit: limit, chunks: pieces)
        require(
            whole == split,
            "decoder output depends on how the input is split: \(pieces.prefix(8))…\n"
                + "whole: \(describe(whole))\nsplit: \(describe(split))"
        )
        for case .frame(let bytes) in whole { checkParsing(bytes) }

        let outWhole = engineOutput(stream, mode: mode, limit: limit, profile: profile, chunks: [stream.count])
        let outSplit = engineOutput(stream, mode: mode, limit: limit, profile: profile, chunks: pieces)
        require(
            outWhole == outSplit,
            "engine output depends on how the input is split:\nwhole: \(text(outWhole))\nsplit: \(text(outSplit))")
        checkEngineOutput(outWhole)
    }

    // MARK: - Decoder

    enum Item: Equatable {
        case frame([UInt8])
        case error(FramingError)
        case finished([UInt8]?)
        case finishError(FramingError)
    }

    /// Cuts `total` bytes into reads: one piece, bytes one by one, or a repeating
    /// mix of small and large pieces.
    static func chunkSizes(pattern: Int, total: Int) -> [Int] {
        let cycles: [[Int]] = [
            [1], [2, 3, 5, 7], [13, 1, 64], [4096], [1, 1, 1, 4000], [8, 8, 17], [3, 100, 1, 2], [511, 1],
        ]
        let cycle = cycles[pattern]
        var out: [Int] = []
        var left = total
        var i = 0
        while left > 0 {
            let n = min(left, cycle[i % cycle.count])
            out.append(n)
            left -= n
            i += 1
        }
        return out
    }

    static func decode(_ stream: [UInt8], mode: FramingMode, limit: Int, chunks: [Int]) -> [Item] {
        var decoder = FrameDecoder(mode: mode, maxFrameBytes: limit)
        var items: [Item] = []
        let bound = max(limit + 1, LSPFrameDecoder.maxHeaderBytes + 1)
        var offset = 0
        stream.withUnsafeBytes { raw in
            for n in chunks {
                decoder.append(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n]))
                offset += n
                while true {
                    do throws(FramingError) {
                        guard let frame = try decoder.nextFrame() else { break }
                        require(frame.count <= limit, "a frame of \(frame.count) bytes passed a limit of \(limit)")
                        items.append(.frame(Array(frame)))
                    } catch {
                        items.append(.error(error))
                    }
                }
                require(
                    decoder.bufferedByteCount <= bound,
                    "the decoder holds \(decoder.bufferedByteCount) bytes after draining (limit \(limit))")
            }
        }
        do throws(FramingError) {
            items.append(.finished(try decoder.finish().map { Array($0) }))
        } catch {
            items.append(.finishError(error))
        }
        return items
    }

    // MARK: - Parsing

    static func checkParsing(_ frame: [UInt8]) {
        guard let value = try? JSONParser.parse(frame) else { return }
        var once: [UInt8] = []
        JSONWriter.write(value, to: &once)
        guard let again = try? JSONParser.parse(once) else {
            fail("the writer's output does not parse: \(text(once))")
        }
        require(again == value, "a value changed through write and parse: \(text(frame)) -> \(text(once))")
        var twice: [UInt8] = []
        JSONWriter.write(again, to: &twice)
        require(twice == once, "writing is not canonical: \(text(once)) vs \(text(twice))")

        let messages: [Message]
        switch Envelope.classify(value) {
        case .single(let m): messages = [m]
        case .batch(let ms): messages = ms
        }
        for message in messages {
            switch message {
            case .request, .notification, .response:
                require(Message.classify(message.json) == message, "a message changed through its JSON: \(message)")
            case .invalid(_, let error):
                require(error.code == .invalidRequest, "a parsed value classified with \(error.code): \(text(frame))")
            }
        }
    }

    // MARK: - Engine

    static func engineOutput(_ stream: [UInt8], mode: FramingMode, limit: Int, profile: Profile, chunks: [Int])
        -> [UInt8]
    {
        var options = PluginOptions()
        options.framing = mode
        options.maxFrameBytes = limit
        options.profile = profile
        options.events = true
        let engine: PluginEngine
        do {
            engine = try PluginEngine(options: options)
        } catch {
            fail("the engine does not start: \(error)")
        }
        var out: [UInt8] = []
        var offset = 0
        stream.withUnsafeBytes { raw in
            for n in chunks {
                engine.receive(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n]))
                offset += n
                out += engine.takeOutput()
            }
        }
        engine.endOfInput()
        out += engine.takeOutput()
        return out
    }

    static let eventNames: Set<String> = [
        "os/requestSubmitted", "os/submitFailed", "os/requestCancelled", "os/taskLaunched", "os/taskExpired",
        "os/taskCompleted", "plugin/safetyTimer",
    ]

    static func checkEngineOutput(_ out: [UInt8]) {
        var decoder = FrameDecoder(mode: .auto, maxFrameBytes: Int.max / 2)
        decoder.append(out)
        var frames: [ArraySlice<UInt8>] = []
        do {
            while let f = try decoder.nextFrame() { frames.append(f) }
            if let f = try decoder.finish() { frames.append(f) }
        } catch {
            fail("the engine's output does not frame: \(error)\n\(text(out))")
        }
        for frame in frames {
            guard let value = try? JSONParser.parse(frame) else {
                fail("an output frame is not JSON: \(text(Array(frame)))")
            }
            switch Envelope.classify(value) {
            case .single(.response(let r)): checkResponse(r, frame)
            case .single(.notification(let n)):
                require(eventNames.contains(n.method), "unexpected notification \(n.method): \(text(Array(frame)))")
            case .batch(let members):
                for m in members {
                    guard case .response(let r) = m else {
                        fail("a batch reply member is not a response: \(text(Array(frame)))")
                    }
                    checkResponse(r, frame)
                }
            default:
                fail("an output frame is not a response or an event: \(text(Array(frame)))")
            }
        }
    }

    static func checkResponse(_ r: Response, _ frame: ArraySlice<UInt8>) {
        if let e = r.error {
            require(e.code != .internalError, "an internal error was written: \(text(Array(frame)))")
        }
    }

    // MARK: - Reporting

    static func describe(_ items: [Item]) -> String {
        items.prefix(20).map { item in
            switch item {
            case .frame(let b): "frame(\(text(b)))"
            case .error(let e): "error(\(e))"
            case .finished(let b): "finished(\(b.map(text) ?? "nil"))"
            case .finishError(let e): "finishError(\(e))"
            }
        }.joined(separator: ", ")
    }

    static func text(_ bytes: [UInt8]) -> String {
        let shown = String(decoding: bytes.prefix(600), as: UTF8.self)
        return bytes.count > 600 ? shown + "… (\(bytes.count) bytes)" : shown
    }
}

/// Traps with a message when an oracle does not hold (libFuzzer saves the input).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fail(message()) }
}

func fail(_ message: String) -> Never {
    let line = "FUZZ ORACLE FAILED: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}
