//! Shards and datasets: round trips in every encoding, corruption and
//! truncation, hostile bytes, crash safety, MNIST, sprs interop.

use proptest::prelude::*;
use rosenblatt_kernels::Row;
use rosenblatt_loader::format::{Layout, SECTIONS, ValueEncoding};
use rosenblatt_loader::libsvm::{parse, parse_parallel};
use rosenblatt_loader::writer::{choose_encoding, find_u8_scale, parse_encoding, write_dataset};
use rosenblatt_loader::{Dataset, OpenOptions, ParseOptions, RowSet, Rows, Shard, WriteOptions, interop, with_rows};
use std::path::Path;

mod common;
use common::text_for;

const ENCODINGS: [&str; 8] = [
    "sparse-u16-f32",
    "sparse-u16-u8",
    "sparse-u16-binary",
    "sparse-u32-f32",
    "sparse-u32-u8",
    "sparse-u32-binary",
    "dense-f32",
    "dense-u8",
];

fn rows_of(text: &str) -> Rows {
    parse(text.as_bytes(), &ParseOptions::default()).unwrap()
}

fn write(dir: &Path, rows: &Rows, encoding: Option<&str>, shard_bytes: u64) -> Dataset {
    let opts = WriteOptions {
        shard_bytes,
        encoding: encoding.map(|e| parse_encoding(e, None).unwrap()),
        ..Default::default()
    };
    write_dataset(dir, rows, &opts).unwrap();
    Dataset::open(dir, OpenOptions { verify_checksums: true, in_memory: false }).unwrap()
}

#[test]
fn every_encoding_round_trips_rows_labels_and_values() {
    for enc in ENCODINGS {
        let values = enc.rsplit('-').next().unwrap();
        let text = text_for(if values == "u8" || values == "binary" { values } else { "f32" }, 40);
        let rows = rows_of(&text);
        for shard_bytes in [1u64 << 30, 100] {
            let tmp = tempfile::tempdir().unwrap();
            let ds = write(tmp.path(), &rows, Some(enc), shard_bytes);
            assert_eq!(ds.manifest().encoding.name(), enc);
            assert_eq!(ds.to_rows(), rows, "{enc}, shard size {shard_bytes}");
            if shard_bytes == 100 {
                assert!(ds.shards().len() > 1, "{enc}: small shards expected");
            }
        }
    }
}

#[test]
fn rows_read_through_the_kernels_match_the_parsed_values() {
    let rows = rows_of(&text_for("u8", 50));
    let tmp = tempfile::tempdir().unwrap();
    let ds = write(tmp.path(), &rows, None, 1 << 30);
    assert_eq!(ds.manifest().encoding.name(), "dense-u8"); // dense enough and bytes × 1/255
    let w: Vec<f32> = (0..ds.dim() as usize).map(|i| i as f32 * 0.25 - 1.0).collect();
    let mut r0 = 0;
    for shard in ds.shards() {
        with_rows!(shard.rows(), |view| {
            for r in 0..view.len() {
                let (s, e) = (rows.offsets[r0 + r] as usize, rows.offsets[r0 + r + 1] as usize);
                let want: f64 =
                    (s..e).map(|k| f64::from(rows.values[k]) * f64::from(w[rows.indices[k] as usize])).sum();
                assert!((f64::from(view.row(r).dot(&w)) - want).abs() < 1e-4, "row {}", r0 + r);
            }
            r0 += view.len();
        });
    }
    assert_eq!(r0, rows.len());
}

#[test]
fn the_converter_picks_the_most_compact_lossless_encoding() {
    let sparse_dim = |text: &str, dim: u64| choose_encoding(&rows_of(text), dim);
    let e = sparse_dim("1 1:1 900:1\n", 70_000);
    assert_eq!((e.layout, e.index_bytes, e.values), (Layout::Sparse, 4, ValueEncoding::Ones));
    let e = sparse_dim("1 1:1 900:1\n", 1000);
    assert_eq!((e.layout, e.index_bytes), (Layout::Sparse, 2));
    let e = sparse_dim("1 1:0.3 900:2.1\n", 1000);
    assert_eq!(e.values, ValueEncoding::F32);
    let e = sparse_dim("1 1:3 900:200\n", 1000);
    assert_eq!(e.values, ValueEncoding::U8 { scale: 1.0 });
    let e = sparse_dim("1 1:1 2:0.5 3:2\n", 4);
    assert_eq!(e.layout, Layout::Dense);
    // Negative or non-grid values are never squeezed into bytes.
    assert_eq!(find_u8_scale(&[-1.0, 1.0]), None);
    assert_eq!(find_u8_scale(&[0.1, 0.37]), None);
    assert_eq!(find_u8_scale(&[1.0 / 255.0, 128.0 / 255.0]), Some(1.0 / 255.0));
    assert_eq!(find_u8_scale(&[0.25, 0.75, 10.0]), Some(0.25));
}

#[test]
fn a_lossy_forced_encoding_is_refused() {
    let rows = rows_of("1 1:0.3 2:3.7\n");
    let tmp = tempfile::tempdir().unwrap();
    for enc in ["sparse-u16-binary", "sparse-u16-u8"] {
        let opts = WriteOptions { encoding: Some(parse_encoding(enc, None).unwrap()), ..Default::default() };
        let e = write_dataset(tmp.path(), &rows, &opts).unwrap_err().to_string();
        assert!(e.contains("would lose values"), "{e}");
        assert!(Dataset::open(tmp.path(), OpenOptions::default()).is_err());
    }
    assert!(parse_encoding("dense-binary", None).is_err());
    assert!(parse_encoding("sparse-u8-f32", None).is_err());
}

fn one_shard_image(text: &str, enc: &str) -> Vec<u8> {
    let tmp = tempfile::tempdir().unwrap();
    let ds = write(tmp.path(), &rows_of(text), Some(enc), 1 << 30);
    std::fs::read(ds.shards()[0].path()).unwrap()
}

fn iterate_all(shard: &Shard) -> usize {
    let mut n = 0;
    with_rows!(shard.rows(), |rows| {
        let w = vec![1.0f32; rows.dim()];
        for r in 0..rows.len() {
            let row = rows.row(r);
            n += row.nnz();
            std::hint::black_box(row.dot(&w));
        }
    });
    n
}

