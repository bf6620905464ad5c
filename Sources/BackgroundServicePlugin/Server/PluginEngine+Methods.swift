import HostProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The method table: the five invokes go to the port; session methods and `os/`
/// controls are answered here.
extension PluginEngine {
    func installHandlers() {
        // The seed's invokes, each queued on the `ipc` queue as Tauri does.
        seedInvoke(StartKeepalive.self) { $0.startKeepalive }
        seedInvoke(WaitForCancel.self) { $0.waitForCancel }
        seedInvoke(CompleteBgTask.self) { $0.completeBgTask }
        seedInvoke(StopKeepalive.self) { $0.stopKeepalive }
        seedInvoke(CancelCancelListener.self) { $0.cancelCancelListener }

        // Session.
        on(Initialize.self) { [unowned self] params in
            if let events = params.events {
                self.initializedWithEvents = events
                self.updateEventsEnabled()
            }
            return self.initializeResult
        }
        handlers[Shutdown.name] = { [unowned self] invoke in
            if !self.options.faults.contains(.shutdownNoReject) {
                self.world.plugin.rejectPendingCancelInvoke(.shutdown)
            }
            invoke.resolve()
            self.markShutDown()
        }
        onJSON(PluginStateMethod.self, params: PluginStateMethod.Params.self) { [unowned self] _ in
            self.stateJSON(self.world.snapshot())
        }
        on(PluginDispatchSchedule.self) { [unowned self] params in self.dispatcher.install(params) }
        handlers[PluginReset.name] = { [unowned self] invoke in
            self.world.plugin.rejectPendingCancelInvoke(.reset)
            self.resetWorld()
            invoke.resolve()
        }
        // Extension: the OpenRPC document, compiled in (HostProtocol builds it).
        on(RPCDiscover.self) { _ in DiscoveredDocument(OpenRPCDocument.value) }

        // The emulated OS.
        on(OSLaunch.self) { [unowned self] params throws(RPCError) in
            var result = try self.world.os.launch(identifier: params.identifier)
            if self.options.faults.contains(.nondeterministicTimes) {
                result.at = result.at.adding(nanoseconds: self.jitter)
            }
            return result
        }
        on(OSExpire.self) { [unowned self] params throws(RPCError) in
            try self.world.os.expire(identifier: params.identifier)
            return NullResult()
        }
        on(OSAdvanceTime.self) { [unowned self] params throws(RPCError) in
            OSAdvanceTime.Result(now: try self.world.os.advanceTime(by: params.duration))
        }
        on(OSPendingTaskRequests.self) { [unowned self] _ in
            TaskRequestList(self.world.os.scheduler.pendingTaskRequests.map(\.info))
        }
        on(OSSetConditions.self) { [unowned self] params in self.world.os.setConditions(params) }
        on(OSSubmit.self) { [unowned self] params throws(RPCError) in try self.world.os.submit(params) }
        if options.osMode == .ios { installIOSHandlers() }
    }

    /// `--os ios`: the lifecycle, explain and policy controls, and the wider `os/setConditions`.
    private func installIOSHandlers() {
        on(OSSetConditions.self, params: OSSetConditions.IOSParams.self) { [unowned self] params in
            self.world.os.setConditions(params)
        }
        on(OSTerminate.self) { [unowned self] params throws(RPCError) in try self.world.os.terminate(params) }
        on(OSOpenApp.self) { [unowned self] _ throws(RPCError) in try self.world.os.openApp() }
        on(OSExplain.self) { [unowned self] params in self.world.os.explain(params.identifier) }
        on(OSSetPolicy.self) { [unowned self] params throws(RPCError) in try self.world.os.setPolicy(params) }
        on(OSWebviewCreated.self) { [unowned self] _ throws(RPCError) in try self.world.os.webviewCreated() }
        on(OSBlockMain.self) { [unowned self] params throws(RPCError) in
            guard self.dispatcher.mode == .tauri else {
                throw RPCError.invalidState("os/blockMain needs --dispatch tauri (under serial one executor runs all)")
            }
            let cause = "os/blockMain \(params.duration.decimalSeconds) s"
            return try self.world.os.blockMain(for: params.duration, cause: cause)
        }
        on(OSSendToBackground.self) { [unowned self] _ throws(RPCError) in try self.world.os.sendToBackground() }
    }

    /// Registers one of the seed's invokes: a call of the port's program for it through the
    /// bridge (`BridgeCall`), into the app's process as it is when the job starts; with none
    /// (`--os ios`), nobody can answer: `-32000` `terminated`.
    private func seedInvoke<M: RPCMethod>(
        _: M.Type, _ program: @escaping (BackgroundServicePlugin) -> StepProgram<PortFrame>
    ) {
        // `unowned(unsafe)`: a seed invoke's handler runs on `ipc`, that is at once, inside
        // `dispatch`, while the engine is alive (checked here); a checked `unowned` costs four
        // strong retains an invoke (about 560 instructions, `docs/runs/2026-12-08-invoke-path.md`).
        precondition(PluginEngine.queue(of: M.name) == .ipc, "\(M.name) would outlive dispatch")
        handlers[M.name] = { [unowned(unsafe) self] invoke in
            self.holdMainForCaller(invoke)
            BackgroundServicePlugin.perform(
                BridgeCall(invoke, on: self.world.os, program), profile: self.options.profile, on: self.dispatcher)
        }
    }

    /// Registers a handler that decodes typed params (-32602 when they do not fit)
    /// and answers with the typed result or the thrown error.
    private func on<M: RPCMethod>(_: M.Type, _ body: @escaping (M.Params) throws(RPCError) -> M.Result) {
        on(M.self, params: M.Params.self, body)
    }

    /// The same with another params type for the method (a mode's wider params).
    private func on<M: RPCMethod, P: JSONDecodable>(
        _: M.Type, params: P.Type, _ body: @escaping (P) throws(RPCError) -> M.Result
    ) {
        onJSON(M.self, params: P.self) { params throws(RPCError) in try body(params).json }
    }

    /// The same with the result already as JSON (an answer kept from before).
    private func onJSON<M: RPCMethod, P: JSONDecodable>(
        _: M.Type, params: P.Type, _ body: @escaping (P) throws(RPCError) -> JSONValue
    ) {
        handlers[M.name] = { invoke in
            let params: P
            do throws(JSONDecodingError) {
                params = try P(json: invoke.args)
            } catch {
                invoke.reject(.invalidParams(error.description))
                return
            }
            do throws(RPCError) {
                invoke.resolve(try body(params))
            } catch {
                invoke.reject(error)
            }
        }
    }

    private var initializeResult: Initialize.Result {
        Initialize.Result(
            serverName: "background-service-plugin", serverVersion: PluginOptions.version,
            bundleIdentifier: options.bundleIdentifier,
            refreshIdentifier: world.plugin.refreshTaskId, processingIdentifier: world.plugin.processingTaskId,
            clock: options.clock, profile: options.profile,
            os: options.osMode == .manual ? nil : options.osMode, osSeed: options.osMode == .ios ? options.osSeed : nil)
    }

    /// `snapshot`'s JSON: the last answer's when the snapshot is equal to the last one
    /// (comparing costs a few thousand instructions, encoding about 200,000 under `--os ios`).
    private func stateJSON(_ snapshot: PluginStateSnapshot) -> JSONValue {
        if let last = lastState, last.snapshot == snapshot { return last.json }
        let json = snapshot.json
        lastState = (snapshot, json)
        return json
    }

    /// Fault `nondeterministic-times`: a per-process offset.
    private var jitter: Int64 { Int64(getpid() % 1000) + 1 }
}
