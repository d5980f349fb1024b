//! `rosenblatt report` and the pictures it draws: refusals, one cell per
//! pixel, SVG that parses, the same bytes every run, and the command end
//! to end (`train --json`, `report`, `train --report`).

use rosenblatt::loader::{Rows, WriteOptions, write_dataset};
use rosenblatt::plot::{Chart, Panel, Series, weight_image};
use rosenblatt::report::{Input, render};
use std::path::Path;
use std::process::Command;

fn chart(series: Vec<Series>, log_x: bool) -> Chart {
    Chart { title: "t".into(), x_label: "x".into(), y_label: "y".into(), log_x, percent: true, series }
}

fn parses(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
}

#[test]
fn nan_empty_and_bad_log_values_are_refused_by_name() {
    let ok = Series::new("a", vec![(1.0, 0.1), (2.0, 0.05)]);
    assert!(chart(vec![ok.clone()], false).to_svg().is_ok());
    let e = chart(vec![], false).to_svg().unwrap_err().to_string();
    assert!(e.contains("no series"), "{e}");
    let e = chart(vec![ok.clone(), Series::new("empty one", vec![])], false).to_svg().unwrap_err().to_string();
    assert!(e.contains("\"empty one\" has no points"), "{e}");
    let e = chart(vec![Series::new("b", vec![(1.0, 0.1), (2.0, f64::NAN)])], false).to_svg().unwrap_err().to_string();
    assert!(e.contains("\"b\", point 1") && e.contains("not finite"), "{e}");
    let e = chart(vec![Series::new("c", vec![(0.0, 0.1)])], true).to_svg().unwrap_err().to_string();
    assert!(e.contains("\"c\", point 0") && e.contains("log axis"), "{e}");
    let spread = Series { spread: Some(vec![0.1]), ..ok.clone() };
    let e = chart(vec![spread], false).to_svg().unwrap_err().to_string();
    assert!(e.contains("1 spreads for 2 points"), "{e}");

    let w = vec![0.5f32; 16];
    let e = weight_image("w", 4, 4, &[]).unwrap_err().to_string();
    assert!(e.contains("no panels"), "{e}");
    let e = weight_image("w", 4, 5, &[Panel { title: "p".into(), values: &w }]).unwrap_err().to_string();
    assert!(e.contains("16 values for 4 × 5 pixels"), "{e}");
    let mut bad = w.clone();
    bad[7] = f32::INFINITY;
    let e = weight_image("w", 4, 4, &[Panel { title: "p".into(), values: &bad }]).unwrap_err().to_string();
    assert!(e.contains("weight 7 is inf"), "{e}");
}

#[test]
fn a_chart_is_svg_with_a_line_per_series_and_the_same_bytes_every_time() {
    let a = Series::new("perceptron", vec![(0.1, 0.2), (1.0, 0.06), (10.0, 0.05)]);
    let b =
        Series { spread: Some(vec![0.01, 0.002, 0.001]), dashed: true, ..Series::new("a < b & c", a.points.clone()) };
    let c = chart(vec![a, b], true);
    let svg = c.to_svg().unwrap();
    assert_eq!(svg, c.to_svg().unwrap());
    let doc = parses(&svg);
    let lines: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("series")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].attribute("points").unwrap().split(' ').count(), 3);
    assert!(lines[1].attribute("stroke-dasharray").is_some());
    // The label is escaped, and read back whole.
    assert!(doc.descendants().any(|n| n.text() == Some("a < b & c")));
    // Log ticks from 0.1 to 10 at 1, 2 and 5 times each power of ten.
    for tick in ["0.1", "0.2", "0.5", "1", "2", "5", "10"] {
        assert!(doc.descendants().any(|n| n.text() == Some(tick)), "no tick {tick}");
    }
}

