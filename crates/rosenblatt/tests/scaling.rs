//! `rosenblatt bench scaling` as a user meets it: every (parts, threads)
//! pair run as whole `train` processes, figures that add up, each part
//! count's models the same bytes on every thread count, bad lists refused.

mod common;
use common::{p, run};

#[test]
fn bench_scaling_reports_every_configuration_and_checks_the_models() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("sp");
    let (code, _, err) =
        run(&["datasets", "sparse", "-o", p(&d), "--rows", "3000", "--test-rows", "500", "--dim", "5000", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let (train, test) = (d.join("train"), d.join("test"));
    let args = ["bench", "scaling", p(&train), "--test", p(&test), "--parts", "1,3", "--threads", "1,2"];
    let (code, out, err) = run(&[&args[..], &["--passes", "3", "--repeats", "1", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = doc["runs"].as_array().unwrap();
    let pairs: Vec<(u64, u64)> =
        runs.iter().map(|r| (r["parts"].as_u64().unwrap(), r["threads"].as_u64().unwrap())).collect();
    assert_eq!(pairs, [(1, 1), (1, 2), (3, 1), (3, 2)]);
    for r in runs {
        let (one, many, per) = (
            r["one_pass_seconds"].as_f64().unwrap(),
            r["passes_seconds"].as_f64().unwrap(),
            r["per_pass_seconds"].as_f64().unwrap(),
        );
        assert!(one > 0.0 && many > 0.0, "{r}");
        // The one-pass run less its pass: something, and less than the run.
        let around = r["around_seconds"].as_f64().unwrap();
        assert!(around > 0.0 && around < one, "{r}");
        assert!((per - (many - one) / 2.0).abs() < 1e-12, "{r}");
        assert_eq!(r["same_model"], true, "{r}");
        let e = r["test_error"].as_f64().unwrap();
        assert!(e > 0.0 && e < 0.5, "{r}");
    }
    assert_eq!(runs[0]["speedup"], 1.0);
    // The table says the same.
    let (code, out, err) = run(&[&args[..], &["--passes", "2", "--repeats", "1"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("same bytes") && !out.contains("DIFFERS"), "{out}");
    assert_eq!(out.lines().count(), 6, "{out}");
    // Refused by the command (1) or by the flags' own ranges (2).
    for (bad, code_wanted, says) in
        [(["--parts", "0"], 1, "--parts 0"), (["--threads", "0"], 1, "--threads 0"), (["--passes", "1"], 2, "--passes")]
    {
        let (code, _, err) = run(&[&["bench", "scaling", p(&train)][..], &bad[..]].concat());
        assert_eq!(code, code_wanted, "{bad:?}: {err}");
        assert!(err.contains(says), "{bad:?}: {err}");
    }
}
