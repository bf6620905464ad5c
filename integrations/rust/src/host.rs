//! `PluginHost`: starts the plugin process, owns it, and kills it when dropped.
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::bridge::{Bridge, Calls, EventFn, FrameFn};
use crate::error::{PluginInvokeError, SpawnError};
use crate::{Direction, Event, PluginHandle};

/// The plugin binary's file name.
pub const PLUGIN_BINARY: &str = "background-service-plugin";

/// A running `background-service-plugin` process. Dropping it kills the process and
/// reaps it (no zombie), whatever state it is in; `shutdown` ends it gracefully.
pub struct PluginHost {
    handle: PluginHandle,
    path: PathBuf,
    pid: u32,
    initialize: Option<Value>,
}

/// Options for starting the plugin (`PluginHost::builder`).
pub struct PluginHostBuilder {
    path: Option<PathBuf>,
    args: Vec<OsString>,
    initialize: bool,
    call_timeout: Duration,
    max_frame_bytes: usize,
    stderr: Option<Stdio>,
    on_event: Option<EventFn>,
    on_frame: Option<FrameFn>,
}

impl PluginHost {
    /// Options, starting from the defaults: the plugin found by `locate`, no extra
    /// arguments, `initialize` with events on, a 10 s call timeout, 1 MiB frames, the
    /// plugin's stderr inherited.
    pub fn builder() -> PluginHostBuilder {
        PluginHostBuilder {
            path: None,
            args: Vec::new(),
            initialize: true,
            call_timeout: Duration::from_secs(10),
            max_frame_bytes: 1 << 20,
            stderr: None,
            on_event: None,
            on_frame: None,
        }
    }

    /// Starts the plugin at `path` with the defaults.
    pub fn spawn(path: impl AsRef<Path>) -> Result<PluginHost, SpawnError> {
        Self::builder().plugin(path.as_ref()).spawn()
    }

    /// Finds the plugin binary: `$BACKGROUND_SERVICE_PLUGIN` if set, else
    /// `.build/debug/background-service-plugin` (then `.build/release/...`) in the
    /// current directory or any directory above it (the Swift package's build).
    pub fn locate() -> Result<PathBuf, SpawnError> {
        if let Some(p) = std::env::var_os("BACKGROUND_SERVICE_PLUGIN") {
            return Ok(PathBuf::from(p));
        }
        let start = std::env::current_dir().map_err(|e| SpawnError::NotFound(e.to_string()))?;
        for dir in start.ancestors() {
            for build in ["debug", "release"] {
                let candidate = dir.join(".build").join(build).join(PLUGIN_BINARY);
                if candidate.is_file() {
                    return Ok(candidate);
                }
            }
        }
        let why = format!(
            "set BACKGROUND_SERVICE_PLUGIN, or build it (swift build --product {PLUGIN_BINARY}) in {} or a directory above",
            start.display()
        );
        Err(SpawnError::NotFound(why))
    }

    /// A handle for calls; clone it freely and move it to other threads.
    pub fn handle(&self) -> PluginHandle {
        self.handle.clone()
    }

    /// The binary that was started.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The plugin's process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The result of `initialize` (server info, task identifiers, clock, profile), when
    /// it was sent.
    pub fn initialize_result(&self) -> Option<&Value> {
        self.initialize.as_ref()
    }

