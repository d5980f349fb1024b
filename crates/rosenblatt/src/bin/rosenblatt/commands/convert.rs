//! `rosenblatt convert`: text or IDX files into a dataset directory.

use crate::args::{ConvertArgs, FormatArg};
use crate::ui::{Ui, outln};
use anyhow::Context;
use rosenblatt::loader::convert::{ConvertOptions, Format, convert};
use rosenblatt::loader::{ParseOptions, WriteOptions, writer::parse_encoding};
use std::time::Instant;

pub fn run(a: ConvertArgs, ui: Ui) -> anyhow::Result<()> {
    let start = Instant::now();
    let format = a.format.map(|f| match f {
        FormatArg::Libsvm => Format::Libsvm,
        FormatArg::Mnist => Format::Mnist,
        FormatArg::Vw => Format::Vw,
        FormatArg::Csv => Format::Csv,
    });
    if let Some(flag) = a.hashing.given()
        && !matches!(format.unwrap_or_else(|| Format::guess(&a.inputs)), Format::Vw | Format::Csv)
    {
        anyhow::bail!("{flag} applies to VW text and CSV (files named .vw or .csv, or --format vw|csv)");
    }
    let opts = ConvertOptions {
        format,
        hashing: a.hashing.hashing(),
        parse: ParseOptions {
            zero_based: a.zero_based,
            sort_indices: a.sort_indices,
            multilabel: a.multilabel,
            skip_bad_lines: a.skip_bad_lines,
            unlabeled_rows: false,
        },
        target: a.target,
        write: WriteOptions {
            shard_bytes: a.shard_size.max(1),
            dim: a.dim,
            encoding: a.encoding.as_deref().map(|e| parse_encoding(e, None)).transpose()?,
            ..Default::default()
        },
        threads: a.threads,
        ..Default::default()
    };
    let bar = ui.bar(None, "");
    let done = convert(&a.inputs, &a.output, &opts, &mut |msg| bar.set_message(msg.to_string()))
        .with_context(|| format!("converting into {}", a.output.display()))?;
    bar.finish_and_clear();
    if !ui.quiet {
        for n in &done.notes {
            eprintln!("note: {n}");
        }
        for (path, e) in &done.skipped {
            eprintln!("warning: skipped {}:{}:{}: {}", path.display(), e.line, e.column, e.kind);
        }
        if !done.skipped.is_empty() {
            eprintln!("warning: skipped {} bad line(s)", done.skipped.len());
        }
        if done.rewritten_rows > 0 {
            eprintln!(
                "note: the first {} rows were written again: the rest of the input called for another encoding, \
                 dimension or label kind than they did (--encoding and --dim set the first two up front)",
                done.rewritten_rows
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let m = &done.manifest;
    if ui.json {
        let mut v = serde_json::to_value(m)?;
        v["dataset"] = serde_json::json!(a.output);
        v["bytes"] = m.bytes().into();
        v["input_bytes"] = done.input_bytes.into();
        v["rewritten_rows"] = done.rewritten_rows.into();
        v["seconds"] = secs.into();
        return crate::ui::json(&v);
    }
    outln!(
        "{}: {} rows, {} nonzeros, dimension {}, labels: {}, encoding {}, {} shard(s), {} bytes; {:.2} s ({:.0} MB/s of input)",
        a.output.display(),
        m.rows,
        m.nonzeros,
        m.dim,
        m.label_kind,
        m.encoding,
        m.shards.len(),
        m.bytes(),
        secs,
        done.input_bytes as f64 / secs / 1e6,
    )?;
    Ok(())
}
