import Foundation
import HostProtocol
import PluginHost
import Synchronization

/// Runs scripts of steps against one plugin process, pipelined: all of a
/// script's frames are written at once, then the replies are read up to a
/// barrier request's answer. One process serves many cases through `plugin/reset`.
public final class PluginDriver: Sendable {
    private struct Inbox {
        var frames: [[UInt8]] = []
        var barrier: [UInt8]?
        var barrierSeen = false
        var closed = false
        var status: ExitStatus?
    }

    private let process: PluginProcess
    private let inbox = Mutex(Inbox())
    private let signal = NSCondition()
    private let counter = Mutex(0)
    /// How long a script may take before the plugin is declared hung.
    let timeout: TimeInterval

    /// Starts the plugin.
    public init(plugin: PluginProcess.Options, timeout: TimeInterval = 30) throws(DriverError) {
        self.timeout = timeout
        let box = DriverBox()
        do {
            process = try PluginProcess(options: plugin, handlers: .init(
                onFrame: { box.driver?.received($0) },
                onStderrLine: { _ in },
                onClose: { box.driver?.closed($0) }))
        } catch {
            throw .io(error.description)
        }
        box.driver = self
    }

    /// The plugin's process id.
    public var pid: Int32 { process.pid }

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
        (try? JSONParser.parse(frame)) ?? .string("<unparsable frame: \(String(decoding: frame.prefix(200), as: UTF8.self))>")
    }

    /// Frames steps as ndjson bytes.
    public static func encode(_ steps: [FuzzStep]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(steps.count * 80)
        for step in steps {
            switch step.input {
            case .request(let r): MessageWriter.appendRequest(id: r.id, method: r.method, params: r.params, to: &bytes)
            case .notification(let n): MessageWriter.appendNotification(method: n.method, params: n.params, to: &bytes)
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
            try process.sendRaw(bytes)
        } catch {
            if let status = inbox.withLock({ $0.closed ? $0.status : nil }) { throw .closed(status) }
            throw .io(error.description)
        }
        let deadline = Date().addingTimeInterval(timeout)
        signal.lock()
        defer { signal.unlock() }
        while true {
            let (done, closed, status, count) = inbox.withLock { ($0.barrierSeen, $0.closed, $0.status, $0.frames.count) }
            if done { break }
            if closed { throw .closed(status) }
            if !signal.wait(until: deadline) { throw .hung(received: count) }
        }
        return inbox.withLock { $0.frames }
    }

    /// Closes stdin and reaps the plugin.
    @discardableResult
    public func close() -> ExitStatus { process.close(grace: .seconds(2)) }
}

/// Lets the process callbacks reach the driver once it exists.
private final class DriverBox: @unchecked Sendable {
    // @unchecked: set once, right after the process starts, before any script is sent.
    weak var driver: PluginDriver?
}
