//! Pictures as SVG text, written by hand: line charts (linear or
//! logarithmic x, error bars, a legend) and weight images (one cell per
//! pixel in diverging colours, zero white). No fonts are measured and no
//! library is linked: text is left to the viewer's sans-serif, and the
//! output is a function of the input alone — the same series give the
//! same bytes.
//!
//! Every value is checked before anything is drawn: an empty chart, an
//! empty series, a non-finite point or a non-positive x on a log axis is
//! refused with the series and point named.

use crate::error::Error;
use std::fmt::Write;

/// One line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's label.
    pub label: String,
    /// (x, y) points, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// A ± spread per point (error bars), or none.
    pub spread: Option<Vec<f64>>,
    /// Drawn dashed (a training error beside a test error, say).
    pub dashed: bool,
}

impl Series {
    /// A solid line without error bars.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { label: label.into(), points, spread: None, dashed: false }
    }
}

/// A line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Beside the y axis.
    pub y_label: String,
    /// A logarithmic x axis (for pass counts from fractions to tens).
    pub log_x: bool,
    /// y values are fractions, labelled as percentages.
    pub percent: bool,
    /// The lines, in legend order.
    pub series: Vec<Series>,
}

const WIDTH: f64 = 640.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 620.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 356.0;
/// Where the legend starts (under the x axis's label), and its line height.
const LEGEND: f64 = 412.0;
const LEGEND_LINE: f64 = 20.0;

/// Ten colours that stay apart (Tableau's), in series order.
const PALETTE: [&str; 10] =
    ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

/// `s` with XML's special characters escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn refuse(chart: &str, why: String) -> Error {
    Error::Input(format!("chart \"{chart}\": {why}"))
}

impl Chart {
    /// Checks every series and point (see the module docs).
    fn check(&self) -> Result<(), Error> {
        if self.series.is_empty() {
            return Err(refuse(&self.title, "no series to draw".into()));
        }
        for s in &self.series {
            if s.points.is_empty() {
                return Err(refuse(&self.title, format!("series \"{}\" has no points", s.label)));
            }
            for (k, &(x, y)) in s.points.iter().enumerate() {
                if !x.is_finite() || !y.is_finite() {
                    return Err(refuse(
                        &self.title,
                        format!("series \"{}\", point {k}: ({x}, {y}) is not finite", s.label),
                    ));
                }
                if self.log_x && x <= 0.0 {
                    return Err(refuse(
                        &self.title,
                        format!("series \"{}\", point {k}: x = {x} on a log axis", s.label),
                    ));
                }
            }
            if let Some(sp) = &s.spread {
                if sp.len() != s.points.len() {
                    return Err(refuse(
                        &self.title,
                        format!("series \"{}\": {} spreads for {} points", s.label, sp.len(), s.points.len()),
                    ));
                }
                if let Some(k) = sp.iter().position(|v| !v.is_finite() || *v < 0.0) {
                    return Err(refuse(&self.title, format!("series \"{}\", point {k}: spread {}", s.label, sp[k])));
                }
            }
        }
        Ok(())
    }

    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> Result<String, Error> {
        self.check()?;
        let all = || self.series.iter().flat_map(|s| s.points.iter().copied());
        let spread = |s: &Series, k: usize| s.spread.as_ref().map_or(0.0, |v| v[k]);
        let (mut xmin, mut xmax) =
            all().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| (a.min(x), b.max(x)));
        let ymax = self.series.iter().flat_map(|s| (0..s.points.len()).map(move |k| s.points[k].1 + spread(s, k)));
        let ymax = ymax.fold(f64::NEG_INFINITY, f64::max);
        let ymin = self.series.iter().flat_map(|s| (0..s.points.len()).map(move |k| s.points[k].1 - spread(s, k)));
        let ymin = ymin.fold(f64::INFINITY, f64::min);
        // Errors and rates start at zero; anything else starts where it does.
        let ymin = if ymin >= 0.0 { 0.0 } else { ymin };
        let (y_ticks, y0, y1) = linear_ticks(ymin, ymax);
        let x_ticks;
        if self.log_x {
            if xmin == xmax {
                (xmin, xmax) = (xmin / 10.0, xmax * 10.0);
            }
            x_ticks = log_ticks(xmin, xmax);
        } else {
            let (t, a, b) = linear_ticks(xmin, xmax);
            (x_ticks, xmin, xmax) = (t, a, b);
        }
        let fx = |x: f64| {
            let t =
                if self.log_x { (x.ln() - xmin.ln()) / (xmax.ln() - xmin.ln()) } else { (x - xmin) / (xmax - xmin) };
            LEFT + t * (RIGHT - LEFT)
        };
        let fy = |y: f64| BOTTOM - (y - y0) / (y1 - y0) * (BOTTOM - TOP);

