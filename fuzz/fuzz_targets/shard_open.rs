//! The shard opener on arbitrary bytes and on mutated valid shards never
//! panics, and whatever opens can be iterated in full through the kernels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_kernels::Row;
use rosenblatt_loader::{RowSet, Shard, with_rows};

fuzz_target!(|data: &[u8]| {
    for verify in [false, true] {
        if let Ok(shard) = Shard::from_vec(data, verify) {
            let _ = shard.labels();
            let _ = shard.qids();
            with_rows!(shard.rows(), |rows| {
                let mut w = vec![0.5f32; rows.dim()];
                for r in 0..rows.len() {
                    let row = rows.row(r);
                    let _ = row.dot(&w);
                    row.axpy(0.25, &mut w);
                    for k in 0..row.nnz() {
                        let _ = row.entry(k);
                    }
                }
            });
            for r in 0..shard.header().rows as usize {
                let _ = shard.multilabels(r);
                let _ = shard.qid(r);
            }
        }
    }
});
