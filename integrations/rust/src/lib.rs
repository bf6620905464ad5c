//! Drive `background-service-plugin` (the emulated iOS half of a Tauri background-service
//! plugin, built by the Swift package at the repository's root) from Rust, the way
//! Tauri drives a mobile plugin.
//!
//! - [`PluginHost`] spawns the plugin (JSON-RPC 2.0, one JSON text per line, on its
//!   stdin/stdout), sends `initialize` with events on, and kills and reaps it on drop.
//! - [`PluginHandle::run_mobile_plugin`] is shaped like Tauri's
//!   `PluginHandle::run_mobile_plugin::<T>(command, payload) -> Result<T, PluginInvokeError>`:
//!   it blocks until the plugin resolves or rejects the call.
//! - Events (JSON-RPC notifications: `os/taskLaunched`, `plugin/safetyTimer`, ...) go to
//!   the callback given to [`PluginHostBuilder::on_event`].
//! - Virtual time: [`PluginHandle::advance_time`] and the other `os/` controls;
//!   [`clock::advance_lockstep`] steps the plugin and the host's clock together, and
//!   with the `tokio` feature `clock::advance_tokio_lockstep` moves tokio's paused clock.
//! - [`wirelog`]: a wire log in the Swift host's timeline format, and the normalized
//!   form in which two hosts' traffic is compared (`examples/demo_day.rs`).
//! - Every wait is bounded: calls time out ([`PluginHostBuilder::call_timeout`]), frames
//!   are capped ([`PluginHostBuilder::max_frame_bytes`]), writes go through a bounded
//!   queue to a writer thread (a plugin that stops reading fails the next call), and a
//!   plugin that dies fails every pending call with [`PluginInvokeError::UnreachableBridge`].
mod bridge;
pub mod clock;
mod error;
mod handle;
mod host;
pub mod os;
pub mod wirelog;

pub use error::{ErrorResponse, PluginInvokeError, SpawnError};
pub use handle::{PendingCall, PluginHandle};
pub use host::{PluginHost, PluginHostBuilder, PLUGIN_BINARY};

/// An event the plugin sent (a JSON-RPC notification).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its method, for example `os/taskLaunched`.
    pub method: String,
    /// Its params (an object).
    pub params: serde_json::Value,
}

/// Which way a frame went (`PluginHostBuilder::on_frame`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Written by this host to the plugin's stdin.
    ToPlugin,
    /// Read from the plugin's stdout.
    FromPlugin,
}
