// hostile-plugin: a plugin that misbehaves on purpose, for the hostile-peer suite
// (docs/reliability.md, "Hostile peers"). Test-only: never shipped.
//
// It runs the real plugin (`background-service-plugin` beside it, or $HOSTILE_PLUGIN)
// as its child with the arguments it was given, passes the host's input through, and
// breaks the child's output in one way, chosen by $HOSTILE_MODE:
//
//   flood                 after the first reply, valid events in a loop, for ever
//   flood-at-start        the same from the start, before anything is asked
//   silent                never writes; reads its input to the end, then hangs
//   deaf                  never reads its input nor writes: a host's writes block
//   slow-start            waits $HOSTILE_SECONDS (default 5) before serving
//   start-fail            a message on stderr, exit 1
//   exit-mid-frame        after the first reply, half a frame, then exit 3
//   answer-twice          every response written twice
//   unknown-ids           every response's id replaced by one never sent
//   answer-notifications  a response (id null) to every notification the host sends
//   huge-line             after the first reply, one endless line
//   stderr-flood          serves normally and writes stderr lines in a loop
//   fork-holds-stdout     after the first reply, starts a child that holds stdout
//                         open and sleeps, then exits 0
//   setsid-holds-stdout   the same with a child in a session of its own (setsid), out
//                         of reach of a kill of the plugin's process group
//   escapes               terminal escape sequences and bidi overrides in error
//                         messages, and an event whose method is made of them
//   garbage               a line that is not JSON after every reply
//
// The modes break ndjson frames (the host tools' framing); LSP-framed output passes through.
import Foundation
import HostProtocol

#if canImport(Glibc)
    import Glibc
#endif

let mode = ProcessInfo.processInfo.environment["HOSTILE_MODE"] ?? "flood"
let arguments = Array(CommandLine.arguments.dropFirst())
let out = FileHandle.standardOutput

/// Frames go out whole: two threads write (the input thread answers notifications), and a
/// pipe write over PIPE_BUF is not atomic.
let writing = NSLock()

func write(_ bytes: [UInt8]) {
    writing.lock()
    defer { writing.unlock() }
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(1, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                exit(0)  // the host stopped reading
            }
            offset += n
        }
    }
}

func line(_ text: String) { write(Array(text.utf8) + [0x0A]) }

let event = #"{"jsonrpc":"2.0","method":"os/taskLaunched","params":{"at":0,"identifier":"x","kind":"refresh"}}"#
let hostileText = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}evil\u{9B}31m"

func floodForever() -> Never {
    let chunk = Array(String(repeating: event + "\n", count: 64).utf8)
    while true { write(chunk) }
}

switch mode {
case "start-fail":
    FileHandle.standardError.write(Data("hostile-plugin: cannot start: no licence file at /etc/plugin.lic\n".utf8))
    exit(1)
case "silent":
    while FileHandle.standardInput.availableData.count > 0 {}
    while true { sleep(1_000) }
case "deaf":
    while true { sleep(1_000) }
case "flood-at-start":
    floodForever()
case "slow-start":
    let seconds = UInt32(ProcessInfo.processInfo.environment["HOSTILE_SECONDS"] ?? "5") ?? 5
    sleep(seconds)
default:
    break
}

