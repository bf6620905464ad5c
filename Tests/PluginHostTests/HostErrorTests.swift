import HostProtocol
import Testing

@testable import HostSimulation
@testable import PluginHost
@testable import RustSide

/// The host's error types are structs with a code: each JSON-RPC error maps to a
/// pinned host code, and what it carried stays readable.
@Suite("Host errors")
struct HostErrorTests {
    /// Every code of the contract, the host code its error response becomes, and the number.
    static let mappings: [(ErrorCode, HostError.Code, Int)] = [
        (.parseError, .rpcError, -32700),
        (.invalidRequest, .rpcError, -32600),
        (.methodNotFound, .rpcError, -32601),
        (.invalidParams, .rpcError, -32602),
        (.internalError, .rpcError, -32603),
        (.invokeRejected, .rejected, -32000),
        (.schedulerError, .rpcError, -32001),
        (.invalidState, .rpcError, -32002),
        (ErrorCode(rawValue: -32099), .rpcError, -32099),
    ]

    @Test("each JSON-RPC error maps to its host code, keeping its number", arguments: mappings)
    func mapping(rpc: ErrorCode, host: HostError.Code, value: Int) {
        let error = HostError(RPCError(code: rpc, message: "m"))
        #expect(rpc.rawValue == value)
        #expect(error.code == host)
        #expect(error.rpcCode == rpc)
        #expect(error.rpcCode?.rawValue == value)
        #expect(error.rpcMessage == "m")
        #expect(error.rpcError == (host == .rpcError ? RPCError(code: rpc, message: "m") : nil))
    }

    @Test("a rejection keeps its reason, and reads as a cancel signal")
    func rejection() {
        let error = HostError(RPCError.rejected(.superseded))
        #expect(error == .rejected(reason: .superseded, message: "invoke rejected: superseded"))
        #expect(error.rejectReason == .superseded)
        #expect(error.description == "rejected: superseded")
        #expect(CancelSignal(error) == .rejected(reason: .superseded, message: "invoke rejected: superseded"))
        #expect(CancelSignal(.timedOut(method: "waitForCancel", seconds: 1)) == nil)
    }

    @Test("every host code is distinct and named")
    func codes() {
        let all: [HostError.Code] = [
            .launchFailed, .pluginExited, .timedOut, .rejected, .rpcError, .protocolError, .invalidResult,
            .cancelled, .closed, .ioFailure, .flooding,
        ]
        #expect(Set(all).count == all.count)
        #expect(
            all.map(\.description) == [
                "launchFailed", "pluginExited", "timedOut", "rejected", "rpcError", "protocolError", "invalidResult",
                "cancelled", "closed", "ioFailure", "flooding",
            ])
    }

    @Test("the factories set the code and what the failure carries")
    func factories() {
        let exited = HostError.pluginExited(.signaled(9))
        #expect(exited.code == .pluginExited && exited.exitStatus == .signaled(9) && exited.rpcCode == nil)
        #expect(exited.description == "the plugin was killed by signal 9 (SIGKILL)")
        let timeout = HostError.timedOut(method: "waitForCancel", seconds: 0.5)
        #expect(timeout.code == .timedOut && timeout.method == "waitForCancel" && timeout.timeoutSeconds == 0.5)
        #expect(HostError.invalidResult(method: "plugin/state", detail: "d").method == "plugin/state")
        #expect(HostError.cancelled.code == .cancelled && HostError.closed.code == .closed)
        #expect(HostError.launchFailed("x") != HostError.launchFailed("y"))
        #expect(HostError.launchFailed("x").code == HostError.launchFailed("y").code)
        let flood = HostError.flooding("100,001 frames, 5 MiB (limit 100,000 frames or 64 MiB) without a request")
        #expect(flood.code == .flooding && flood.rpcCode == nil)
        #expect(
            flood.description
                == "the plugin flooded its output: 100,001 frames, 5 MiB (limit 100,000 frames or 64 MiB) "
                + "without a request; stopped")
    }

    @Test("service, simulation errors: codes and what they carry")
    func otherLayers() {
        #expect(ServiceError.alreadyRunning.code == .alreadyRunning)
        #expect(ServiceError.notRunning.description == "not running")
        let failed = ServiceError.keepaliveFailed(.closed)
        #expect(failed.code == .keepaliveFailed && failed.hostError == .closed)
        #expect(failed.description == "startKeepalive failed: the connection is closed")
        let hung = SystemSimulation.SimulationError.hung(["a", "b"])
        #expect(hung.code == .hung && hung.unanswered == ["a", "b"] && hung.hostError == nil)
        #expect(hung.description == "the plugin did not answer a, b in time")
        // A stuck host task and a runaway instant are not the plugin leaving requests unanswered.
        let stuck = SystemSimulation.SimulationError.hostTaskStuck
        #expect(stuck.code == .hostTaskStuck && stuck.code != .hung && stuck.unanswered.isEmpty)
        #expect(stuck.description.hasPrefix("a host task did not finish"))
        let runaway = SystemSimulation.SimulationError.runaway(steps: 100_000)
        #expect(runaway.code == .runaway && runaway.description == "advance: more than 100000 steps at one time")
        let host = SystemSimulation.SimulationError.host(.cancelled)
        #expect(host.code == .host && host.hostError == .cancelled && host.description == "cancelled")
    }
}
