//! Against the real plugin binary (found by `PluginHost::locate`: build it first with
//! `swift build --product background-service-plugin`, or set BACKGROUND_SERVICE_PLUGIN).
use std::sync::mpsc::channel;
use std::time::Duration;

use background_service_plugin_host::{clock, PluginHost, PluginInvokeError, SpawnError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a Tauri plugin's Rust side sends to `startKeepalive` (a subset).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StartKeepaliveArgs {
    label: String,
    ios_safety_timeout_secs: f64,
}

const REFRESH: &str = "com.example.app.bg-refresh";

fn start_args() -> StartKeepaliveArgs {
    StartKeepaliveArgs { label: "Service running".into(), ios_safety_timeout_secs: 28.0 }
}

#[test]
fn a_call_that_succeeds_resolves_with_null_and_events_reach_the_callback() {
    let (tx, rx) = channel();
    let host = PluginHost::builder().on_event(move |e| tx.send(e.clone()).unwrap()).spawn().unwrap();
    assert_eq!(host.initialize_result().unwrap()["serverInfo"]["name"], "background-service-plugin");
    let handle = host.handle();
    let () = handle.run_mobile_plugin("startKeepalive", start_args()).unwrap();
    let events: Vec<_> = rx.try_iter().collect();
    let submitted: Vec<_> = events.iter().filter(|e| e.method == "os/requestSubmitted").collect();
    assert_eq!(submitted.len(), 2, "{events:?}");
    assert_eq!(submitted[0].params["identifier"], REFRESH);
    assert_eq!(submitted[0].params["earliestBeginDate"], 900);
}

#[test]
fn a_rejected_invoke_carries_code_message_and_reason() {
    let host = PluginHost::builder().spawn().unwrap();
    let handle = host.handle();
    let wait = handle.send("waitForCancel", Value::Null).unwrap();
    let () = handle.run_mobile_plugin("completeBgTask", json!({"success": true})).unwrap();
    let err = wait.wait().unwrap_err();
    let rejection = err.rejection().expect("rejected");
    assert_eq!(rejection.rpc_code(), Some(-32000));
    assert_eq!(rejection.reason(), Some("completed"));
    assert!(err.to_string().contains("-32000"), "{err}");
    let unknown = handle.run_mobile_plugin::<()>("noSuchCommand", ()).unwrap_err();
    assert_eq!(unknown.rejection().and_then(|r| r.rpc_code()), Some(-32601));
}

#[test]
fn a_result_of_the_wrong_type_is_a_deserialize_error() {
    let host = PluginHost::builder().spawn().unwrap();
    let err = host.handle().run_mobile_plugin::<String>("os/advanceTime", json!({"seconds": 1})).unwrap_err();
    assert!(matches!(err, PluginInvokeError::CannotDeserializeResponse(_)), "{err}");
}

#[derive(Deserialize, Debug, PartialEq)]
struct Launched {
    identifier: String,
    kind: String,
    at: f64,
}

#[test]
fn advance_time_fires_the_safety_timer_and_resolves_wait_for_cancel() {
    let (tx, rx) = channel();
    let host = PluginHost::builder().on_event(move |e| tx.send(e.clone()).unwrap()).spawn().unwrap();
    let handle = host.handle();
    let () = handle.run_mobile_plugin("startKeepalive", start_args()).unwrap();
    let wait = handle.send("waitForCancel", Value::Null).unwrap();
    let launched: Launched = serde_json::from_value(handle.launch(REFRESH).unwrap()).unwrap();
    assert_eq!(launched, Launched { identifier: REFRESH.into(), kind: "refresh".into(), at: 0.0 });
    assert_eq!(handle.next_plugin_due().unwrap(), Some(28.0));
    assert_eq!(handle.advance_time(27.0).unwrap(), 27.0);
    let mut wait = wait;
    assert!(wait.try_take().is_none(), "still pending at 27 s");
    assert_eq!(handle.advance_time(1.0).unwrap(), 28.0);
    assert_eq!(wait.try_take().expect("answered").unwrap(), Value::Null);
    let fired = rx.try_iter().find(|e| e.method == "plugin/safetyTimer" && e.params["state"] == "fired");
    assert_eq!(fired.expect("a fired event").params["deadline"], 28);
}

