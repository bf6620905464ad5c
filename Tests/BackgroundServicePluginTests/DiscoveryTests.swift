import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// `rpc.discover` (an extension, the OpenRPC convention): the plugin answers with the
/// OpenRPC document compiled into it, the same as `docs/openrpc.json`.
@Suite("rpc.discover")
struct DiscoveryTests {
    static let docPath = PackageRoot.path("docs/openrpc.json")

    /// The binary copied alone into an empty directory still serves the whole document:
    /// it is compiled in, not a resource file beside the binary.
    @Test func aCopiedBinaryServesTheCommittedDocument() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bsp-discover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("plugin").path
        // Not `FileManager.copyItem`: see `ExecutableFile` (ETXTBSY, seen on a loaded machine).
        try ExecutableFile.copy(Binaries.plugin, to: copy)

        let input =
            #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n"
            + #"{"jsonrpc":"2.0","id":2,"method":"rpc.discover","params":{}}"# + "\n"
        let run = try Plugin.run([], input: Array(input.utf8), executable: copy)
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        #expect(run.lines.count == 2)
        let committed = try JSONParser.parse(Array(try String(contentsOfFile: Self.docPath, encoding: .utf8).utf8))
        for (i, line) in run.lines.enumerated() {
            let reply = try JSONParser.parse(Array(line.utf8))
            #expect(reply["id"]?.int64Value == Int64(i + 1))
            #expect(reply["result"] == committed, "the served document differs from docs/openrpc.json")
        }
        #expect(committed["openrpc"]?.stringValue?.hasPrefix("1.3.") == true)
    }

    /// Like every method: array params are -32602, and as a notification it is not answered.
    @Test func paramsRules() throws {
        let lines = try Plugin.lines(
            [],
            [
                #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover","params":[]}"#,
                #"{"jsonrpc":"2.0","method":"rpc.discover"}"#,
            ])
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""code":-32602"#) == true)
    }
}
