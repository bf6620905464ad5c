import Foundation
import HostProtocol
import Synchronization
import Testing

@testable import PluginHost

/// The built executables, found beside the test runner (`swift test` builds them).
enum Binaries {
    static var directory: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static var plugin: String {
        ProcessInfo.processInfo.environment["BSP_PLUGIN_PATH"] ?? directory.appendingPathComponent("background-service-plugin").path
    }

    static var host: String { directory.appendingPathComponent("plugin-host").path }
}

/// Runs blocking work on its own thread, so that the test's cooperative thread is not held.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A box for values produced inside host tasks.
final class Box<T: Sendable>: Sendable {
    private let value: Mutex<T>
    init(_ initial: T) { value = Mutex(initial) }
    func set(_ v: T) { value.withLock { $0 = v } }
    func update(_ f: (inout T) -> Void) { value.withLock { f(&$0) } }
    var get: T { value.withLock { $0 } }
}

/// Whether a process id still names a process (a zombie counts).
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}

/// A simulation against the built plugin, on the virtual clock.
func makeSimulation(
    behaviour: HostBehaviour = .seed, profile: Profile = .seed, faults: String? = nil, scheduleSeed: UInt64? = nil,
    factory: @escaping @Sendable () -> any BackgroundService
) throws -> SystemSimulation {
    var env: [String: String] = [:]
    if let faults { env["BSP_FAULT"] = faults }
    let plugin = PluginProcess.Options(
        executable: Binaries.plugin, arguments: ["--profile", profile.rawValue], environment: env,
        stderrPrefix: "[plugin] ")
    return try SystemSimulation(options: .init(plugin: plugin, behaviour: behaviour, serviceFactory: factory, scheduleSeed: scheduleSeed))
}

extension SystemSimulation {
    /// `start` on the manager; the error as a value.
    func start(_ config: StartKeepaliveConfig = StartKeepaliveConfig()) throws -> ServiceError? {
        try hostValue { manager -> ServiceError? in
            do throws(ServiceError) {
                try await manager.start(config)
                return nil
            } catch {
                return error
            }
        }
    }

    /// `stop` on the manager; the error as a value.
    func stop() throws -> ServiceError? {
        try hostValue { manager -> ServiceError? in
            do throws(ServiceError) {
                try await manager.stop()
                return nil
            } catch {
                return error
            }
        }
    }

    /// The manager's status.
    func status() throws -> ServiceStatus { try hostValue { await $0.status } }

    /// Advances by seconds.
    func advance(_ seconds: Double) throws { try advance(by: VirtualTime(seconds: seconds)!) }

    /// Requests the Rust side sent, by method name, in order.
    var rustRequests: [String] {
        timeline.compactMap { if case .request(let r, .rust) = $0.kind { r.method } else { nil } }
    }

    /// The service events so far.
    var serviceEvents: [ServiceEvent] {
        timeline.compactMap { if case .service(let e) = $0.kind { e } else { nil } }
    }

    /// Responses to the Rust side, as (method of the request, outcome text).
    var rustOutcomes: [(String, String)] {
        var methods: [RequestID: String] = [:]
        var out: [(String, String)] = []
        for e in timeline {
            switch e.kind {
            case .request(let r, .rust): methods[r.id] = r.method
            case .response(let r, .rust):
                let text = r.error.map { $0.rejectReason?.rawValue ?? "error \($0.code.rawValue)" } ?? "ok"
                out.append((methods[r.id] ?? "?", text))
            default: break
            }
        }
        return out
    }

    /// Closes and checks the plugin was reaped.
    func closeAndCheckReaped() {
        let pid = client.connection.pluginProcess.pid
        close()
        #expect(!processExists(pid), "plugin \(pid) was not reaped")
    }
}

/// A service that waits for a gate the test opens, ignoring cancellation.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { c in
            let ready = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(c)
                return false
            }
            if ready { c.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for w in waiters { w.resume() }
    }
}

/// A service whose run waits for a gate and ignores cancellation (a misbehaving service).
struct StubbornService: BackgroundService {
    let gate: Gate
    func initialize(_ context: ServiceContext) async throws {}
    func run(_ context: ServiceContext) async throws { await gate.wait() }
}

/// A factory that hands out the given services in order (the last one repeats).
func services(_ list: [any BackgroundService]) -> @Sendable () -> any BackgroundService {
    let boxed = list.map { ServiceBox(service: $0) }
    let next = Box(0)
    return {
        let n = next.get
        next.set(n + 1)
        return boxed[min(n, boxed.count - 1)].service
    }
}

struct ServiceBox: Sendable {
    let service: any BackgroundService
}

/// Runs plugin-host with arguments (and extra environment variables) on its own
/// thread; returns its status and output, stderr drained alongside stdout.
func runHost(_ arguments: [String], env: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await onThread {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binaries.host)
        p.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let errData = Box(Data())
        let errDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            errDone.signal()
        }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        errDone.wait()
        return (p.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: errData.get, as: UTF8.self))
    }
}
