//! The course of a match as an SVG (`arimaa match --plot FILE`), drawn by
//! `plotters`: the first engine's Elo against the second after each game,
//! with its 95 % interval, and under it, with an SPRT, the log-likelihood
//! ratio between its two bounds. A user sees whether the estimate has
//! settled and how far the test is from a verdict.

use crate::error::MatchError;
use crate::stats::{Sprt, Wdl};
use plotters::prelude::*;

const WIDTH: u32 = 720;
const PANEL_H: u32 = 260;
const FONT: &str = "sans-serif";
/// Elo shown at most either way: a clean sweep's estimate is infinite.
const ELO_CAP: f64 = 800.0;

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// The SVG for `history` (the first pair's counts after each game, from the
/// first engine's side); `names` are the two engines.
pub fn svg(names: [&str; 2], history: &[Wdl], sprt: Option<&Sprt>) -> Result<String, MatchError> {
    draw(names, history, sprt).map_err(MatchError::Plot)
}

/// [`svg`], its errors the drawing library's messages.
fn draw(names: [&str; 2], history: &[Wdl], sprt: Option<&Sprt>) -> Result<String, String> {
    let mut out = String::new();
    let panels = if sprt.is_some() { 2 } else { 1 };
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, PANEL_H * panels)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let areas = root.split_evenly((panels as usize, 1));
        elo_panel(&areas[0], names, history)?;
        if let (Some(sprt), Some(area)) = (sprt, areas.get(1)) {
            llr_panel(area, history, sprt)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

fn elo_panel(area: &Area<'_>, names: [&str; 2], history: &[Wdl]) -> Result<(), String> {
    let cap = |v: f64| v.clamp(-ELO_CAP, ELO_CAP);
    // (games, elo, low, high), capped so that a sweep still draws.
    let points: Vec<(u32, f64, f64, f64)> = history
        .iter()
        .filter_map(|w| w.elo().map(|e| (w.games(), cap(e.elo), cap(e.low), cap(e.high))))
        .collect();
    let games = history.last().map_or(1, |w| w.games().max(1));
    let reach = points
        .iter()
        .flat_map(|p| [p.2.abs(), p.3.abs()])
        .fold(100.0_f64, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{} vs {}: Elo after each game", names[0], names[1]), (FONT, 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0..games, -reach..reach)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("games")
        .y_desc(format!("Elo of {}", names[0]))
        .label_style((FONT, 11))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(err)?;
    let band = BLUE.mix(0.35);
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.2)), band))
        .map_err(err)?
        .label("95 % interval")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], band));
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.3)), band))
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), BLUE.stroke_width(2)))
        .map_err(err)?
        .label("Elo")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
    legend(&mut chart)
}

fn llr_panel(area: &Area<'_>, history: &[Wdl], sprt: &Sprt) -> Result<(), String> {
    let (low, high) = sprt.bounds();
    let points: Vec<(u32, f64)> = history.iter().map(|w| (w.games(), sprt.llr(w))).collect();
    let games = history.last().map_or(1, |w| w.games().max(1));
    let reach = points.iter().map(|p| p.1.abs()).fold(high.max(-low), f64::max) * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("SPRT elo0 {} elo1 {}: log-likelihood ratio", sprt.elo0, sprt.elo1),
            (FONT, 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0..games, -reach..reach)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("games")
        .y_desc("LLR")
        .label_style((FONT, 11))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(err)?;
    for (bound, name, color) in [(high, "accept H1", GREEN), (low, "accept H0", RED)] {
        chart
            .draw_series(LineSeries::new([(0, bound), (games, bound)], color))
            .map_err(err)?
            .label(format!("{name} ({bound:.2})"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color));
    }
    chart
        .draw_series(LineSeries::new(points, BLUE.stroke_width(2)))
        .map_err(err)?
        .label("LLR")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
    legend(&mut chart)
}

fn legend<'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 11))
        .draw()
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(results: &str) -> Vec<Wdl> {
        let mut w = Wdl::default();
        results
            .chars()
            .map(|c| {
                match c {
                    'w' => w.wins += 1,
                    'l' => w.losses += 1,
                    _ => w.draws += 1,
                }
                w
            })
            .collect()
    }

    #[test]
    fn elo_panel_alone_or_with_the_sprt() {
        let h = history("wwlwdwlw");
        let doc = svg(["new", "old"], &h, None).unwrap();
        assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"), "{doc}");
        // plotters writes each text on a line of its own.
        assert!(doc.contains("\nnew vs old: Elo after each game\n") && doc.contains("\nElo of new\n"));
        assert!(!doc.contains("LLR"));
        let sprt = Sprt::parse::<&str>(&[]).unwrap();
        let doc = svg(["new", "old"], &h, Some(&sprt)).unwrap();
        assert!(
            doc.contains("\naccept H1 (2.94)\n") && doc.contains("\naccept H0 (-2.94)\n"),
            "{doc}"
        );
        // A clean sweep (infinite Elo) and no games at all still draw.
        assert!(svg(["a", "b"], &history("www"), Some(&sprt)).is_ok());
        assert!(svg(["a", "b"], &[], Some(&sprt)).is_ok());
    }
}
