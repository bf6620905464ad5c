//! `PluginHandle`: calls into the plugin, shaped like Tauri's mobile `PluginHandle`.
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::bridge::{Bridge, Outcome};
use crate::error::{ErrorResponse, PluginInvokeError};

/// A cheap, cloneable handle to a running plugin, usable from any thread (as Tauri's
/// `PluginHandle` is). Calls made after the `PluginHost` is dropped fail with
/// `PluginInvokeError::UnreachableBridge`.
#[derive(Clone)]
pub struct PluginHandle {
    pub(crate) bridge: Arc<Bridge>,
}

/// A request written to the plugin whose answer has not been taken yet. Dropping it
/// abandons the call (a late answer is then ignored).
pub struct PendingCall {
    bridge: Arc<Bridge>,
    /// The request's JSON-RPC id.
    pub id: u64,
    /// The request's method.
    pub method: String,
    rx: Receiver<Outcome>,
    done: bool,
}

impl PluginHandle {
    /// Runs `command` on the plugin with `payload` as its params and blocks the calling
    /// thread until the plugin resolves (`Ok`, the result deserialized as `T`) or rejects
    /// it, as Tauri's `PluginHandle::run_mobile_plugin` does. A payload of `()` (JSON
    /// `null`) sends no `params`. Unlike Tauri's, the wait is bounded by the host's call
    /// timeout (`PluginHostBuilder::call_timeout`).
    pub fn run_mobile_plugin<T: DeserializeOwned>(
        &self,
        command: impl AsRef<str>,
        payload: impl Serialize,
    ) -> Result<T, PluginInvokeError> {
        let params = serde_json::to_value(payload).map_err(PluginInvokeError::CannotSerializePayload)?;
        let value = self.send(command.as_ref(), params)?.wait()?;
        serde_json::from_value(value).map_err(PluginInvokeError::CannotDeserializeResponse)
    }

    /// Any JSON-RPC request (an `os/` control, `plugin/state`, ...), blocking until its
    /// answer or the call timeout.
    pub fn request(&self, method: &str, params: Value) -> Result<Value, PluginInvokeError> {
        self.send(method, params)?.wait()
    }

    /// Writes the request now and returns without waiting: the answer is taken later
    /// with `PendingCall::wait` (from this or another thread). This is how a host
    /// keeps a `waitForCancel` pending while it drives the clock. `params` of `null`
    /// sends none.
    pub fn send(&self, method: &str, params: Value) -> Result<PendingCall, PluginInvokeError> {
        let (tx, rx) = sync_channel(1);
        let id = {
            let mut calls = self.bridge.calls.lock().unwrap();
            if let Some(why) = &calls.closed {
                return Err(PluginInvokeError::UnreachableBridge(why.clone()));
            }
            calls.next_id += 1;
            let id = calls.next_id;
            calls.waiting.insert(id, tx);
            id
        };
        let mut frame = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            frame["params"] = params;
        }
        if let Err(why) = self.bridge.write_frame(&frame.to_string()) {
            self.bridge.calls.lock().unwrap().waiting.remove(&id);
            return Err(PluginInvokeError::UnreachableBridge(why));
        }
        Ok(PendingCall { bridge: self.bridge.clone(), id, method: method.to_string(), rx, done: false })
    }

    /// The protocol errors seen so far (answers to ids nobody is waiting for, responses
    /// without a result or error): their count and the first 16.
    pub fn protocol_errors(&self) -> (u64, Vec<String>) {
        let calls = self.bridge.calls.lock().unwrap();
        (calls.protocol_error_count, calls.protocol_errors.clone())
    }

    /// Why the plugin can no longer answer, once it cannot.
    pub fn closed(&self) -> Option<String> {
        self.bridge.calls.lock().unwrap().closed.clone()
    }
}

impl PendingCall {
    /// Blocks until the answer, or the host's call timeout.
    pub fn wait(self) -> Result<Value, PluginInvokeError> {
        let timeout = self.bridge.call_timeout;
        self.wait_timeout(timeout)
    }

    /// Blocks until the answer, or `timeout` (real time).
    pub fn wait_timeout(mut self, timeout: Duration) -> Result<Value, PluginInvokeError> {
        match self.rx.recv_timeout(timeout) {
            Ok(outcome) => {
                self.done = true;
                convert(outcome)
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(PluginInvokeError::Timeout { command: self.method.clone(), after: timeout })
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.done = true;
                Err(PluginInvokeError::UnreachableBridge("the host was dropped".into()))
            }
        }
    }

    /// The answer if it has come, without blocking; `None` while it is pending.
    pub fn try_take(&mut self) -> Option<Result<Value, PluginInvokeError>> {
        if self.done {
            return None;
        }
        match self.rx.try_recv() {
            Ok(outcome) => {
                self.done = true;
                Some(convert(outcome))
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.done = true;
                Some(Err(PluginInvokeError::UnreachableBridge("the host was dropped".into())))
            }
        }
    }
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        if !self.done {
            let mut calls = self.bridge.calls.lock().unwrap();
            if calls.waiting.remove(&self.id).is_some() {
                calls.abandoned.insert(self.id);
            }
        }
    }
}

fn convert(outcome: Outcome) -> Result<Value, PluginInvokeError> {
    match outcome {
        Outcome::Result(v) => Ok(v),
        Outcome::Error(e) => Err(PluginInvokeError::InvokeRejected(ErrorResponse::from_rpc(&e))),
        Outcome::Closed(why) => Err(PluginInvokeError::UnreachableBridge(why)),
    }
}
