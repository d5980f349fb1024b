//! `rosenblatt report`: what `train --json` and `bench ocr --json` wrote,
//! as pictures and tables a person reads — learning curves, the weight
//! vector as an image, the OCR table of the lecture notes — in a
//! directory with an `index.html` that needs no network and no
//! JavaScript. The JSON shapes it reads are documented in
//! docs/report.md.
//!
//! Everything is rendered in memory first and checked (a NaN or an empty
//! series is an error naming it); only then are the files written, each
//! under a temporary name and renamed. The same inputs give the same
//! bytes: timings are not drawn.

use crate::error::Error;
use crate::model::{Model, Weights};
use crate::plot::{Chart, Panel, Series, escape, weight_image};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One pass of a `train` run, as `train --json` writes it.
pub type PassDoc = crate::train::PassLine;

/// A `train --json` document: the one shape `rosenblatt train` writes and
/// `report` reads (docs/report.md).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TrainDoc {
    /// The command line that produced it.
    #[serde(default)]
    pub command: Option<String>,
    /// Where the model was written.
    #[serde(default)]
    pub model: Option<PathBuf>,
    /// The learner's name.
    pub learner: String,
    /// `holdout` or `test`: what `eval_error` was measured on.
    #[serde(default)]
    pub eval: Option<String>,
    /// The hyper-parameters, defaults filled in.
    #[serde(default)]
    pub params: std::collections::BTreeMap<String, f64>,
    /// Every pass.
    pub passes: Vec<PassDoc>,
    /// The run's record, as the model file keeps it.
    #[serde(default)]
    pub training: Option<crate::model::Training>,
    /// Across processes: how many, and the time spent exchanging.
    #[serde(default)]
    pub processes: Option<serde_json::Value>,
}

impl TrainDoc {
    /// The document as JSON, its kind said.
    pub fn to_value(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("a train document serialises");
        if let Some(o) = v.as_object_mut() {
            o.insert("kind".into(), "train".into());
        }
        v
    }
}

/// One learner at one pass count of `bench ocr --json`.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct RecordDoc {
    /// The learner's name.
    pub learner: String,
    /// Pass count.
    pub passes: f64,
    /// Mean test error over the seeds.
    pub test_error: f64,
    /// Its standard deviation over the seeds.
    pub test_error_std: f64,
}

/// A `bench ocr --json` document.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct OcrDoc {
    /// The command line that produced it.
    #[serde(default)]
    pub command: Option<String>,
    /// Training rows.
    pub train_rows: u64,
    /// Test rows.
    pub test_rows: u64,
    /// Seeds averaged over.
    #[serde(default)]
    pub seeds: Option<u64>,
    /// The digit against the rest.
    #[serde(default)]
    pub target: Option<u8>,
    /// One record per (learner, passes).
    pub records: Vec<RecordDoc>,
}

/// A `bounds --json` document: the mistake bounds on a dataset.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct BoundsDoc {
    /// The command line that produced it.
    #[serde(default)]
    pub command: Option<String>,
    /// Rows.
    pub examples: u64,
    /// `R = max ‖(x, 1)‖`.
    pub r: f64,
    /// The reference separator.
    pub reference: String,
    /// Its margin.
    pub reference_margin: f64,
    /// `(R/γ)²` when that margin is positive.
    #[serde(default)]
    pub novikoff: Option<f64>,
    /// The γ of Freund and Schapire's bound.
    pub gamma: f64,
    /// `D` at that γ.
    pub deficit: f64,
    /// `((R+D)/γ)²`.
    pub freund_schapire: f64,
    /// Mistakes of one sequential Perceptron pass.
    pub perceptron_mistakes: u64,
}

/// A document the report reads, by the `kind` it declares.
#[derive(Clone, Debug)]
pub enum Doc {
    /// From `train --json`.
    Train(TrainDoc),
    /// From `bench ocr --json`.
    Ocr(OcrDoc),
    /// From `bounds --json`.
    Bounds(BoundsDoc),
}

