//! Ctrl-C for the subcommands that run engines: the engines run in their
//! own process groups, so a terminal's Ctrl-C reaches only this process.
//! The first one sets a flag the run stops on cleanly (the engines are asked
//! to quit, then killed); a second kills the engines' groups and exits at
//! once, since no destructor runs on that exit and nothing else would stop
//! a hung engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells use).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The flag the first Ctrl-C sets; `what` names the run in the warning
/// printed when the handler cannot be installed.
pub fn stop_on_ctrl_c(what: &str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            arimaa_match::process_group::kill_all();
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        eprintln!("\nstopping: waiting for the engines to quit (Ctrl-C again to exit at once)");
    });
    if let Err(e) = handler {
        eprintln!("warning: Ctrl-C will not stop {what} cleanly: {e}");
    }
    stop
}
