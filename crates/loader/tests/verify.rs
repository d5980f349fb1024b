//! A verified open of a dataset: each shard's whole-file CRC-32, summed as
//! its rows are checked, catches a changed byte anywhere in the file — in
//! a section, in the padding between sections, in the header — across the
//! blocks the check runs in.

use rosenblatt_loader::libsvm::parse;
use rosenblatt_loader::writer::{parse_encoding, write_dataset};
use rosenblatt_loader::{Dataset, OpenOptions, ParseOptions, Shard, WriteOptions};
use std::path::Path;

const VERIFIED: OpenOptions = OpenOptions { verify_checksums: true, in_memory: false };
const UNVERIFIED: OpenOptions = OpenOptions { verify_checksums: false, in_memory: false };

/// Rows enough for three blocks of the rows' check (4,096 rows each), of
/// 0 to 6 entries, with values a byte holds (× 1/255) or not.
fn text(rows: usize, u8_values: bool) -> String {
    let mut s = String::new();
    for r in 0..rows {
        s.push_str(if r % 3 == 0 { "+1" } else { "-1" });
        for j in 0..r % 7 {
            let v = if u8_values {
                f32::from((1 + (r * 7 + j * 31) % 255) as u8) * (1.0f32 / 255.0)
            } else {
                r as f32 * 0.5 - 7.0 + j as f32
            };
            if v != 0.0 {
                s.push_str(&format!(" {}:{v}", 1 + j * 3 + r % 3));
            }
        }
        s.push('\n');
    }
    s
}

/// The byte offsets to change: each section's first, middle and last
/// byte, the padding byte before each section, a stride over the file,
/// and one header byte.
fn places(shard: &Shard) -> Vec<u64> {
    let mut at = vec![9u64];
    for sec in shard.sections().iter().filter(|s| s.len > 0) {
        at.extend([sec.offset, sec.offset + sec.len / 2, sec.offset + sec.len - 1, sec.offset - 1]);
    }
    at.extend((0..shard.file_len()).step_by(4099));
    at.sort_unstable();
    at.dedup();
    at
}

#[test]
fn a_changed_byte_anywhere_in_a_shard_fails_the_verified_open() {
    for (enc, u8_values) in
        [("sparse-u32-u8", true), ("sparse-u16-f32", false), ("sparse-u32-binary", true), ("dense-f32", false)]
    {
        let text = if enc.ends_with("binary") { binary(&text(10_000, true)) } else { text(10_000, u8_values) };
        let rows = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ds");
        let opts = WriteOptions { encoding: Some(parse_encoding(enc, None).unwrap()), ..Default::default() };
        write_dataset(&dir, &rows, &opts).unwrap();
        let shard_path = Dataset::open(&dir, VERIFIED).unwrap().shards()[0].path().to_path_buf();
        let image = std::fs::read(&shard_path).unwrap();
        let shard = Shard::from_vec(&image, true).unwrap();
        let (mut refused, mut padding_only) = (0, 0);
        for at in places(&shard) {
            let mut bad = image.clone();
            bad[at as usize] ^= 0x20;
            write_over(&shard_path, &bad);
            let e = Dataset::open(&dir, VERIFIED).expect_err(&format!("{enc}: byte {at} changed")).to_string();
            assert!(e.contains("shard-00000.rbs"), "{enc}: byte {at}: {e}");
            refused += 1;
            // A byte no section holds: only the whole file's sum sees it.
            if e.contains("fails its manifest checksum") {
                assert!(Dataset::open(&dir, UNVERIFIED).is_ok(), "{enc}: byte {at}");
                padding_only += 1;
            }
        }
        write_over(&shard_path, &image);
        assert!(Dataset::open(&dir, VERIFIED).is_ok(), "{enc}");
        assert!(refused > 30, "{enc}: {refused}");
        assert!(padding_only > 0, "{enc}: no change fell between sections");
    }
}

/// `text` with every value made 1 (the binary encoding's rows).
fn binary(text: &str) -> String {
    let one = |tok: &str| match tok.split_once(':') {
        Some((i, _)) => format!("{i}:1"),
        None => tok.to_string(),
    };
    text.lines().map(|l| l.split(' ').map(one).collect::<Vec<_>>().join(" ") + "\n").collect()
}

fn write_over(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}
