//! The sparse generator: valid rows, determinism on any pool, the
//! frequencies, the hidden model and the noise it promises.

use rosenblatt_datasets::sparse::{SparseSpec, generate, hidden_model, write};
use rosenblatt_loader::{Dataset, OpenOptions};

fn spec(rows: usize) -> SparseSpec {
    SparseSpec { rows, dim: 1 << 12, nnz: 20, seed: 5, ..Default::default() }
}

#[test]
fn rows_are_valid_and_values_exact_sixteenths() {
    let s = spec(10_000);
    let r = generate(&s, 0).unwrap();
    assert_eq!(r.len(), 10_000);
    for i in 0..r.len() {
        let (a, b) = (r.offsets[i] as usize, r.offsets[i + 1] as usize);
        assert_eq!(b - a, 20);
        assert!(r.indices[a..b].windows(2).all(|w| w[0] < w[1]), "row {i}: distinct, sorted");
        assert!(r.indices[a..b].iter().all(|&f| (f as usize) < s.dim));
    }
    assert!(r.values.iter().all(|&v| (v * 16.0).fract() == 0.0 && v > 0.0 && v <= 1.0));
    assert!(r.labels.iter().all(|&y| y == 1.0 || y == -1.0));
    let pos = r.labels.iter().filter(|&&y| y > 0.0).count() as f64 / r.len() as f64;
    assert!((0.35..0.65).contains(&pos), "roughly balanced: {pos}");
}

#[test]
fn same_spec_same_rows_on_any_pool() {
    let s = spec(9_000); // three blocks, the last one short
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| generate(&s, 0).unwrap())
    };
    let a = on(1);
    let b = on(4);
    assert_eq!((&a.indices, &a.values, &a.labels, &a.offsets), (&b.indices, &b.values, &b.labels, &b.offsets));
    let other = generate(&s, 1).unwrap();
    assert_ne!(a.indices, other.indices, "another stream is another sample");
    assert_ne!(a.indices, generate(&SparseSpec { seed: 6, ..s }, 0).unwrap().indices);
}

#[test]
fn labels_follow_the_hidden_model_up_to_the_noise() {
    for noise in [0.0, 0.05, 0.2] {
        let s = SparseSpec { noise, ..spec(20_000) };
        let (r, (w, b)) = (generate(&s, 0).unwrap(), hidden_model(&s).unwrap());
        let zero = w.iter().filter(|&&v| v == 0.0).count() as f64 / w.len() as f64;
        assert!((zero - 0.9).abs() < 0.02, "10% of features in the model: {zero}");
        let flipped = (0..r.len())
            .filter(|&i| {
                let (a, e) = (r.offsets[i] as usize, r.offsets[i + 1] as usize);
                let m: f64 =
                    b + (a..e).map(|k| f64::from(w[r.indices[k] as usize]) * f64::from(r.values[k])).sum::<f64>();
                (if m > 0.0 { 1.0 } else { -1.0 }) != r.labels[i]
            })
            .count() as f64
            / r.len() as f64;
        let sd = (noise * (1.0 - noise) / r.len() as f64).sqrt();
        assert!((flipped - noise).abs() <= 4.0 * sd + 1e-12, "noise {noise}: {flipped} flipped");
    }
}

#[test]
fn feature_frequencies_follow_zipf() {
    // With s = 1, rank 1 is drawn 10 times as often as rank 10.
    let s = SparseSpec { zipf: 1.0, nnz: 5, ..spec(40_000) };
    let r = generate(&s, 0).unwrap();
    let mut count = vec![0u32; s.dim];
    r.indices.iter().for_each(|&f| count[f as usize] += 1);
    count.sort_unstable_by(|a, b| b.cmp(a));
    let ratio = f64::from(count[0]) / f64::from(count[9]);
    // Drawing without repeats within a row flattens the top a little.
    assert!((6.0..12.0).contains(&ratio), "rank 1 / rank 10 = {ratio}");
    let uniform = SparseSpec { zipf: 0.0, ..s };
    let r = generate(&uniform, 0).unwrap();
    let mut count = vec![0u32; s.dim];
    r.indices.iter().for_each(|&f| count[f as usize] += 1);
    let max = *count.iter().max().unwrap();
    assert!(max < 120, "s = 0 is uniform: max count {max} of mean 49");
}

#[test]
fn writes_train_and_test_sets_that_open() {
    let tmp = tempfile::tempdir().unwrap();
    let s = spec(5_000);
    let (tr, te) = (tmp.path().join("train"), tmp.path().join("test"));
    let (m, t) = write(&s, &tr, Some((1_000, &te))).unwrap();
    assert_eq!((m.rows, t.unwrap().rows), (5_000, 1_000));
    let ds = Dataset::open(&tr, OpenOptions { verify_checksums: true, in_memory: false }).unwrap();
    assert_eq!(ds.dim(), 1 << 12);
    assert_eq!(ds.manifest().label_kind.name(), "binary");
    assert!(ds.manifest().encoding.name().contains("u8"), "{}", ds.manifest().encoding);
    // Bad parameters are errors naming the parameter.
    for (bad, name) in [
        (SparseSpec { rows: 0, ..s }, "rows"),
        (SparseSpec { nnz: 1 << 12, ..s }, "nnz"),
        (SparseSpec { noise: 0.7, ..s }, "noise"),
        (SparseSpec { density: 0.0, ..s }, "density"),
    ] {
        let e = generate(&bad, 0).unwrap_err().to_string();
        assert!(e.starts_with(name), "{e}");
    }
}

/// An exponent so steep that nearly all the mass sits on fewer features
/// than a row needs: the rows still fill (with the most frequent features
/// they lack) instead of drawing forever.
#[test]
fn a_steep_exponent_still_fills_every_row() {
    for zipf in [8.0, 1e300] {
        let s = SparseSpec { zipf, ..spec(50) };
        let r = generate(&s, 0).unwrap();
        for i in 0..r.len() {
            let (a, b) = (r.offsets[i] as usize, r.offsets[i + 1] as usize);
            assert_eq!(b - a, 20, "{zipf}");
            assert!(r.indices[a..b].windows(2).all(|w| w[0] < w[1]), "{zipf}: row {i} distinct, sorted");
        }
    }
}