/// A line drawn over another that it coincides with (the voted and the
/// averaged Perceptron's test errors) used to hide it: it is drawn dashed,
/// with hollow rings, so the one under it shows through.
#[test]
fn a_line_over_one_it_coincides_with_leaves_it_visible() {
    let a = Series::new("voted", vec![(0.1, 0.043), (1.0, 0.035), (10.0, 0.0325)]);
    // Within a pixel of `a` everywhere, then clearly apart.
    let b = Series::new("averaged", vec![(0.1, 0.0431), (1.0, 0.0349), (10.0, 0.0324)]);
    let c = Series::new("perceptron", vec![(0.1, 0.063), (1.0, 0.049), (10.0, 0.046)]);
    let svg = chart(vec![a, b, c], true).to_svg().unwrap();
    let doc = parses(&svg);
    let lines: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("series")).collect();
    let dashes: Vec<_> = lines.iter().map(|l| l.attribute("stroke-dasharray")).collect();
    assert_eq!(dashes, [None, Some("4 6"), None], "only the covering line is dashed");
    let colour = lines[1].attribute("stroke").unwrap();
    let rings = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("circle") && n.attribute("fill") == Some("none") && n.attribute("stroke") == Some(colour)
        })
        .count();
    assert_eq!(rings, 3, "its points are rings around the points under them");
    // Its legend entry is dashed too.
    let legend = doc.descendants().filter(|n| n.has_tag_name("line") && n.attribute("stroke") == Some(colour));
    assert!(legend.into_iter().any(|n| n.attribute("stroke-dasharray") == Some("4 6")));
}

#[test]
fn a_weight_image_has_one_cell_per_pixel_coloured_by_sign() {
    let side = 28;
    let w: Vec<f32> = (0..side * side).map(|k| k as f32 - 392.0).collect();
    let v: Vec<f32> = (0..side * side).map(|k| if k % 2 == 0 { 1.0 } else { 0.0 }).collect();
    let panels = [Panel { title: "class 0".into(), values: &w }, Panel { title: "class 1".into(), values: &v }];
    let svg = weight_image("two", side, side, &panels).unwrap();
    let doc = parses(&svg);
    let groups: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("panel")).collect();
    assert_eq!(groups.len(), 2);
    for (g, values) in groups.iter().zip([&w, &v]) {
        let cells: Vec<_> = g.children().filter(|n| n.attribute("class") == Some("px")).collect();
        assert_eq!(cells.len(), side * side);
        for (k, cell) in cells.iter().enumerate() {
            let (x, y): (usize, usize) =
                (cell.attribute("x").unwrap().parse().unwrap(), cell.attribute("y").unwrap().parse().unwrap());
            assert_eq!((x, y), (k % side, k / side));
            // Zero is white; positive weights redder than blue, negative bluer.
            let fill = cell.attribute("fill").unwrap();
            let rgb = |i: usize| u8::from_str_radix(&fill[1 + 2 * i..3 + 2 * i], 16).unwrap();
            let value = values[k];
            if value == 0.0 {
                assert_eq!(fill, "#ffffff");
            } else if value > 0.0 {
                assert!(rgb(0) > rgb(2), "{k}: {value} drawn {fill}");
            } else {
                assert!(rgb(2) > rgb(0), "{k}: {value} drawn {fill}");
            }
        }
    }
}

