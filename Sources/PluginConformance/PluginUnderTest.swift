import Dispatch
import Foundation
import HostProtocol
import PluginHost

/// The plugin binary under test and how to start it.
package struct PluginUnderTest: Sendable {
    /// Path to the executable.
    package var executable: String
    /// Arguments added after each check's own flags (`plugin-host conformance -- ARGS`).
    package var extraArguments: [String] = []
    /// Environment variables added to the host's (the mutation test sets `BSP_FAULT`).
    package var environment: [String: String] = [:]
    /// How long one check may take in one plugin process, every wait included (10 s by
    /// default; the slowest check of the catalogue takes about 0.2 s): past it the check
    /// fails, saying what it was waiting for, and the plugin is stopped.
    package var timeout: DispatchTimeInterval = .seconds(10)
    /// What the suite holds from the plugin in one check: ``defaultLimits``.
    package var limits: PeerLimits = Self.defaultLimits

    /// ``PeerLimits/default`` but for 2,000 frames (not 100,000) written since the
    /// suite last wrote: the catalogue's checks write at most 62 frames each (both runs
    /// of `determinism.virtual-clock`), and a flood is seen fifty times sooner (every
    /// frame is validated as it comes, about 0.1 ms each in a debug build).
    package static let defaultLimits = PeerLimits(maxUnpromptedFrames: 2_000)

    package init(
        executable: String, extraArguments: [String] = [], environment: [String: String] = [:],
        timeout: DispatchTimeInterval = .seconds(10), limits: PeerLimits = Self.defaultLimits
    ) {
        self.executable = executable
        self.extraArguments = extraArguments
        self.environment = environment
        self.timeout = timeout
        self.limits = limits
    }
}