#[test]
fn a_byte_flip_in_every_section_is_caught_by_verification() {
    let text = "1 qid:1 1:0.5 3:2\n-1 qid:2 2:1.5\n1 qid:2 4:2 5:1\n";
    for enc in ["sparse-u32-f32", "dense-f32", "sparse-u16-f32"] {
        let image = one_shard_image(text, enc);
        let shard = Shard::from_vec(&image, true).unwrap();
        let mut flipped_sections = 0;
        for s in 0..SECTIONS {
            let sec = shard.sections()[s];
            if sec.len == 0 {
                continue;
            }
            flipped_sections += 1;
            for at in [sec.offset, sec.offset + sec.len / 2, sec.offset + sec.len - 1] {
                let mut bad = image.clone();
                bad[at as usize] ^= 0x10;
                let e = Shard::from_vec(&bad, true).unwrap_err().to_string();
                assert!(e.contains("checksum") || e.contains("invalid shard"), "{enc} section {s}: {e}");
                // Without verification it may open, but then reads stay safe.
                if let Ok(sh) = Shard::from_vec(&bad, false) {
                    iterate_all(&sh);
                }
            }
        }
        // Sparse: labels, offsets, indices, values, qids; dense: no offsets or indices.
        assert_eq!(flipped_sections, if enc.starts_with("dense") { 3 } else { 5 }, "{enc}");
        // The header has its own checksum.
        for at in [0usize, 9, 17, 40, 48, 70] {
            let mut bad = image.clone();
            bad[at] ^= 1;
            assert!(Shard::from_vec(&bad, false).is_err(), "{enc} header byte {at}");
        }
    }
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let image = one_shard_image(&text_for("f32", 20), "sparse-u16-f32");
    let full = Shard::from_vec(&image, true).unwrap();
    let last_section_end = full.sections().iter().map(|s| s.offset + s.len).max().unwrap() as usize;
    for len in 0..last_section_end {
        let e = Shard::from_vec(&image[..len], false).unwrap_err().to_string();
        assert!(e.contains("truncated") || e.contains("past the end") || e.contains("shorter"), "len {len}: {e}");
    }
}

#[test]
fn hostile_headers_are_refused_with_the_value() {
    let image = one_shard_image("1 1:1 3:2\n", "sparse-u32-f32");
    let refix = |mut b: Vec<u8>| {
        let crc = crc32fast::hash(&b[..248]);
        b[248..252].copy_from_slice(&crc.to_le_bytes());
        b
    };
    let set = |at: usize, bytes: &[u8]| {
        let mut b = image.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        refix(b)
    };
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (set(8, &3u32.to_le_bytes()), "format version 3"),
        // Version 2 has a seventh section, which version 1's table lacks.
        (set(8, &2u32.to_le_bytes()), "section weights at offset 0 overlaps"),
        (set(16, &u64::MAX.to_le_bytes()), "does not match"),
        (set(24, &(1u64 << 60).to_le_bytes()), "does not match"),
        (set(32, &1u64.to_le_bytes()), "not below the dimension 1"),
        (set(40, &[7]), "unknown layout 7"),
        (set(41, &[3]), "index width 3"),
        (set(42, &[9]), "value encoding 9"),
        (set(43, &[9]), "unknown label kind 9"),
        (set(64, &1u64.to_le_bytes()), "not 64-byte aligned"),
        (set(72, &u64::MAX.to_le_bytes()), "overflows"),
        (set(64 + 24, &0u64.to_le_bytes()), "overlaps"),
    ];
    for (bytes, want) in cases {
        let e = Shard::from_vec(&bytes, false).unwrap_err().to_string();
        assert!(e.contains(want), "want `{want}` in `{e}`");
    }
    // Offsets that go backwards, with their section checksum fixed up too.
    let shard = Shard::from_vec(&image, false).unwrap();
    let off = shard.sections()[1];
    let mut b = image.clone();
    b[off.offset as usize + 8..off.offset as usize + 16].copy_from_slice(&5u64.to_le_bytes());
    let e = Shard::from_vec(&refix(b), false).unwrap_err().to_string();
    assert!(e.contains("row offsets"), "{e}");
    // A NaN value.
    let vals = shard.sections()[3];
    let mut b = image.clone();
    b[vals.offset as usize..vals.offset as usize + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = Shard::from_vec(&refix(b), false).unwrap_err().to_string();
    assert!(e.contains("not finite"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_shards_never_panic_and_what_opens_iterates(pos in 0usize..2000, byte: u8, fix_crc: bool) {
        let image = one_shard_image("1 qid:3 1:0.5 3:2\n-1 2:1.5 9:1\n", "sparse-u16-f32");
        let mut b = image.clone();
        let p = pos % b.len();
        b[p] = byte;
        if fix_crc {
            let crc = crc32fast::hash(&b[..248]);
            b[248..252].copy_from_slice(&crc.to_le_bytes());
        }
        if let Ok(sh) = Shard::from_vec(&b, false) {
            iterate_all(&sh);
        }
    }

    #[test]
    fn arbitrary_bytes_never_open_unsafely(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(sh) = Shard::from_vec(&bytes, false) {
            iterate_all(&sh);
        }
    }
}

#[test]
fn a_dataset_without_its_manifest_does_not_open() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = rows_of(&text_for("f32", 30));
    write(tmp.path(), &rows, None, 100);
    std::fs::remove_file(tmp.path().join("dataset.json")).unwrap();
    let e = Dataset::open(tmp.path(), OpenOptions::default()).unwrap_err().to_string();
    assert!(e.contains("no dataset.json"), "{e}");
}

#[test]
fn a_failed_conversion_leaves_nothing_that_opens() {
    let tmp = tempfile::tempdir().unwrap();
    // The manifest cannot be written: a directory stands in its place.
    std::fs::create_dir(tmp.path().join("dataset.json")).unwrap();
    std::fs::write(tmp.path().join("dataset.json").join("x"), b"x").unwrap();
    let rows = rows_of(&text_for("f32", 30));
    assert!(write_dataset(tmp.path(), &rows, &WriteOptions { shard_bytes: 100, ..Default::default() }).is_err());
    assert!(Dataset::open(tmp.path(), OpenOptions::default()).is_err());
    // The shards written before the failure were removed, and no temporary files remain.
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("dataset.json")]);
}

