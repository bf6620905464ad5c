extension FaultLatency {
    /// One way for the plugin's side of the connection to end.
    package enum Kind: String, CaseIterable, Sendable {
        /// SIGKILL while calls are pending: the host fails them all and reaps the child.
        case sigkill
        /// SIGTERM while calls are pending: the same.
        case sigterm
        /// The plugin writes half a frame and exits 3 (`BSP_FAULT=exit-mid-frame-on-state`).
        case exitMidFrame = "exit-mid-frame"
        /// The host closes the plugin's stdin: the plugin exits 0.
        case stdinClosed = "stdin-closed"
        /// The host closes its end of the plugin's stdout: the plugin's next write
        /// fails with EPIPE and it exits 0 (no SIGPIPE death, no crash report).
        case stdoutClosed = "stdout-closed"

        /// What the measured time is.
        package var measures: String {
            switch self {
            case .sigkill, .sigterm, .exitMidFrame: "signal or exit → every pending call failed"
            case .stdinClosed: "stdin closed → plugin exited 0"
            case .stdoutClosed: "request written to a closed stdout → plugin exited 0"
            }
        }
    }
}
