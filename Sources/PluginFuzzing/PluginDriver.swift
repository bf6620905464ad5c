import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// Runs scripts of steps against one plugin (a process or the engine), pipelined: all of a
/// script's frames are written at once, then the replies are read up to a
/// barrier request's answer. One plugin serves many cases through `plugin/reset`.
public final class PluginDriver: Sendable {
    private struct Inbox {
        var frames: [[UInt8]] = []
        var barrier: [UInt8]?
        var barrierSeen = false
        var closed = false
        var status: ExitStatus?
    }

    private let transport: any PluginTransport
    private let inbox = Mutex(Inbox())
    private let signal = NSCondition()
    private let counter = Mutex(0)
    /// How long a script may take before the plugin is declared hung.
    let timeout: TimeInterval
    /// ``timeout`` unless one is given: 30 s.
    public static let defaultTimeout: TimeInterval = 30

    /// Starts the plugin (its stderr is dropped) and reads its output on a thread.
    public init(plugin: PluginLauncher, timeout: TimeInterval = defaultTimeout) throws(DriverError) {
        self.timeout = timeout
        do {
            transport = try plugin.start(stderrLine: { _ in })
        } catch {
            throw .io(error.description)
        }
        TransportReading.frames(
            of: transport, thread: "driver-stdout",
            onFrame: { [weak self] in self?.received($0) }, onFramingError: { _ in },
            onEnd: { [weak self] status, _ in self?.closed(status) })
    }

    /// The plugin's process id, when it runs as a process.
    public var pid: Int32? { (transport as? PluginProcess)?.pid }

    private func received(_ frame: ArraySlice<UInt8>) {
        signal.lock()
        inbox.withLock { s in
            if let b = s.barrier, frame.count >= b.count, frame.starts(with: b) {
                s.barrierSeen = true
            } else {
                s.frames.append(Array(frame))
            }
        }
        signal.signal()
        signal.unlock()
    }

    private func closed(_ status: ExitStatus?) {
        signal.lock()
        inbox.withLock {
            $0.closed = true
            $0.status = status
        }
        signal.signal()
        signal.unlock()
    }

    /// Writes the steps (each framed as ndjson) then a barrier, and returns every
    /// frame the plugin wrote before the barrier's answer, parsed.
    public func run(_ steps: [FuzzStep]) throws(DriverError) -> [JSONValue] {
        try runRaw(encoded: PluginDriver.encode(steps)).map(PluginDriver.parse)
    }

    /// Parses a frame; an unparsable one becomes a string saying so.
    static func parse(_ frame: [UInt8]) -> JSONValue {
        (try? JSONParser.parse(frame))
            ?? .string("<unparsable frame: \(String(decoding: frame.prefix(200), as: UTF8.self))>")
    }

    /// Frames steps as ndjson bytes.
    public static func encode(_ steps: [FuzzStep]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(steps.count * 80)
        for step in steps {
            switch step.input {
            case .request(let r): MessageWriter.appendRequest(id: r.id, method: r.method, params: r.params, to: &bytes)
            case .notification(let n): MessageWriter.appendNotification(method: n.method, params: n.params, to: &bytes)
            case .batch: JSONWriter.write(step.json, to: &bytes)
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Like ``run(_:)`` with pre-encoded frames, returning the frames unparsed.
    public func runRaw(encoded: [UInt8]) throws(DriverError) -> [[UInt8]] {
        let n = counter.withLock { c in
            c += 1
            return c
        }
        let barrierID = "~barrier-\(n)"
        var bytes = encoded
        MessageWriter.appendRequest(id: .string(barrierID), method: OSPendingTaskRequests.name, params: nil, to: &bytes)
        bytes.append(0x0A)
        // The barrier's answer starts with its id (keys are sorted: "id" comes first).
        let prefix = Array(#"{"id":"\#(barrierID)""#.utf8)
        inbox.withLock { s in
            s.frames.removeAll(keepingCapacity: true)
            s.barrier = prefix
            s.barrierSeen = false
        }
        do {
            try transport.send(bytes)
        } catch {
            if let status = inbox.withLock({ $0.closed ? $0.status : nil }) { throw .closed(status) }
            throw .io(error.description)
        }
        let deadline = Date().addingTimeInterval(timeout)
        signal.lock()
        defer { signal.unlock() }
        while true {
            let (done, closed, status, count) = inbox.withLock {
                ($0.barrierSeen, $0.closed, $0.status, $0.frames.count)
            }
            if done { break }
            if closed { throw .closed(status) }
            if !signal.wait(until: deadline) { throw .hung(received: count) }
        }
        return inbox.withLock { $0.frames }
    }

    /// Ends the plugin's input and reaps it.
    @discardableResult
    public func close() -> ExitStatus { transport.close(grace: .seconds(2)) }
}