/// Rows built by hand reach the writer unchecked: a value that is not
/// finite, or a stored zero, is refused wherever it stands (the check
/// counts over all values at once and searches only then), naming the
/// value, and nothing is written.
#[test]
fn hand_built_rows_with_a_bad_value_are_refused() {
    let rows = rows_of(&text_for("f32", 3000));
    for at in [0, 1, rows.values.len() / 2, rows.values.len() - 1] {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0] {
            let mut r = rows.clone();
            r.values[at] = bad;
            let tmp = tempfile::tempdir().unwrap();
            let e = write_dataset(&tmp.path().join("d"), &r, &WriteOptions::default()).unwrap_err().to_string();
            assert!(e.contains(&format!("value {bad} (values must be finite and non-zero)")), "{at} {bad}: {e}");
            assert!(
                !tmp.path().join("d").exists() || std::fs::read_dir(tmp.path().join("d")).unwrap().next().is_none()
            );
        }
    }
}

#[test]
fn an_existing_dataset_is_not_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = rows_of("1 1:1\n");
    write(tmp.path(), &rows, None, 1 << 20);
    let e = write_dataset(tmp.path(), &rows, &WriteOptions::default()).unwrap_err().to_string();
    assert!(e.contains("already holds a dataset"), "{e}");
}

#[test]
fn the_manifest_must_agree_with_the_shards() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), &rows_of(&text_for("f32", 10)), None, 1 << 20);
    let mpath = tmp.path().join("dataset.json");
    let text = std::fs::read_to_string(&mpath).unwrap();
    for (from, to, want) in [
        ("\"version\": 1", "\"version\": 9", "manifest version 9"),
        ("\"rows\": 10", "\"rows\": 11", "do not match"),
        ("shard-00000.rbs", "../shard-00000.rbs", "not a plain file name"),
        ("\"format\": \"rosenblatt-dataset\"", "\"format\": \"other\"", "format is `other`"),
    ] {
        std::fs::write(&mpath, text.replacen(from, to, 1)).unwrap();
        let e = Dataset::open(tmp.path(), OpenOptions::default()).unwrap_err().to_string();
        assert!(e.contains(want), "{from}: {e}");
    }
    std::fs::write(&mpath, "{ not json").unwrap();
    assert!(Dataset::open(tmp.path(), OpenOptions::default()).unwrap_err().to_string().contains("not valid JSON"));
}

#[test]
fn in_memory_reading_gives_the_same_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = rows_of(&text_for("u8", 30));
    write(tmp.path(), &rows, Some("sparse-u16-u8"), 1 << 20);
    let ds = Dataset::open(tmp.path(), OpenOptions { verify_checksums: true, in_memory: true }).unwrap();
    assert_eq!(ds.to_rows(), rows);
}

#[test]
fn sprs_round_trip() {
    let rows = rows_of(&text_for("f32", 25));
    let m = interop::to_csmat(&rows, 30).unwrap();
    assert_eq!(m.shape(), (25, 30));
    assert_eq!(m.nnz(), rows.indices.len());
    let back = interop::from_csmat(&m, &rows.labels).unwrap();
    // The matrix carries its shape: 30 columns.
    assert_eq!(back, Rows { dim: 30, ..rows.clone() });
    assert!(interop::from_csmat(&m, &rows.labels[1..]).is_err());
}

#[test]
fn a_million_row_file() {
    let mut text = String::with_capacity(30 << 20);
    for r in 0..1_000_000u32 {
        let a = 1 + r % 1000;
        text.push_str(&format!("{} {}:1 {}:0.5 {}:2\n", if r % 2 == 0 { "+1" } else { "-1" }, a, a + 7, a + 5000));
    }
    let rows = parse_parallel(text.as_bytes(), &ParseOptions::default(), 1 << 20).unwrap();
    assert_eq!(rows.len(), 1_000_000);
    assert_eq!(rows.indices.len(), 3_000_000);
    let tmp = tempfile::tempdir().unwrap();
    let ds = write(tmp.path(), &rows, None, 8 << 20);
    assert_eq!(ds.rows(), 1_000_000);
    // Values 1, 0.5 and 2 are bytes times the scale 0.5.
    assert_eq!((ds.manifest().encoding.name(), ds.manifest().scale), ("sparse-u16-u8", Some(0.5)));
    assert!(ds.shards().len() > 1);
    assert_eq!(ds.to_rows(), rows);
}

#[test]
fn mnist_converts_exactly() {
    use rosenblatt_loader::idx::{PIXEL_SCALE, read_idx, read_mnist};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/mnist");
    let images = dir.join("t10k-images.idx3-ubyte.gz");
    let labels = dir.join("t10k-labels.idx1-ubyte.gz");
    let (rows, dim) = read_mnist(&images, &labels, Some(9)).unwrap();
    assert_eq!((rows.len(), dim), (10_000, 784));
    let raw = read_idx(&images, 3).unwrap();
    let lab = read_idx(&labels, 1).unwrap();
    assert_eq!(raw.dims, vec![10_000, 28, 28]);
    assert_eq!(lab.data[0], 7); // the first test digit is a 7
    assert_eq!(rows.labels.iter().filter(|&&l| l == 1.0).count(), lab.data.iter().filter(|&&l| l == 9).count());
    // Every stored value is its pixel × 1/255, exactly as the u8 encoding decodes it.
    let first: Vec<u8> = raw.data[..784].to_vec();
    let (s, e) = (rows.offsets[0] as usize, rows.offsets[1] as usize);
    for k in s..e {
        assert_eq!(rows.values[k], f32::from(first[rows.indices[k] as usize]) * PIXEL_SCALE);
    }
    assert_eq!(e - s, first.iter().filter(|&&p| p != 0).count());
    let tmp = tempfile::tempdir().unwrap();
    let opts = WriteOptions { dim: Some(dim), index_base: 0, ..Default::default() };
    write_dataset(tmp.path(), &rows, &opts).unwrap();
    let ds = Dataset::open(tmp.path(), OpenOptions { verify_checksums: true, in_memory: false }).unwrap();
    assert_eq!(ds.manifest().encoding.name(), "dense-u8");
    assert_eq!(ds.manifest().scale, Some(PIXEL_SCALE));
    assert_eq!(ds.to_rows(), rows);
}