#[test]
fn documents_are_recognised_by_kind_and_bad_ones_refused() {
    let e = Input::parse("x.json", "{").unwrap_err().to_string();
    assert!(e.contains("x.json: not JSON"), "{e}");
    let e = Input::parse("x.json", "{}").unwrap_err().to_string();
    assert!(e.contains("no \"kind\""), "{e}");
    let e = Input::parse("x.json", r#"{"kind": "train", "learner": "perceptron"}"#).unwrap_err().to_string();
    assert!(e.contains("a train document") && e.contains("passes"), "{e}");
    let e = Input::parse("x.json", r#"{"kind": "eval"}"#).unwrap_err().to_string();
    assert!(e.contains("\"eval\""), "{e}");
    // A run without passes has nothing to draw.
    let none = r#"{"kind": "train", "learner": "p", "passes": []}"#;
    let e = render(&[Input::parse("y", none).unwrap()], &[]).unwrap_err().to_string();
    assert!(e.contains("no passes"), "{e}");
}

#[test]
fn the_ocr_table_sits_beside_its_plot() {
    let doc = serde_json::json!({
        "kind": "ocr", "command": "rosenblatt bench ocr --seeds 2", "train_rows": 60000, "test_rows": 10000,
        "seeds": 2, "target": 9,
        "records": [
            {"learner": "perceptron", "passes": 1.0, "test_error": 0.05, "test_error_std": 0.01},
            {"learner": "averaged-perceptron", "passes": 1.0, "test_error": 0.0347, "test_error_std": 0.0005},
            {"learner": "perceptron", "passes": 10.0, "test_error": 0.0478, "test_error_std": 0.0106},
            {"learner": "averaged-perceptron", "passes": 10.0, "test_error": 0.0325, "test_error_std": 0.0004},
        ],
    });
    let report = render(&[Input::from_value("ocr", doc).unwrap()], &[]).unwrap();
    let file = |name: &str| {
        let bytes = &report.files.iter().find(|f| f.0 == name).unwrap_or_else(|| panic!("no {name}")).1;
        std::str::from_utf8(bytes).unwrap()
    };
    let html = file("index.html");
    assert!(html.contains("<td>3.25% ± 0.04</td>") && html.contains("<td>4.78% ± 1.06</td>"), "{html}");
    assert!(html.contains("rosenblatt bench ocr --seeds 2") && html.contains("src=\"ocr-ocr.svg\""), "{html}");
    let svg = parses(file("ocr-ocr.svg"));
    assert_eq!(svg.descendants().filter(|n| n.attribute("class") == Some("series")).count(), 2);
    assert_eq!(report.files.last().unwrap().0, "index.html", "the index is written last");
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rosenblatt")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

/// 400 random 28×28 "images", +1 where the left half is brighter.
fn images(dir: &Path) {
    let mut rows = Rows::empty();
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..400 {
        let mut x = vec![0f32; 784];
        for v in &mut x {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *v = (s % 256) as f32 / 255.0;
        }
        let left: f32 = (0..784).filter(|k| k % 28 < 14).map(|k| x[k]).sum();
        let right: f32 = (0..784).filter(|k| k % 28 >= 14).map(|k| x[k]).sum();
        for (k, &v) in x.iter().enumerate().filter(|e| *e.1 != 0.0) {
            rows.indices.push(k as u32);
            rows.values.push(v);
        }
        rows.offsets.push(rows.indices.len() as u64);
        rows.labels.push(if left > right { 1.0 } else { -1.0 });
        rows.qids.push(rosenblatt::loader::libsvm::NO_QID);
    }
    rows.dim = 784;
    write_dataset(dir, &rows, &WriteOptions { dim: Some(784), ..Default::default() }).unwrap();
}

#[test]
fn train_json_becomes_a_report_with_the_same_bytes_every_time() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    images(&t.join("data"));
    let model = t.join("m.model");
    let json = t.join("averaged.json");
    let (code, out, err) = run(&[
        "train",
        p(&t.join("data")),
        "--learner",
        "averaged-perceptron",
        "--passes",
        "3",
        "--holdout",
        "0.25",
        "--train-error",
        "-o",
        p(&model),
        "--json",
        "--report",
        p(&t.join("direct")),
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&json, &out).unwrap();
    for dir in ["a", "b"] {
        let (code, _, err) = run(&["report", p(&json), "-o", p(&t.join(dir))]);
        assert_eq!(code, 0, "{err}");
    }
    let names = |dir: &str| {
        let mut v: Vec<String> =
            std::fs::read_dir(t.join(dir)).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        v.sort();
        v
    };
    assert_eq!(names("a"), ["error.svg", "index.html", "online.svg", "weights-averaged.png", "weights-averaged.svg"]);
    assert_eq!(names("direct"), ["error.svg", "index.html", "online.svg", "weights-run.png", "weights-run.svg"]);
    for name in names("a") {
        let (a, b) = (std::fs::read(t.join("a").join(&name)).unwrap(), std::fs::read(t.join("b").join(&name)).unwrap());
        assert!(a == b, "{name} differs between two runs");
        if name.ends_with(".svg") {
            parses(std::str::from_utf8(&a).unwrap());
        }
    }
    let html = std::fs::read_to_string(t.join("a/index.html")).unwrap();
    assert!(html.contains("rosenblatt train ") && html.contains("--learner averaged-perceptron"), "{html}");
    for svg in ["online.svg", "error.svg", "weights-averaged.svg"] {
        assert!(html.contains(&format!("src=\"{svg}\"")), "{html}");
    }
    let error = std::fs::read_to_string(t.join("a/error.svg")).unwrap();
    assert!(error.contains("averaged-perceptron: holdout") && error.contains("averaged-perceptron: train"));
    let weights = std::fs::read_to_string(t.join("a/weights-averaged.svg")).unwrap();
    let svg = parses(&weights);
    let cells: Vec<_> = svg.descendants().filter(|n| n.attribute("class") == Some("px")).collect();
    assert_eq!(cells.len(), 784);
    // The PNG: 28 × 28 RGB pixels, each the colour of its SVG cell.
    let png = std::fs::read(t.join("a/weights-averaged.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!(
        (&png[16..20], &png[20..24], &png[24..26]),
        (&28u32.to_be_bytes()[..], &28u32.to_be_bytes()[..], &[8u8, 2][..])
    );
    let idat_len = u32::from_be_bytes(png[33..37].try_into().unwrap()) as usize;
    assert_eq!(&png[37..41], b"IDAT");
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(&png[41..41 + idat_len]), &mut raw).unwrap();
    assert_eq!(raw.len(), 28 * (1 + 3 * 28));
    for (k, cell) in cells.iter().enumerate() {
        let (x, y) = (k % 28, k / 28);
        let at = y * (1 + 3 * 28) + 1 + 3 * x;
        let fill = format!("#{:02x}{:02x}{:02x}", raw[at], raw[at + 1], raw[at + 2]);
        assert_eq!(cell.attribute("fill"), Some(fill.as_str()), "pixel {k}");
    }

    // The mistake bounds, from `bounds --json`, as a table beside the runs.
    let (code, out, err) = run(&["bounds", p(&t.join("data")), "--model", p(&model), "--json"]);
    assert_eq!(code, 0, "{err}");
    let bounds = t.join("bounds.json");
    std::fs::write(&bounds, &out).unwrap();
    let (code, _, err) = run(&["report", p(&json), p(&bounds), "-o", p(&t.join("both"))]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(t.join("both/index.html")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mistakes = format!("<tr><th>Perceptron mistakes, one pass</th><td>{}</td></tr>", v["perceptron_mistakes"]);
    assert!(html.contains("<h2>Mistake bounds</h2>") && html.contains(&mistakes), "{html}");
    assert!(html.contains("<th>Freund–Schapire ((R+D)/γ)²</th>"), "{html}");

    // A JSON that is not a document, and an unwritable directory: one line, status 1.
    let (code, _, err) = run(&["report", p(&model), "-o", p(&t.join("c"))]);
    assert_eq!(code, 1);
    assert!(err.contains("not JSON") && !err.contains("panicked"), "{err}");
    let (code, _, err) = run(&["report", p(&json), "-o", p(&model)]);
    assert_eq!(code, 1);
    assert!(err.contains("exists and is not a directory") && err.trim().lines().count() == 1, "{err}");
    let (code, _, err) = run(&["report", p(&json), "-o", p(&model.join("sub"))]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot create the directory"), "{err}");
}

#[test]
fn the_voted_perceptrons_picture_is_the_averaged_perceptrons_vector() {
    use rosenblatt::learners::Learner;
    use rosenblatt::{Config, Fit};
    let tmp = tempfile::tempdir().unwrap();
    images(&tmp.path().join("data"));
    let ds = rosenblatt::loader::Dataset::open(tmp.path().join("data"), Default::default()).unwrap();
    let panel = |learner| {
        let m = Config::new(learner).passes(2.0).fit(&ds).unwrap();
        rosenblatt::report::weight_panels(&m).unwrap().remove(0).1
    };
    let (voted, averaged) = (panel(Learner::VotedPerceptron), panel(Learner::AveragedPerceptron));
    // The same run's vectors weighted by survival (voted) or one per step
    // (averaged) are the same mean: equal to rounding (weighting every
    // vector once instead gives a cosine of 0.9994 here).
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum::<f64>();
    let cosine = dot(&voted, &averaged) / (dot(&voted, &voted) * dot(&averaged, &averaged)).sqrt();
    assert!(cosine > 1.0 - 1e-9, "cosine {cosine}");
}