/// One input: a name (the file's stem) and its document.
#[derive(Clone, Debug)]
pub struct Input {
    /// Names the run in legends and file names.
    pub name: String,
    /// The document.
    pub doc: Doc,
}

impl Input {
    /// Parses `text` (JSON with `"kind": "train"` or `"kind": "ocr"`),
    /// naming it `name` in errors.
    pub fn parse(name: &str, text: &str) -> Result<Input, Error> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::Input(format!("{name}: not JSON: {e}")))?;
        Input::from_value(name, v)
    }

    /// The document in `v`, by its `kind`.
    pub fn from_value(name: &str, v: serde_json::Value) -> Result<Input, Error> {
        let bad = |why: String| Error::Input(format!("{name}: {why}"));
        let doc = match v.get("kind").and_then(|k| k.as_str()) {
            Some("train") => Doc::Train(serde_json::from_value(v).map_err(|e| bad(format!("a train document: {e}")))?),
            Some("ocr") => Doc::Ocr(serde_json::from_value(v).map_err(|e| bad(format!("an ocr document: {e}")))?),
            Some("bounds") => {
                Doc::Bounds(serde_json::from_value(v).map_err(|e| bad(format!("a bounds document: {e}")))?)
            }
            Some(k) => return Err(bad(format!("kind \"{k}\" is not \"train\", \"ocr\" or \"bounds\""))),
            None => {
                return Err(bad(
                    "no \"kind\": give what `train`, `bench ocr` or `bounds` wrote with `json` (docs/report.md)".into(),
                ));
            }
        };
        Ok(Input { name: name.to_string(), doc })
    }

    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<Input, Error> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| Error::Input(format!("{shown}: cannot read it: {e}")))?;
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| Error::Input(format!("{shown}: not JSON: {e}")))?;
        let name = path.file_stem().map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned());
        Input::from_value(&shown, v).map(|i| Input { name, ..i })
    }
}

/// A rendered report: its files (name, contents) and what to tell the user.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// File names inside the report's directory, and their contents.
    pub files: Vec<(String, Vec<u8>)>,
    /// Notes (a model that could not be drawn, and why).
    pub notes: Vec<String>,
}

/// Side of the square images whose weights are drawn as pictures (MNIST's).
pub const IMAGE_SIDE: usize = 28;

