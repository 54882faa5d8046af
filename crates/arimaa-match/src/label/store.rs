//! The files of `arimaa label`: positions in, labels out.
//!
//! Positions are JSON lines with a `pos` field (AEI's `g [board]` form; the
//! other fields are carried to the output) or plain `g [board]` lines. Each
//! label is one JSON line: the position's fields, `n` (its line index in the
//! positions file), the teacher's `score`, `best` move (none for a static
//! evaluation), name and depth (0 for a static evaluation). The
//! output is only appended to, a line at a time and flushed, so a stopped
//! run keeps every label written; `--resume` reads it back, checks that it
//! was made from the same positions, drops a last line cut off mid-write,
//! and labels only the rest.

use super::{Label, Task};
use arimaa_core::notation::{parse_position, position_to_aei};
use arimaa_core::rules::goal_or_elimination;
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A positions or labels file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// It cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The output exists and `--resume` was not given: labels are never overwritten.
    #[error("{0} exists: give --resume to carry on labelling into it, or another --out")]
    Exists(PathBuf),
    /// A line of an existing output does not belong to these positions.
    #[error("{path}:{line}: {why} (was it made from another positions file?)")]
    Mismatch {
        /// The output file.
        path: PathBuf,
        /// Line number, from 1.
        line: usize,
        /// What does not match.
        why: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One line of the positions file.
#[derive(Clone, Debug)]
pub struct PositionLine {
    /// The task: line index and position.
    pub task: Task,
    /// Its other fields, written again with its label.
    pub fields: Map<String, Value>,
}

/// The positions file: the usable lines, and the others with the reason.
#[derive(Clone, Debug, Default)]
pub struct Positions {
    /// Lines to label.
    pub lines: Vec<PositionLine>,
    /// Line number (from 1) and why each refused line was refused.
    pub refused: Vec<(usize, String)>,
}

/// Reads a positions file. A line that is not a position, or a position
/// whose game is already over, is refused with its reason, not an error.
pub fn read_positions(path: &Path) -> Result<Positions, StoreError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    Ok(parse_positions(&text))
}

/// The positions of a file's text (see [`read_positions`]).
#[must_use]
pub fn parse_positions(text: &str) -> Positions {
    let mut out = Positions::default();
    for (index, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        match parse_line(raw) {
            Ok((pos, fields)) => out.lines.push(PositionLine {
                task: Task { index, pos },
                fields,
            }),
            Err(why) => out.refused.push((index + 1, why)),
        }
    }
    out
}

fn parse_line(raw: &str) -> Result<(arimaa_core::Position, Map<String, Value>), String> {
    let (text, mut fields) = if raw.starts_with('{') {
        let Value::Object(fields) = serde_json::from_str(raw).map_err(|e| format!("not JSON: {e}"))? else {
            return Err("not a JSON object".into());
        };
        let text = fields
            .get("pos")
            .and_then(Value::as_str)
            .ok_or("no \"pos\" field (AEI's \"g [board]\")")?
            .to_string();
        (text, fields)
    } else {
        (raw.to_string(), Map::new())
    };
    let pos = parse_position(&text).map_err(|e| format!("position: {e}"))?;
    if goal_or_elimination(&pos).is_some() || pos.legal_step_list().is_empty() {
        return Err("the game is already over in this position".into());
    }
    fields.insert("pos".into(), Value::String(position_to_aei(&pos)));
    Ok((pos, fields))
}

/// The labels file, open for appending.
#[derive(Debug)]
pub struct Labels {
    path: PathBuf,
    file: File,
    teacher: String,
    depth: u32,
}

