//! The AEI front end: reads controller lines, keeps the game, runs the search
//! on its own thread and writes `info`/`bestmove`/`log` lines. Protocol text
//! is parsed in [`command`] and nowhere else.

#![warn(missing_docs)]

pub mod command;
pub mod input;
pub mod options;
pub mod output;
pub mod report;
pub mod session;

pub use input::{spawn_reader, Input};
pub use output::{Capture, Output};
pub use session::{Flow, Identity, Session};

/// Runs a whole AEI session on stdin/stdout until `quit` or end of input,
/// starting from the evaluation weights and search constants `params`.
pub fn run_stdio(id: Identity, seed: u64, params: arimaa_search::Params) {
    let input = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    let mut session = Session::new(Output::stdout(), id, seed).with_params(params);
    loop {
        match input.recv() {
            Ok(Input::Line(line)) => {
                if session.handle_line(&line) == Flow::Quit {
                    break;
                }
            }
            Ok(Input::Bad(why)) => session.bad_input(&why),
            Ok(Input::Eof) | Err(_) => break,
        }
    }
    session.shutdown();
}
