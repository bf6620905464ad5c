//! The emulated OS's controls (`os/...`) and the plugin's state, as typed helpers on
//! `PluginHandle` (docs/protocol.md section 4 "The emulated OS" and "Session").
use serde_json::{json, Value};

use crate::error::PluginInvokeError;
use crate::PluginHandle;

impl PluginHandle {
    /// `os/advanceTime`: moves the plugin's virtual clock by `seconds` (firing its due
    /// timers and, with `autoLaunch` on, launches); returns the plugin's time after.
    /// Whole seconds are written as integers (`{"seconds":5}`), as the Swift host writes
    /// them; the plugin reads either.
    pub fn advance_time(&self, seconds: f64) -> Result<f64, PluginInvokeError> {
        let whole = seconds.fract() == 0.0 && seconds.abs() < 9.0e15;
        let seconds = if whole { json!(seconds as i64) } else { json!(seconds) };
        let answer = self.request("os/advanceTime", json!({ "seconds": seconds }))?;
        Ok(answer.get("now").and_then(Value::as_f64).unwrap_or(f64::NAN))
    }

    /// `os/launch`: launches the pending request `identifier` (as the debugger's
    /// simulate-launch); returns `{identifier, kind, at}`.
    pub fn launch(&self, identifier: &str) -> Result<Value, PluginInvokeError> {
        self.request("os/launch", json!({ "identifier": identifier }))
    }

    /// `os/expire`: runs the running task's expiration handler.
    pub fn expire(&self, identifier: &str) -> Result<Value, PluginInvokeError> {
        self.request("os/expire", json!({ "identifier": identifier }))
    }

    /// `os/setConditions`: any of `backgroundRefreshStatus`, `externalPower`,
    /// `networkConnected`, `autoLaunch`; returns the full conditions.
    pub fn set_conditions(&self, conditions: Value) -> Result<Value, PluginInvokeError> {
        self.request("os/setConditions", conditions)
    }

    /// `os/pendingTaskRequests`: the submitted requests, sorted by identifier.
    pub fn pending_task_requests(&self) -> Result<Value, PluginInvokeError> {
        self.request("os/pendingTaskRequests", Value::Null)
    }

    /// `plugin/state`: a snapshot of the plugin and its emulated OS.
    pub fn plugin_state(&self) -> Result<Value, PluginInvokeError> {
        self.request("plugin/state", Value::Null)
    }

    /// `plugin/reset`: the plugin and its OS back to their fresh state (clock at 0).
    pub fn reset(&self) -> Result<Value, PluginInvokeError> {
        self.request("plugin/reset", Value::Null)
    }

    /// When the plugin next acts on its own, read from `plugin/state`: under `--os ios`
    /// its `ios.nextEventAt`; otherwise the safety timer's deadline and, with
    /// `autoLaunch` on and no task running, the first eligible request's begin date.
    pub fn next_plugin_due(&self) -> Result<Option<f64>, PluginInvokeError> {
        Ok(next_due_from_state(&self.plugin_state()?))
    }
}

/// `next_plugin_due`'s rule applied to a `plugin/state` answer.
pub fn next_due_from_state(state: &Value) -> Option<f64> {
    if let Some(ios) = state.get("ios").filter(|v| v.is_object()) {
        return ios.get("nextEventAt").and_then(Value::as_f64);
    }
    let now = state.get("now").and_then(Value::as_f64).unwrap_or(0.0);
    let mut due = state.pointer("/safetyTimer/deadline").and_then(Value::as_f64);
    let auto = state.pointer("/conditions/autoLaunch") == Some(&Value::Bool(true));
    let running = state.get("activeTask").is_some_and(|t| !t.is_null());
    if auto && !running {
        let cond = |name: &str| state.pointer(&format!("/conditions/{name}")) == Some(&Value::Bool(true));
        for r in state.get("pendingRequests").and_then(Value::as_array).into_iter().flatten() {
            let flag = |name: &str| r.get(name) == Some(&Value::Bool(true));
            if r.get("kind").and_then(Value::as_str) == Some("processing")
                && ((flag("requiresExternalPower") && !cond("externalPower"))
                    || (flag("requiresNetworkConnectivity") && !cond("networkConnected")))
            {
                continue;
            }
            let at = r.get("earliestBeginDate").and_then(Value::as_f64).unwrap_or(now).max(now);
            due = Some(due.map_or(at, |d| d.min(at)));
        }
    }
    due
}

#[cfg(test)]
mod tests {
    use super::next_due_from_state;
    use serde_json::json;

    fn state(auto: bool, active: bool, timer: Option<f64>) -> serde_json::Value {
        json!({
            "now": 100.0,
            "activeTask": if active { json!({"identifier": "r", "kind": "refresh", "launchedAt": 90}) } else { json!(null) },
            "safetyTimer": timer.map(|d| json!({"deadline": d})),
            "conditions": {"autoLaunch": auto, "externalPower": false, "networkConnected": true},
            "pendingRequests": [
                {"identifier": "p", "kind": "processing", "earliestBeginDate": 150, "requiresExternalPower": true,
                 "requiresNetworkConnectivity": false},
                {"identifier": "r", "kind": "refresh", "earliestBeginDate": 900, "requiresExternalPower": false,
                 "requiresNetworkConnectivity": false}
            ]
        })
    }

    #[test]
    fn the_safety_timer_is_due_and_requests_only_with_auto_launch() {
        assert_eq!(next_due_from_state(&state(false, true, Some(128.0))), Some(128.0));
        assert_eq!(next_due_from_state(&state(false, false, None)), None);
        // the processing request needs external power, which is off: the refresh one is next
        assert_eq!(next_due_from_state(&state(true, false, None)), Some(900.0));
        assert_eq!(next_due_from_state(&state(true, true, None)), None, "nothing launches while a task runs");
        assert_eq!(next_due_from_state(&state(true, false, Some(128.0))), Some(128.0));
    }

    #[test]
    fn under_os_ios_the_plugin_says_when() {
        let s = json!({"now": 0, "ios": {"nextEventAt": 2527.355}, "safetyTimer": {"deadline": 1}});
        assert_eq!(next_due_from_state(&s), Some(2527.355));
    }
}
