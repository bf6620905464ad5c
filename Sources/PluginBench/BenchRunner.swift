import Dispatch
import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// The plugin's memory after a number of invokes, in KiB.
package struct MemorySample {
    let invokes: Int
    let rssKB: Int
    let peakKB: Int
    /// The process's own memory (heap, stacks).
    let anonKB: Int
    /// Pages of the binary and shared libraries.
    let fileKB: Int
}

/// Runs every measurement of `plugin-host bench` against one plugin binary.
package struct BenchRunner {
    /// Where the host and the plugin run.
    package enum Placement: String {
        /// The host on CPU 0, the plugin on CPU 1: the "different vCPUs" case.
        case split
        /// Both on CPU 0 (`--pin`).
        case pinned
        /// Wherever the scheduler puts them (`--free`): figures may be bimodal.
        case free
    }

    package struct Settings {
        package var plugin: String
        /// The C floor's program (`bench-floor`).
        package var cFloor: String
        package var placement = Placement.split
        package var calls = 20_000
        package var warmup = 2_000
        package var pipelined = 200_000
        package var startups = 50
        package var memoryInvokes = [10_000, 1_000_000]

        package init(plugin: String, cFloor: String) {
            self.plugin = plugin
            self.cFloor = cFloor
        }
    }

    package let settings: Settings

    package init(settings: Settings) { self.settings = settings }

    /// The request line the floor echoes: the same bytes as a `completeBgTask` request.
    static let typicalRequest =
        Array(#"{"id":123456,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]

    func connect(_ args: [String] = []) throws(HostError) -> DirectConnection {
        try spawning { () throws(HostError) in
            try DirectConnection(plugin: .init(executable: settings.plugin, arguments: args))
        }
    }

    /// Runs a spawn with the calling thread moved to the plugin's CPU, so that the
    /// child and every thread it starts inherit it; then moves back to CPU 0.
    func spawning<T>(_ spawn: () throws(HostError) -> T) throws(HostError) -> T {
        guard settings.placement == .split else { return try spawn() }
        _ = ProcReader.pinToCPU(1)
        defer { _ = ProcReader.pinToCPU(0) }
        return try spawn()
    }

    /// Sequential round trips through the async API (`PluginConnection`, a reader
    /// thread and a continuation): what `await`ing callers pay.
    package func asyncInvoke() throws -> Latency {
        let connection = try spawning { () throws(HostError) in
            try PluginConnection(plugin: .init(executable: settings.plugin))
        }
        defer { connection.close() }
        let count = settings.calls / 4
        let warmup = settings.warmup / 4
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

    /// `count` copies of `line` through `c`, `window` in flight.
    static func pump(_ c: DirectConnection, _ line: [UInt8], _ window: Int, _ count: Int) throws(HostError) {
        try pump(c, line: line, from: 0, to: count, window: window)
    }

    /// Keeps `window` copies of `line` in flight until `to` have been answered,
    /// writing as many new ones as replies have arrived, in one write.
    static func pump(_ c: DirectConnection, line: [UInt8], from: Int, to total: Int, window: Int) throws(HostError) {
        var sent = from
        var received = from
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
    package func startup() throws(HostError) -> Latency {
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
    package func memory() throws(HostError) -> [MemorySample] {
        let c = try connect()
        defer { c.close() }
        var done = 0
        var out: [MemorySample] = []
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]
        for target in settings.memoryInvokes.sorted() {
            try BenchRunner.pump(c, line: line, from: done, to: target, window: 256)
            done = target
            let m = c.pid.flatMap { ProcReader.memory(pid: $0) } ?? (0, 0, 0, 0)
            out.append(
                MemorySample(invokes: target, rssKB: m.rssKB, peakKB: m.peakKB, anonKB: m.anonKB, fileKB: m.fileKB))
        }
        return out
    }
}
