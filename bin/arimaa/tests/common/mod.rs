//! Helpers shared by the binary's end-to-end tests: run the binary, read
//! match records back, find Python (and pyrimaa), talk AEI to the engine.

#![allow(dead_code)] // each test file uses its own subset

pub mod aei;

use arimaa_match::record::{read_records, RecordedGame};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

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

/// What a Python must import to serve as the oracle and the random mover.
const PYRIMAA_MODULES: &str = "import pyrimaa.board, pyrimaa.aei, pyrimaa.simple_engine";

/// A Python with pyrimaa (PyPI package `aei`), found or made once per test
/// process:
///
/// 1. `ARIMAA_PYTHON` if set; it must import pyrimaa, else the test fails
///    (an explicit choice is never overridden);
/// 2. else `python3` on PATH, if it imports pyrimaa;
/// 3. else the venv the tests provision under the target folder
///    ([`provisioned_venv`]): made with `python3 -m venv` and
///    `pip install aei` the first time, reused after. A system `pip install`
///    is never tried: PEP 668 refuses it on current Debian and Ubuntu.
///
/// Without any of them (no python3, no venv module, PyPI unreachable) the
/// test fails and names the cause: a test that needs the oracle must not
/// pass without it.
pub fn pyrimaa_python() -> String {
    static FOUND: OnceLock<Result<String, String>> = OnceLock::new();
    FOUND
        .get_or_init(find_pyrimaa)
        .clone()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn find_pyrimaa() -> Result<String, String> {
    if let Ok(python) = std::env::var("ARIMAA_PYTHON") {
        return imports_pyrimaa(&python).map(|()| python.clone()).map_err(|why| {
            format!(
                "ARIMAA_PYTHON={python} cannot import pyrimaa ({why}); install it there \
                 ({python} -m pip install aei), or unset ARIMAA_PYTHON and the tests \
                 provision it themselves"
            )
        });
    }
    if imports_pyrimaa("python3").is_ok() {
        return Ok("python3".into());
    }
    provision(&provisioned_venv())
}

/// Whether `python` runs and imports pyrimaa; the error says why not.
fn imports_pyrimaa(python: &str) -> Result<(), String> {
    match Command::new(python).args(["-c", PYRIMAA_MODULES]).output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(last_line(&out.stderr)),
        Err(e) => Err(format!("cannot run it: {e}")),
    }
}

/// The venv the tests provision pyrimaa into: `pyrimaa-venv` in the target
/// folder (`CARGO_TARGET_TMPDIR` is its `tmp`, so `CARGO_TARGET_DIR` is
/// followed), where `cargo clean` removes it.
pub fn provisioned_venv() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("pyrimaa-venv")
}

/// Makes the venv at `venv` with pyrimaa in it, unless an earlier run did,
/// and returns its Python. A lock file serialises test processes (and
/// threads) that get here at once: the first makes the venv, the others
/// wait and reuse it. The lock is the kernel's, so a killed run leaves none
/// behind; a venv without its `provisioned` mark (a run killed half-way) is
/// made again.
fn provision(venv: &Path) -> Result<String, String> {
    let python = venv.join(if cfg!(windows) {
        "Scripts/python.exe"
    } else {
        "bin/python"
    });
    let python_text = python.display().to_string();
    let mark = venv.join("provisioned");
    let fail = |why: String| {
        format!(
            "this test needs Python 3 with pyrimaa (PyPI package `aei`); python3 on PATH \
             lacks it and provisioning it into {} failed: {why}. Fix that, or set \
             ARIMAA_PYTHON to a Python with pyrimaa (python3 -m venv .venv && \
             .venv/bin/pip install aei; ARIMAA_PYTHON=$PWD/.venv/bin/python)",
            venv.display()
        )
    };
    let parent = venv.parent().unwrap_or(venv);
    std::fs::create_dir_all(parent).map_err(|e| fail(format!("cannot create {}: {e}", parent.display())))?;
    let lock_path = venv.with_extension("lock");
    let lock = File::create(&lock_path).map_err(|e| fail(format!("cannot create {}: {e}", lock_path.display())))?;
    lock.lock()
        .map_err(|e| fail(format!("cannot lock {}: {e}", lock_path.display())))?;
    if mark.exists() && imports_pyrimaa(&python_text).is_ok() {
        return Ok(python_text);
    }

    // Straight to stderr, past the test harness's capture: a first run that
    // pauses for pip must say why, even when the tests pass.
    let _ = writeln!(
        std::io::stderr(),
        "provisioning pyrimaa (pip install aei) into {}, once",
        venv.display()
    );
    match std::fs::remove_dir_all(venv) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(fail(format!("cannot remove the unfinished {}: {e}", venv.display())));
        }
        _ => {}
    }
    let made = Command::new("python3").arg("-m").arg("venv").arg(venv).output();
    match made {
        Err(e) => return Err(fail(format!("python3 is not on PATH ({e}); install Python 3"))),
        Ok(out) if !out.status.success() => {
            return Err(fail(format!(
                "`python3 -m venv` failed ({}; on Debian and Ubuntu: apt install python3-venv)",
                last_line(&out.stderr)
            )));
        }
        Ok(_) => {}
    }
    let pip = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "aei"])
        .output();
    match pip {
        Err(e) => return Err(fail(format!("cannot run {python_text}: {e}"))),
        Ok(out) if !out.status.success() => {
            return Err(fail(format!(
                "`pip install aei` failed, is PyPI reachable? ({})",
                last_line(&out.stderr)
            )));
        }
        Ok(_) => {}
    }
    imports_pyrimaa(&python_text).map_err(|why| fail(format!("pyrimaa installed but not importable: {why}")))?;
    std::fs::write(&mark, "pip install aei\n").map_err(|e| fail(format!("cannot write {}: {e}", mark.display())))?;
    Ok(python_text)
}

/// The last non-empty line of a tool's stderr: the error, without the
/// traceback or pip's progress above it.
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message")
        .trim()
        .to_string()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arimaa-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `arimaa` with these arguments.
pub fn arimaa(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("run arimaa")
}

/// A run's status, stdout and stderr, for an assertion's message.
pub fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
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

/// The committed sample of sharp's games (`tuning/tests/data`).
pub fn sample() -> PathBuf {
    repo().join("tuning/tests/data/strong_sample.jsonl")
}

/// `arimaa positions --games GAMES` written to `dir/all.jsonl`: every game
/// position of the games, as `arimaa label` and `arimaa learn` read them.
pub fn game_positions_file(dir: &Path, games: &Path) -> PathBuf {
    let all = dir.join("all.jsonl");
    let out = arimaa(&[
        "positions",
        "--games",
        games.to_str().unwrap(),
        "--out",
        all.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    all
}

/// A JSON-lines file's values, one a line.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}
