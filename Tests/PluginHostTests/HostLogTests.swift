import HostTestSupport
import Testing

@testable import PluginHost
@testable import RustSide

/// The library's own diagnostics name the library, not the `plugin-host` program: an
/// embedder's stderr must not claim lines came from a tool it does not run.
@Suite("Host library log lines")
struct HostLogTests {
    @Test func theServiceManagersDefaultLogNamesIt() {
        let configuration = ServiceManager.Configuration()
        let written = capturingStandardError { configuration.log("upload run 1: connecting") }
        // Other tests running in parallel may write to fd 2 in the same moment (Swift
        // Testing's own progress lines among them), so look for the line among whatever
        // was taken rather than expecting it alone.
        #expect(written.contains("[ServiceManager] upload run 1: connecting\n"))
        #expect(!written.contains("plugin-host] upload run 1"))
    }
}
