//! The shared state behind a `PluginHandle`: the queue to the writer thread (the plugin's
//! stdin), the calls waiting for an answer, and the reader thread that routes what the
//! plugin writes. No caller ever blocks on a pipe: frames go through a bounded queue, and
//! every wait for an answer has a timeout.
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{Direction, Event};

/// How a call ended, as the reader thread saw it.
pub(crate) enum Outcome {
    Result(Value),
    Error(Value),
    Closed(String),
}

/// A callback on every event.
pub(crate) type EventFn = Box<dyn Fn(&Event) + Send + Sync>;
/// A callback on every frame written or read.
pub(crate) type FrameFn = Box<dyn Fn(Direction, &str) + Send + Sync>;

#[derive(Default)]
pub(crate) struct Calls {
    pub(crate) next_id: u64,
    pub(crate) waiting: HashMap<u64, SyncSender<Outcome>>,
    /// Ids given up on (timed out): a late answer to one is not a protocol error.
    pub(crate) abandoned: HashSet<u64>,
    /// Set once the plugin can no longer answer: why.
    pub(crate) closed: Option<String>,
    /// Protocol errors seen (the first 16 kept; `protocol_error_count` counts all).
    pub(crate) protocol_errors: Vec<String>,
    pub(crate) protocol_error_count: u64,
}

pub(crate) struct Bridge {
    /// Frames for the writer thread; `None` once the host closed the plugin's stdin.
    pub(crate) writer: Mutex<Option<SyncSender<String>>>,
    pub(crate) child: Mutex<Child>,
    pub(crate) calls: Mutex<Calls>,
    pub(crate) on_event: Option<EventFn>,
    pub(crate) on_frame: Option<FrameFn>,
    pub(crate) call_timeout: Duration,
    pub(crate) max_frame_bytes: usize,
}

impl Bridge {
    /// Most frames queued for the writer thread: a plugin that stops reading its stdin
    /// fails the next call instead of blocking it.
    pub(crate) const WRITE_QUEUE: usize = 1024;

    /// Queues one frame (a compact JSON text; the writer thread adds `\n`); the frame
    /// callback sees it first, under the same lock, so its order is the wire's.
    pub(crate) fn write_frame(&self, text: &str) -> Result<(), String> {
        let writer = self.writer.lock().unwrap();
        let Some(queue) = writer.as_ref() else { return Err("its stdin was closed".into()) };
        if let Some(f) = &self.on_frame {
            f(Direction::ToPlugin, text);
        }
        match queue.try_send(text.to_string()) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => {
                Err(format!("it is not reading its stdin ({} frames waiting to be written)", Self::WRITE_QUEUE))
            }
            Err(TrySendError::Disconnected(_)) => Err(format!("writing to its stdin failed{}", self.exit_note())),
        }
    }

    /// The writer thread: writes queued frames until the queue is dropped or a write fails.
    pub(crate) fn write_loop(self: Arc<Self>, mut stdin: ChildStdin, frames: Receiver<String>) {
        for frame in frames {
            let written =
                stdin.write_all(frame.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush());
            if let Err(e) = written {
                return self.close(format!("writing to its stdin failed ({e}){}", self.exit_note()));
            }
        }
    }

    /// `" (exit status N)"` when the plugin has exited (waiting up to 200 ms for it).
    pub(crate) fn exit_note(&self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            if let Ok(Some(status)) = self.child.lock().unwrap().try_wait() {
                return format!(" (exit status {status})");
            }
            if Instant::now() >= deadline {
                return String::new();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn protocol_error(&self, text: String) {
        let mut calls = self.calls.lock().unwrap();
        calls.protocol_error_count += 1;
        if calls.protocol_errors.len() < 16 {
            calls.protocol_errors.push(text);
        }
    }

    /// Marks the bridge closed and fails every waiting call with `why`.
    pub(crate) fn close(&self, why: String) {
        let mut calls = self.calls.lock().unwrap();
        if calls.closed.is_none() {
            calls.closed = Some(why.clone());
        }
        for (_, tx) in calls.waiting.drain() {
            let _ = tx.try_send(Outcome::Closed(why.clone()));
        }
    }

    /// The reader thread: one frame at a time, never more than `max_frame_bytes` held.
    pub(crate) fn read_loop(self: Arc<Self>, stdout: ChildStdout) {
        let mut reader = BufReader::new(stdout);
        let mut frame = Vec::new();
        loop {
            frame.clear();
            let limit = self.max_frame_bytes as u64 + 1;
            match (&mut reader).take(limit).read_until(b'\n', &mut frame) {
                Ok(0) => return self.close(format!("it closed its stdout{}", self.exit_note())),
                Err(e) => return self.close(format!("reading its stdout failed ({e})")),
                Ok(_) => {}
            }
            if frame.last() != Some(&b'\n') && frame.len() as u64 >= limit {
                let why = format!("it wrote a frame longer than {} bytes (flooding)", self.max_frame_bytes);
                return self.close(why);
            }
            let text = String::from_utf8_lossy(&frame);
            let text = text.trim_end_matches(['\n', '\r']);
            if text.trim().is_empty() {
                continue;
            }
            if let Some(f) = &self.on_frame {
                f(Direction::FromPlugin, text);
            }
            match serde_json::from_str::<Value>(text) {
                Ok(Value::Array(items)) => items.into_iter().for_each(|m| self.route(m)),
                Ok(message) => self.route(message),
                Err(e) => return self.close(format!("it wrote a frame that is not JSON ({e}): {text:.200}")),
            }
        }
    }

    /// Routes one message: an event to the callback, a response to its waiting call.
    fn route(&self, message: Value) {
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            if let Some(f) = &self.on_event {
                f(&Event { method: method.to_string(), params });
            }
            return;
        }
        let Some(id) = message.get("id").and_then(Value::as_u64) else {
            return self.protocol_error(format!("a response to no id this host sent: {message}"));
        };
        let outcome = match (message.get("result"), message.get("error")) {
            (Some(r), None) => Outcome::Result(r.clone()),
            (None, Some(e)) => Outcome::Error(e.clone()),
            _ => return self.protocol_error(format!("a response without exactly one of result/error: {message}")),
        };
        let mut calls = self.calls.lock().unwrap();
        if let Some(tx) = calls.waiting.remove(&id) {
            let _ = tx.try_send(outcome);
        } else if !calls.abandoned.remove(&id) {
            drop(calls);
            self.protocol_error(format!("an answer to id {id}, which is not waiting (answered twice?)"));
        }
    }
}
