import Dispatch
import HostProtocol
import PluginHost

/// Round trips and pipelined throughput of the invoke path beside two floors, in
/// interleaved blocks against live processes, so that all of them see the same
/// machine and their ratios are taken in one run: the C floor (`bench-floor`, two C
/// processes), the Swift echo (the plugin binary's `--echo`), and the invokes.
extension BenchRunner {
    /// Sequential round trips, in microseconds.
    package struct Sequential {
        /// The C floor's round trip of an 82-byte line.
        package var cFloor: Latency
        /// The Swift echo's round trip of the same line.
        package var floor: Latency
        /// `cancelCancelListener` with nothing pending.
        package var cancel: Latency
        /// `completeBgTask`.
        package var complete: Latency
    }

    /// Lines (or invokes) per second with `window` in flight: the median over blocks,
    /// and the median over blocks of the ratio of a block's invokes to the floors' blocks
    /// beside it (a block that another process interrupted moves neither).
    package struct Pipelined {
        package var window: Int
        /// `cancelCancelListener` invokes per second.
        package var invokes: Double
        /// The Swift echo's lines per second.
        package var echo: Double
        /// The C floor's lines per second.
        package var cFloor: Double
        /// Invokes per second over the C floor's lines per second.
        package var ratioToCFloor: Double
        /// Invokes per second over the Swift echo's lines per second.
        package var ratioToEcho: Double
    }

    /// The live processes of one interleaved measurement.
    package final class Subjects {
        let c: CFloor
        let echo: DirectConnection
        let cancel: DirectConnection
        let complete: DirectConnection

        init(c: CFloor, echo: DirectConnection, cancel: DirectConnection, complete: DirectConnection) {
            self.c = c
            self.echo = echo
            self.cancel = cancel
            self.complete = complete
        }

        /// Ends every process: closes their input and waits for them to exit; a run
        /// that `failed` kills them (and whatever they forked) first.
        package func close(failed: Bool = false) {
            c.close()
            for plugin in [echo, cancel, complete] { BenchRunner.end(plugin, failed: failed) }
        }
    }

    /// Starts the C floor, the Swift echo and two plugins, each placed as the settings say,
    /// each answering a first request before anything is measured.
    package func startSubjects() throws(HostError) -> Subjects {
        let lineBytes = Self.typicalRequest.count
        let c = try CFloor(
            executable: settings.cFloor, placement: settings.placement, lineBytes: lineBytes,
            timeout: settings.timeout)
        var started: [DirectConnection] = []
        do throws(HostError) {
            started.append(
                try start(["--echo"], waitingFor: "the Swift echo's first line") { c throws(HostError) in
                    try Self.barrier(c, echo: true)
                })
            for _ in 0..<2 {
                started.append(
                    try start(waitingFor: "the plugin's first answer") { c throws(HostError) in try Self.barrier(c) })
            }
        } catch {
            c.close()
            for s in started { Self.end(s, failed: true) }
            throw error
        }
        return Subjects(c: c, echo: started[0], cancel: started[1], complete: started[2])
    }

