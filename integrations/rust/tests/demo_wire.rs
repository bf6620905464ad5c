//! The example's day (`examples/demo_day.rs`) against the Swift demo: the same wire
//! items, in the same order. Needs `plugin-host` beside the plugin binary (both built by
//! `swift build --product background-service-plugin --product plugin-host`), or
//! `PLUGIN_HOST` set to it.
#[allow(dead_code)]
#[path = "../examples/demo_day.rs"]
mod demo_day;

use std::path::PathBuf;
use std::process::Command;

use background_service_plugin_host::{wirelog, PluginHost};

fn plugin_host(plugin: &std::path::Path) -> PathBuf {
    std::env::var_os("PLUGIN_HOST").map(PathBuf::from).unwrap_or_else(|| plugin.with_file_name("plugin-host"))
}

#[test]
fn the_example_s_wire_traffic_equals_the_swift_demo_s() {
    let plugin = PluginHost::locate().expect("the plugin binary");
    let host = plugin_host(&plugin);
    let out = Command::new(&host).args(["demo", "--full", "--plugin"]).arg(&plugin).output().unwrap_or_else(|e| {
        panic!("cannot run {} ({e}): build it with swift build --product plugin-host", host.display())
    });
    assert!(out.status.success(), "plugin-host demo failed: {}", String::from_utf8_lossy(&out.stderr));
    let swift = wirelog::normalize(&String::from_utf8_lossy(&out.stdout));
    let (lines, counters) = demo_day::play(plugin.to_str()).expect("the example's day");
    let rust = wirelog::normalize(&lines.join("\n"));
    assert!(swift.len() >= 90, "the Swift demo's --full output gave only {} wire items", swift.len());
    if let Some(diff) = wirelog::first_difference(&swift, &rust) {
        panic!("the example's wire traffic differs from the Swift demo's\n{diff}");
    }
    assert_eq!(
        counters,
        serde_json::json!({"completed": 3, "dropped": 0, "expired": 1, "launched": 3, "violations": 0})
    );
}