        let height = LEGEND + LEGEND_LINE * self.series.len() as f64;
        let mut o = String::new();
        let _ = write!(
            o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} \
             {height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{WIDTH}\" height=\"{height}\" \
             fill=\"white\"/>\n<text x=\"{}\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
            (LEFT + RIGHT) / 2.0,
            escape(&self.title)
        );
        // Grid and tick labels.
        for &(y, ref label) in &y_ticks {
            let py = fy(y);
            let label = if self.percent { percent_label(y, &y_ticks) } else { label.clone() };
            let _ = writeln!(
                o,
                "<line x1=\"{LEFT}\" y1=\"{py:.2}\" x2=\"{RIGHT}\" y2=\"{py:.2}\" stroke=\"#e0e0e0\"/><text x=\"{}\" \
                 y=\"{:.2}\" text-anchor=\"end\">{label}</text>",
                LEFT - 6.0,
                py + 4.0
            );
        }
        for (x, label) in &x_ticks {
            let px = fx(*x);
            let _ = writeln!(
                o,
                "<line x1=\"{px:.2}\" y1=\"{TOP}\" x2=\"{px:.2}\" y2=\"{BOTTOM}\" stroke=\"#e0e0e0\"/><text \
                 x=\"{px:.2}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
                BOTTOM + 16.0
            );
        }
        let _ = write!(
            o,
            "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n<text \
             x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n<text transform=\"translate(18 {}) rotate(-90)\" \
             text-anchor=\"middle\">{}</text>\n",
            RIGHT - LEFT,
            BOTTOM - TOP,
            (LEFT + RIGHT) / 2.0,
            BOTTOM + 38.0,
            escape(&self.x_label),
            (TOP + BOTTOM) / 2.0,
            escape(&self.y_label)
        );
        // The lines, their points and error bars, and the legend. A line
        // drawn over one it coincides with (within 3 pixels at every point:
        // the voted and the averaged Perceptron's errors, say) is dashed,
        // with hollow rings for points, so that the one under it shows
        // through and both stay visible.
        let pixels = |s: &Series| s.points.iter().map(|&(x, y)| (fx(x), fy(y))).collect::<Vec<_>>();
        let drawn: Vec<Vec<(f64, f64)>> = self.series.iter().map(pixels).collect();
        for (n, s) in self.series.iter().enumerate() {
            let colour = PALETTE[n % PALETTE.len()];
            let covers = drawn[..n].iter().any(|earlier| coincide(earlier, &drawn[n]));
            let dash = if covers {
                " stroke-dasharray=\"4 6\""
            } else if s.dashed {
                " stroke-dasharray=\"6 4\""
            } else {
                ""
            };
            let path: Vec<String> = drawn[n].iter().map(|&(px, py)| format!("{px:.2},{py:.2}")).collect();
            let _ = writeln!(
                o,
                "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
                path.join(" ")
            );
            for (k, &(x, y)) in s.points.iter().enumerate() {
                let (px, py) = (fx(x), fy(y));
                let e = spread(s, k);
                if e > 0.0 {
                    let _ = writeln!(
                        o,
                        "<line x1=\"{px:.2}\" y1=\"{:.2}\" x2=\"{px:.2}\" y2=\"{:.2}\" stroke=\"{colour}\"/>",
                        fy(y - e),
                        fy(y + e)
                    );
                }
                let _ = if covers {
                    writeln!(
                        o,
                        "<circle cx=\"{px:.2}\" cy=\"{py:.2}\" r=\"5.5\" fill=\"none\" stroke=\"{colour}\" \
                         stroke-width=\"2\"/>"
                    )
                } else {
                    writeln!(o, "<circle cx=\"{px:.2}\" cy=\"{py:.2}\" r=\"3\" fill=\"{colour}\"/>")
                };
            }
            let ly = LEGEND + LEGEND_LINE * n as f64;
            let _ = writeln!(
                o,
                "<line x1=\"{LEFT}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/><text \
                 x=\"{}\" y=\"{}\">{}</text>",
                LEFT + 28.0,
                LEFT + 34.0,
                ly + 4.0,
                escape(&s.label)
            );
        }
        o.push_str("</svg>\n");
        Ok(o)
    }
}