#[test]
fn broken_idx_files_are_refused() {
    use rosenblatt_loader::idx::{read_idx, read_mnist};
    let tmp = tempfile::tempdir().unwrap();
    let p = |name: &str, bytes: &[u8]| {
        let path = tmp.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let mut good = vec![0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2];
    good.extend_from_slice(&[0, 255, 3, 0, 1, 2, 3, 4]);
    let images = p("img", &good);
    let labels = p("lab", &[0, 0, 8, 1, 0, 0, 0, 2, 3, 9]);
    let (rows, dim) = read_mnist(&images, &labels, None).unwrap();
    assert_eq!((rows.len(), dim, rows.labels.clone()), (2, 4, vec![3.0, 9.0]));
    let cases: Vec<(Vec<u8>, u8, &str)> = vec![
        (vec![1, 0, 8, 3], 3, "two zero bytes"),
        (vec![0, 0, 9, 3], 3, "element type"),
        (vec![0, 0, 8, 2], 3, "2 dimension(s), expected 3"),
        (vec![0, 0, 8, 1], 3, "the images file comes first"),
        (vec![0, 0, 8, 3, 0, 0], 3, "too short"),
        (good[..good.len() - 1].to_vec(), 3, "need 8 bytes but 7 follow the header"),
        ([&good[..], &[0]].concat(), 3, "need 8 bytes but 9 follow"),
        (vec![0, 0, 8, 3, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255], 3, "need more than 2^64 bytes"),
    ];
    for (bytes, ndim, want) in cases {
        let e = read_idx(&p("bad", &bytes), ndim).err().expect(want).to_string();
        assert!(e.contains(want), "want `{want}` in `{e}`");
    }
    let e = read_mnist(&images, &p("lab3", &[0, 0, 8, 1, 0, 0, 0, 3, 1, 2, 3]), None).unwrap_err().to_string();
    assert!(e.contains("has 2 images but") && e.contains("has 3 labels"), "{e}");
    let e = read_mnist(&images, &p("lab10", &[0, 0, 8, 1, 0, 0, 0, 2, 1, 10]), None).unwrap_err().to_string();
    assert!(e.contains("label 10 is not a digit"), "{e}");
    // Two IDX files are MNIST by their first bytes, whatever their names.
    use rosenblatt_loader::convert::Format;
    assert_eq!(Format::guess(&[images.clone(), labels.clone()]), Format::Mnist);
    let text = p("text", b"+1 1:1\n");
    assert_eq!(Format::guess(&[images.clone(), text]), Format::Libsvm);
    // No images, or images of no pixels: nothing to convert, as for text.
    for (dims, want) in [([0u8, 2, 2], "0 images of 2×2 pixels"), ([1, 0, 2], "1 images of 0×2 pixels")] {
        let header = [&[0u8, 0, 8, 3][..], &[0, 0, 0, dims[0], 0, 0, 0, dims[1], 0, 0, 0, dims[2]]].concat();
        let n = dims.iter().map(|&d| usize::from(d)).product::<usize>();
        let img = p("empty", &[&header[..], &vec![0; n]].concat());
        let lab = p("lab0", &[0, 0, 8, 1, 0, 0, 0, dims[0], 0][..4 + 4 + usize::from(dims[0])]);
        let e = read_mnist(&img, &lab, None).unwrap_err().to_string();
        assert!(e.contains(want) && e.contains("nothing to convert"), "{e}");
    }
}

#[test]
fn a_sharded_dataset_reads_as_one_example_set() {
    use rosenblatt_kernels::Examples;
    let rows = rows_of(&text_for("f32", 97));
    let tmp = tempfile::tempdir().unwrap();
    let ds = write(tmp.path(), &rows, Some("sparse-u16-f32"), 300);
    assert!(ds.shards().len() > 5);
    let view = ds.examples().unwrap();
    rosenblatt_loader::with_examples!(view, |ex| {
        assert_eq!((ex.len(), ex.dim()), (97, ds.dim() as usize));
        for i in 0..ex.len() {
            let (s, e) = (rows.offsets[i] as usize, rows.offsets[i + 1] as usize);
            let row = ex.row(i);
            let got: Vec<(usize, f32)> = (0..row.nnz()).map(|k| row.entry(k)).collect();
            let want: Vec<(usize, f32)> = (s..e).map(|k| (rows.indices[k] as usize, rows.values[k])).collect();
            assert_eq!(got, want, "row {i}");
            assert_eq!(ex.label(i), rows.labels[i]);
        }
    });
    // A label search goes shard by shard, each shard's labels swept at
    // once: the first row it flags is the one a row-by-row search finds,
    // in every range of rows and for every first bad row.
    let ids: Vec<f32> = (0..97).map(|i| ((i * 37) % 97) as f32).collect();
    let view = ds.examples().unwrap();
    rosenblatt_loader::with_examples!(view, |ex| {
        let relabelled = ex.with_labels(&ids);
        for (lo, hi) in [(0usize, 97usize), (10, 40), (50, 97), (96, 97), (3, 3)] {
            let part = relabelled.range(lo..hi);
            for k in 0..=97 {
                let bad = |l: f32| l < k as f32;
                let want = ids[lo..hi].iter().position(|&l| bad(l));
                assert_eq!(part.find_label(bad), want, "rows {lo}..{hi}, labels below {k}");
                assert_eq!(want, (0..part.len()).find(|&i| bad(part.label(i))), "rows {lo}..{hi}, labels below {k}");
            }
        }
    });
    // Opened for some rows only: the shards holding them, from the first
    // one's first row; a damaged shard elsewhere is never read.
    for (lo, hi) in [(0usize, 1usize), (10, 40), (50, 97), (96, 97), (0, 97)] {
        let part = Dataset::open_rows(tmp.path(), OpenOptions::default(), lo as u64..hi as u64).unwrap();
        let first = part.first_row() as usize;
        let view = part.examples().unwrap();
        assert!(first <= lo && first + view.len() >= hi && part.shards().len() <= ds.shards().len(), "{lo}..{hi}");
        assert_eq!(part.rows(), 97);
        let (whole, mine) = (ds.examples().unwrap().range(first..first + view.len()), view);
        rosenblatt_loader::with_examples!(whole, |w| rosenblatt_loader::with_examples!(mine, |m| {
            for i in 0..m.len() {
                assert_eq!((m.label(i), m.row(i).nnz()), (w.label(i), w.row(i).nnz()), "{lo}..{hi} row {i}");
            }
        }));
    }
    let last = ds.manifest().shards.last().unwrap().file.clone();
    std::fs::write(tmp.path().join(&last), b"damaged").unwrap();
    assert!(Dataset::open(tmp.path(), OpenOptions::default()).is_err());
    assert!(Dataset::open_rows(tmp.path(), OpenOptions::default(), 0..20).is_ok());
    // Multi-label datasets have no single label.
    let multi = parse(b"1,2 1:1\n3 2:1\n", &ParseOptions { multilabel: true, ..Default::default() }).unwrap();
    let tmp2 = tempfile::tempdir().unwrap();
    write_dataset(tmp2.path(), &multi, &WriteOptions::default()).unwrap();
    let d2 = Dataset::open(tmp2.path(), OpenOptions::default()).unwrap();
    assert!(d2.examples().is_err());
}

fn writer_rows(range: std::ops::Range<usize>) -> Rows {
    // Pixel-like values k × (1/255) (as the shards decode them) over
    // dimension 40, two classes.
    let mut rows = Rows::empty();
    for r in range {
        rows.labels.push(if r % 4 == 0 { 1.0 } else { -1.0 });
        for j in 0..(r % 9) {
            rows.indices.push((j * 4 + r % 4) as u32);
            rows.values.push((1 + (r * 13 + j * 29) % 255) as f32 * (1.0f32 / 255.0));
        }
        rows.offsets.push(rows.indices.len() as u64);
    }
    rows
}

fn dense_u8() -> rosenblatt_loader::format::Encoding {
    rosenblatt_loader::format::Encoding {
        layout: Layout::Dense,
        index_bytes: 0,
        values: ValueEncoding::U8 { scale: 1.0 / 255.0 },
    }
}

#[test]
fn a_dataset_written_shard_by_shard_equals_one_written_at_once() {
    use rosenblatt_loader::DatasetWriter;
    use rosenblatt_loader::LabelKind;
    let tmp = tempfile::tempdir().unwrap();
    let (streamed, whole) = (tmp.path().join("streamed"), tmp.path().join("whole"));
    let mut w = DatasetWriter::create(&streamed, 40, dense_u8(), LabelKind::Binary, 1).unwrap();
    for (a, b) in [(0, 17), (17, 18), (18, 60), (60, 100)] {
        w.write_shard(&writer_rows(a..b)).unwrap();
    }
    assert_eq!(w.rows(), 100);
    let m = w.finish().unwrap();
    let all = writer_rows(0..100);
    let opts = WriteOptions { encoding: Some(dense_u8()), dim: Some(40), ..Default::default() };
    let m2 = write_dataset(&whole, &all, &opts).unwrap();
    assert_eq!(m.shards.len(), 4);
    assert_eq!((m.rows, m.nnz, m.nonzeros, m.dim), (m2.rows, m2.nnz, m2.nonzeros, m2.dim));
    assert_eq!(
        (&m.encoding, m.scale, &m.label_kind, &m.label_counts),
        (&m2.encoding, m2.scale, &m2.label_kind, &m2.label_counts)
    );
    let ds = Dataset::open(&streamed, OpenOptions { verify_checksums: true, in_memory: false }).unwrap();
    assert_eq!(ds.to_rows(), Dataset::open(&whole, OpenOptions::default()).unwrap().to_rows());
    assert_eq!(ds.to_rows().values, all.values);
}

#[test]
fn the_streaming_writer_refuses_what_its_encoding_cannot_hold_and_leaves_nothing() {
    use rosenblatt_loader::DatasetWriter;
    use rosenblatt_loader::LabelKind;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("d");
    let err = |rows: &Rows, kind: LabelKind| {
        let mut w = DatasetWriter::create(&dir, 40, dense_u8(), kind, 1).unwrap();
        w.write_shard(&writer_rows(0..10)).unwrap();
        let e = w.write_shard(rows).unwrap_err().to_string();
        drop(w);
        // The shard written before the error is gone, and nothing opens.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{e}");
        e
    };
    let e = err(&rows_of("1 3:0.3\n"), LabelKind::Binary);
    assert!(e.contains("value 0.3 is not k × 0.003921569") && e.contains("shard 1 of"), "{e}");
    let e = err(&rows_of("1 41:1\n"), LabelKind::Binary);
    assert!(e.contains("index 40 is beyond the dimension 40"), "{e}");
    let e = err(&rows_of("3 1:1\n"), LabelKind::Binary);
    assert!(e.contains("labels do not fit label kind binary"), "{e}");
    let mut broken = writer_rows(0..5);
    broken.offsets[2] = 1_000;
    let e = err(&broken, LabelKind::Binary);
    assert!(e.contains("offsets"), "{e}");
    let mut unsorted = rows_of("1 5:1 9:1\n");
    unsorted.indices.swap(0, 1);
    let e = err(&unsorted, LabelKind::Binary);
    assert!(e.contains("index 4 follows 8"), "{e}");
    // Class ids are fine for a classes dataset, and an empty one still opens.
    let mut w = DatasetWriter::create(&dir, 40, dense_u8(), LabelKind::Classes, 1).unwrap();
    w.write_shard(&rows_of("3 1:1\n7 2:1\n")).unwrap();
    assert_eq!(w.finish().unwrap().label_counts, vec![(3.0, 1), (7.0, 1)]);
    let e = DatasetWriter::create(&dir, 40, dense_u8(), LabelKind::Classes, 1).unwrap_err().to_string();
    assert!(e.contains("already holds a dataset"), "{e}");
    let empty = tmp.path().join("empty");
    DatasetWriter::create(&empty, 40, dense_u8(), LabelKind::Binary, 1).unwrap().finish().unwrap();
    assert_eq!(Dataset::open(&empty, OpenOptions::default()).unwrap().rows(), 0);
}

#[test]
fn released_rows_read_back_the_same() {
    // Mapped shards in several encodings; release every row, then read again.
    let tmp = tempfile::tempdir().unwrap();
    for (k, enc) in ["dense-u8", "sparse-u16-u8", "sparse-u32-f32"].into_iter().enumerate() {
        let dir = tmp.path().join(format!("d{k}"));
        let rows = writer_rows(0..30_000);
        let ds = write(&dir, &rows, Some(enc), 200_000);
        assert!(ds.shards().len() > 1, "{enc}");
        let before = ds.to_rows();
        rosenblatt_loader::with_examples!(ds.examples().unwrap(), |ex| {
            use rosenblatt_kernels::Examples;
            ex.release(0..ex.len());
            ex.release(5..17_001);
            ex.release(29_999..40_000); // past the end: clipped
            ex.release(7..7);
        });
        for s in ds.shards() {
            s.release_rows(0, 1 << 40); // out of bounds: ignored
        }
        assert_eq!(ds.to_rows(), before, "{enc}");
    }
}

/// A conversion that streams through small blocks and batches (so that the
/// spool and every block boundary are exercised) gives the dataset a
/// whole-input parse gives, for plain and compressed text; errors and
/// skipped lines name the input's own line numbers.
#[test]
fn a_streamed_conversion_equals_a_whole_one() {
    use rosenblatt_loader::convert::{ConvertOptions, convert};
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for r in 0..3000u32 {
        let label = if r % 3 == 0 { "+1" } else { "-1" };
        // Query ids on some rows only, so that some batches have none.
        let qid = if r < 40 { format!(" qid:{}", r / 10) } else { String::new() };
        text.push_str(&format!(
            "{label}{qid} {}:{} {}:0.5 {}:{}\n",
            1 + r % 97,
            (r % 13) as f32 + 0.25,
            200 + r % 5,
            300 + r % 400,
            1 + r % 7
        ));
    }
    // The first row states the dimension with an explicit zero.
    text = text.replacen("\n", " 1000:0\n", 1);
    let plain = tmp.path().join("in.svm");
    std::fs::write(&plain, &text).unwrap();
    let gz = tmp.path().join("in.svm.gz");
    let mut e = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::fast());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap();
    let whole = tmp.path().join("whole");
    let rows = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
    write_dataset(&whole, &rows, &WriteOptions::default()).unwrap();
    let want = Dataset::open(&whole, OpenOptions::default()).unwrap();
    let small = ConvertOptions { block_bytes: 1000, batch_bytes: 4000, ..Default::default() };
    // Blocks in pieces, parsed on two threads and appended to the batch.
    let pieces = ConvertOptions { block_bytes: 5000, piece_bytes: 700, threads: Some(2), ..small.clone() };
    for (name, input, small) in [("plain", &plain, &small), ("gz", &gz, &small), ("pieces", &plain, &pieces)] {
        let out = tmp.path().join(name);
        let done = convert(std::slice::from_ref(input), &out, small, &mut |_| {}).unwrap();
        let got = Dataset::open(&out, OpenOptions { verify_checksums: true, in_memory: false }).unwrap();
        assert_eq!(got.to_rows(), want.to_rows(), "{name}");
        assert_eq!(got.manifest().dim, 1000, "{name}");
        assert_eq!(
            (got.manifest().encoding, got.manifest().label_kind, got.manifest().has_qids),
            (want.manifest().encoding, want.manifest().label_kind, true),
            "{name}"
        );
        assert_eq!(done.manifest, *got.manifest());
        assert!(!out.join(".spool").exists(), "{name}: the spool is gone");
    }
    // A bad line far into the input, and skipped ones: their own line numbers.
    let mut bad = text.clone();
    bad.push_str("+1 5:1 3:1\n");
    bad.push_str(&text);
    std::fs::write(&plain, &bad).unwrap();
    // The shards written ahead before it (on one thread, or on the pool
    // while the next batch was parsed) are removed, and the spool; a
    // directory the conversion made goes too, one that was there stays.
    let one = ConvertOptions { threads: Some(1), ..small.clone() };
    for (name, opts) in [("bad", &one), ("bad2", &pieces)] {
        let out = tmp.path().join(name);
        let e = convert(std::slice::from_ref(&plain), &out, opts, &mut |_| {}).unwrap_err().to_string();
        assert!(e.contains("in.svm:3001:"), "{e}");
        assert!(!out.exists(), "{name}: the directory it made is left");
        std::fs::create_dir(&out).unwrap();
        assert!(convert(std::slice::from_ref(&plain), &out, opts, &mut |_| {}).is_err());
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "{name}: {left:?} left");
    }
    // A directory holding anything else is refused before any input is
    // read, and left as it was; an empty one is written into.
    let busy = tmp.path().join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), b"mine").unwrap();
    let e = convert(std::slice::from_ref(&gz), &busy, &small, &mut |_| {}).unwrap_err().to_string();
    assert!(e.contains("is not empty; convert writes a dataset into a new or empty directory"), "{e}");
    let left: Vec<_> = std::fs::read_dir(&busy).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["notes.txt"]);
    std::fs::remove_file(busy.join("notes.txt")).unwrap();
    convert(std::slice::from_ref(&gz), &busy, &small, &mut |_| {}).unwrap();
    let e = convert(std::slice::from_ref(&gz), &busy, &small, &mut |_| {}).unwrap_err().to_string();
    assert!(e.contains("already holds a dataset"), "{e}");
    for (name, opts) in [("skip", small), ("skip-pieces", pieces)] {
        let skip = ConvertOptions { parse: ParseOptions { skip_bad_lines: true, ..Default::default() }, ..opts };
        let done = convert(std::slice::from_ref(&plain), &tmp.path().join(name), &skip, &mut |_| {}).unwrap();
        assert_eq!(done.skipped.iter().map(|(_, e)| e.line).collect::<Vec<_>>(), vec![3001], "{name}");
        assert_eq!(done.manifest.rows, 6000, "{name}");
    }
}

