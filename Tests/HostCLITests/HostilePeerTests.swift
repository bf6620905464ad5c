import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// The hostile-peer suite (issue 26): every subcommand against a plugin that floods,
/// falls silent, cannot start, forks a child that holds its output, writes escape
/// sequences, ... Each run must end on its own (within the hang limit, which a passing
/// run never nears), with the matrix's exit status, under 512 MiB of host memory, with
/// nothing printed raw that a terminal would obey, and with no process of the run left
/// alive. CI runs ``HostilePeerMatrix/ciModes``; `HOSTILE_FULL=1` (as
/// `scripts/hostile-peers.sh` sets) runs every mode, and `HOSTILE_TABLE=FILE` appends
/// one Markdown row per run to FILE. Not under a sanitizer unless `HOSTILE_FULL` is set (the
/// subcommands' own hostile tests run there; the matrix's 40 runs would add minutes to each
/// sanitizer pass for no report a sanitizer could make that those do not).
@Suite("Hostile peers", .serialized, .enabled(if: !SanitizerBuild.active || HostilePeerMatrix.full))
struct HostilePeerTests {
    static let table = ProcessInfo.processInfo.environment["HOSTILE_TABLE"]
    static let hangLimit: Duration = .seconds(SanitizerBuild.active ? 600 : 120)

    @Test(arguments: HostilePeerMatrix.cells(all: HostilePeerMatrix.full))
    func cell(_ cell: HostilePeerMatrix.Cell) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(Self.session.utf8).write(to: scratch.appendingPathComponent("session.txt"))
        let outcome = HostileRun.run(
            cell.subcommand.arguments(
                Binaries.hostilePlugin, scratch.path, HostilePeerMatrix.timeout(for: cell.mode)), mode: cell.mode,
            environment: ["HOSTILE_SECONDS": "1"], hangLimit: Self.hangLimit)
        let said =
            "\(cell): exit \(outcome.status) in \(outcome.seconds) s\nstderr: \(outcome.stderr.text.suffix(2000))"
        #expect(!outcome.hung, "\(said)")
        #expect(outcome.status == cell.expected, "\(said)\nstdout: \(outcome.stdout.text.suffix(1500))")
        #expect(outcome.leftovers.isEmpty, "\(cell): processes left alive: \(outcome.leftovers)")
        #expect(outcome.peakKB < 512 << 10, "\(cell): peak \(outcome.peakKB) KiB")
        for (name, stream) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
            let raw = (stream.head + stream.tail).unicodeScalars.filter { TerminalText.isUnsafe($0) && $0 != "\n" }
            #expect(raw.isEmpty, "\(cell): \(name) holds raw \(raw.map { String($0.value, radix: 16) })")
        }
        if outcome.status == 2 || outcome.status == 3 {
            #expect(!Self.message(outcome).isEmpty, "\(cell): a failure says what happened\n\(said)")
        }
        if let table = Self.table { Self.append(cell, outcome, to: table) }
    }

    /// What `explain` plays: a start, an hour, an explanation.
    static let session = """
        {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
        {"jsonrpc":"2.0","id":2,"method":"os/advanceTime","params":{"seconds":3600}}
        explain

        """

    /// What the host said about the run: the demo's and explain's verdict line, else its
    /// last diagnostic on stderr (`plugin-host SUBCOMMAND: ...`).
    static func message(_ o: HostileRun.Outcome) -> String {
        let verdict = o.stdout.text.split(separator: "\n").last { $0.hasPrefix("verdict:") }
        let diagnostic = o.stderr.text.split(separator: "\n").last { $0.hasPrefix("plugin-host") }
        return (verdict ?? diagnostic).map(String.init) ?? ""
    }

    /// One Markdown row: subcommand, mode, status, seconds, peak MiB, and ``message(_:)``.
    static func append(_ cell: HostilePeerMatrix.Cell, _ o: HostileRun.Outcome, to path: String) {
        let line = message(o)
        let message = line.count > 140 ? String(line.prefix(140)) + "…" : line
        let row =
            "| \(cell.subcommand.name) | \(cell.mode) | \(o.status) | \(String(format: "%.1f", o.seconds)) | "
            + "\(o.peakKB >> 10) | \(message.replacingOccurrences(of: "|", with: "\\|")) |\n"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(row.utf8))
        try? handle.close()
    }
}
