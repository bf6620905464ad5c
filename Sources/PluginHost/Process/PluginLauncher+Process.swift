import HostProtocol

// A launcher of a plugin binary: beside the process it starts, so that the transport seam
// (`Transport/`) does not depend on its process implementation.
extension PluginLauncher {
    /// A plugin binary, started as a ``PluginProcess``.
    public init(_ options: PluginProcess.Options) {
        self.init(description: options.executable) { sink throws(HostError) in
            try PluginProcess(options: options, stderrLine: sink)
        }
    }

    /// A plugin binary, started as a ``PluginProcess`` with these options.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:],
        framing: Framing = .ndjson, maxFrameBytes: Int = 16 << 20, stderrPrefix: String = "[plugin] "
    ) {
        self.init(
            PluginProcess.Options(
                executable: executable, arguments: arguments, environment: environment, framing: framing,
                maxFrameBytes: maxFrameBytes, stderrPrefix: stderrPrefix))
    }
}