    /// Sequential round trips of the floors, `cancelCancelListener` and
    /// `completeBgTask`, in `blocks` interleaved blocks, each block under one deadline.
    package func sequential(_ s: Subjects, blocks: Int = 20) throws(HostError) -> Sequential {
        let line = Self.typicalRequest
        let echoed = Array(line.dropLast())
        var samples: [[UInt64]] = [[], [], [], []]
        let perBlock = max(1, settings.calls / blocks)
        func run(_ k: Int, block: Int, warmup: Int) throws(HostError) -> [UInt64] {
            let of = "block \(block + 1) of \(blocks)"
            switch k {
            case 0:
                return try s.c.roundTrips(count: perBlock, warmup: warmup)
            case 1:
                return try guarded(s.echo, "Swift echo round trips, \(of)") {
                    () throws(HostError) in
                    let ns = try Latency.measure(count: perBlock, warmup: warmup) { () throws(HostError) in
                        s.echo.sendRaw(line)
                        try s.echo.flush()
                        try Self.expectFrame(s.echo, echoed, "the echo of the line sent", echo: true)
                    }.samples
                    try Self.barrier(s.echo, echo: true)
                    return ns
                }
            case 2:
                return try guarded(
                    s.cancel, "cancelCancelListener round trips, \(of)"
                ) { () throws(HostError) in
                    let ns = try Latency.measure(count: perBlock, warmup: warmup) { () throws(HostError) in
                        _ = try Self.strictCall(s.cancel, method: CancelCancelListener.name, params: nil)
                    }.samples
                    try Self.barrier(s.cancel)
                    return ns
                }
            default:
                return try guarded(s.complete, "completeBgTask round trips, \(of)") {
                    () throws(HostError) in
                    let ns = try Latency.measure(count: perBlock, warmup: warmup) { () throws(HostError) in
                        _ = try Self.strictCall(s.complete, method: CompleteBgTask.name, params: ["success": true])
                    }.samples
                    try Self.barrier(s.complete)
                    return ns
                }
            }
        }
        for block in 0..<blocks {
            for k in samples.indices {
                samples[k] += try run(k, block: block, warmup: block == 0 ? settings.warmup : perBlock / 10)
            }
        }
        return Sequential(
            cFloor: Latency(nanoseconds: samples[0]), floor: Latency(nanoseconds: samples[1]),
            cancel: Latency(nanoseconds: samples[2]), complete: Latency(nanoseconds: samples[3]))
    }

    /// Pipelined throughput at `window`, `total` lines each, in `blocks` interleaved
    /// blocks after one untimed block each.
    package func pipelined(_ s: Subjects, window: Int, total: Int, blocks: Int = 20) throws(HostError) -> Pipelined {
        let perBlock = max(window, total / blocks)
        let invoke = Array(#"{"id":1,"jsonrpc":"2.0","method":"cancelCancelListener"}"#.utf8) + [0x0A]
        let echo = Self.typicalRequest
        let echoed = Array(echo.dropLast())
        /// One block, under its deadline (armed before the clock starts), then the barrier.
        func block(_ c: DirectConnection, _ what: String, echo isEcho: Bool, _ body: () throws(HostError) -> Void)
            throws(HostError) -> UInt64
        {
            try guarded(c, "\(what), window \(window), \(perBlock) lines") {
                () throws(HostError) in
                let ns = try Self.time(body)
                try Self.barrier(c, echo: isEcho)
                return ns
            }
        }
        func run(_ k: Int) throws(HostError) -> UInt64 {
            switch k {
            case 0:
                return try s.c.pipelined(window: window, total: perBlock)
            case 1:
                return try block(s.echo, "the Swift echo pipelined", echo: true) { () throws(HostError) in
                    try Self.pump(
                        s.echo, echo, reply: echoed, window, perBlock, what: "the echo of the line sent", echo: true)
                }
            default:
                return try block(s.cancel, "cancelCancelListener pipelined", echo: false) { () throws(HostError) in
                    try Self.pump(
                        s.cancel, invoke, reply: Self.nullReplyToID1, window, perBlock,
                        what: "the answer to cancelCancelListener (id 1)")
                }
            }
        }
        // Per second, by kind (C floor, Swift echo, invokes), one per block.
        var rates: [[Double]] = [[], [], []]
        for block in 0...blocks {
            for k in rates.indices {
                let ns = try run(k)
                if block > 0 { rates[k].append(Double(perBlock) / (Double(max(ns, 1)) / 1e9)) }
            }
        }
        func median(_ xs: [Double]) -> Double {
            let s = xs.sorted()
            return s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        return Pipelined(
            window: window, invokes: median(rates[2]), echo: median(rates[1]), cFloor: median(rates[0]),
            ratioToCFloor: median(zip(rates[2], rates[0]).map { $0 / $1 }),
            ratioToEcho: median(zip(rates[2], rates[1]).map { $0 / $1 }))
    }

    /// How long `body` took, in nanoseconds.
    static func time(_ body: () throws(HostError) -> Void) throws(HostError) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return DispatchTime.now().uptimeNanoseconds - start
    }
}
