import HostProtocol
import PluginHost

/// A call held back to reach the plugin at the same instant as another: both go out as
/// one JSON-RPC batch, the held call first (``SimulationConnection/hold(method:params:meeting:completion:)``).
///
/// Under the plugin's `--dispatch tauri` the members of one batch run at once, invokes on
/// the `ipc` queue and `os/` controls on the main queue: that is how a simulation makes an
/// OS event and a host invoke happen at one instant (`SystemSimulation+Together.swift`).
/// The batch's reply is one array, and a `waitForCancel` in it holds it back until it is
/// answered (contract section 2): the held call's answer can come late, and its completion
/// runs whenever it does.
///
/// ```swift
/// let id = connection.hold(method: "os/expire", params: ["identifier": "com.example.app.bg-refresh"],
///                          meeting: .method("waitForCancel")) { result in print(result) }
/// // ... the host writes its waitForCancel: [os/expire, waitForCancel] go out as one batch
/// connection.releaseHeld()   // false: it went out with the waitForCancel
/// ```
public struct HeldCall: Sendable {
    /// Which request the held call goes out with.
    public enum Meets: Sendable, Hashable {
        /// The next request written, whatever its method.
        case any
        /// The next request of this method.
        case method(String)
    }

    /// The call, registered with the core connection and encoded.
    let call: EncodedRequest
    let meets: Meets

    /// Whether a request of `method` is the one it meets.
    func isMet(by method: String) -> Bool { meets == .any || meets == .method(method) }
}
