//! The Python unit tests kept beside the code they test (`test_*.py`), run
//! with `python -m unittest`. They need only the standard library, so they
//! take `common::python()` and never provision anything.

mod common;

use common::{python, repo};
use std::process::Command;

/// Runs the `test_*.py` files under `dir` (relative to the repository).
fn unittest(dir: &str) {
    let out = Command::new(python())
        .args(["-m", "unittest", "discover", "-s"])
        .arg(repo().join(dir))
        .output()
        .unwrap_or_else(|e| panic!("run {} -m unittest: {e}", python()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{dir}:\n{stderr}");
    // A discovery that finds nothing also succeeds.
    assert!(!stderr.contains("Ran 0 tests"), "{dir}: no tests found\n{stderr}");
}

#[cfg(unix)]
#[test]
fn the_oracle_tools_engine_ends_a_wrapped_engine_whole() {
    unittest("tools/oracle");
}

#[test]
fn the_ray_workers_binary_cache_is_pruned() {
    unittest("cluster/tests");
}