// The real plugin as a child, over pipes.
let pluginPath =
    ProcessInfo.processInfo.environment["HOSTILE_PLUGIN"]
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("background-service-plugin").path
// posix_spawn, not Foundation's Process: the child stays in this process's group (a host
// that kills the group kills it too), and nothing here can crash on EINTR or EPIPE.
var toChildFDs: [Int32] = [-1, -1]
var fromChildFDs: [Int32] = [-1, -1]
guard pipe(&toChildFDs) == 0, pipe(&fromChildFDs) == 0 else { exit(1) }
for fd in [toChildFDs[1], fromChildFDs[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
var actions = posix_spawn_file_actions_t()
posix_spawn_file_actions_init(&actions)
posix_spawn_file_actions_adddup2(&actions, toChildFDs[0], 0)
posix_spawn_file_actions_adddup2(&actions, fromChildFDs[1], 1)
var childPID: pid_t = 0
let childArgv: [UnsafeMutablePointer<CChar>?] = ([pluginPath] + arguments).map { strdup($0) } + [nil]
let spawned = posix_spawn(&childPID, pluginPath, &actions, nil, childArgv, environ)
close(toChildFDs[0])
close(fromChildFDs[1])
guard spawned == 0 else {
    FileHandle.standardError.write(
        Data("hostile-plugin: cannot start \(pluginPath): \(String(cString: strerror(spawned)))\n".utf8))
    exit(1)
}
let toChild = toChildFDs[1]
let fromChild = fromChildFDs[0]

/// Raw reads and writes on the child's pipes.
enum RawIO {
    /// All of `bytes` to `fd`; false once the other end is gone.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// One read of `fd`: the bytes, empty at the end.
    static func readSome(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            return n > 0 ? Array(buffer[0..<n]) : []
        }
    }
}

if mode == "stderr-flood" {
    Thread.detachNewThread {
        let text = Data(String(repeating: "hostile-plugin: a diagnostic nobody asked for\n", count: 100).utf8)
        while true { FileHandle.standardError.write(text) }
    }
}

// The host's input to the child, line by line (notifications answered in that mode).
Thread.detachNewThread {
    var pending: [UInt8] = []
    while true {
        let data = RawIO.readSome(0)
        if data.isEmpty || !RawIO.writeAll(toChild, data) { break }
        guard mode == "answer-notifications" else { continue }
        pending += data
        while let nl = pending.firstIndex(of: 0x0A) {
            let frame = Array(pending[..<nl])
            pending.removeSubrange(...nl)
            if case .object(let o)? = try? JSONParser.parse(frame), o["id"] == nil {
                line(#"{"id":null,"jsonrpc":"2.0","result":null}"#)
            }
        }
    }
    close(toChild)
}

// The child's output to the host, broken as the mode says.
var replies = 0
var unknown = 0
var pending: [UInt8] = []
// LSP-framed output (`--framing lsp`, or auto on a header) is passed through as it comes,
// unchanged: the modes break ndjson frames only.
var lsp = false
while true {
    let data = RawIO.readSome(fromChild)
    if data.isEmpty { break }
    if pending.isEmpty, !lsp, let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
        lsp = first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
    }
    if lsp {
        write(Array(data))
        continue
    }
    pending += data
    while let nl = pending.firstIndex(of: 0x0A) {
        let frame = Array(pending[..<nl])
        pending.removeSubrange(...nl)
        guard case .object(var o)? = try? JSONParser.parse(frame), o["id"] != nil else {
            write(frame + [0x0A])
            continue
        }
        replies += 1
        switch mode {
        case "answer-twice":
            write(frame + [0x0A] + frame + [0x0A])
        case "unknown-ids":
            unknown += 1
            o["id"] = .string("unknown-\(unknown)")
            line(JSONValue.object(o).description)
        case "escapes":
            if case .object(var error)? = o["error"] {
                error["message"] = .string(hostileText + " " + (error["message"]?.stringValue ?? ""))
                o["error"] = .object(error)
            }
            line(JSONValue.object(o).description)
            line(
                JSONValue.object(["jsonrpc": "2.0", "method": .string(hostileText), "params": .object([:])]).description
            )
        case "garbage":
            write(frame + [0x0A])
            line("this is not JSON \u{1B}[31m")
        default:
            write(frame + [0x0A])
        }
        guard replies == 1 else { continue }
        switch mode {
        case "flood": floodForever()
        case "exit-mid-frame":
            write(Array(#"{"id":99,"jsonrpc":"2.0","res"#.utf8))
            exit(3)
        case "huge-line":
            let chunk = [UInt8](repeating: 0x61, count: 1 << 16)
            write(Array(#"{"id":99,"jsonrpc":"2.0","result":""#.utf8))
            while true { write(chunk) }
        case "fork-holds-stdout", "setsid-holds-stdout":
            // posix_spawn keeps the holder in this process's group (and its stdout);
            // setsid(1) moves it to a session of its own.
            let command =
                mode == "fork-holds-stdout" ? ["/bin/sleep", "100000"] : ["/usr/bin/setsid", "sleep", "100000"]
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
            _ = posix_spawn(&pid, command[0], nil, nil, argv, environ)
            exit(0)
        default: break
        }
    }
}
var childStatus: Int32 = 0
while waitpid(childPID, &childStatus, 0) < 0, errno == EINTR {}
exit((childStatus & 0x7F) == 0 ? (childStatus >> 8) & 0xFF : 128 + (childStatus & 0x7F))