/// The u8 scale a streamed conversion picks, from checks made block by
/// block or, where a candidate scale moved (a new smallest or largest value
/// in a later block), from the spool read again (batches written ahead as
/// bytes or as ones, decoded where they lie), is the one a whole-input
/// conversion picks; a late value that breaks the grid gives f32.
#[test]
fn a_streamed_conversion_picks_the_whole_inputs_scale() {
    use rosenblatt_loader::convert::{ConvertOptions, convert};
    let tmp = tempfile::tempdir().unwrap();
    // Values per row r, as multiples of 1/4: early rows (multiples of 1/2,
    // up to 63.5, or all 1: written ahead as bytes, or as ones), then the
    // late rows of each case.
    type Values = fn(u32) -> f64;
    let halves: Values = |r| 0.5 * f64::from(1 + r % 127);
    let cases: [(&str, Values, Values, &str); 4] = [
        ("same grid throughout", halves, |r| 0.5 * f64::from(1 + (r * 7) % 127), "sparse-u16-u8"),
        ("smaller step and larger value late", halves, |r| 0.25 * f64::from(1 + (r * 7) % 255), "sparse-u16-u8"),
        ("off the grid late", halves, |r| if r % 50 == 0 { 0.3 } else { 0.5 }, "sparse-u16-f32"),
        ("ones, then halves late", |_| 1.0, |r| 0.5 * f64::from(1 + r % 3), "sparse-u16-u8"),
    ];
    let small = ConvertOptions { block_bytes: 1000, batch_bytes: 4000, ..Default::default() };
    for (name, early, late, want_encoding) in cases {
        let mut text = String::new();
        for r in 0..2000u32 {
            let v = if r < 1000 { early(r) } else { late(r) };
            text.push_str(&format!(
                "{} {}:{v} {}:{}\n",
                if r % 2 == 0 { "+1" } else { "-1" },
                1 + r % 90,
                100 + r % 7,
                if r < 1000 { early(r + 3) } else { halves(r + 3) }
            ));
        }
        let plain = tmp.path().join(format!("{name}.svm"));
        std::fs::write(&plain, &text).unwrap();
        let out = tmp.path().join(name);
        let done = convert(std::slice::from_ref(&plain), &out, &small, &mut |_| {}).unwrap();
        let rows = rows_of(&text);
        let whole = choose_encoding(&rows, rows.min_dim());
        let scale = match whole.values {
            ValueEncoding::U8 { scale } => Some(scale),
            _ => None,
        };
        assert_eq!((done.manifest.encoding, done.manifest.scale), (whole.kind(), scale), "{name}");
        assert_eq!(done.manifest.encoding.name(), want_encoding, "{name}");
        let got = Dataset::open(&out, OpenOptions::default()).unwrap();
        assert_eq!(got.to_rows(), rows, "{name}");
    }
}

