//! Helpers shared by the binary's end-to-end tests: run the binary, read
//! match records back, find Python (and pyrimaa), talk AEI to the engine.

#![allow(dead_code)] // each test file uses its own subset

pub mod aei;

use arimaa_match::record::{read_records, RecordedGame};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The engine binary under test (also the match runner).
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_arimaa")
}

/// The deliberately broken engine script.
pub fn broken_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/arimaa-match/tests/broken_engine.py")
}

/// The repository's root folder.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python the tests run: `ARIMAA_PYTHON` if set, else `python3` on PATH.
/// The broken engine needs only its standard library.
pub fn python() -> String {
    std::env::var("ARIMAA_PYTHON").unwrap_or_else(|_| "python3".into())
}

const INSTALL_PYRIMAA: &str = "this test needs Python 3 with pyrimaa (PyPI package `aei`): \
    python3 -m venv .venv && .venv/bin/pip install aei, then run the tests with \
    ARIMAA_PYTHON=$PWD/.venv/bin/python (or `pip install aei` for the python3 on PATH)";

/// [`python`], checked to import pyrimaa. Without it the test fails and says
/// how to install it: a test that needs the oracle must not pass without it.
pub fn pyrimaa_python() -> String {
    let python = python();
    let probe = Command::new(&python)
        .args(["-c", "import pyrimaa.board, pyrimaa.aei, pyrimaa.simple_engine"])
        .output();
    match probe {
        Ok(out) if out.status.success() => python,
        Ok(out) => panic!(
            "{python} cannot import pyrimaa ({}); {INSTALL_PYRIMAA}",
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => panic!("cannot run {python} ({e}); {INSTALL_PYRIMAA}"),
    }
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arimaa-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `arimaa match` with these arguments.
pub fn run_match(args: &[&str]) -> Output {
    Command::new(bin())
        .arg("match")
        .args(args)
        .output()
        .expect("run arimaa match")
}

/// Asserts success and returns stdout.
pub fn ok_stdout(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    stdout
}

/// Reads a record file back through the rules core.
pub fn records(path: &Path) -> Vec<RecordedGame> {
    let text = std::fs::read_to_string(path).expect("record file");
    read_records(&text).unwrap_or_else(|e| panic!("record file does not read back: {e}\n{text}"))
}

/// The standard setups as a one-line setup file.
pub const OPENING: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2 \
                           1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7\n\
                           1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Hh2 \
                           1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7\n";

const INSTALL_RAY: &str = "pip install ray (e.g. into the venv of ARIMAA_PYTHON: \
    .venv/bin/pip install aei ray)";

/// [`python`] if it can import ray. Without ray the Ray tests are skipped
/// with a message saying so, unless `ARIMAA_REQUIRE_RAY` is set (CI sets
/// it): then a missing ray fails them.
pub fn ray_python(test: &str) -> Option<String> {
    let python = python();
    let probe = Command::new(&python).args(["-c", "import ray"]).output();
    let why = match probe {
        Ok(out) if out.status.success() => return Some(python),
        Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
        Err(e) => e.to_string(),
    };
    let message = format!("{python} cannot import ray ({why}); {INSTALL_RAY}");
    assert!(
        std::env::var_os("ARIMAA_REQUIRE_RAY").is_none(),
        "ARIMAA_REQUIRE_RAY is set but {message}"
    );
    eprintln!("SKIPPED {test}: {message}");
    None
}
