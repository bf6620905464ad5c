//! Moving the plugin's virtual clock in lockstep with the host's own time.
use serde_json::Value;

use crate::error::PluginInvokeError;
use crate::PluginHandle;

/// Most stops `advance_lockstep` makes at one instant before it gives up (a plugin
/// whose state says something is due but that does not act on it).
pub const MAX_STEPS_PER_INSTANT: u32 = 1000;

/// The plugin's clock now (`plugin/state`'s `now`).
pub fn plugin_now(plugin: &PluginHandle) -> Result<f64, PluginInvokeError> {
    Ok(plugin.plugin_state()?.get("now").and_then(Value::as_f64).unwrap_or(0.0))
}

/// Advances the plugin's clock by `seconds`, stopping at every instant something is due
/// on either side, so that each side acts at its exact time (as the Swift host's
/// simulation does): the plugin's own deadlines (`PluginHandle::next_plugin_due`) and
/// the host's (`host_due(now)`: the host's earliest deadline not yet acted on, on the
/// plugin's clock, or `None`; once `on_step` has acted on it, it must no longer be
/// returned). At each stop the plugin moves first (`os/advanceTime`),
/// then `on_step(now)` lets the host do what is due at `now` (move its own clock, wake
/// its sleepers, make its calls). Returns the plugin's time at the end.
pub fn advance_lockstep(
    plugin: &PluginHandle,
    seconds: f64,
    mut host_due: impl FnMut(f64) -> Option<f64>,
    mut on_step: impl FnMut(f64) -> Result<(), PluginInvokeError>,
) -> Result<f64, PluginInvokeError> {
    let mut now = plugin_now(plugin)?;
    let target = now + seconds;
    let mut instant = (now, 0u32);
    loop {
        let plugin_due = plugin.next_plugin_due()?;
        let due = [plugin_due, host_due(now)].into_iter().flatten().filter(|d| *d <= target).reduce(f64::min);
        let step_to = match due {
            Some(d) => d.max(now),
            None if now < target => target,
            None => return Ok(now),
        };
        instant = if instant.0 == step_to { (step_to, instant.1 + 1) } else { (step_to, 1) };
        if instant.1 > MAX_STEPS_PER_INSTANT {
            let why = format!("runaway: {MAX_STEPS_PER_INSTANT} steps at t={step_to} (something due never acted on)");
            return Err(PluginInvokeError::UnreachableBridge(why));
        }
        if step_to > now || plugin_due.is_some_and(|d| d <= step_to) {
            now = plugin.advance_time(step_to - now)?;
        }
        on_step(now)?;
    }
}

/// Advances the plugin's clock and tokio's paused clock together by `seconds`: the
/// plugin first (to its next deadline, or at most `max_step` ahead), then
/// `tokio::time::advance` by the same amount, then `settle_yields` yields so the tasks
/// woken at that instant run (and make their calls) before the next step. A tokio timer
/// between two stops fires at the later one: `max_step` bounds that error.
///
/// Call it from a runtime whose clock is paused (`#[tokio::test(start_paused = true)]`
/// or `tokio::time::pause()`); `tokio::time::advance` panics otherwise. The plugin calls
/// it makes block the calling thread briefly (they are answered at once).
#[cfg(feature = "tokio")]
pub async fn advance_tokio_lockstep(
    plugin: &PluginHandle,
    seconds: f64,
    max_step: std::time::Duration,
    settle_yields: u32,
) -> Result<f64, PluginInvokeError> {
    let mut now = plugin_now(plugin)?;
    let target = now + seconds;
    let max_step = max_step.as_secs_f64().max(1e-9);
    while now < target {
        let due = plugin.next_plugin_due()?.filter(|d| *d > now);
        let step_to =
            [Some(target), Some(now + max_step), due].into_iter().flatten().reduce(f64::min).unwrap_or(target);
        let after = plugin.advance_time(step_to - now)?;
        tokio::time::advance(std::time::Duration::from_secs_f64((after - now).max(0.0))).await;
        for _ in 0..settle_yields {
            tokio::task::yield_now().await;
        }
        now = after;
    }
    Ok(now)
}
