//! The README's `cfg(test)` swap, compiled: a plugin's mobile wrapper whose handle field
//! is this crate's `PluginHandle` calls `run_mobile_plugin` with the same line as against
//! Tauri's, and its `?` converts the error through the plugin's own `From`.
use background_service_plugin_host::{PluginHandle, PluginHost, PluginInvokeError};
use serde::Serialize;

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct StartKeepaliveArgs {
    label: String,
    ios_safety_timeout_secs: f64,
}

/// The plugin's error type, with the `From` its `?` needs (thiserror's `#[from]`).
#[derive(Debug)]
enum Error {
    PluginInvoke(PluginInvokeError),
}

impl From<PluginInvokeError> for Error {
    fn from(e: PluginInvokeError) -> Self {
        Error::PluginInvoke(e)
    }
}

struct BackgroundService {
    handle: PluginHandle,
}

impl BackgroundService {
    fn start_keepalive(&self, args: &StartKeepaliveArgs) -> Result<(), Error> {
        Ok(self.handle.run_mobile_plugin("startKeepalive", args)?) // the same line as against Tauri's
    }

    fn wait_for_cancel(&self) -> Result<(), Error> {
        Ok(self.handle.run_mobile_plugin("waitForCancel", ())?)
    }
}

#[test]
fn the_plugin_s_own_code_runs_against_the_emulated_ios() {
    let host = PluginHost::builder().args(["--os", "manual"]).spawn().unwrap();
    let service = BackgroundService { handle: host.handle() };
    service.start_keepalive(&StartKeepaliveArgs::default()).unwrap();
    let pending = host.handle().pending_task_requests().unwrap();
    assert_eq!(pending.as_array().unwrap().len(), 2);
    let listener = std::thread::spawn(move || service.wait_for_cancel());
    // real time, bounded: until the listener's waitForCancel has reached the plugin
    for _ in 0..2000 {
        if !host.handle().plugin_state().unwrap()["pendingCancelInvoke"].is_null() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let () = host.handle().run_mobile_plugin("stopKeepalive", ()).unwrap();
    let Err(Error::PluginInvoke(e)) = listener.join().unwrap() else { panic!("waitForCancel was not rejected") };
    assert_eq!(e.rejection().and_then(|r| r.reason()), Some("stopped"));
}
