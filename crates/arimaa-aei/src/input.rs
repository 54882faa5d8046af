//! Reading controller lines: bounded in length, checked for UTF-8, on a thread
//! of their own so that `stop` and `isready` arrive while the engine searches.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

/// Longest line kept; the rest of a longer one is read and dropped. No AEI
/// message comes near it (a `makemove` is under 100 bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// One thing read from the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line ending.
    Line(String),
    /// A line that cannot be a command, and why.
    Bad(String),
    /// The controller closed the pipe.
    Eof,
}

/// Reads one line. Returns `Input::Eof` at end of input or on a read error.
pub fn read_input<R: BufRead>(reader: &mut R) -> Input {
    let mut buf = Vec::new();
    match std::io::Read::take(&mut *reader, MAX_LINE as u64).read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => return Input::Eof,
        Ok(_) => {}
    }
    if buf.len() >= MAX_LINE && buf.last() != Some(&b'\n') {
        // Drop the rest of the line, however long, without storing it.
        let mut total = buf.len();
        loop {
            let mut chunk = Vec::new();
            match std::io::Read::take(&mut *reader, MAX_LINE as u64).read_until(b'\n', &mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    total += n;
                    if chunk.last() == Some(&b'\n') {
                        break;
                    }
                }
            }
        }
        return Input::Bad(format!("line of {total} bytes is longer than {MAX_LINE}; ignored"));
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    match String::from_utf8(buf) {
        Ok(s) => Input::Line(s),
        Err(e) => Input::Bad(format!(
            "line is not valid UTF-8 (byte {} of it)",
            e.utf8_error().valid_up_to()
        )),
    }
}

/// Spawns the reader thread over `reader`; it ends after sending `Input::Eof`.
pub fn spawn_reader<R: BufRead + Send + 'static>(mut reader: R) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || loop {
        let input = read_input(&mut reader);
        let eof = input == Input::Eof;
        if tx.send(input).is_err() || eof {
            break;
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn reads_lines_with_either_ending() {
        let mut r = Cursor::new(b"aei\r\nisready\nquit".to_vec());
        assert_eq!(read_input(&mut r), Input::Line("aei".into()));
        assert_eq!(read_input(&mut r), Input::Line("isready".into()));
        assert_eq!(read_input(&mut r), Input::Line("quit".into()));
        assert_eq!(read_input(&mut r), Input::Eof);
    }

    #[test]
    fn long_and_binary_lines_are_refused_and_reading_goes_on() {
        let mut data = vec![b'x'; MAX_LINE * 3 + 5];
        data.extend_from_slice(b"\n\xff\xfe\nisready\n");
        let mut r = Cursor::new(data);
        assert!(matches!(read_input(&mut r), Input::Bad(m) if m.contains("longer")));
        assert!(matches!(read_input(&mut r), Input::Bad(m) if m.contains("UTF-8")));
        assert_eq!(read_input(&mut r), Input::Line("isready".into()));
    }
}
