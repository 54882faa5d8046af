//! Standard output for the subcommands. `println!` panics when the reader has
//! gone (`arimaa perft --file F | head`); these end the process instead, as
//! other command-line tools do, with a message unless the pipe was closed.

/// `println!` that exits when standard output is gone.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::stdout::write_or_exit(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that exits when standard output is gone.
macro_rules! say_raw {
    ($($arg:tt)*) => {
        $crate::stdout::write_or_exit(format_args!($($arg)*))
    };
}

/// Writes and flushes, or ends the process with exit code 1.
pub fn write_or_exit(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(std::io::stderr(), "error: cannot write to standard output: {e}");
        }
        std::process::exit(1);
    }
}