impl Labels {
    /// Opens `path` for the labels of `positions` by `teacher` at `depth`;
    /// with `resume`, an existing file is checked and the indices already
    /// labelled are returned, else an existing file is an error.
    pub fn open(
        path: &Path,
        positions: &Positions,
        teacher: &str,
        depth: u32,
        resume: bool,
    ) -> Result<(Labels, HashSet<usize>), StoreError> {
        let mut done = HashSet::new();
        if path.exists() {
            if !resume {
                return Err(StoreError::Exists(path.to_path_buf()));
            }
            let text = std::fs::read_to_string(path).map_err(io(path))?;
            // A line cut off by a stop mid-write has no newline: drop it.
            let whole = text.rfind('\n').map_or(0, |i| i + 1);
            if whole < text.len() {
                let f = OpenOptions::new().write(true).open(path).map_err(io(path))?;
                f.set_len(whole as u64).map_err(io(path))?;
            }
            let by_index: std::collections::HashMap<usize, &PositionLine> =
                positions.lines.iter().map(|l| (l.task.index, l)).collect();
            for (i, line) in text[..whole].lines().enumerate() {
                let mismatch = |why: String| StoreError::Mismatch {
                    path: path.to_path_buf(),
                    line: i + 1,
                    why,
                };
                let v: Value = serde_json::from_str(line).map_err(|e| mismatch(format!("not JSON: {e}")))?;
                let n = v["n"].as_u64().ok_or_else(|| mismatch("no index \"n\"".into()))? as usize;
                let input = by_index
                    .get(&n)
                    .ok_or_else(|| mismatch(format!("index {n} is not a position of the input")))?;
                if v["pos"].as_str() != input.fields.get("pos").and_then(Value::as_str) {
                    return Err(mismatch(format!("position {n} differs from the input's")));
                }
                done.insert(n);
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io(path))?;
        Ok((
            Labels {
                path: path.to_path_buf(),
                file,
                teacher: teacher.to_string(),
                depth,
            },
            done,
        ))
    }

    /// Appends the label of `line` and flushes it.
    pub fn write(&mut self, line: &PositionLine, label: &Label) -> Result<(), StoreError> {
        let mut v = Value::Object(line.fields.clone());
        v["n"] = Value::from(line.task.index);
        v["score"] = Value::from(label.score);
        // A static evaluation has no move.
        if !label.best.is_empty() {
            v["best"] = Value::from(label.best.clone());
        }
        v["teacher"] = Value::from(self.teacher.clone());
        v["depth"] = Value::from(self.depth);
        let path = self.path.clone();
        writeln!(self.file, "{v}")
            .and_then(|()| self.file.flush())
            .map_err(io(&path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";

    #[test]
    fn positions_are_read_from_json_or_plain_lines_and_bad_ones_refused() {
        let text = format!(
            "{{\"pos\": \"{START}\", \"game\": \"a\"}}\n{START}\n\nnot a position\n{{\"game\": 1}}\n{{oops\ng [R       {}]\n",
            " ".repeat(56)
        );
        let p = parse_positions(&text);
        assert_eq!(p.lines.len(), 2);
        assert_eq!(p.lines[0].fields["game"], "a");
        assert_eq!((p.lines[0].task.index, p.lines[1].task.index), (0, 1));
        let lines: Vec<usize> = p.refused.iter().map(|r| r.0).collect();
        assert_eq!(lines, vec![4, 5, 6, 7], "{:?}", p.refused);
        assert!(p.refused[1].1.contains("\"pos\""), "{:?}", p.refused[1]);
        assert!(p.refused[3].1.contains("over"), "a rabbit on goal: {:?}", p.refused[3]);
    }

    #[test]
    fn labels_resume_after_a_cut_line_and_refuse_other_inputs() {
        let dir = std::env::temp_dir().join(format!("arimaa-label-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("labels.jsonl");
        let _ = std::fs::remove_file(&out);
        let positions = parse_positions(&format!("{START}\n{START}\n{START}\n"));
        let (mut labels, done) = Labels::open(&out, &positions, "t", 4, false).unwrap();
        assert!(done.is_empty());
        let label = |index| Label {
            index,
            score: -5,
            best: "Ee2n".into(),
        };
        labels.write(&positions.lines[0], &label(0)).unwrap();
        labels.write(&positions.lines[2], &label(2)).unwrap();
        drop(labels);
        // A stop mid-write leaves half a line.
        let mut f = OpenOptions::new().append(true).open(&out).unwrap();
        write!(f, "{{\"n\": 1, \"po").unwrap();
        drop(f);
        assert!(matches!(
            Labels::open(&out, &positions, "t", 4, false),
            Err(StoreError::Exists(_))
        ));
        let (mut labels, done) = Labels::open(&out, &positions, "t", 4, true).unwrap();
        assert_eq!(done, HashSet::from([0, 2]));
        labels.write(&positions.lines[1], &label(1)).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        let v: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(
            (v["n"].as_u64(), v["score"].as_i64(), v["depth"].as_u64()),
            (Some(1), Some(-5), Some(4))
        );

        let other = parse_positions(&format!("{START}\n"));
        let e = Labels::open(&out, &other, "t", 4, true).unwrap_err();
        assert!(e.to_string().contains("index 2 is not a position"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