/// Whether two lines, as drawn, lie on each other: the same number of
/// points, each within [`COVERS`] pixels of its counterpart.
fn coincide(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p.0 - q.0).abs() <= COVERS && (p.1 - q.1).abs() <= COVERS)
}

/// How near, in pixels, a line drawn over another covers it: a stroke 2
/// wide and points of radius 3 hide what lies within 3 pixels (the voted
/// and averaged Perceptron's errors in the README's picture were 1.3 apart).
const COVERS: f64 = 3.0;

/// Ticks at 1, 2 or 5 times a power of ten covering `lo..=hi`, with their
/// labels, and the axis ends (the outer ticks).
fn linear_ticks(lo: f64, hi: f64) -> (Vec<(f64, String)>, f64, f64) {
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let raw = (hi - lo) / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let (a, b) = ((lo / step).floor() as i64, (hi / step).ceil() as i64);
    let ticks = (a..=b).map(|k| (k as f64 * step, format!("{:.*}", decimals, k as f64 * step))).collect();
    (ticks, a as f64 * step, b as f64 * step)
}

/// A percentage label for `y` with as many decimals as the ticks need.
fn percent_label(y: f64, ticks: &[(f64, String)]) -> String {
    let step = if ticks.len() > 1 { ticks[1].0 - ticks[0].0 } else { 1.0 };
    let decimals = (-(step * 100.0).log10().floor()).max(0.0) as usize;
    format!("{:.*}%", decimals, y * 100.0)
}

/// Ticks at 1, 2 and 5 times the powers of ten inside `lo..=hi` (only the
/// powers when the range spans more than three decades).
fn log_ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let multiples: &[f64] = if b - a > 3 { &[1.0] } else { &[1.0, 2.0, 5.0] };
    let mut ticks = Vec::new();
    for e in a..=b {
        for &m in multiples {
            let v = m * 10f64.powi(e);
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                let decimals = (-e).max(0) as usize;
                ticks.push((v, format!("{:.*}", decimals, v)));
            }
        }
    }
    ticks
}

/// One panel of a weight image: a title and `width × height` values in
/// row-major order.
#[derive(Clone, Debug)]
pub struct Panel<'a> {
    /// Above the panel.
    pub title: String,
    /// The values, one per pixel.
    pub values: &'a [f32],
}

/// Pixels per cell in a weight image.
const CELL: usize = 8;

/// The colour scale's end: this quantile of the non-zero |weights| (the
/// few strongest — often border pixels that almost never light up — would
/// otherwise wash every other weight out to white); stronger ones saturate.
pub const SCALE_QUANTILE: f64 = 0.95;

/// Weight vectors as images, `width × height` cells each (one per pixel,
/// `class="px"`), five panels to a row, coloured on one scale for all
/// panels: blue negative, white zero, red positive, full colour from the
/// [`SCALE_QUANTILE`] of |w| on; a colour bar with the scale's ends under
/// them.
pub fn weight_image(title: &str, width: usize, height: usize, panels: &[Panel<'_>]) -> Result<String, Error> {
    if panels.is_empty() {
        return Err(Error::Input(format!("weight image \"{title}\": no panels")));
    }
    for p in panels {
        if p.values.len() != width * height {
            return Err(Error::Input(format!(
                "weight image \"{title}\", panel \"{}\": {} values for {width} × {height} pixels",
                p.title,
                p.values.len()
            )));
        }
        if let Some(k) = p.values.iter().position(|v| !v.is_finite()) {
            return Err(Error::Input(format!(
                "weight image \"{title}\", panel \"{}\": weight {k} is {}",
                p.title, p.values[k]
            )));
        }
    }
    let max = scale(panels);
    let per_row = panels.len().min(5);
    let rows = panels.len().div_ceil(per_row);
    let (pw, ph) = (width * CELL + 16, height * CELL + 28);
    // Wide enough for the title too (about 8.5 px a character at 15 px).
    let title_width = (title.chars().count() as f64 * 8.5) as usize + 32;
    let (w, h) = ((per_row * pw + 16).max(400).max(title_width), rows * ph + 92);
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n<text \
         x=\"{}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
        w / 2,
        escape(title)
    );
    for (n, p) in panels.iter().enumerate() {
        let (x0, y0) = (16 + (n % per_row) * pw, 36 + (n / per_row) * ph);
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n<g class=\"panel\" transform=\"translate({x0} \
             {}) scale({CELL})\" shape-rendering=\"crispEdges\">\n",
            x0 + width * CELL / 2,
            y0 + 12,
            escape(&p.title),
            y0 + 18
        );
        for (k, &v) in p.values.iter().enumerate() {
            let _ = writeln!(
                o,
                "<rect class=\"px\" x=\"{}\" y=\"{}\" width=\"1\" height=\"1\" fill=\"{}\"/>",
                k % width,
                k / width,
                diverging(if max > 0.0 { v / max } else { 0.0 })
            );
        }
        let _ = writeln!(
            o,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"none\" stroke=\"#999\" stroke-width=\"0.1\"/>\n</g>"
        );
    }
    // The colour bar: −max … 0 … +max.
    let (bx, by, bw) = (16, h - 52, 240);
    for k in 0..bw {
        let t = 2.0 * k as f32 / (bw - 1) as f32 - 1.0;
        let _ = writeln!(o, "<rect x=\"{}\" y=\"{by}\" width=\"1\" height=\"12\" fill=\"{}\"/>", bx + k, diverging(t));
    }
    let _ = write!(
        o,
        "<text x=\"{bx}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">0</text><text x=\"{}\" \
         y=\"{}\" text-anchor=\"end\">{}</text>\n<text x=\"{bx}\" y=\"{}\" font-size=\"10\">scale: the {}th \
         percentile of |w|; stronger weights saturate</text>\n</svg>\n",
        by + 26,
        fmt_weight(-max),
        bx + bw / 2,
        by + 26,
        bx + bw,
        by + 26,
        fmt_weight(max),
        by + 42,
        (SCALE_QUANTILE * 100.0).round()
    );
    Ok(o)
}

