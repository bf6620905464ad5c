//! `clock::advance_tokio_lockstep` (feature `tokio`): a tokio sleeper on the paused clock
//! wakes at the plugin's time.
#![cfg(feature = "tokio")]
use std::time::Duration;

use background_service_plugin_host::{clock, PluginHost};
use serde_json::{json, Value};

#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_tokio_sleep_wakes_in_lockstep_with_the_plugin_clock() {
    let host = PluginHost::builder().spawn().unwrap();
    let handle = host.handle();
    let () = handle.run_mobile_plugin("startKeepalive", json!({})).unwrap();
    handle.launch("com.example.app.bg-refresh").unwrap();
    let service = {
        let handle = handle.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(20)).await;
            let now = clock::plugin_now(&handle).unwrap();
            let () = handle.run_mobile_plugin("completeBgTask", json!({"success": true})).unwrap();
            now
        })
    };
    tokio::task::yield_now().await; // the service starts its sleep at t=0
    let end = clock::advance_tokio_lockstep(&handle, 30.0, Duration::from_secs(1), 4).await.unwrap();
    assert_eq!(end, 30.0);
    assert_eq!(service.await.unwrap(), 20.0, "the sleep ended when the plugin's clock read 20 s");
    let state = handle.plugin_state().unwrap();
    assert_eq!(state["activeTask"], Value::Null, "completed before the 28 s safety timer");
    assert_eq!(state["counters"]["completed"], 1);
}
