//! `arimaa bench` still gives the node count recorded in the repository
//! (`arimaa_search::bench::SIGNATURE`): a change of search behaviour is then
//! always a deliberate commit that updates it.

mod common;

use arimaa_search::bench::SIGNATURE;
use std::process::Command;

#[test]
fn bench_node_count_is_the_recorded_signature() {
    let out = Command::new(common::bin())
        .arg("bench")
        .output()
        .expect("run arimaa bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "arimaa bench failed: {stdout}");
    // The last line: "<N> nodes <M> nps".
    let last = stdout.lines().last().unwrap_or_default();
    let nodes: u64 = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in '{last}'"));
    assert!(
        nodes == SIGNATURE,
        "arimaa bench searched {nodes} nodes, the recorded signature is {SIGNATURE}. If the search \
         or evaluation changed on purpose, set SIGNATURE = {nodes} in crates/arimaa-search/src/bench.rs \
         in that commit and write `Bench: {nodes}` in its message."
    );
}
