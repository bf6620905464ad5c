import HostTestSupport
import Testing

@testable import PluginHost

/// The library's own diagnostics name the library, not the `plugin-host` program: an
/// embedder's stderr must not claim lines came from a tool it does not run.
@Suite("Host library log lines")
struct HostLogTests {
    @Test func theServiceManagersDefaultLogNamesIt() {
        let configuration = ServiceManager.Configuration()
        let written = capturingStandardError { configuration.log("upload run 1: connecting") }
        #expect(written == "[ServiceManager] upload run 1: connecting\n")
    }
}
