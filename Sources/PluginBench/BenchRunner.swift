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
        package var placement = Placement.split
        package var calls = 20_000
        package var warmup = 2_000
        package var pipelined = 200_000
        package var startups = 50
        package var memoryInvokes = [10_000, 1_000_000]

        package init(plugin: String) { self.plugin = plugin }
    }

    package let settings: Settings

    package init(settings: Settings) { self.settings = settings }

    /// The request line the floor echoes: the same bytes as a `completeBgTask` request.
    static let typicalRequest = Array(#"{"id":123456,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]

    private func connect(_ args: [String] = []) throws(HostError) -> DirectConnection {
        try spawning { () throws(HostError) in try DirectConnection(plugin: .init(executable: settings.plugin, arguments: args)) }
    }

    /// Runs a spawn with the calling thread moved to the plugin's CPU, so that the
    /// child and every thread it starts inherit it; then moves back to CPU 0.
    func spawning<T>(_ spawn: () throws(HostError) -> T) throws(HostError) -> T {
        guard settings.placement == .split else { return try spawn() }
        _ = ProcReader.pinToCPU(1)
        defer { _ = ProcReader.pinToCPU(0) }
        return try spawn()
    }

    /// The floor (a raw byte echo between the same two binaries) and sequential
    /// round trips of `cancelCancelListener` and `completeBgTask`, measured in
    /// interleaved blocks against three live plugins, so that all three see the same
    /// machine state and their ratios are taken in one run.
    package func sequential(blocks: Int = 20) throws(HostError) -> (floor: Latency, cancel: Latency, complete: Latency) {
        let echo = try connect(["--echo"])
        defer { echo.close() }
        let cancel = try connect()
        defer { cancel.close() }
        let complete = try connect()
        defer { complete.close() }
        let line = BenchRunner.typicalRequest
        var failure: HostError?
        func guarded(_ body: () throws(HostError) -> Void) {
            guard failure == nil else { return }
            do throws(HostError) { try body() } catch { failure = error }
        }
        let echoOnce: () throws(HostError) -> Void = {
            echo.sendRaw(line)
            try echo.flush()
            _ = try echo.nextFrame()
        }
        let cancelOnce: () throws(HostError) -> Void = { _ = try cancel.call(method: CancelCancelListener.name, params: nil) }
        let completeOnce: () throws(HostError) -> Void = { _ = try complete.call(method: CompleteBgTask.name, params: ["success": true]) }
        let steps: [() -> Void] = [{ guarded(echoOnce) }, { guarded(cancelOnce) }, { guarded(completeOnce) }]
        var samples: [[UInt64]] = [[], [], []]
        let perBlock = max(1, settings.calls / blocks)
        for block in 0..<blocks {
            for (k, step) in steps.enumerated() {
                let warm = Latency.measure(count: perBlock, warmup: block == 0 ? settings.warmup : perBlock / 10, step)
                samples[k] += warm.samples
            }
        }
        if let failure { throw failure }
        return (Latency(nanoseconds: samples[0]), Latency(nanoseconds: samples[1]), Latency(nanoseconds: samples[2]))
    }

    /// Sequential round trips through the async API (`PluginConnection`, a reader
    /// thread and a continuation): what `await`ing callers pay.
    package func asyncInvoke() throws -> Latency {
        let connection = try spawning { () throws(HostError) in try PluginConnection(plugin: .init(executable: settings.plugin)) }
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
    package func pipelined(window: Int, total: Int) throws(HostError) -> Double {
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
            out.append(MemorySample(invokes: target, rssKB: m.rssKB, peakKB: m.peakKB, anonKB: m.anonKB, fileKB: m.fileKB))
        }
        return out
    }
}
