//! Each parameter's path over the iterations as one SVG, drawn by
//! `plotters`: a panel per parameter whose vertical axis is the parameter's
//! declared range, with labelled axes and a legend, so a user sees at a
//! glance which values settled and which still wander.

use crate::error::TuningError;
use crate::spsa::Tunable;
use plotters::prelude::*;

const PANEL_W: u32 = 420;
const PANEL_H: u32 = 200;
const COLUMNS: usize = 2;
const FONT: &str = "sans-serif";

/// The SVG document for `path` (iteration, values in `tunables` order).
pub fn svg(tunables: &[Tunable], path: &[(u64, Vec<f64>)]) -> Result<String, TuningError> {
    draw(tunables, path).map_err(TuningError::Plot)
}

/// [`svg`], its errors the drawing library's messages.
fn draw(tunables: &[Tunable], path: &[(u64, Vec<f64>)]) -> Result<String, String> {
    let mut out = String::new();
    let rows = tunables.len().div_ceil(COLUMNS).max(1);
    let size = (PANEL_W * COLUMNS as u32, PANEL_H * rows as u32);
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = path.last().map_or(1, |(k, _)| (*k).max(1));
        for (i, (t, area)) in tunables.iter().zip(root.split_evenly((rows, COLUMNS))).enumerate() {
            panel(&area, t, i, last, path).map_err(|e| format!("plot of {}: {e}", t.name))?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn panel(area: &Area<'_>, t: &Tunable, i: usize, last: u64, path: &[(u64, Vec<f64>)]) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let points: Vec<(u64, f64)> = path.iter().filter_map(|(k, vs)| vs.get(i).map(|v| (*k, *v))).collect();
    let start = points.first().map_or(f64::NAN, |p| p.1);
    let now = points.last().map_or(f64::NAN, |p| p.1);
    // A range of one value still needs a height to draw in.
    let (low, high) = if t.max > t.min {
        (t.min, t.max)
    } else {
        (t.min - 1.0, t.min + 1.0)
    };
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{} = {now:.2}", t.name), (FONT, 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0..last, low..high)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc(format!("range {}..{}", t.min, t.max))
        .x_labels(6)
        .y_labels(5)
        .label_style((FONT, 11))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new([(0, start), (last, start)], BLACK.mix(0.4)))
        .map_err(err)?
        .label(format!("start {start:.2}"))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.4)));
    chart
        .draw_series(LineSeries::new(points, BLUE.stroke_width(2)))
        .map_err(err)?
        .label("value")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 11))
        .draw()
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_panel_and_one_line_per_parameter_with_its_range() {
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
        let doc = svg(&tunables, &path).unwrap();
        assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"), "{doc}");
        // Per panel, in blue: the path and its sample in the legend.
        assert_eq!(doc.matches(r##"stroke="#0000FF""##).count(), 4, "{doc}");
        // plotters writes each text on a line of its own.
        assert!(doc.contains("\na = 3.00\n"), "{doc}");
        assert!(doc.contains("\nb&lt;c = 7.00\n"), "names are escaped");
        assert_eq!(doc.matches("\nrange 0..10\n").count(), 2);
        assert_eq!(doc.matches("\niteration\n").count(), 2);
        assert!(doc.contains("\nstart 1.00\n") && doc.contains("\nvalue\n"));
    }
}
