//! AEI controller lines through the real session, one input a whole
//! conversation. Every `go` searches to depth 1 so an input stays fast, and
//! `hash`/`threads` settings are dropped: a big table the machine can hold
//! is a wish, not a bug (the session refuses one it cannot).
#![no_main]

use arimaa_aei::command::{parse_command, Command, EngineOption};
use arimaa_aei::{Capture, Flow, Identity, Session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let capture = Capture::default();
    let id = Identity {
        name: "fuzz".into(),
        author: "fuzz".into(),
        version: "0".into(),
    };
    let mut session = Session::new(capture.output(), id, 1);
    session.handle_line("aei");
    for line in text.lines().take(200) {
        match parse_command(line) {
            Ok(Some(Command::SetOption(EngineOption::Hash(_) | EngineOption::Threads(_) | EngineOption::Depth(_)))) => {
                continue
            }
            Ok(Some(Command::Go { .. })) => {
                session.handle_line("setoption name depth value 1");
            }
            _ => {}
        }
        if session.handle_line(line) == Flow::Quit {
            break;
        }
    }
    session.shutdown();
});
