//! The VW text reader against Vowpal Wabbit's own `--audit`, without VW:
//! `tests/data/vw-audit` holds 20 settings' generated lines (importance
//! weights, tags, namespaces with scales, numeric, anonymous and string
//! features; `--bits` 10 to 30, `--hash-seed`, `--hash all`, `-q ::`,
//! `--cubic`, `--interactions`, `--ignore`, `--keep`, `--ignore-linear`),
//! rosenblatt's flags for each, and VW 9.11.9's audit of the lines as
//! `benches/scripts/vw_audit_check.py --write` kept it. Every row's
//! features as `inspect --audit --json` lists them must be VW's: name,
//! index and value (printed as VW prints it, six significant digits).

use std::path::Path;

mod common;
use common::run;

type Row = Vec<(String, u64, String)>;

/// `v` as C's `%g` writes it (six significant digits, trailing zeros
/// dropped, an exponent below 1e-4 or from 1e6), which VW's audit uses.
fn g(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let exp = format!("{v:.5e}");
    let (mantissa, e) = exp.split_once('e').unwrap();
    let e: i32 = e.parse().unwrap();
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if !(-4..6).contains(&e) {
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(mantissa.to_string()), e.abs());
    }
    trim(format!("{v:.*}", (5 - e).max(0) as usize))
}

fn expected(path: &Path) -> Vec<Row> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let cells: Vec<&str> = if l.is_empty() { Vec::new() } else { l.split('\t').collect() };
            cells.chunks(3).map(|c| (c[0].to_string(), c[1].parse().unwrap(), c[2].to_string())).collect()
        })
        .collect()
}

fn ours(vw: &Path, flags: &[&str]) -> Vec<Row> {
    let mut args = vec!["inspect", "--audit", vw.to_str().unwrap(), "--rows", "1000", "--json"];
    args.extend(flags);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut row: Row = r["features"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let name = f["name"].as_str().unwrap().to_string();
                    (name, f["index"].as_u64().unwrap(), g(f["value"].as_f64().unwrap()))
                })
                .collect();
            row.sort();
            row
        })
        .collect()
}

#[test]
fn every_feature_lands_where_vw_9_puts_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vw-audit");
    let mut settings = 0;
    let mut features = 0;
    for k in 1..=20 {
        let stem = dir.join(format!("{k:02}"));
        let flags = std::fs::read_to_string(stem.with_extension("flags")).unwrap();
        let flags: Vec<&str> = flags.lines().collect();
        let want = expected(&stem.with_extension("audit"));
        let got = ours(&stem.with_extension("vw"), &flags);
        assert_eq!(got.len(), want.len(), "setting {k} ({flags:?}): rows");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g == w, "setting {k} ({flags:?}), line {}: ours {g:?}, VW {w:?}", i + 1);
        }
        settings += 1;
        features += want.iter().map(Vec::len).sum::<usize>();
    }
    assert_eq!(settings, 20);
    assert!(features > 10_000, "{features} features");
}

#[test]
fn the_g_format_is_cs() {
    for (v, s) in [
        (1.0, "1"),
        (0.5, "0.5"),
        (-1.25, "-1.25"),
        (300.0, "300"),
        (0.001, "0.001"),
        (0.1234567, "0.123457"),
        (1e-5, "1e-05"),
        (1234567.0, "1.23457e+06"),
        (123456.0, "123456"),
        (-0.0, "-0"),
    ] {
        assert_eq!(g(v), s, "{v}");
    }
}
