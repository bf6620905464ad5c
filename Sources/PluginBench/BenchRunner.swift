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
        /// The longest the bench waits for one measured block (a block of round trips or
        /// of pipelined lines, one startup, 100,000 invokes of the memory figure, the async
        /// API's round trips): past it the plugin is stopped and the run fails with
        /// ``HostError/Code/timedOut`` naming the block. One deadline per block, none per
        /// frame: the hot paths measured are the same with or without it.
        package var timeout: Duration = .seconds(30)

        package init(plugin: String, cFloor: String) {
            self.plugin = plugin
            self.cFloor = cFloor
        }
    }

    package let settings: Settings
    /// What every plugin the bench started wrote on stderr (counted; the first lines kept).
    package let stderr = PluginStderr()
    /// What the bench waits for now.
    package let waiting = BenchWait()

    package init(settings: Settings) { self.settings = settings }

    /// The request line the floor echoes: the same bytes as a `completeBgTask` request.
    static let typicalRequest =
        Array(#"{"id":123456,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]

    /// Starts the plugin with `args` and runs its first exchange, `first`, under the
    /// deadline, waiting for `what`. A plugin that ends before answering it did not
    /// start: the error is ``HostError/Code/launchFailed`` with the start of its stderr.
    func start(
        _ args: [String] = [], waitingFor what: String, first: (DirectConnection) throws(HostError) -> Void
    ) throws(HostError) -> DirectConnection {
        let stderr = PluginStderr(also: stderr)
        let c = try spawning { () throws(HostError) in
            try DirectConnection(
                plugin: .init(executable: settings.plugin, arguments: args, stderrPrefix: ""), stderrLine: stderr.sink)
        }
        c.timeout = nil  // every wait of the bench has the deadline of its block instead
        do throws(HostError) {
            try guarded(c, what) { () throws(HostError) in try first(c) }
        } catch {
            guard error.code == .pluginExited else {
                Self.end(c, failed: true)
                throw error
            }
            let status = c.close(grace: .milliseconds(500))
            throw .launchFailed(
                "the plugin \(status) before answering its first request (waiting for \(what)); its stderr:\n"
                    + stderr.excerpt())
        }
        return c
    }

    /// Ends a plugin: closes its input and waits for it to exit; one that `failed` (it
    /// broke the transport, so need not be listening) is killed at once, with whatever it
    /// forked, then reaped.
    static func end(_ c: DirectConnection, failed: Bool) {
        if failed {
            c.transport.terminate()
            c.close(grace: .milliseconds(500))
        } else {
            c.close()
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
    package func asyncInvoke() throws(HostError) -> Latency {
        let connection = try spawning { () throws(HostError) in
            try PluginConnection(
                plugin: .init(executable: settings.plugin, stderrPrefix: ""),
                // No events are kept: the bench reads none (a plugin writing them without end
                // is stopped by the connection's bound on output written unasked).
                options: .init(stderrLine: stderr.sink, notificationBuffer: .bufferingNewest(0), log: { _ in }))
        }
        defer { connection.close() }
        let count = settings.calls / 4
        let warmup = settings.warmup / 4
        waiting.set("\(count + warmup) cancelCancelListener round trips through the async API")
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
        // One deadline for the stage (no timer per call: that is the path measured).
        if done.wait(timeout: .now() + settings.timeout.dispatchInterval) == .timedOut {
            connection.transport.terminate()
            done.wait()
            throw HostError.timedOut(
                method: "\(count + warmup) cancelCancelListener round trips through the async API",
                seconds: settings.timeout.seconds)
        }
        return try result.withLock { $0! }.get()
    }

    /// `count` copies of `line` through `c`, `window` in flight, each answered by `reply`.
    static func pump(
        _ c: DirectConnection, _ line: [UInt8], reply: [UInt8], _ window: Int, _ count: Int, what: String,
        echo: Bool = false
    ) throws(HostError) {
        try pump(c, line: line, reply: reply, from: 0, to: count, window: window, what: what, echo: echo)
    }

    /// Keeps `window` copies of `line` in flight until `to` have been answered,
    /// writing as many new ones as replies have arrived, in one write. Every frame read
    /// must be `reply` (`what` names it in the error).
    static func pump(
        _ c: DirectConnection, line: [UInt8], reply: [UInt8], from: Int, to total: Int, window: Int, what: String,
        echo: Bool = false
    ) throws(HostError) {
        var sent = from
        var received = from
        while received < total {
            while sent < total, sent - received < window {
                c.sendRaw(line)
                sent += 1
            }
            try c.flush()
            let frame = try c.nextFrame()
            guard same(frame, reply) else { throw unexpected(frame, expecting: what, echo: echo) }
            received += 1
            while let frame = try c.bufferedFrame() {
                guard same(frame, reply) else { throw unexpected(frame, expecting: what, echo: echo) }
                received += 1
            }
        }
        if received > sent {
            throw .protocolError(
                "\(received - sent) more answers than the \(sent - from) requests sent (\(what)): "
                    + "a request answered twice")
        }
    }

    /// Spawn to `initialize` reply, in milliseconds.
    package func startup() throws(HostError) -> Latency {
        var ns: [UInt64] = []
        for i in 0..<settings.startups {
            let start = DispatchTime.now().uptimeNanoseconds
            let c = try self.start(waitingFor: "the initialize reply (start \(i + 1) of \(settings.startups))") {
                c throws(HostError) in
                _ = try Self.strictCall(c, method: Initialize.name, params: .object([:]))
            }
            ns.append(DispatchTime.now().uptimeNanoseconds - start)
            c.close()
        }
        return Latency(nanoseconds: ns)
    }

    /// Invokes of the memory figure under one deadline.
    static let memoryBlock = 100_000

    /// The plugin's RSS and peak after each count of invokes, in one process.
    package func memory() throws(HostError) -> [MemorySample] {
        let c = try start(waitingFor: "the plugin's first answer") { c throws(HostError) in try Self.barrier(c) }
        var failed = true
        defer { Self.end(c, failed: failed) }
        var done = 0
        var out: [MemorySample] = []
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#.utf8) + [0x0A]
        for target in settings.memoryInvokes.sorted() {
            while done < target {
                let to = min(target, done + Self.memoryBlock)
                let what = "completeBgTask invokes \(done + 1) to \(to) (memory)"
                try guarded(c, what) { () throws(HostError) in
                    try Self.pump(
                        c, line: line, reply: Self.nullReplyToID1, from: done, to: to, window: 256,
                        what: "the answer to completeBgTask (id 1)")
                    try Self.barrier(c)
                }
                done = to
            }
            let m = c.pid.flatMap { ProcReader.memory(pid: $0) } ?? (0, 0, 0, 0)
            out.append(
                MemorySample(invokes: target, rssKB: m.rssKB, peakKB: m.peakKB, anonKB: m.anonKB, fileKB: m.fileKB))
        }
        failed = false
        return out
    }
}