/// A conversion writes the first batches as shards in the encoding they
/// call for while later batches keep calling for it; input whose later rows
/// call for another dimension, index width, value encoding, label kind,
/// query ids or layout has those shards read back and written again. Either
/// way the dataset is the whole input's: its rows, encoding, dimension,
/// label kind; no stray file is left; and rows are written twice only when
/// the guess failed.
#[test]
fn a_conversion_whose_first_batches_mislead_equals_a_whole_one() {
    use rosenblatt_loader::convert::{ConvertOptions, convert};
    let tmp = tempfile::tempdir().unwrap();
    let small = ConvertOptions { block_bytes: 1000, batch_bytes: 4000, ..Default::default() };
    let pm = |r: u32| if r.is_multiple_of(3) { "+1" } else { "-1" };
    type Line = Box<dyn Fn(u32) -> String>;
    // (name, rows, a row's line, whether the first batches mislead)
    let cases: Vec<(&str, u32, Line, bool)> = vec![
        (
            "the first batch calls for the whole",
            2000,
            Box::new(move |r| format!("{} {}:{} 300:2", pm(r), 1 + r % 97, 1 + r % 5)),
            false,
        ),
        // Sparse rows over a growing dimension: only the headers of the
        // shards written ahead change (checked by their checksums here).
        (
            "the dimension grows throughout",
            2000,
            Box::new(move |r| format!("{} {}:1 {}:3", pm(r), 1 + r % 97, 200 + r / 4)),
            false,
        ),
        (
            "the dimension grows at the last row",
            2000,
            Box::new(move |r| format!("{} {}:1 {}:3", pm(r), 1 + r % 97, if r == 1999 { 9000 } else { 300 })),
            false,
        ),
        // Dense rows over a growing dimension are bytes of another length.
        (
            "dense rows over a growing dimension",
            1000,
            Box::new(move |r| format!("{} 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 {}:1", pm(r), 9 + r / 300)),
            true,
        ),
        (
            "u16 indices, then u32",
            2000,
            Box::new(move |r| format!("{} {}:1.5 {}:1", pm(r), 1 + r % 97, if r < 1800 { 500 } else { 70_000 })),
            true,
        ),
        (
            "ones, then bytes",
            2000,
            Box::new(move |r| format!("{} {}:1 99:{}", pm(r), 1 + r % 97, if r < 1700 { 1 } else { 2 })),
            true,
        ),
        (
            "bytes, then f32",
            2000,
            Box::new(move |r| format!("{} {}:2 99:{}", pm(r), 1 + r % 97, if r < 1700 { 4.0 } else { 4.1 })),
            true,
        ),
        (
            "±1 labels, then class ids",
            2000,
            Box::new(move |r| format!("{} {}:1 99:2", if r < 1900 { pm(r) } else { "7" }, 1 + r % 97)),
            true,
        ),
        (
            "class ids, then real labels",
            2000,
            Box::new(move |r| {
                format!("{} {}:1 99:2", if r < 1900 { (r % 4).to_string() } else { "0.5".into() }, 1 + r % 97)
            }),
            true,
        ),
        (
            "query ids late",
            2000,
            Box::new(move |r| {
                format!("{}{} {}:1 99:2", pm(r), if r < 1900 { String::new() } else { " qid:3".into() }, 1 + r % 97)
            }),
            true,
        ),
        (
            "dense, then sparse",
            1000,
            Box::new(move |r| {
                if r < 300 {
                    format!("{} 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1", pm(r))
                } else {
                    format!("{} 1:1 20:1", pm(r))
                }
            }),
            true,
        ),
        // The u8 scale's candidate moves in the first batch (a smaller
        // step after its first block), then holds: the guess checks the
        // batch itself.
        (
            "a scale that moves in the first batch, then holds",
            2000,
            Box::new(move |r| {
                let v = if r < 40 { 0.5 * f64::from(1 + r % 4) } else { 0.25 * f64::from(1 + r % 200) };
                format!("{} {}:{v} 99:1", pm(r), 1 + r % 97)
            }),
            false,
        ),
        // Dense rows first, sparse ones in the middle (the guess turns
        // sparse), dense again at the end: the first guess was right.
        (
            "dense, sparse, dense",
            4000,
            Box::new(move |r| {
                if (100..3100).contains(&r) {
                    format!("{} {}:2", pm(r), 1 + r % 10)
                } else {
                    format!("{} 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9 10:1", pm(r))
                }
            }),
            false,
        ),
    ];
    for (name, n, line, misleads) in cases {
        let text: String = (0..n).map(|r| line(r) + "\n").collect();
        let plain = tmp.path().join(format!("{name}.svm"));
        std::fs::write(&plain, &text).unwrap();
        let whole = tmp.path().join(format!("{name} whole"));
        let want = write_dataset(&whole, &rows_of(&text), &WriteOptions::default()).unwrap();
        // One parser thread writes each batch itself; two write it on the
        // pool while the next is parsed.
        for threads in [1, 2] {
            let name = format!("{name}, {threads} thread(s)");
            let out = tmp.path().join(&name);
            let opts = ConvertOptions { threads: Some(threads), ..small.clone() };
            let done = convert(std::slice::from_ref(&plain), &out, &opts, &mut |_| {}).unwrap();
            let got = Dataset::open(&out, OpenOptions { verify_checksums: true, in_memory: false }).unwrap();
            assert_eq!(got.to_rows(), rows_of(&text), "{name}");
            let m = got.manifest();
            assert_eq!(
                (m.encoding, m.scale, m.dim, m.label_kind, m.has_qids, &m.label_counts),
                (want.encoding, want.scale, want.dim, want.label_kind, want.has_qids, &want.label_counts),
                "{name}"
            );
            assert!(m.shards.len() > 5, "{name}: {} shards, too few to have batches", m.shards.len());
            assert_eq!(done.rewritten_rows > 0, misleads, "{name}: {} rows written twice", done.rewritten_rows);
            let mut files: Vec<String> =
                std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            files.sort();
            let mut listed: Vec<String> =
                m.shards.iter().map(|s| s.file.clone()).chain(["dataset.json".into()]).collect();
            listed.sort();
            assert_eq!(files, listed, "{name}: the directory holds the dataset and nothing else");
        }
    }
}

