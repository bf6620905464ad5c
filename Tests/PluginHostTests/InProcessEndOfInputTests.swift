import HostProtocol
import HostTestSupport
import PluginInProcess
import Testing

@testable import PluginHost

/// What the engine writes when its input ends is the binary's last output, in process
/// as over pipes: a request without its newline, a frame cut off by the end of input.
@Suite("In-process end of input")
struct InProcessEndOfInputTests {
    /// Everything a plugin writes for `input` followed by a closed input, and how it ended.
    func output(of launcher: PluginLauncher, for input: String) throws
        -> (bytes: [UInt8], status: PluginHost.ExitStatus?)
    {
        let transport = try launcher.start(stderrLine: { _ in })
        try transport.send(Array(input.utf8))
        transport.closeInput()
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while case let n = transport.receive(into: buffer), n > 0 { bytes += buffer[0..<n] }
        let status = transport.waitForExit(timeout: .seconds(10))
        transport.close()
        return (bytes, status)
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"plugin/reset"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"plugin/st"#,
        #"{"jsonrpc":"2.0","id":1,"method":"plugin/state"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"#,
        "Content-Length: 60\r\n\r\n" + #"{"jsonrpc":"2.0","id":1,"method":"plugin/reset"}"#,
    ])
    func theLastOutputIsTheBinarys(input: String) async throws {
        let process = try await onThread { [self] in
            try output(of: PluginLauncher(executable: Binaries.plugin), for: input)
        }
        let inProcess = try output(of: PluginLauncher.inProcess(), for: input)
        #expect(!process.bytes.isEmpty, "the binary answers at the end of its input")
        #expect(String(decoding: inProcess.bytes, as: UTF8.self) == String(decoding: process.bytes, as: UTF8.self))
        #expect(inProcess.status == process.status)
        #expect(process.status == PluginHost.ExitStatus.exited(0))
    }
}
