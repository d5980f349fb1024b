//! `rosenblatt inspect`: what a dataset holds.

use crate::ui::{Ui, outln};
use rosenblatt::loader::{Dataset, OpenOptions};
use std::path::Path;

pub fn run(dir: &Path, verify: bool, ui: Ui) -> anyhow::Result<()> {
    if dir.is_file() {
        crate::ui::open_dataset(dir)?;
    }
    let ds = Dataset::open(dir, OpenOptions { verify_checksums: verify, in_memory: false })?;
    let m = ds.manifest();
    if ui.json {
        let mut v = serde_json::to_value(m)?;
        v["bytes"] = m.bytes().into();
        v["verified"] = verify.into();
        return crate::ui::json(&v);
    }
    let density = m.nonzeros as f64 / (m.rows as f64 * m.dim as f64).max(1.0);
    outln!("dataset      {}", dir.display())?;
    outln!("rows         {}", m.rows)?;
    outln!("nonzeros     {} (density {:.4}); {} stored entries", m.nonzeros, density, m.nnz)?;
    outln!("dimension    {}", m.dim)?;
    outln!("index base   {} (as LIBSVM text)", m.index_base)?;
    outln!("encoding     {}{}", m.encoding, m.scale.map(|s| format!(" (scale {s:e})")).unwrap_or_default())?;
    outln!("labels       {}{}", m.label_kind, if m.has_qids { ", with qids" } else { "" })?;
    for (label, count) in &m.label_counts {
        outln!("  {label:>10}  {count}")?;
    }
    outln!("shards       {} ({} bytes)", m.shards.len(), m.bytes())?;
    for s in &m.shards {
        outln!("  {}  {} rows  {} nonzeros  {} bytes  crc32 {:08x}", s.file, s.rows, s.nnz, s.bytes, s.crc32)?;
    }
    if verify {
        outln!("checksums    verified")?;
    }
    Ok(())
}
