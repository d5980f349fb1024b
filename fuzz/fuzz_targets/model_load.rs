//! Model files: arbitrary bytes never panic the loader. The input is tried
//! as it is, and with a correct checksum appended so that mutations reach
//! the metadata and payload checks behind it; whatever loads predicts on a
//! few rows and writes back a file that loads as the same model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt::learners::InMemoryExamples;
use rosenblatt::model::Model;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let p = Path::new("fuzz.model");
    let _ = Model::decode(p, data);
    let mut sealed = data.to_vec();
    sealed.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    if let Ok(m) = Model::decode(p, &sealed) {
        // The metadata JSON may be spelled another way; the model may not change.
        let again = Model::decode(p, &m.to_bytes()).expect("a written model loads");
        assert_eq!(again, m, "a loaded model writes back the same model");
        let dim = (m.meta.dim as usize).clamp(1, 1 << 16);
        let mut rows = InMemoryExamples::new(dim + 3);
        rows.push(&[0, dim as u32 + 2], &[1.5, -2.0], 1.0).unwrap();
        rows.push(&[], &[], -1.0).unwrap();
        let mut out = vec![Default::default(); 2];
        let _ = m.weights.predictions_into(&m.meta.classes, &&rows, &mut out);
    }
});
