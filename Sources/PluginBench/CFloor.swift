import Foundation
import HostProtocol
import PluginHost

/// The C floor: `bench-floor`, a C program built by the package that forks an
/// echo child and times pipe round trips and pipelined echo between the two, with
/// nothing but `read(2)` and `write(2)` on either side (`Sources/bench-floor/main.c`).
///
/// It runs beside the bench's own processes and is driven one command at a time,
/// so that its blocks interleave with the bench's and all see the same machine.
///
/// ```swift
/// let c = try CFloor(executable: path, placement: .split, lineBytes: 82)
/// let nanoseconds = try c.roundTrips(count: 1_000, warmup: 100)
/// ```
package final class CFloor {
    private let connection: DirectConnection
    /// The longest one command may take.
    private let timeout: Duration

    /// Starts `bench-floor` with its measuring process on the host's CPU and its
    /// echo child on the plugin's, as `placement` places the host and the plugin; each
    /// command it is given must be answered within `timeout`.
    package init(
        executable: String, placement: BenchRunner.Placement, lineBytes: Int, timeout: Duration = .seconds(30)
    ) throws(HostError) {
        self.timeout = timeout
        var arguments = ["--line-bytes", String(lineBytes)]
        switch placement {
        case .split: arguments += ["--host-cpu", "0", "--echo-cpu", "1"]
        case .pinned: arguments += ["--host-cpu", "0", "--echo-cpu", "0"]
        case .free: break
        }
        connection = try DirectConnection(
            plugin: .init(executable: executable, arguments: arguments, stderrPrefix: "bench-floor: "),
            stderrLine: { line in FileHandle.standardError.write(Data((TerminalText.oneLine(line) + "\n").utf8)) })
        connection.timeout = nil
    }

    /// `count` timed round trips of one line (after `warmup` untimed ones), in nanoseconds.
    package func roundTrips(count: Int, warmup: Int) throws(HostError) -> [UInt64] {
        let numbers = try command("seq \(count) \(warmup)")
        guard numbers.count == count else {
            throw HostError.protocolError("bench-floor answered \(numbers.count) timings for \(count) round trips")
        }
        return numbers
    }

    /// The nanoseconds `total` lines took with up to `window` in flight.
    package func pipelined(window: Int, total: Int) throws(HostError) -> UInt64 {
        let numbers = try command("pipe \(window) \(total)")
        guard numbers.count == 1 else {
            throw HostError.protocolError("bench-floor answered \(numbers.count) numbers, not 1")
        }
        return numbers[0]
    }

    /// Sends one command line; parses its one answer line as numbers.
    private func command(_ line: String) throws(HostError) -> [UInt64] {
        connection.sendRaw(Array((line + "\n").utf8))
        try connection.flush()
        let answer = try connection.withDeadline(timeout, waitingFor: "bench-floor's answer to \"\(line)\"") {
            () throws(HostError) in try connection.nextFrame()
        }
        var numbers: [UInt64] = []
        for field in answer.split(separator: UInt8(ascii: " ")) {
            guard let n = UInt64(String(decoding: field, as: UTF8.self)) else {
                throw HostError.protocolError("bench-floor: \(String(decoding: answer.prefix(200), as: UTF8.self))")
            }
            numbers.append(n)
        }
        return numbers
    }

    /// Ends the program (EOF on its commands) and reaps it.
    package func close() { connection.close() }
}
