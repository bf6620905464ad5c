//! The demo's day (`plugin-host demo`, default options, `--os manual`) played by a
//! minimal Rust side written against this crate, printed as the Swift demo's `--full`
//! timeline.
//!
//! The Rust side here is the shape REFERENCE.md gives the real one, reduced to what the
//! day needs, on one thread and in virtual time: `start` calls `startKeepalive`, writes
//! the cancel listener's `waitForCancel` and starts the service (a sync that takes so
//! many seconds); a service that ends calls `completeBgTask(true)`; a listener that
//! resolves (expiration or safety timer) stops the service: `stopKeepalive`, then the
//! cancelled run's `completeBgTask(false)` (stop first, as the real runtime orders it);
//! a rejected listener does nothing. The clock moves with `clock::advance_lockstep`,
//! stopping at the plugin's deadlines and the service's end.
//!
//! ```sh
//! cargo run --example demo_day [-- --plugin PATH] [--compare SWIFT_DEMO_FULL.txt]
//! ```
//! With `--compare` it exits 1 unless its wire items equal those of the Swift demo's
//! `plugin-host demo --full` output in FILE (`wirelog::normalize`).
use std::cell::RefCell;

use background_service_plugin_host::wirelog::{self, WireLog};
use background_service_plugin_host::{clock, PendingCall, PluginHandle, PluginHost, PluginInvokeError};
use serde::Serialize;
use serde_json::{json, Value};

/// What the Rust side sends to `startKeepalive` (Tauri's StartKeepaliveArgs, the demo's values).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StartKeepaliveArgs {
    label: &'static str,
    foreground_service_type: &'static str,
    ios_safety_timeout_secs: f64,
    ios_earliest_refresh_begin_minutes: f64,
    ios_earliest_processing_begin_minutes: f64,
    ios_requires_external_power: bool,
    ios_requires_network_connectivity: bool,
}

const ARGS: StartKeepaliveArgs = StartKeepaliveArgs {
    label: "Service running",
    foreground_service_type: "dataSync",
    ios_safety_timeout_secs: 28.0,
    ios_earliest_refresh_begin_minutes: 15.0,
    ios_earliest_processing_begin_minutes: 15.0,
    ios_requires_external_power: false,
    ios_requires_network_connectivity: false,
};

/// One run of the service: when its sync ends, and its cancel listener's call.
struct Run {
    ends_at: f64,
    listener: Option<PendingCall>,
}

/// The Rust side: at most one run at a time.
struct RustSide {
    plugin: PluginHandle,
    log: WireLog,
    run: Option<Run>,
}

impl RustSide {
    fn start(&mut self, sync_seconds: f64) -> Result<(), PluginInvokeError> {
        let () = self.plugin.run_mobile_plugin("startKeepalive", ARGS)?;
        let listener = Some(self.plugin.send("waitForCancel", Value::Null)?);
        let now = clock::plugin_now(&self.plugin)?;
        self.run = Some(Run { ends_at: now + sync_seconds, listener });
        Ok(())
    }

    /// Stop: cancel the run, `stopKeepalive`, then the cancelled run's completion.
    fn stop(&mut self) -> Result<(), PluginInvokeError> {
        if self.run.take().is_some() {
            let () = self.plugin.run_mobile_plugin("stopKeepalive", ())?;
            let () = self.plugin.run_mobile_plugin("completeBgTask", json!({"success": false}))?;
        }
        Ok(())
    }

    /// What the Rust side does at `now`: a listener answered, or the sync ended.
    fn react(&mut self, now: f64) -> Result<(), PluginInvokeError> {
        let Some(run) = self.run.as_mut() else { return Ok(()) };
        if let Some(answer) = run.listener.as_mut().and_then(PendingCall::try_take) {
            run.listener = None;
            if answer.is_ok() {
                self.log.note("the cancel listener resolved: the Rust side stops the service");
                return self.stop();
            }
        }
        if run.ends_at <= now {
            self.log.note("the sync ended: completeBgTask(success: true)");
            self.run = None;
            let () = self.plugin.run_mobile_plugin("completeBgTask", json!({"success": true}))?;
        }
        Ok(())
    }

