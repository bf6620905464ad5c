//! A wire log in the Swift host's timeline format (`plugin-host demo --full`), and the
//! normalized form in which two hosts' traffic is compared.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::Direction;

/// Methods a timeline meant for people leaves out (the Swift host hides its probes):
/// the session's handshake and `plugin/state`.
pub const HIDDEN_METHODS: [&str; 3] = ["initialize", "shutdown", "plugin/state"];

/// Records every frame (through `PluginHostBuilder::on_frame(log.tap())`) as a timeline
/// line `  HH:MM:SS.mmm  WHO             WHAT`, WHO being `rust → plugin` (an invoke),
/// `os → plugin` (an `os/` control), `plugin → rust`, `plugin → os` or `plugin event`.
/// It keeps every line: use it for a run you mean to look at, not a soak.
#[derive(Clone, Default)]
pub struct WireLog {
    inner: Arc<Mutex<LogState>>,
}

#[derive(Default)]
struct LogState {
    lines: Vec<String>,
    methods: HashMap<u64, String>,
    now: f64,
}

fn origin(method: &str) -> &'static str {
    if method.starts_with("os/") {
        "os"
    } else {
        "rust"
    }
}

impl WireLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// The callback to give `PluginHostBuilder::on_frame`.
    pub fn tap(&self) -> impl Fn(Direction, &str) + Send + Sync + 'static {
        let log = self.clone();
        move |direction, text| log.record(direction, text)
    }

    /// Adds a note (WHO `--`), ignored by `normalize`.
    pub fn note(&self, text: &str) {
        let mut st = self.inner.lock().unwrap();
        let line = format_line(st.now, "--", text);
        st.lines.push(line);
    }

    /// The lines so far.
    pub fn lines(&self) -> Vec<String> {
        self.inner.lock().unwrap().lines.clone()
    }

    fn record(&self, direction: Direction, text: &str) {
        let Ok(value) = serde_json::from_str::<Value>(text) else { return };
        let mut st = self.inner.lock().unwrap();
        let messages = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        for m in messages {
            let method = m.get("method").and_then(Value::as_str).map(String::from);
            let id = m.get("id").and_then(Value::as_u64);
            let (who, what) = match (direction, method, id) {
                (Direction::ToPlugin, Some(method), Some(id)) => {
                    st.methods.insert(id, method.clone());
                    if HIDDEN_METHODS.contains(&method.as_str()) {
                        continue;
                    }
                    let params = m.get("params").map(|p| format!(" {p}")).unwrap_or_default();
                    (format!("{} → plugin", origin(&method)), format!("#{id} {method}{params}"))
                }
                (Direction::FromPlugin, Some(method), _) => {
                    let params = m.get("params").cloned().unwrap_or(Value::Null);
                    if let Some(at) = params.get("at").and_then(Value::as_f64) {
                        st.now = at;
                    }
                    ("plugin event".to_string(), format!("{method} {params}"))
                }
                (Direction::FromPlugin, None, Some(id)) => {
                    let method = st.methods.get(&id).cloned().unwrap_or_default();
                    if HIDDEN_METHODS.contains(&method.as_str()) {
                        continue;
                    }
                    if let Some(now) = m.pointer("/result/now").and_then(Value::as_f64) {
                        st.now = now;
                    }
                    (format!("plugin → {}", origin(&method)), format!("#{id} {}", answer(&m)))
                }
                _ => continue,
            };
            let line = format_line(st.now, &who, &what);
            st.lines.push(line);
        }
    }
}

/// `ok RESULT`, `rejected (REASON)` or `error CODE MESSAGE`, as the Swift timeline says.
fn answer(m: &Value) -> String {
    if let Some(result) = m.get("result") {
        return format!("ok {result}");
    }
    let e = m.get("error").cloned().unwrap_or(Value::Null);
    match e.pointer("/data/reason").and_then(Value::as_str) {
        Some(reason) if e.get("code").and_then(Value::as_i64) == Some(-32000) => format!("rejected ({reason})"),
        _ => format!(
            "error {} {}",
            e.get("code").unwrap_or(&Value::Null),
            e.get("message").and_then(Value::as_str).unwrap_or("")
        ),
    }
}

