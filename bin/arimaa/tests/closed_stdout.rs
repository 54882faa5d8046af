//! A reader that stops early (`arimaa perft --file F | head -1`) ends the
//! subcommand with exit code 1 and no panic message.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

#[test]
fn perft_stops_quietly_when_its_reader_goes_away() {
    let path = std::env::temp_dir().join(format!("arimaa-closed-stdout-{}.txt", std::process::id()));
    let line = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]\n";
    std::fs::write(&path, line.repeat(3000)).expect("temp file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arimaa"))
        .args(["perft", "--file"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arimaa");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    // The reader is dropped here: the rest of the 3,000 lines hit a closed pipe.
    assert_eq!(first.trim(), "3353 8");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    let status = child.wait().expect("wait");
    let _ = std::fs::remove_file(&path);
    assert_eq!(status.code(), Some(1), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(!err.contains("error"), "a closed pipe is not an error to report: {err}");
}