/// Renders `inputs`; `models[i]`, when given, is input `i`'s model (for a
/// train run, otherwise read from the path its document names, if there).
pub fn render(inputs: &[Input], models: &[Option<&Model>]) -> Result<Report, Error> {
    if inputs.is_empty() {
        return Err(Error::Input("nothing to report: give at least one JSON document".into()));
    }
    let mut r = Report::default();
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>rosenblatt report</title>\n\
         <style>body{font-family:sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}\
         pre{background:#f4f4f4;padding:.6em;overflow-x:auto}table{border-collapse:collapse;margin:1em 0}\
         td,th{border:1px solid #ccc;padding:.3em .7em;text-align:right}img{max-width:100%}</style>\n</head>\n\
         <body>\n<h1>rosenblatt report</h1>\n",
    );
    let trains: Vec<(usize, &Input, &TrainDoc)> = inputs
        .iter()
        .enumerate()
        .filter_map(|(i, input)| match &input.doc {
            Doc::Train(t) => Some((i, input, t)),
            Doc::Ocr(_) | Doc::Bounds(_) => None,
        })
        .collect();
    if !trains.is_empty() {
        html.push_str("<h2>Training runs</h2>\n");
        commands(&mut html, trains.iter().map(|(_, input, t)| (input.name.as_str(), t.command.as_deref())));
        let label = |input: &Input, t: &TrainDoc| {
            if trains.len() == 1 { t.learner.clone() } else { format!("{} ({})", t.learner, input.name) }
        };
        let mut online = Vec::new();
        let mut errors = Vec::new();
        for &(_, input, t) in &trains {
            if t.passes.is_empty() {
                return Err(Error::Input(format!("{}: a train document with no passes", input.name)));
            }
            let xs = pass_positions(t);
            online.push(Series::new(
                label(input, t),
                t.passes.iter().zip(&xs).map(|(p, &x)| (x, p.mistakes as f64 / p.examples.max(1) as f64)).collect(),
            ));
            let eval = t.eval.as_deref().unwrap_or("test");
            let points = |f: fn(&PassDoc) -> Option<f64>| -> Vec<(f64, f64)> {
                t.passes.iter().zip(&xs).filter_map(|(p, &x)| f(p).map(|e| (x, e))).collect()
            };
            let held = points(|p| p.eval_error);
            if !held.is_empty() {
                errors.push(Series::new(format!("{}: {eval}", label(input, t)), held));
            }
            let train = points(|p| p.train_error);
            if !train.is_empty() {
                errors.push(Series { dashed: true, ..Series::new(format!("{}: train", label(input, t)), train) });
            }
        }
        let log_x = online.iter().flat_map(|s| s.points.iter()).any(|&(x, _)| x < 1.0);
        let chart = |title: &str, y: &str, series| Chart {
            title: title.into(),
            x_label: "passes".into(),
            y_label: y.into(),
            log_x,
            percent: true,
            series,
        };
        add_figure(
            &mut r,
            &mut html,
            "online.svg",
            &chart("Online error per pass", "online (progressive) error", online),
        )?;
        if !errors.is_empty() {
            add_figure(&mut r, &mut html, "error.svg", &chart("Error after each pass", "error", errors))?;
        }
        for &(i, input, t) in &trains {
            let loaded;
            let model = match (models.get(i).copied().flatten(), &t.model) {
                (Some(m), _) => Some(m),
                (None, Some(path)) => match Model::load(path) {
                    Ok(m) => {
                        loaded = m;
                        Some(&loaded)
                    }
                    Err(e) => {
                        r.notes.push(format!("{}: weights not drawn: {e}", input.name));
                        None
                    }
                },
                (None, None) => None,
            };
            if let Some(m) = model {
                match weight_panels(m) {
                    Some(panels) => {
                        let title = format!("{}: weights", label(input, t));
                        let panels: Vec<Panel<'_>> =
                            panels.iter().map(|(title, v)| Panel { title: title.clone(), values: v }).collect();
                        let svg = weight_image(&title, IMAGE_SIDE, IMAGE_SIDE, &panels)?;
                        let stem = format!("weights-{}", file_safe(&input.name));
                        figure(&mut html, &format!("{stem}.svg"), &title);
                        let _ = writeln!(
                            html,
                            "<p>As a PNG, one pixel per weight: <a href=\"{stem}.png\">{stem}.png</a></p>"
                        );
                        r.files.push((format!("{stem}.svg"), svg.into_bytes()));
                        r.files.push((format!("{stem}.png"), weight_png(IMAGE_SIDE, IMAGE_SIDE, &panels)?));
                    }
                    None if matches!(m.weights, Weights::Kernel(_)) => r.notes.push(format!(
                        "{}: weights not drawn: a kernel model is a sum over support rows, not a weight vector",
                        input.name
                    )),
                    None => r.notes.push(format!(
                        "{}: weights not drawn: dimension {} is not a {IMAGE_SIDE}×{IMAGE_SIDE} image",
                        input.name, m.meta.dim
                    )),
                }
            }
        }
    }
    for input in inputs {
        let Doc::Ocr(o) = &input.doc else { continue };
        ocr_section(&mut r, &mut html, input, o)?;
    }
    for input in inputs {
        let Doc::Bounds(b) = &input.doc else { continue };
        bounds_section(&mut html, input, b);
    }
    html.push_str("</body>\n</html>\n");
    r.files.push(("index.html".into(), html.into_bytes()));
    Ok(r)
}

/// Each pass's position on the x axis: its count of passes so far (the
/// last of a fractional run at its fraction).
fn pass_positions(t: &TrainDoc) -> Vec<f64> {
    let full = t.passes.iter().map(|p| p.examples).max().unwrap_or(1).max(1) as f64;
    let mut at = 0.0;
    t.passes
        .iter()
        .map(|p| {
            at += p.examples as f64 / full;
            at
        })
        .collect()
}

/// The OCR benchmark: the table of the lecture notes (passes × learner,
/// mean ± sd test error) beside its plot.
fn ocr_section(r: &mut Report, html: &mut String, input: &Input, o: &OcrDoc) -> Result<(), Error> {
    if o.records.is_empty() {
        return Err(Error::Input(format!("{}: an ocr document with no records", input.name)));
    }
    let mut learners: Vec<&str> = Vec::new();
    let mut passes: Vec<f64> = Vec::new();
    for rec in &o.records {
        if !learners.contains(&rec.learner.as_str()) {
            learners.push(&rec.learner);
        }
        if !passes.contains(&rec.passes) {
            passes.push(rec.passes);
        }
    }
    passes.sort_by(f64::total_cmp);
    let target = o.target.map_or(String::new(), |t| format!(", digit {t} against the rest"));
    let seeds = o.seeds.map_or(String::new(), |s| format!(", mean ± sd over {s} seed(s)"));
    let _ = write!(
        html,
        "<h2>OCR benchmark</h2>\n<p>{} training rows, {} test rows{target}{seeds}: test error.</p>\n",
        o.train_rows, o.test_rows
    );
    commands(html, std::iter::once((input.name.as_str(), o.command.as_deref())));
    html.push_str("<table>\n<tr><th>passes</th>");
    for l in &learners {
        let _ = write!(html, "<th>{}</th>", escape(l));
    }
    html.push_str("</tr>\n");
    for &p in &passes {
        let _ = write!(html, "<tr><td>{p}</td>");
        for l in &learners {
            match o.records.iter().find(|x| x.learner == *l && x.passes == p) {
                Some(x) => {
                    let _ = write!(html, "<td>{:.2}% ± {:.2}</td>", 100.0 * x.test_error, 100.0 * x.test_error_std);
                }
                None => html.push_str("<td></td>"),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>\n");
    let series = learners
        .iter()
        .map(|l| {
            let recs: Vec<&RecordDoc> = o.records.iter().filter(|x| x.learner == *l).collect();
            Series {
                spread: Some(recs.iter().map(|x| x.test_error_std).collect()),
                ..Series::new(*l, recs.iter().map(|x| (x.passes, x.test_error)).collect())
            }
        })
        .collect();
    let chart = Chart {
        title: format!("Test error by passes{target}"),
        x_label: "passes".into(),
        y_label: "test error".into(),
        log_x: passes.iter().all(|&p| p > 0.0) && passes.len() > 1,
        percent: true,
        series,
    };
    add_figure(r, html, &format!("ocr-{}.svg", file_safe(&input.name)), &chart)
}

/// The mistake bounds of `bounds --json` as a table.
fn bounds_section(html: &mut String, input: &Input, b: &BoundsDoc) {
    html.push_str("<h2>Mistake bounds</h2>\n");
    commands(html, std::iter::once((input.name.as_str(), b.command.as_deref())));
    let novikoff = b.novikoff.map_or("none (the reference does not separate the data)".into(), |n| format!("{n:.1}"));
    let rows = [
        ("examples", b.examples.to_string()),
        ("reference separator u", escape(&b.reference)),
        ("R = max ‖(x, 1)‖", format!("{:.4}", b.r)),
        ("margin of u", format!("{:.6}", b.reference_margin)),
        ("Novikoff (R/γ)²", novikoff),
        ("Freund–Schapire ((R+D)/γ)²", format!("{:.1} (γ = {:.6}, D = {:.4})", b.freund_schapire, b.gamma, b.deficit)),
        ("Perceptron mistakes, one pass", b.perceptron_mistakes.to_string()),
    ];
    html.push_str("<table>\n");
    for (k, v) in rows {
        let _ = writeln!(html, "<tr><th>{k}</th><td>{v}</td></tr>");
    }
    html.push_str("</table>\n");
}

/// The weight panels as one PNG, a pixel per weight (panels side by side,
/// a white column between), in the SVG's colours: 8-bit RGB, filter 0,
/// deflated by flate2's Rust backend — no system library.
fn weight_png(width: usize, height: usize, panels: &[Panel<'_>]) -> Result<Vec<u8>, Error> {
    let colours = crate::plot::weight_colours(panels)?;
    let w = panels.len() * (width + 1) - 1;
    let mut raw = Vec::with_capacity(height * (1 + 3 * w));
    for y in 0..height {
        raw.push(0);
        for (n, c) in colours.iter().enumerate() {
            if n > 0 {
                raw.extend([255, 255, 255]);
            }
            for x in 0..width {
                raw.extend(c[y * width + x]);
            }
        }
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let idat = std::io::Write::write_all(&mut z, &raw)
        .and_then(|()| z.finish())
        .map_err(|e| Error::Input(format!("encoding a PNG: {e}")))?;
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend((w as u32).to_be_bytes());
    ihdr.extend((height as u32).to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    for (kind, body) in [(&b"IHDR"[..], &ihdr[..]), (b"IDAT", &idat), (b"IEND", &[])] {
        png.extend((body.len() as u32).to_be_bytes());
        let at = png.len();
        png.extend(kind);
        png.extend(body);
        let crc = crc32fast::hash(&png[at..]);
        png.extend(crc.to_be_bytes());
    }
    Ok(png)
}

/// The command lines, one `<pre>` each.
fn commands<'a>(html: &mut String, runs: impl Iterator<Item = (&'a str, Option<&'a str>)>) {
    for (name, cmd) in runs {
        match cmd {
            Some(c) => {
                let _ = writeln!(html, "<pre>{}</pre>", escape(c));
            }
            None => {
                let _ = writeln!(html, "<p>{}: (no command line recorded)</p>", escape(name));
            }
        }
    }
}

fn add_figure(r: &mut Report, html: &mut String, file: &str, chart: &Chart) -> Result<(), Error> {
    let svg = chart.to_svg()?;
    figure(html, file, &chart.title);
    r.files.push((file.to_string(), svg.into_bytes()));
    Ok(())
}

fn figure(html: &mut String, file: &str, alt: &str) {
    let _ = writeln!(html, "<p><img src=\"{}\" alt=\"{}\"></p>", escape(file), escape(alt));
}

/// `name` with anything but letters, digits, `-` and `_` as `_`.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// The model's weight vectors as 28×28 panels (title, values), or `None`
/// when its dimension is not one such image or it has no weight vector (a
/// kernel model).
pub fn weight_panels(m: &Model) -> Option<Vec<(String, Vec<f32>)>> {
    let side = IMAGE_SIDE * IMAGE_SIDE;
    if m.meta.dim != side as u64 {
        return None;
    }
    Some(match &m.weights {
        Weights::Linear(l) => vec![("the weight vector".into(), l.weights[..side].to_vec())],
        Weights::Voted(v) => vec![("the votes' weighted mean".into(), v.mean_vector().0[..side].to_vec())],
        Weights::Multiclass(mc) => mc
            .weights
            .chunks(mc.dim)
            .zip(&m.meta.classes)
            .map(|(w, c)| (format!("class {c}"), w[..side].to_vec()))
            .collect(),
        // A kernel expansion has no weight vector to draw.
        Weights::Kernel(_) => return None,
    })
}

/// Writes `report` into `dir` (created if missing): every file under a
/// temporary name, then renamed, `index.html` last.
pub fn write(dir: &Path, report: &Report) -> Result<(), Error> {
    let io = |what: &str, p: &Path, e: std::io::Error| Error::Input(format!("{}: cannot {what}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| io("create the directory", dir, e))?;
    for (name, text) in &report.files {
        let path = dir.join(name);
        let tmp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&tmp, text).map_err(|e| io("write", &tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| io("rename into place", &path, e))?;
    }
    Ok(())
}
