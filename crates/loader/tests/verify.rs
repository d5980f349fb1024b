//! A verified open of a dataset: each shard's whole-file CRC-32, summed as
//! its rows are checked, catches a changed byte anywhere in the file — in
//! a section, in the padding between sections, in the header — across the
//! blocks the check runs in.

use rosenblatt_loader::libsvm::parse;
use rosenblatt_loader::writer::{parse_encoding, write_dataset};
use rosenblatt_loader::{Dataset, OpenOptions, ParseOptions, Shard, WriteOptions};

mod common;
use common::text_for;

const VERIFIED: OpenOptions = OpenOptions { verify_checksums: true, in_memory: false };
const UNVERIFIED: OpenOptions = OpenOptions { verify_checksums: false, in_memory: false };

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
    // 10,000 rows: three blocks of the rows' check (4,096 rows each).
    for (enc, values) in
        [("sparse-u32-u8", "u8"), ("sparse-u16-f32", "f32"), ("sparse-u32-binary", "binary"), ("dense-f32", "f32")]
    {
        let text = text_for(values, 10_000);
        let rows = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ds");
        let opts = WriteOptions { encoding: Some(parse_encoding(enc, None).unwrap()), ..Default::default() };
        write_dataset(&dir, &rows, &opts).unwrap();
        let shard_path = Dataset::open(&dir, VERIFIED).unwrap().shards()[0].path().to_path_buf();
        let image = std::fs::read(&shard_path).unwrap();
        let shard = Shard::from_vec(&image, true).unwrap();
        let places = places(&shard);
        assert!(places.len() > 30, "{enc}: {} places", places.len());
        let mut padding_only = 0;
        for at in places {
            let mut bad = image.clone();
            bad[at as usize] ^= 0x20;
            std::fs::write(&shard_path, &bad).unwrap();
            let e = Dataset::open(&dir, VERIFIED).expect_err(&format!("{enc}: byte {at} changed")).to_string();
            assert!(e.contains("shard-00000.rbs"), "{enc}: byte {at}: {e}");
            // A byte no section holds: only the whole file's sum sees it.
            if e.contains("fails its manifest checksum") {
                assert!(Dataset::open(&dir, UNVERIFIED).is_ok(), "{enc}: byte {at}");
                padding_only += 1;
            }
        }
        std::fs::write(&shard_path, &image).unwrap();
        assert!(Dataset::open(&dir, VERIFIED).is_ok(), "{enc}");
        assert!(padding_only > 0, "{enc}: no change fell between sections");
    }
}