/// The colour scale's end for `panels`: the [`SCALE_QUANTILE`] of their
/// non-zero |weights| (0 when all are zero).
fn scale(panels: &[Panel<'_>]) -> f32 {
    let mut magnitudes: Vec<f32> =
        panels.iter().flat_map(|p| p.values.iter()).map(|v| v.abs()).filter(|&v| v > 0.0).collect();
    magnitudes.sort_by(f32::total_cmp);
    match magnitudes.len() {
        0 => 0.0,
        n => magnitudes[((n - 1) as f64 * SCALE_QUANTILE).round() as usize],
    }
}

/// Each panel's cells as RGB, coloured as [`weight_image`] colours them
/// (non-finite weights refused by name).
pub fn weight_colours(panels: &[Panel<'_>]) -> Result<Vec<Vec<[u8; 3]>>, Error> {
    if let Some((p, k)) = panels.iter().find_map(|p| p.values.iter().position(|v| !v.is_finite()).map(|k| (p, k))) {
        return Err(Error::Input(format!("weight image, panel \"{}\": weight {k} is {}", p.title, p.values[k])));
    }
    let max = scale(panels);
    Ok(panels.iter().map(|p| p.values.iter().map(|&v| rgb(if max > 0.0 { v / max } else { 0.0 })).collect()).collect())
}

/// A weight for the colour bar's labels, three significant digits.
fn fmt_weight(v: f32) -> String {
    if v == 0.0 { "0".into() } else { format!("{v:.3e}") }
}

/// `t` in [−1, 1] as a colour: blue (#2166ac) at −1, white at 0, red
/// (#b2182b) at 1, linear in between.
fn diverging(t: f32) -> String {
    let [r, g, b] = rgb(t);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// [`diverging`] as bytes.
fn rgb(t: f32) -> [u8; 3] {
    let t = t.clamp(-1.0, 1.0);
    let (end, a) = if t < 0.0 { ([0x21u8, 0x66, 0xac], -t) } else { ([0xb2, 0x18, 0x2b], t) };
    end.map(|c| (255.0 + (f32::from(c) - 255.0) * a).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_range_at_round_steps() {
        let (t, a, b) = linear_ticks(0.0, 0.073);
        assert_eq!((a, b), (0.0, 0.08));
        assert_eq!(t.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["0.00", "0.02", "0.04", "0.06", "0.08"]);
        let l = log_ticks(0.1, 10.0);
        assert_eq!(l.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["0.1", "0.2", "0.5", "1", "2", "5", "10"]);
    }

    #[test]
    fn zero_is_white_and_the_ends_are_the_palette_ends() {
        assert_eq!(diverging(0.0), "#ffffff");
        assert_eq!(diverging(-1.0), "#2166ac");
        assert_eq!(diverging(1.0), "#b2182b");
        assert_eq!(diverging(7.0), "#b2182b");
    }
}
