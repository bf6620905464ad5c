// conformance-double: a second, deliberately different but conforming plugin, used
// only by the conformance suite's tests (not shipped). See DoublePlugin.swift.
//
// It takes the plugin's command line; `--framing` and `--max-frame-bytes` apply to
// its own decoder, everything else to the engine behind it.

import BackgroundServicePlugin
import HostProtocol

#if canImport(Glibc)
    import Glibc
#endif

signal(SIGPIPE, SIG_IGN)

/// One line on stderr (fd 2, written directly).
func log(_ message: String) {
    let bytes = Array("conformance-double: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    log(message)
    exit(64)
}

func writeAll(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { exit(0) }
        offset += n
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var framing = FramingMode.auto
var maxFrameBytes = 1 << 20
if let i = arguments.firstIndex(of: "--framing"), i + 1 < arguments.count {
    guard let f = FramingMode(rawValue: arguments[i + 1]) else { fail("bad --framing \(arguments[i + 1])") }
    framing = f
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--max-frame-bytes"), i + 1 < arguments.count {
    guard let n = Int(arguments[i + 1]), n >= 64 else { fail("bad --max-frame-bytes \(arguments[i + 1])") }
    maxFrameBytes = n
    arguments.removeSubrange(i...(i + 1))
}
let options: PluginOptions
do {
    guard
        case .run(let o) = try PluginOptions.parse(
            arguments + ["--framing", "ndjson", "--max-frame-bytes", "1073741824"])
    else { fail("--help and --version are the plugin's") }
    options = o
} catch {
    fail(error.description)
}
let engine: PluginEngine
do {
    engine = try PluginEngine(options: options, log: log)
} catch {
    fail(error.description)
}
let plugin = DoublePlugin(engine: engine, framing: framing, maxFrameBytes: maxFrameBytes)

// One thread: poll stdin, waking for the engine's timers under the real clock.
var buffer = [UInt8](repeating: 0, count: 1 << 16)
while true {
    var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    let timeout = plugin.nextWakeupDelay.map { Int32(min($0 / 1_000_000 + 1, 60_000)) } ?? -1
    let ready = poll(&fds, 1, timeout)
    if ready == 0 {
        writeAll(plugin.wakeUp())
        continue
    }
    let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if n < 0, errno == EINTR { continue }
    if n <= 0 {
        writeAll(plugin.endOfInput())
        exit(0)
    }
    writeAll(plugin.receive(Array(buffer[0..<n])))
    if plugin.isShutDown { exit(0) }
}
