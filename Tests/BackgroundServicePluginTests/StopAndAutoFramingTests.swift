import Foundation
import HostProtocol
import HostTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26, item 18: the plugin binary ends cleanly on a signal that asks it to stop;
/// under `--framing auto`, a line that is not an LSP header is answered at once and the
/// plugin keeps serving; its stderr never carries a bidirectional override raw.
@Suite("Stopping, auto framing and stderr escaping")
struct StopAndAutoFramingTests {
    static let state = #"{"jsonrpc":"2.0","id":"s","method":"plugin/state"}"#

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func aStopSignalEndsThePluginWithOneLine(_ signo: Int32) throws {
        let program = try SpawnedProgram(Binaries.plugin, environment: Plugin.environment(adding: [:]))
        #expect(program.write(Array((Self.state + "\n").utf8)))
        // The answer's first byte: the plugin is serving (a blocking read, no polling).
        var first = [UInt8](repeating: 0, count: 1)
        #expect(SpawnedProgram.read(program.stdout, into: &first) == 1 && first == Array("{".utf8))
        program.kill(signo)
        // Hang-catching only: a plugin that ignores the signal is killed after 30 s (and fails).
        let end =
            program.wait(timeout: .seconds(30))
            ?? {
                program.kill(SIGKILL)
                return program.waitWithUsage().termination
            }()
        let text = String(decoding: SpawnedProgram.readToEnd(program.stderr), as: UTF8.self)
        #expect(end.signal == signo, "\(end)")
        let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT"][signo]!
        #expect(text == "background-service-plugin: stopped by \(name)\n", "\(text)")
    }

    /// A line typed by hand first makes `auto` choose LSP (contract 1): each line that is
    /// not a header is answered -32700 as soon as it ends, and a real frame is still served.
    @Test func aLineTypedByHandIsAnsweredAtOnce() throws {
        let plugin = try StreamingPlugin()
        defer { plugin.closeStdin() }
        for line in ["hello", Self.state] {
            plugin.write(Array((line + "\n").utf8))
            let (_, reply) = try #require(plugin.frames(through: "null", timeout: 10), "no answer to \(line)")
            let error = try JSONParser.parse(reply)
            #expect(error["error"]?["code"] == .number(-32700))
            #expect(error["error"]?["message"]?.stringValue?.contains("not a header line") == true)
        }
        plugin.write(Array(LSPInputTests.frame(Self.state).utf8))
        #expect(plugin.frames(through: #""s""#, timeout: 10) != nil, "a well-framed request is served after them")
    }

    /// A JSON line where an LSP header is expected (a client switching framing) is the
    /// same: answered at once, not swallowed with every later line until end of input.
    @Test func aJSONLineBetweenLSPFramesIsAnsweredAtOnce() throws {
        let plugin = try StreamingPlugin()
        defer { plugin.closeStdin() }
        plugin.write(Array(LSPInputTests.frame(Self.state).utf8))
        _ = try #require(plugin.frames(through: #""s""#, timeout: 10))
        for id in 1...3 {
            plugin.write(Array((#"{"jsonrpc":"2.0","id":\#(id),"method":"plugin/state"}"# + "\n").utf8))
            #expect(plugin.frames(through: "null", timeout: 10) != nil, "line \(id) answered at once")
        }
        plugin.write(Array(LSPInputTests.frame(Self.state).utf8))
        #expect(plugin.frames(through: #""s""#, timeout: 10) != nil)
    }

    /// Bidirectional overrides (U+202E) and escape sequences in what the plugin quotes on
    /// stderr (here an unknown method's name) are written escaped (`TerminalText`).
    @Test func stderrEscapesBidiOverridesAndEscapes() throws {
        let method = "evil\u{202E}txt.exe\u{1B}]0;title\u{07}\u{2066}"
        let request = JSONValue.object(["jsonrpc": "2.0", "id": 1, "method": .string(method)]).description
        let run = try Plugin.run([], [request])
        #expect(run.stderr.contains(#"evil\u{202e}txt.exe\u{1b}]0;title\u{7}\u{2066}"#), "\(run.stderr)")
        let raw = run.stderr.unicodeScalars.filter { TerminalText.isUnsafe($0) && $0 != "\n" }
        #expect(raw.isEmpty, "raw: \(raw.map { String($0.value, radix: 16) })")
    }
}