#[test]
fn advance_lockstep_stops_at_host_and_plugin_deadlines() {
    let host = PluginHost::builder().spawn().unwrap();
    let handle = host.handle();
    let () = handle.run_mobile_plugin("startKeepalive", start_args()).unwrap();
    handle.launch(REFRESH).unwrap();
    let mut stops = Vec::new();
    let host_timer_fired = std::cell::Cell::new(false);
    let host_due = |_now: f64| (!host_timer_fired.get()).then_some(10.0);
    let end = clock::advance_lockstep(&handle, 40.0, host_due, |now| {
        host_timer_fired.set(host_timer_fired.get() || now >= 10.0);
        stops.push(now);
        Ok(())
    })
    .unwrap();
    assert_eq!(end, 40.0);
    assert_eq!(stops, vec![10.0, 28.0, 40.0], "the host's 10 s, the safety timer's 28 s, the end");
}

#[test]
fn shutdown_rejects_a_pending_wait_and_exits_zero() {
    let host = PluginHost::builder().spawn().unwrap();
    let wait = host.handle().send("waitForCancel", Value::Null).unwrap();
    let status = host.shutdown().unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(wait.wait().unwrap_err().rejection().and_then(|r| r.reason()), Some("shutdown"));
}

#[test]
fn drop_kills_and_reaps_the_plugin_and_fails_a_blocked_call() {
    let host = PluginHost::builder().spawn().unwrap();
    let pid = host.pid();
    let handle = host.handle();
    let blocked = std::thread::spawn(move || handle.run_mobile_plugin::<()>("waitForCancel", ()));
    std::thread::sleep(Duration::from_millis(50)); // real time, only so the call is likely written first
    assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    drop(host);
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "pid {pid} still exists (a zombie?)");
    let err = blocked.join().unwrap().unwrap_err();
    assert!(matches!(err, PluginInvokeError::UnreachableBridge(_)), "{err}");
}

#[test]
fn a_bad_plugin_path_is_a_clear_error() {
    let err = PluginHost::spawn("/nonexistent/background-service-plugin").err().expect("an error");
    assert!(matches!(err, SpawnError::Io { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("/nonexistent/background-service-plugin") && text.contains("No such file"), "{text}");
}

fn sh(script: &str) -> Result<PluginHost, SpawnError> {
    PluginHost::builder()
        .plugin("/bin/sh")
        .args(["-c", script])
        .call_timeout(Duration::from_millis(300))
        .max_frame_bytes(4096)
        .spawn()
}

#[test]
fn a_silent_plugin_times_out() {
    let err = sh("sleep 30").err().expect("an error");
    assert!(matches!(err, SpawnError::Initialize { source: PluginInvokeError::Timeout { .. }, .. }), "{err}");
}

#[test]
fn a_flooding_plugin_is_cut_off() {
    let err = sh("head -c 10000000 /dev/zero | tr '\\0' a; sleep 30").err().expect("an error");
    assert!(err.to_string().contains("longer than 4096 bytes"), "{err}");
}

#[test]
fn a_plugin_that_dies_is_unreachable_with_its_exit_status() {
    let err = sh("exit 3").err().expect("an error");
    let text = err.to_string();
    assert!(text.contains("unreachable") && text.contains("3"), "{text}");
}

#[test]
fn a_plugin_that_stops_reading_fails_the_call_instead_of_blocking_it() {
    let host = PluginHost::builder().plugin("/bin/sh").args(["-c", "sleep 30"]).initialize(false).spawn().unwrap();
    let handle = host.handle();
    let big = json!({"padding": "x".repeat(1000)});
    let mut calls = Vec::new();
    let err = loop {
        match handle.send("os/setConditions", big.clone()) {
            Ok(call) => calls.push(call),
            Err(e) => break e,
        }
        assert!(calls.len() < 10_000, "10,000 frames queued and written, yet no error");
    };
    assert!(err.to_string().contains("not reading its stdin"), "{err}");
    drop(host); // kills it: the writer blocked on the full pipe gets EPIPE and ends
}
