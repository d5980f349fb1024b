//! `rosenblatt inspect`: what a dataset or a model file holds.

use crate::args::InspectArgs;
use crate::ui::{Ui, outln};
use rosenblatt::loader::{Dataset, OpenOptions};
use rosenblatt::model::{Model, Weights};
use std::path::Path;

pub fn run(a: InspectArgs, ui: Ui) -> anyhow::Result<()> {
    if a.audit {
        return audit(&a, ui);
    }
    if let Some(flag) = a.hashing.given() {
        anyhow::bail!("{flag} applies with --audit (how VW text is hashed)");
    }
    let (dir, verify) = (a.path.as_path(), a.verify);
    if dir.is_file() {
        if Model::is_model_file(dir) {
            // Loading checks the whole file's checksum: --verify is implied.
            return model(dir, &Model::load(dir)?, ui);
        }
        anyhow::bail!(
            "{}: is a file, neither a dataset directory nor a model file; if it is text or IDX data, convert it \
             first: rosenblatt convert {} -o DIR",
            dir.display(),
            dir.display()
        );
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
    if let Some(h) = &m.hashing {
        outln!("hashed       from VW text: {}", crate::flags::worded(&h.to_string()))?;
    }
    if m.has_weights {
        let w = || ds.shards().iter().flat_map(|s| s.weights().iter().copied());
        let (lo, hi) = w().fold((f32::INFINITY, 0.0f32), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let zero = w().filter(|&x| x == 0.0).count();
        outln!("weights      importance per row: {lo} to {hi}; {zero} row(s) of weight 0 (left out of training)")?;
    }
    for (label, count) in &m.label_counts {
        outln!("  {label:>10}  {count}")?;
    }
    outln!("shards       {} ({} bytes)", m.shards.len(), m.bytes())?;
    for s in &m.shards {
        outln!("  {}  {} rows  {} stored entries  {} bytes  crc32 {:08x}", s.file, s.rows, s.nnz, s.bytes, s.crc32)?;
    }
    if verify {
        outln!("checksums    verified")?;
    }
    Ok(())
}

/// `inspect --audit`: where each feature of VW text's first rows goes, as
/// VW's `--audit` lists them (`name:index:value`, linear then interactions).
fn audit(a: &InspectArgs, ui: Ui) -> anyhow::Result<()> {
    use rosenblatt::loader::LoadError;
    let compiled = a.hashing.hashing().compile()?;
    let (mut rows, mut line, mut out) = (0usize, 0u64, Vec::new());
    // Reading stops once the rows asked for are listed.
    let enough = || LoadError::Invalid(String::new());
    let read = rosenblatt::loader::input::for_each_block(&a.path, 1 << 20, 1 << 40, |text| {
        for raw in text.split_inclusive(|&b| b == b'\n') {
            line += 1;
            if rows == a.rows {
                return Err(enough());
            }
            if raw.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            let (example, features) = compiled.audit(raw).map_err(|mut error| {
                error.line = line;
                LoadError::Parse { path: a.path.clone(), error }
            })?;
            out.push((line, example, features));
            rows += 1;
        }
        Ok(())
    });
    match read {
        Err(LoadError::Invalid(s)) if s.is_empty() => {}
        r => {
            r?;
        }
    }
    if ui.json {
        let v: Vec<_> = out
            .iter()
            .map(|(line, e, f)| {
                serde_json::json!({
                    "line": line,
                    "label": e.label,
                    "weight": e.weight,
                    "tag": e.tag.as_deref().map(String::from_utf8_lossy),
                    "features": f.iter().map(|f| serde_json::json!({"name": f.name, "index": f.index, "value": f.value})).collect::<Vec<_>>(),
                })
            })
            .collect();
        return crate::ui::json(&serde_json::json!({ "file": a.path, "hashing": compiled.settings(), "rows": v }));
    }
    for (line, e, f) in &out {
        let label = e.label.map_or("(no label)".to_string(), |l| l.to_string());
        let tag = e.tag.as_deref().map(|t| format!(" '{}", String::from_utf8_lossy(t))).unwrap_or_default();
        let weight = if e.weight == 1.0 { String::new() } else { format!(" weight {}", e.weight) };
        outln!("line {line}: {label}{weight}{tag}")?;
        let cells: Vec<String> = f.iter().map(|f| format!("{}:{}:{}", f.name, f.index, f.value)).collect();
        outln!("\t{}", cells.join("\t"))?;
    }
    Ok(())
}

/// A model file: the learner, its hyper-parameters and the record of its
/// training.
fn model(path: &Path, m: &Model, ui: Ui) -> anyhow::Result<()> {
    let weights = match &m.weights {
        Weights::Linear(_) => "linear".to_string(),
        Weights::Multiclass(_) => format!("multi-class, {} weight vectors", m.meta.classes.len()),
        Weights::Voted(_) => "voted, with its mistaken rows".to_string(),
        Weights::Kernel(_) => "kernel, with its support rows".to_string(),
    };
    if ui.json {
        let mut v = serde_json::to_value(&m.meta)?;
        v["model"] = serde_json::json!(path);
        v["weights"] = weights.into();
        v["resumable"] = m.state.is_some().into();
        return crate::ui::json(&v);
    }
    let t = &m.meta.training;
    let classes: Vec<String> = m.meta.classes.iter().map(f64::to_string).collect();
    let params: Vec<String> = m.meta.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    outln!("model        {}", path.display())?;
    outln!("learner      {}", m.meta.learner)?;
    outln!("weights      {weights}")?;
    outln!("dimension    {}", m.meta.dim)?;
    outln!("classes      {}", classes.join(", "))?;
    outln!("index base   {} (as LIBSVM text)", m.meta.index_base)?;
    if let Some(h) = &m.meta.hashing {
        outln!("hashed       from VW text: {}", crate::flags::worded(&h.to_string()))?;
    }
    outln!("parameters   {}", params.join(", "))?;
    outln!("examples     {} (held out: {})", t.examples, t.holdout)?;
    let order = serde_json::to_value(t.order)?;
    outln!("passes       {} run, order {}, seed {}", t.passes_run, order.as_str().unwrap_or("?"), t.seed)?;
    outln!("parts        {}", t.parts)?;
    outln!("mistakes     {} online over the run; {} updates", t.mistakes, t.updates)?;
    outln!("resumable    {}", if m.state.is_some() { "yes (train --init)" } else { "no" })?;
    Ok(())
}
