import HostProtocol
import HostTestSupport
import Synchronization
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// A simulation against the built plugin, on the virtual clock.
func makeSimulation(
    behaviour: Profile = .seed, profile: Profile = .seed, faults: String? = nil, races: RacePlan = RacePlan(),
    blockingThreads: Int = BlockingPool.tokioDefault, factory: @escaping @Sendable () -> any BackgroundService
) throws -> SystemSimulation {
    var env: [String: String] = [:]
    if let faults { env["BSP_FAULT"] = faults }
    let plugin = PluginLauncher(
        executable: Binaries.plugin, arguments: ["--profile", profile.rawValue], environment: env,
        stderrPrefix: "[plugin] ")
    return try SystemSimulation(
        options: .init(
            plugin: plugin, behaviour: behaviour, serviceFactory: factory, races: races,
            blockingThreads: blockingThreads))
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

    /// The actor's `Start` command alone (no `SetOnComplete`, no listener); the error as a value.
    func startCommand(_ config: StartKeepaliveConfig = StartKeepaliveConfig()) throws -> ServiceError? {
        try hostValue { manager -> ServiceError? in
            do throws(ServiceError) {
                _ = try await manager.startCommand(config)
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
        let pid = client.connection.pluginProcess?.pid ?? 0
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