    fn wait(&mut self, seconds: f64) -> Result<(), PluginInvokeError> {
        let plugin = self.plugin.clone();
        let side = RefCell::new(self);
        let host_due = |_: f64| side.borrow().run.as_ref().map(|r| r.ends_at);
        clock::advance_lockstep(&plugin, seconds, host_due, |now| side.borrow_mut().react(now))?;
        Ok(())
    }

    fn os(&mut self, method: &str, params: Value) -> Result<(), PluginInvokeError> {
        self.plugin.request(method, params)?;
        let now = clock::plugin_now(&self.plugin)?;
        self.react(now)
    }
}

const REFRESH: &str = "com.example.app.bg-refresh";
const PROCESSING: &str = "com.example.app.bg-processing";

/// Plays the day against the plugin at `plugin` (or the one `PluginHost::locate` finds);
/// returns the timeline and the plugin's counters at the end.
pub fn play(plugin: Option<&str>) -> Result<(Vec<String>, Value), String> {
    let log = WireLog::new();
    let mut builder = PluginHost::builder().args(["--os", "manual"]).on_frame(log.tap());
    if let Some(path) = plugin {
        builder = builder.plugin(path);
    }
    let host = builder.spawn().map_err(|e| e.to_string())?;
    let mut side = RustSide { plugin: host.handle(), log: log.clone(), run: None };
    let day = |s: &mut RustSide| -> Result<Value, PluginInvokeError> {
        s.log.note("The app starts the sync service (run 1: the sync takes 20 s)");
        s.start(20.0)?;
        s.wait(5.0)?;
        s.log.note("iOS launches the refresh task");
        s.os("os/launch", json!({"identifier": REFRESH}))?;
        s.wait(25.0)?;
        s.wait(30.0)?;
        s.log.note("The app starts the sync service again (run 2: this sync would take 60 min)");
        s.start(3600.0)?;
        s.os("os/setConditions", json!({"autoLaunch": true}))?;
        s.wait(15.0 * 60.0 + 28.0 + 20.0)?;
        s.os("os/setConditions", json!({"autoLaunch": false}))?;
        s.wait(30.0)?;
        s.log.note("The app starts the sync service (run 3)");
        s.start(3600.0)?;
        s.wait(30.0)?;
        s.log.note("iOS launches the processing task");
        s.os("os/launch", json!({"identifier": PROCESSING}))?;
        s.wait(300.0)?;
        if s.plugin.plugin_state()?.pointer("/activeTask/identifier") == Some(&json!(PROCESSING)) {
            s.log.note("The user picks up the phone: iOS expires the processing task");
            s.os("os/expire", json!({"identifier": PROCESSING}))?;
        }
        s.wait(10.0)?;
        s.wait(30.0)?;
        s.log.note("The app starts the sync service (run 4)");
        s.start(3600.0)?;
        s.wait(60.0)?;
        s.log.note("The app stops the service");
        s.stop()?;
        s.wait(10.0)?;
        Ok(s.plugin.plugin_state()?["counters"].clone())
    };
    let counters = day(&mut side).map_err(|e| e.to_string())?;
    drop(side);
    let status = host.shutdown().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the plugin exited with {status}"));
    }
    Ok((log.lines(), counters))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let (lines, counters) = play(value_of("--plugin").as_deref()).unwrap_or_else(|e| {
        eprintln!("demo_day: {e}");
        std::process::exit(2)
    });
    println!("{}", lines.join("\n"));
    println!("\nplugin counters: {counters}");
    let Some(path) = value_of("--compare") else { return };
    let swift = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("demo_day: cannot read {path}: {e}");
        std::process::exit(2)
    });
    let (expected, actual) = (wirelog::normalize(&swift), wirelog::normalize(&lines.join("\n")));
    match wirelog::first_difference(&expected, &actual) {
        None if !expected.is_empty() => println!("wire traffic equals the Swift demo's ({} items)", expected.len()),
        None => {
            eprintln!("demo_day: {path} holds no wire items (is it `plugin-host demo --full` output?)");
            std::process::exit(1)
        }
        Some(diff) => {
            eprintln!("demo_day: the wire traffic differs from the Swift demo's\n{diff}");
            std::process::exit(1)
        }
    }
}
