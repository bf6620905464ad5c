import Dispatch
import HostProtocol

/// The seam between a host and a plugin: frames out, frames in, end of stream, close.
///
/// A transport moves bytes that are already framed (``framing``) both ways and knows
/// nothing of JSON-RPC: ``PluginConnection``, ``DirectConnection`` and the tools above
/// them speak the protocol, and ``FrameReader`` cuts the output into frames. Two
/// implementations: ``PluginProcess``, a child process over pipes (spawning, reaping,
/// stderr and faults), and, in the `PluginInProcess` library, `InProcessTransport`,
/// the plugin's engine in this process (for tests and `--plugin builtin`).
///
/// ```swift
/// let transport = try PluginProcess(options: .init(executable: path))
/// try transport.send(Array(#"{"id":1,"jsonrpc":"2.0","method":"plugin/state"}"#.utf8) + [0x0A])
/// let reader = FrameReader(transport)
/// let reply = try reader.next()   // the response's frame; nil once the output has ended
/// transport.close()
/// ```
public protocol PluginTransport: AnyObject, Sendable {
    /// How frames are delimited, both ways.
    var framing: Framing { get }

    /// The largest frame a reader accepts from the plugin.
    var maxFrameBytes: Int { get }

    /// Writes whole frames, already framed, to the plugin, in call order; blocks while
    /// the plugin does not read. Fails with ``HostError/Code/pluginExited`` once the
    /// plugin's input is gone.
    func send(_ bytes: [UInt8]) throws(HostError)

    /// Waits for the plugin's output and copies what has arrived into `buffer`: the
    /// number of bytes, or 0 once the output has ended and all of it has been read.
    /// One reader at a time.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int

    /// Ends the plugin's input (a closed stdin): it finishes what it was given, and
    /// its output ends.
    func closeInput()

    /// Stops the plugin at once (SIGKILL for a process), for a host that can no
    /// longer trust what it writes.
    func terminate()

    /// How the plugin ended; nil while it runs.
    var exitStatus: ExitStatus? { get }

    /// Waits up to `timeout` for the plugin to end; how it ended, or nil.
    func waitForExit(timeout: Duration) -> ExitStatus?

    /// Ends the plugin and releases it: its input closed, up to `grace` to finish,
    /// then stopped by force. Returns how it ended.
    @discardableResult
    func close(grace: Duration) -> ExitStatus
}

extension PluginTransport {
    /// Ends the plugin with two seconds' grace; see ``close(grace:)``.
    @discardableResult
    public func close() -> ExitStatus { close(grace: .seconds(2)) }

    /// Frames a message body with ``framing`` and sends it.
    public func send(body: [UInt8]) throws(HostError) {
        try send(FrameEncoder.frame(body, framing: framing))
    }
}

extension Duration {
    /// The duration in seconds.
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration as a dispatch interval, in whole nanoseconds (at most `Int.max / 2`,
    /// so that a day-long or longer timeout cannot overflow a deadline).
    package var dispatchInterval: DispatchTimeInterval { .nanoseconds(clampedNanoseconds) }

    /// The duration in whole nanoseconds, at most `Int.max / 2` (see ``dispatchInterval``).
    package var clampedNanoseconds: Int {
        Int(min(Double(Int.max / 2), Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9))
    }
}
