//! The engine's side of the pipe: whole lines, flushed at once, from any thread.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared line writer. Write errors (the controller went away) are ignored:
/// the reader sees EOF soon after and the engine exits.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Lines go to `w`.
    #[must_use]
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Standard output.
    #[must_use]
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line. Empty text and embedded line breaks never reach the
    /// controller (pyrimaa crashes on an empty line).
    pub fn line(&self, text: &str) {
        let text = text.replace(['\n', '\r'], " ");
        let text = text.trim_end();
        if text.is_empty() {
            return;
        }
        let mut w = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if writeln!(w, "{text}").and_then(|()| w.flush()).is_err() {
            log::debug!("output closed");
        }
    }

    /// `log Error: ...`
    pub fn error(&self, text: &str) {
        log::warn!("{text}");
        self.line(&format!("log Error: {text}"));
    }

    /// `log Warning: ...`
    pub fn warning(&self, text: &str) {
        self.line(&format!("log Warning: {text}"));
    }
}

/// An in-memory output for tests: everything written, as lines.
#[derive(Clone, Debug, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// An output writing into this capture.
    #[must_use]
    pub fn output(&self) -> Output {
        Output::new(Box::new(self.clone()))
    }

    /// The lines written so far.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
