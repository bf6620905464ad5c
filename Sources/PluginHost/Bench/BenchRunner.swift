import Dispatch
import Foundation
import HostProtocol
import Synchronization

/// The plugin's memory after a number of invokes, in KiB.
struct MemorySample {
    let invokes: Int
    let rssKB: Int
    let peakKB: Int
    /// The process's own memory (heap, stacks).
    let anonKB: Int
    /// Pages of the binary and shared libraries.
    let fileKB: Int
}

/// Runs every measurement of `plugin-host bench` against one plugin binary.
struct BenchRunner {
    struct Settings {
        var plugin: String
        var calls = 20_000
        var warmup = 2_000
        var pipelined = 200_000
        var startups = 50
        var memoryInvokes = [10_000, 1_000_000]
    }

    let settings: Settings

    /// The request line the floor echoes: the same bytes as a `completeBgTask` request.
    static let typicalRequest = Array(#"{"id":123456,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]

    private func connect(_ args: [String] = []) throws(HostError) -> DirectConnection {
        try DirectConnection(plugin: .init(executable: settings.plugin, arguments: args))
    }

    /// Raw byte echo between the same two binaries: the physical floor.
    func floor() throws(HostError) -> Latency {
        let c = try connect(["--echo"])
        defer { c.close() }
        let line = BenchRunner.typicalRequest
        var failure: HostError?
        let latency = Latency.measure(count: settings.calls, warmup: settings.warmup) {
            guard failure == nil else { return }
            do throws(HostError) {
                c.sendRaw(line)
                try c.flush()
                _ = try c.nextFrame()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return latency
    }

    /// Sequential round trips of one invoke.
    func invoke(_ method: String, params: JSONValue?) throws(HostError) -> Latency {
        let c = try connect()
        defer { c.close() }
        var failure: HostError?
        let latency = Latency.measure(count: settings.calls, warmup: settings.warmup) {
            guard failure == nil else { return }
            do throws(HostError) { _ = try c.call(method: method, params: params) } catch { failure = error }
        }
        if let failure { throw failure }
        return latency
    }

    /// Sequential round trips through the async API (`PluginConnection`, a reader
    /// thread and a continuation): what `await`ing callers pay.
    func asyncInvoke() throws -> Latency {
        let connection = try PluginConnection(plugin: .init(executable: settings.plugin))
        defer { connection.close() }
        let count = settings.calls / 4, warmup = settings.warmup / 4
        let result = Mutex<Result<Latency, HostError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            var ns: [UInt64] = []
            do throws(HostError) {
                for i in 0..<(count + warmup) {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try await connection.call(method: CancelCancelListener.name, params: nil)
                    if i >= warmup { ns.append(DispatchTime.now().uptimeNanoseconds - start) }
                }
                result.withLock { $0 = .success(Latency(nanoseconds: ns)) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Invokes per second with `window` requests in flight, `total` in all; writes
    /// are coalesced whenever several replies have arrived together.
    func pipelined(window: Int, total: Int) throws(HostError) -> Double {
        let c = try connect()
        defer { c.close() }
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"cancelCancelListener"}"#.utf8) + [0x0A]
        let start = DispatchTime.now().uptimeNanoseconds
        try BenchRunner.pump(c, line: line, from: 0, to: total, window: window)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(total) / seconds
    }

    /// Keeps `window` copies of `line` in flight until `to` have been answered,
    /// writing as many new ones as replies have arrived, in one write.
    private static func pump(_ c: DirectConnection, line: [UInt8], from: Int, to total: Int, window: Int) throws(HostError) {
        var sent = from, received = from
        while received < total {
            while sent < total, sent - received < window {
                c.sendRaw(line)
                sent += 1
            }
            try c.flush()
            _ = try c.nextFrame()
            received += 1
            while try c.bufferedFrame() != nil { received += 1 }
        }
    }

    /// Spawn to `initialize` reply, in milliseconds.
    func startup() throws(HostError) -> Latency {
        var ns: [UInt64] = []
        for _ in 0..<settings.startups {
            let start = DispatchTime.now().uptimeNanoseconds
            let c = try connect()
            _ = try c.call(method: Initialize.name, params: .object([:]))
            ns.append(DispatchTime.now().uptimeNanoseconds - start)
            c.close()
        }
        return Latency(nanoseconds: ns)
    }

    /// The plugin's RSS and peak after each count of invokes, in one process.
    func memory() throws(HostError) -> [MemorySample] {
        let c = try connect()
        defer { c.close() }
        var done = 0
        var out: [MemorySample] = []
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]
        for target in settings.memoryInvokes.sorted() {
            try BenchRunner.pump(c, line: line, from: done, to: target, window: 256)
            done = target
            let m = ProcReader.memory(pid: c.pid) ?? (0, 0, 0, 0)
            out.append(MemorySample(invokes: target, rssKB: m.rssKB, peakKB: m.peakKB, anonKB: m.anonKB, fileKB: m.fileKB))
        }
        return out
    }
}