#[test]
fn shards_cut_small_keep_multilabels_and_query_ids_of_every_size() {
    // The writer builds every shard in buffers kept from the shard before
    // (label offsets, absent query ids, bytes): shards of varying sizes,
    // longer and shorter than the one before, must each read back exactly.
    let mut text = String::new();
    for r in 0..60 {
        // Rows without query ids may have an empty label set.
        let has_qid = r % 7 < 4;
        let n_labels = if has_qid { 1 + r % 3 } else { r % 4 };
        let labels = (0..n_labels).map(|k| (r + k).to_string()).collect::<Vec<_>>().join(",");
        let qid = if has_qid { format!(" qid:{}", r / 5) } else { String::new() };
        let features = (0..1 + r % 9).map(|k| format!(" {}:{}", 1 + 3 * k + r % 3, (k + 1) as f32 / 255.0));
        text.push_str(&format!("{labels}{qid}{}\n", features.collect::<String>()));
    }
    let rows = parse(text.as_bytes(), &ParseOptions { multilabel: true, ..Default::default() }).unwrap();
    for shard_bytes in [40u64, 97, 300] {
        let tmp = tempfile::tempdir().unwrap();
        let ds = write(tmp.path(), &rows, None, shard_bytes);
        assert!(ds.shards().len() > 3, "shard size {shard_bytes}: {} shards", ds.shards().len());
        assert_eq!(ds.to_rows(), rows, "shard size {shard_bytes}");
    }
}