    /// Ends the session as the protocol says: `shutdown` (the plugin rejects a pending
    /// `waitForCancel` with reason `shutdown`, answers, and exits 0), then waits up to the
    /// call timeout for the process to exit. Returns its exit status.
    pub fn shutdown(self) -> Result<ExitStatus, PluginInvokeError> {
        self.handle.request("shutdown", Value::Null)?;
        let bridge = &self.handle.bridge;
        let deadline = Instant::now() + bridge.call_timeout;
        loop {
            if let Ok(Some(status)) = bridge.child.lock().unwrap().try_wait() {
                return Ok(status);
            }
            if Instant::now() >= deadline {
                let after = bridge.call_timeout;
                return Err(PluginInvokeError::Timeout { command: "shutdown (the exit)".into(), after });
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for PluginHost {
    fn drop(&mut self) {
        let bridge = &self.handle.bridge;
        bridge.writer.lock().unwrap().take(); // the writer thread ends, closing the plugin's stdin
        let mut child = bridge.child.lock().unwrap();
        if !matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
            let _ = child.wait();
        }
        drop(child);
        bridge.close("the host was dropped (the plugin was killed)".into());
    }
}

impl PluginHostBuilder {
    /// The plugin binary (default: `PluginHost::locate`).
    pub fn plugin(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Adds command-line arguments (`--os ios`, `--profile strict`, ...).
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Whether to send `initialize` with events on at start (default true). Without it,
    /// pass `--events` in `args` to get events.
    pub fn initialize(mut self, yes: bool) -> Self {
        self.initialize = yes;
        self
    }

    /// How long (real time) every call waits for its answer (default 10 s).
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The longest frame accepted from the plugin (default 1 MiB); a longer one closes
    /// the bridge (`UnreachableBridge`).
    pub fn max_frame_bytes(mut self, bytes: usize) -> Self {
        self.max_frame_bytes = bytes;
        self
    }

    /// Where the plugin's stderr goes (default: inherited).
    pub fn stderr(mut self, stderr: impl Into<Stdio>) -> Self {
        self.stderr = Some(stderr.into());
        self
    }

    /// Called on the reader thread for every event (a JSON-RPC notification). It must
    /// not make a blocking call to the plugin (the answer would wait behind it): send
    /// the event to a channel instead.
    pub fn on_event(mut self, f: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.on_event = Some(Box::new(f));
        self
    }

    /// Called for every frame written (in write order) and read (in read order).
    pub fn on_frame(mut self, f: impl Fn(Direction, &str) + Send + Sync + 'static) -> Self {
        self.on_frame = Some(Box::new(f));
        self
    }

    /// Starts the plugin (and sends `initialize` unless turned off).
    pub fn spawn(self) -> Result<PluginHost, SpawnError> {
        let path = match self.path {
            Some(p) => p,
            None => PluginHost::locate()?,
        };
        let mut command = Command::new(&path);
        command.args(&self.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(self.stderr.unwrap_or_else(Stdio::inherit));
        let mut child = command.spawn().map_err(|source| SpawnError::Io { path: path.clone(), source })?;
        let pid = child.id();
        let (stdin, stdout) = (child.stdin.take().expect("piped stdin"), child.stdout.take().expect("piped stdout"));
        let (queue, frames) = sync_channel(Bridge::WRITE_QUEUE);
        let bridge = Arc::new(Bridge {
            writer: Mutex::new(Some(queue)),
            child: Mutex::new(child),
            calls: Mutex::new(Calls::default()),
            on_event: self.on_event,
            on_frame: self.on_frame,
            call_timeout: self.call_timeout,
            max_frame_bytes: self.max_frame_bytes,
        });
        let (reader, writer) = (bridge.clone(), bridge.clone());
        let mut host = PluginHost { handle: PluginHandle { bridge }, path, pid, initialize: None };
        let threads = std::thread::Builder::new()
            .name("plugin-reader".into())
            .spawn(move || reader.read_loop(stdout))
            .and_then(|_| {
                std::thread::Builder::new().name("plugin-writer".into()).spawn(move || writer.write_loop(stdin, frames))
            });
        threads.map_err(|source| SpawnError::Io { path: host.path.clone(), source })?;
        if self.initialize {
            let params = json!({"capabilities": {"events": true}});
            match host.handle.request("initialize", params) {
                Ok(result) => host.initialize = Some(result),
                Err(source) => return Err(SpawnError::Initialize { path: host.path.clone(), source }),
            }
        }
        Ok(host)
    }
}
