//! `rosenblatt bench ocr` and `rosenblatt demo`: the OCR benchmark.

use crate::args::{KernelArg, OcrArgs, OcrOrder};
use crate::ui::{Ui, outln};
use anyhow::bail;
use rosenblatt::learners::Order;
use rosenblatt::ocr::OcrOptions;

pub fn ocr(a: OcrArgs, ui: Ui) -> anyhow::Result<()> {
    let d = OcrOptions::default();
    let opts = OcrOptions {
        data: a.data.unwrap_or(d.data),
        test_data: a.test_data,
        cache: a.cache.unwrap_or(d.cache),
        passes: a.passes.unwrap_or(d.passes),
        seeds: a.runs.unwrap_or(d.seeds),
        target: a.target.unwrap_or(d.target),
        multiclass: a.multiclass,
        kernel: a.kernel.map(|k| {
            let mut hp = rosenblatt::learners::HyperParams::default();
            hp.set(rosenblatt::learners::Param::Kernel, Some(if k == KernelArg::Poly { 1.0 } else { 0.0 }));
            hp
        }),
        order: match a.order {
            OcrOrder::Blocks => Some(Order::Blocks),
            OcrOrder::Chunks => Some(Order::Chunks),
            OcrOrder::Shuffle => Some(Order::Shuffle),
            OcrOrder::Auto => None,
        },
    };
    if !opts.data.exists() {
        bail!(
            "{}: not found (run from the repository root, or pass --data with the MNIST IDX folder)",
            opts.data.display()
        );
    }
    if opts.test_data.is_none() && opts.data.join(rosenblatt::loader::manifest::MANIFEST).exists() {
        bail!(
            "{}: a converted dataset holds no test images; pass --test-data with the MNIST IDX folder they come \
             from (--test-data datasets/mnist for MNIST's own)",
            opts.data.display()
        );
    }
    a.report.as_deref().map(|d| super::report::check_dir(d, "--report")).transpose()?;
    let bar = ui.bar(None, "");
    // Without a terminal there is no spinner: say once what the long first
    // step is, so a piped run does not sit silent.
    let say = bar.is_hidden() && !ui.quiet;
    let report = rosenblatt::ocr::run(&opts, |msg| {
        if say && msg.starts_with("converting") {
            eprintln!("{msg}");
        }
        bar.set_message(msg.to_string())
    })?;
    bar.finish_and_clear();
    report.notes.iter().for_each(|n| ui.note(n));
    // The one shape `report` reads (docs/report.md).
    let v = crate::ui::document(&report, "ocr", &[("seeds", opts.seeds.into()), ("target", opts.target.into())])?;
    if let Some(dir) = &a.report {
        super::report::write_one(v.clone(), None, dir, ui)?;
    }
    if ui.json {
        return crate::ui::json(&v);
    }
    outln!(
        "digit {} vs rest: {} training rows ({}) from {}; {} test rows from {}",
        opts.target,
        report.train_rows,
        report.encoding,
        report.train_data,
        report.test_rows,
        report.test_data,
    )?;
    outln!(
        "{} run(s) (seeds 0..{}); {} part; {}",
        opts.seeds,
        opts.seeds,
        report.parts,
        rosenblatt::kernels::describe()
    )?;
    outln!(
        "read-only pass over the training shards: {:.2} ms; order: {}",
        report.read_only_seconds * 1e3,
        report.order
    )?;
    if !report.kernel_params.is_empty() {
        let p: Vec<String> = report
            .kernel_params
            .iter()
            .map(|(k, v)| {
                format!("{k} = {}", rosenblatt::learners::Param::from_name(k).map_or(v.to_string(), |p| p.show(*v)))
            })
            .collect();
        outln!("kernel averaged Perceptron on ten digits, one-vs-rest: {}", p.join(", "))?;
    }
    outln!()?;
    outln!(
        "{:<30} {:>6} {:>16} {:>10} {:>12} {:>12} {:>10}",
        "learner",
        "passes",
        "test error",
        "ms/pass",
        "examples/s",
        "nonzeros/s",
        "÷ read"
    )?;
    for r in &report.records {
        // A spread needs two seeds or more.
        let spread = if opts.seeds > 1 { format!("±{:>5.2}", r.test_error_std * 100.0) } else { String::new() };
        outln!(
            "{:<30} {:>6} {:>8.2}% {spread:>6} {:>10.2} {:>12.3e} {:>12.3e} {:>10.2}",
            r.learner.name(),
            r.passes,
            r.test_error * 100.0,
            r.seconds_per_pass * 1e3,
            r.examples_per_second,
            r.nonzeros_per_second,
            r.pass_over_read_only
        )?;
    }
    Ok(())
}

pub fn read(dataset: &std::path::Path, repeats: usize, ui: Ui) -> anyhow::Result<()> {
    let ds = crate::ui::open_dataset(dataset)?;
    let secs = rosenblatt::read_only_seconds(&ds, repeats, false);
    let bytes = ds.manifest().bytes();
    if ui.json {
        return crate::ui::json(
            &serde_json::json!({ "dataset": dataset, "bytes": bytes, "seconds": secs, "repeats": repeats }),
        );
    }
    outln!(
        "read-only pass over {}: {:.3} ms ({} bytes, {:.1} GB/s; median of {repeats})",
        dataset.display(),
        secs * 1e3,
        bytes,
        bytes as f64 / secs / 1e9
    )?;
    Ok(())
}
