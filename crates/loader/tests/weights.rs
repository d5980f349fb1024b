//! Importance weights from VW text to the examples learners read: the
//! shards' weights section (format version 2), kept by every way rows are
//! read, joined and rewritten; datasets without weights keep version 1's
//! bytes; bad weights refused where they are.

use rosenblatt_kernels::Examples;
use rosenblatt_loader::convert::{ConvertOptions, convert};
use rosenblatt_loader::format::{self, Encoding, Header, Indices, LabelKind, Labels, ShardData, ValueColumnData};
use rosenblatt_loader::{Dataset, LoadError, OpenOptions, WriteOptions};
use std::path::Path;

/// Line `i`'s importance, as written (`None`: no weight word, 1).
fn importance(i: usize) -> Option<&'static str> {
    match i % 7 {
        0 => Some("2"),
        1 => Some("0.5"),
        3 => Some("0"),
        5 => Some("1"),
        _ => None,
    }
}

/// `n` VW lines; the first `plain` without any weight word.
fn text(n: usize, plain: usize) -> String {
    let mut t = String::new();
    for i in 0..n {
        let y = if i % 3 == 0 { "1" } else { "-1" };
        let w = if i < plain { "" } else { importance(i).unwrap_or("") };
        t.push_str(&format!("{y} {w} |a w{} x:{} |b c:v{}\n", i % 17, i % 9 + 1, i % 5));
    }
    t
}

fn weight_of(i: usize, plain: usize) -> f32 {
    if i < plain { 1.0 } else { importance(i).map_or(1.0, |w| w.parse().unwrap()) }
}

fn version(shard: &Path) -> u32 {
    u32::from_le_bytes(std::fs::read(shard).unwrap()[8..12].try_into().unwrap())
}

#[test]
fn weights_travel_from_vw_text_to_the_examples_through_pieces_shards_and_views() {
    let tmp = tempfile::tempdir().unwrap();
    let n = 3000;
    // Weights only from line 2000 on: the first batches have none, so the
    // conversion must change its mind about the shards it has written.
    let file = tmp.path().join("d.vw");
    std::fs::write(&file, text(n, 2000)).unwrap();
    let run = |piece: usize, batch: u64, out: &str| {
        let write = WriteOptions { shard_bytes: 8 << 10, ..WriteOptions::default() };
        let opts = ConvertOptions {
            piece_bytes: piece,
            batch_bytes: batch,
            block_bytes: 16 << 10,
            threads: Some(2),
            write,
            ..Default::default()
        };
        convert(std::slice::from_ref(&file), &tmp.path().join(out), &opts, &mut |_| {}).unwrap().manifest
    };
    let whole = run(1 << 30, 1 << 30, "whole");
    let pieces = run(256, 4 << 10, "pieces");
    assert!(whole.has_weights && pieces.has_weights);
    assert!(pieces.shards.len() > 3, "{} shards", pieces.shards.len());
    let ds = Dataset::open(tmp.path().join("pieces"), OpenOptions::VERIFIED).unwrap();
    for s in &pieces.shards {
        assert_eq!(version(&tmp.path().join("pieces").join(&s.file)), 2, "{}", s.file);
    }
    let ex = ds.examples().unwrap();
    let want: Vec<f32> = (0..n).map(|i| weight_of(i, 2000)).collect();
    rosenblatt_loader::with_examples!(&ex, |e| {
        assert!(e.weighted());
        assert_eq!((0..n).map(|i| e.weight(i)).collect::<Vec<_>>(), want);
    });
    // A range keeps its rows' weights; other weights replace them.
    let tail = ex.range(2500..n);
    rosenblatt_loader::with_examples!(&tail, |e| {
        assert_eq!((0..500).map(|i| e.weight(i)).collect::<Vec<_>>(), want[2500..]);
    });
    let other: Vec<f32> = (0..n).map(|i| i as f32).collect();
    rosenblatt_loader::with_examples!(&ex.with_weights(&other), |e| assert_eq!(e.weight(7), 7.0));
    // Read back as rows (export, interop), and the same as one piece.
    assert_eq!(ds.to_rows().weights, want);
    let one = Dataset::open(tmp.path().join("whole"), OpenOptions::VERIFIED).unwrap();
    assert_eq!(one.to_rows(), ds.to_rows());
}

#[test]
fn rows_without_weights_are_written_as_version_1_with_no_weights_in_the_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("d.vw");
    std::fs::write(&file, text(500, 500)).unwrap();
    let m = convert(std::slice::from_ref(&file), &tmp.path().join("out"), &ConvertOptions::default(), &mut |_| {})
        .unwrap()
        .manifest;
    assert!(!m.has_weights);
    assert_eq!(version(&tmp.path().join("out").join(&m.shards[0].file)), 1);
    let json = std::fs::read_to_string(tmp.path().join("out/dataset.json")).unwrap();
    assert!(!json.contains("weights"), "{json}");
    let ds = Dataset::open(tmp.path().join("out"), OpenOptions::VERIFIED).unwrap();
    rosenblatt_loader::with_examples!(&ds.examples().unwrap(), |e| {
        assert!(!e.weighted());
        assert_eq!(e.weight(3), 1.0);
    });
    assert!(ds.to_rows().weights.is_empty());
}

#[test]
fn a_negative_or_infinite_weight_is_refused_naming_its_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    for (bad, column) in [("1 -2 |a x", 3), ("-1 1e40 'tag |a x", 4)] {
        let file = tmp.path().join("bad.vw");
        std::fs::write(&file, format!("1 |a x\n{bad}\n")).unwrap();
        let out = tmp.path().join(format!("out{column}"));
        match convert(std::slice::from_ref(&file), &out, &ConvertOptions::default(), &mut |_| {}) {
            Err(LoadError::Parse { error, .. }) => {
                assert_eq!((error.line, error.column), (2, column), "{error}");
                assert!(error.to_string().contains("importance weight"), "{error}");
            }
            other => panic!("{bad}: {other:?}"),
        }
        assert!(!out.join("dataset.json").exists());
    }
}

#[test]
fn a_shard_whose_weights_are_bad_or_the_wrong_length_does_not_open() {
    let tmp = tempfile::tempdir().unwrap();
    let header = Header {
        rows: 2,
        nnz: 2,
        dim: 4,
        encoding: Encoding { layout: format::Layout::Sparse, index_bytes: 4, values: format::ValueEncoding::F32 },
        label_kind: LabelKind::Binary,
        index_base: 1,
        multilabels: 0,
    };
    let image = |weights: &[f32]| {
        format::encode(
            &header,
            &ShardData {
                labels: Labels::Single(&[1.0, -1.0]),
                offsets: &[0, 1, 2],
                indices: Indices::U32(&[0, 3]),
                values: ValueColumnData::F32(&[1.0, 2.0]),
                qids: &[],
                weights,
            },
        )
    };
    let path = tmp.path().join("s.rbs");
    std::fs::write(&path, image(&[0.5, 3.0])).unwrap();
    let shard = rosenblatt_loader::Shard::open(&path, OpenOptions::VERIFIED).unwrap();
    assert_eq!(shard.weights(), [0.5, 3.0]);
    for (weights, says) in [(&[0.5, -1.0][..], "importance weight of row 1 is -1"), (&[1.0][..], "section weights")] {
        std::fs::write(&path, image(weights)).unwrap();
        let e = rosenblatt_loader::Shard::open(&path, OpenOptions::default()).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
}
