//! Errors, shaped like Tauri's `tauri::plugin::mobile::{PluginInvokeError, ErrorResponse}`.
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

/// What the plugin answered when it rejected a call (Tauri's `ErrorResponse`): the
/// JSON-RPC error's `code` (as a string, as Tauri's is), `message` and `data`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    /// The JSON-RPC error code as text, for example `"-32000"` (an invoke rejected) or
    /// `"-32602"` (invalid params).
    pub code: Option<String>,
    /// The error's message.
    pub message: Option<String>,
    /// The error's `data` member (`Value::Null` when absent); the plugin puts its
    /// rejection reason at `data.reason`.
    pub data: Value,
}

impl ErrorResponse {
    /// Builds one from a JSON-RPC error object.
    pub fn from_rpc(error: &Value) -> Self {
        ErrorResponse {
            code: error.get("code").map(|c| match c {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            message: error.get("message").and_then(Value::as_str).map(String::from),
            data: error.get("data").cloned().unwrap_or(Value::Null),
        }
    }

    /// The JSON-RPC code as a number, when it is one.
    pub fn rpc_code(&self) -> Option<i64> {
        self.code.as_deref().and_then(|c| c.parse().ok())
    }

    /// `data.reason` of a `-32000` rejection: `completed`, `stopped`, `listenerCancelled`,
    /// `superseded`, `reset`, `shutdown` or `terminated`.
    pub fn reason(&self) -> Option<&str> {
        self.data.get("reason").and_then(Value::as_str)
    }
}

impl fmt::Display for ErrorResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(code) = &self.code {
            write!(f, "[{code}] ")?;
        }
        f.write_str(self.message.as_deref().unwrap_or("invoke rejected"))?;
        if !self.data.is_null() {
            write!(f, " {}", self.data)?;
        }
        Ok(())
    }
}

/// Why a call failed. The first three variants are Tauri's; the last two are this
/// crate's, since a child process can die or go silent where Tauri's bridge cannot.
#[derive(Debug)]
pub enum PluginInvokeError {
    /// The plugin answered with a JSON-RPC error (Tauri: the native side called
    /// `invoke.reject`).
    InvokeRejected(ErrorResponse),
    /// The answer's `result` does not deserialize into the type asked for.
    CannotDeserializeResponse(serde_json::Error),
    /// The payload does not serialize to JSON.
    CannotSerializePayload(serde_json::Error),
    /// The plugin cannot answer any more: it exited, closed its stdout or stdin, or broke
    /// the transport (a frame over the size limit, a frame that is not JSON). The text
    /// says which, with the exit status when known.
    UnreachableBridge(String),
    /// No answer within the timeout (real time; the plugin's clock is virtual).
    Timeout {
        /// The method that was not answered.
        command: String,
        /// How long was waited.
        after: Duration,
    },
}

impl PluginInvokeError {
    /// The rejection, if the plugin rejected the call.
    pub fn rejection(&self) -> Option<&ErrorResponse> {
        match self {
            PluginInvokeError::InvokeRejected(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for PluginInvokeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvokeRejected(e) => write!(f, "invoke rejected: {e}"),
            Self::CannotDeserializeResponse(e) => write!(f, "failed to deserialize response: {e}"),
            Self::CannotSerializePayload(e) => write!(f, "failed to serialize payload: {e}"),
            Self::UnreachableBridge(why) => write!(f, "the plugin is unreachable: {why}"),
            Self::Timeout { command, after } => write!(f, "no answer to {command} within {after:?}"),
        }
    }
}

impl std::error::Error for PluginInvokeError {}

/// The plugin could not be started (or did not answer `initialize`).
#[derive(Debug)]
pub enum SpawnError {
    /// No plugin binary was given and none was found (see `PluginHost::locate`).
    NotFound(String),
    /// The binary could not be executed.
    Io {
        /// The path that was tried.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// It started but `initialize` failed.
    Initialize {
        /// The path that was started.
        path: PathBuf,
        /// What went wrong.
        source: PluginInvokeError,
    },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound(why) => write!(f, "no plugin binary: {why}"),
            Self::Io { path, source } => write!(f, "cannot start the plugin {}: {source}", path.display()),
            Self::Initialize { path, source } => {
                write!(f, "the plugin {} did not answer initialize: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for SpawnError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_json_rpc_error_becomes_tauri_s_error_response() {
        let e = ErrorResponse::from_rpc(&json!({"code": -32000, "message": "stopped", "data": {"reason": "stopped"}}));
        assert_eq!(e.code.as_deref(), Some("-32000"));
        assert_eq!((e.rpc_code(), e.reason()), (Some(-32000), Some("stopped")));
        assert_eq!(e.to_string(), r#"[-32000] stopped {"reason":"stopped"}"#);
        let bare = ErrorResponse::from_rpc(&json!({}));
        assert_eq!((bare.code, bare.message, bare.data), (None, None, Value::Null));
    }

    #[test]
    fn errors_say_what_happened() {
        let t = PluginInvokeError::Timeout { command: "waitForCancel".into(), after: Duration::from_secs(2) };
        assert_eq!(t.to_string(), "no answer to waitForCancel within 2s");
        let u = PluginInvokeError::UnreachableBridge("it closed its stdout (exit status: 3)".into());
        assert!(u.to_string().starts_with("the plugin is unreachable: it closed"));
        assert!(u.rejection().is_none());
    }
}