fn format_line(now: f64, who: &str, what: &str) -> String {
    let ms = (now * 1000.0).round() as u64;
    let clock = format!("{:02}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("  {clock}  {who:<16}{what}")
}

/// Reduces a timeline (the Swift demo's `--full` output, or a `WireLog`'s lines) to the
/// sequence of wire items, in order, without times, ids or notes:
/// `rust→plugin METHOD PARAMS`, `plugin→rust METHOD#k ANSWER` (k: the k-th request of
/// that method), `os→plugin ...`, `plugin→os ...` and `event METHOD PARAMS`. JSON is
/// re-written with sorted keys; numbers stay as written (`15.0` is not `15`).
pub fn normalize(timeline: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut methods: HashMap<String, (String, u32)> = HashMap::new();
    let mut counts: HashMap<String, u32> = HashMap::new();
    for line in timeline.lines() {
        let t = line.trim_start();
        let Some((clock, rest)) = t.split_once("  ") else { continue };
        if clock.len() != 12 || clock.as_bytes()[2] != b':' {
            continue;
        }
        let rest = rest.trim_start();
        let Some(arrow) = ["plugin event", "plugin → ", " → plugin"].iter().find(|a| rest.contains(*a)) else {
            continue;
        };
        let (who, what) = match *arrow {
            "plugin event" => ("event".to_string(), rest["plugin event".len()..].trim()),
            _ => {
                let Some((who, what)) = rest.split_once("  ") else { continue };
                (who.replace(" → ", "→"), what.trim())
            }
        };
        let what = what.trim_end_matches(" (batch)");
        if who == "event" {
            let (method, params) = what.split_once(' ').unwrap_or((what, ""));
            items.push(format!("event {method} {}", canonical(params)));
        } else if who.ends_with("→plugin") {
            let Some((id, call)) = what.split_once(' ') else { continue };
            let (method, params) = call.split_once(' ').unwrap_or((call, ""));
            let k = counts.entry(method.to_string()).or_default();
            *k += 1;
            methods.insert(id.to_string(), (method.to_string(), *k));
            items.push(format!("{who} {method} {}", canonical(params)).trim_end().to_string());
        } else {
            let (id, outcome) = what.split_once(' ').unwrap_or((what, ""));
            let (method, k) = methods.get(id).cloned().unwrap_or_default();
            let outcome = match outcome.strip_prefix("ok ") {
                Some(v) => format!("ok {}", canonical(v)),
                None => outcome.to_string(),
            };
            items.push(format!("{who} {method}#{k} {outcome}"));
        }
    }
    items
}

fn canonical(json: &str) -> String {
    match serde_json::from_str::<Value>(json.trim()) {
        Ok(v) => v.to_string(),
        Err(_) => json.trim().to_string(),
    }
}

/// `None` when equal; else the first difference with a little context, for a report.
pub fn first_difference(expected: &[String], actual: &[String]) -> Option<String> {
    let at = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))?;
    let show = |xs: &[String], i: usize| xs.get(i).map(String::as_str).unwrap_or("(nothing)").to_string();
    let from = at.saturating_sub(2);
    let mut text =
        format!("the wire items differ at item {} ({} vs {} items):\n", at + 1, expected.len(), actual.len());
    for i in from..=at + 2 {
        text.push_str(&format!(
            "  {:>4} expected: {}\n  {:>4} actual:   {}\n",
            i + 1,
            show(expected, i),
            i + 1,
            show(actual, i)
        ));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWIFT: &str = r#"
  00:00:00.000  --              The app starts the sync service
  00:00:00.000  rust → plugin   #2 startKeepalive {"label":"x","iosSafetyTimeoutSecs":28.0}
  00:00:00.000  plugin event    os/requestSubmitted {"earliestBeginDate":900,"identifier":"r"}
  00:00:00.000  plugin → rust   #2 ok null
  00:00:00.000  rust → plugin   #3 waitForCancel
  00:00:00.000  os → plugin     #5 os/advanceTime {"seconds":5}
  00:00:05.000  plugin → os     #5 ok {"now":5}
  00:00:20.000  plugin → rust   #3 rejected (completed)
"#;

    #[test]
    fn normalize_drops_ids_times_and_notes_and_sorts_keys() {
        assert_eq!(
            normalize(SWIFT),
            vec![
                r#"rust→plugin startKeepalive {"iosSafetyTimeoutSecs":28.0,"label":"x"}"#,
                r#"event os/requestSubmitted {"earliestBeginDate":900,"identifier":"r"}"#,
                "plugin→rust startKeepalive#1 ok null",
                "rust→plugin waitForCancel",
                r#"os→plugin os/advanceTime {"seconds":5}"#,
                r#"plugin→os os/advanceTime#1 ok {"now":5}"#,
                "plugin→rust waitForCancel#1 rejected (completed)",
            ]
        );
    }

    #[test]
    fn a_wire_log_reads_back_as_the_same_items() {
        let log = WireLog::new();
        let tap = log.tap();
        tap(Direction::ToPlugin, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        tap(Direction::FromPlugin, r#"{"id":1,"jsonrpc":"2.0","result":{}}"#);
        tap(Direction::ToPlugin, r#"{"id":7,"jsonrpc":"2.0","method":"waitForCancel"}"#);
        tap(Direction::ToPlugin, r#"{"id":8,"jsonrpc":"2.0","method":"os/advanceTime","params":{"seconds":5}}"#);
        tap(Direction::FromPlugin, r#"{"id":8,"jsonrpc":"2.0","result":{"now":5}}"#);
        tap(Direction::FromPlugin, r#"{"error":{"code":-32000,"data":{"reason":"completed"},"message":"m"},"id":7}"#);
        log.note("a note");
        let items = normalize(&log.lines().join("\n"));
        assert_eq!(items[0], "rust→plugin waitForCancel");
        assert_eq!(items[2], r#"plugin→os os/advanceTime#1 ok {"now":5}"#);
        assert_eq!(items[3], "plugin→rust waitForCancel#1 rejected (completed)");
        assert_eq!(items.len(), 4, "initialize hidden, the note ignored: {items:?}");
        assert!(log.lines()[1].starts_with("  00:00:00.000  os → plugin     #8 os/advanceTime"), "{:?}", log.lines());
        assert!(first_difference(&items, &items).is_none());
        assert!(first_difference(&items, &items[..3]).unwrap().contains("item 4"));
    }
}
