//! Each parameter's path over the iterations as one SVG: a small panel per
//! parameter with its declared range as the vertical axis, so a user sees at
//! a glance which values settled and which still wander. Plain SVG text: a
//! few polylines need no plotting library.

use crate::spsa::Tunable;
use std::fmt::Write;

const PANEL_W: f64 = 360.0;
const PANEL_H: f64 = 120.0;
const MARGIN: f64 = 40.0;
const COLUMNS: usize = 2;

/// The SVG document for `path` (iteration, values in `tunables` order).
#[must_use]
pub fn svg(tunables: &[Tunable], path: &[(u64, Vec<f64>)]) -> String {
    let rows = tunables.len().div_ceil(COLUMNS).max(1);
    let width = COLUMNS as f64 * (PANEL_W + MARGIN) + MARGIN;
    let height = rows as f64 * (PANEL_H + MARGIN) + MARGIN;
    let last = path.last().map_or(1, |(k, _)| (*k).max(1)) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, t) in tunables.iter().enumerate() {
        let x0 = MARGIN + (i % COLUMNS) as f64 * (PANEL_W + MARGIN);
        let y0 = MARGIN + (i / COLUMNS) as f64 * (PANEL_H + MARGIN);
        let span = (t.max - t.min).max(f64::EPSILON);
        let y = |v: f64| y0 + PANEL_H - (v - t.min) / span * PANEL_H;
        let _ = writeln!(
            out,
            r##"<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#999"/>"##
        );
        let now = path.last().and_then(|(_, vs)| vs.get(i)).copied().unwrap_or(f64::NAN);
        let _ = writeln!(
            out,
            r#"<text x="{x0}" y="{}">{} = {now:.2} (range {}..{})</text>"#,
            y0 - 6.0,
            escape(&t.name),
            t.min,
            t.max
        );
        let _ = writeln!(out, r#"<text x="{}" y="{}">{}</text>"#, x0 - 36.0, y0 + 10.0, t.max);
        let _ = writeln!(out, r#"<text x="{}" y="{}">{}</text>"#, x0 - 36.0, y0 + PANEL_H, t.min);
        let points: Vec<String> = path
            .iter()
            .filter_map(|(k, vs)| vs.get(i).map(|v| (*k, *v)))
            .map(|(k, v)| format!("{:.1},{:.1}", x0 + k as f64 / last * PANEL_W, y(v)))
            .collect();
        if !points.is_empty() {
            let _ = writeln!(
                out,
                r##"<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{}"/>"##,
                points.join(" ")
            );
        }
    }
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}">iterations 0..{last}</text>"#,
        height - 10.0
    );
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_panel_and_one_line_per_parameter() {
        let tunables: Vec<Tunable> = ["a", "b<c"]
            .iter()
            .map(|n| Tunable {
                name: (*n).into(),
                min: 0.0,
                max: 10.0,
                step: 1.0,
            })
            .collect();
        let path = vec![(1, vec![1.0, 9.0]), (2, vec![2.0, 8.0]), (3, vec![3.0, 7.0])];
        let doc = svg(&tunables, &path);
        assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"));
        assert_eq!(doc.matches("<polyline").count(), 2);
        assert!(doc.contains("a = 3.00"));
        assert!(doc.contains("b&lt;c = 7.00"), "names are escaped");
        // The last point of a's line is at the right edge, a third of the way up.
        assert!(doc.contains(&format!("{:.1},{:.1}", MARGIN + PANEL_W, MARGIN + PANEL_H * 0.7)));
    }
}