/// Inputs that are pipes — named ones here, as `<(zcat …)` and
/// `/dev/stdin` are — are read once, from their first byte: their size
/// reads as 0 (a plain one became "no rows"), a compressed one cannot be
/// reopened after its format is seen (its first bytes were lost), and the
/// format guess for two inputs must not read them at all (it took the
/// first four bytes of each).
#[cfg(target_os = "linux")]
#[test]
fn pipes_are_read_once_from_their_first_byte() {
    use rosenblatt_loader::convert::{ConvertOptions, Format, convert};
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for r in 0..500u32 {
        text.push_str(&format!(
            "{} {}:1 {}:{}\n",
            if r % 3 == 0 { "+1" } else { "-1" },
            1 + r % 50,
            60 + r % 9,
            1 + r % 5
        ));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let want = parse(format!("{text}{text}").as_bytes(), &ParseOptions::default()).unwrap();
    let fifo = |name: &str| {
        let p = tmp.path().join(name);
        assert!(std::process::Command::new("mkfifo").arg(&p).status().unwrap().success());
        p
    };
    // A writer per pipe; each blocks until the conversion opens its pipe.
    let feed = |p: &Path, bytes: Vec<u8>| {
        let p = p.to_path_buf();
        std::thread::spawn(move || std::fs::File::create(p).and_then(|mut f| f.write_all(&bytes)))
    };
    let small = ConvertOptions { block_bytes: 1000, batch_bytes: 4000, ..Default::default() };
    for (k, second) in [text.as_bytes().to_vec(), gz].into_iter().enumerate() {
        let (a, b) = (fifo(&format!("a{k}")), fifo(&format!("b{k}")));
        let inputs = [a.clone(), b.clone()];
        assert_eq!(Format::guess(&inputs), Format::Libsvm);
        let writers = [feed(&a, text.as_bytes().to_vec()), feed(&b, second)];
        let out = tmp.path().join(format!("out{k}"));
        convert(&inputs, &out, &small, &mut |_| {}).unwrap();
        writers.into_iter().for_each(|w| w.join().unwrap().unwrap());
        let got = Dataset::open(&out, OpenOptions::default()).unwrap().to_rows();
        assert_eq!(
            (got.labels, got.indices, got.values),
            (want.labels.clone(), want.indices.clone(), want.values.clone())
        );
    }
}
