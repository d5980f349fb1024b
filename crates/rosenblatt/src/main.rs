//! The `rosenblatt` command-line tool.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rosenblatt::loader::{
    self, Dataset, OpenOptions, ParseOptions, WriteOptions, dataset, idx, input, libsvm, shard::LabelKind,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Online linear classification at memory speed.
#[derive(Parser, Debug)]
#[command(name = "rosenblatt", version = rosenblatt::version_line(), about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Machine-readable JSON on stdout instead of tables.
    #[arg(long, global = true)]
    json: bool,
    /// No progress bars or messages on stderr (they are off anyway when
    /// stderr is not a terminal).
    #[arg(long, global = true)]
    quiet: bool,
}

/// How to talk to the person (or program) at the other end.
#[derive(Clone, Copy, Debug)]
struct Ui {
    json: bool,
    quiet: bool,
}

impl Ui {
    /// A progress bar over `len` units (a spinner when `None`), drawn on
    /// stderr only when it is a terminal and `--quiet` is off.
    fn bar(self, len: Option<u64>, unit: &str) -> ProgressBar {
        use std::io::IsTerminal;
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let (bar, template) = match len {
            Some(n) => (
                ProgressBar::new(n),
                format!("{{msg}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} {{rate}} ETA {{eta}}"),
            ),
            None => (ProgressBar::new_spinner(), format!("{{spinner}} {{msg}} {{human_pos}} {unit} {{elapsed}}")),
        };
        let style = ProgressStyle::with_template(&template).expect("a valid template").progress_chars("=> ");
        bar.set_style(style.with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let r = s.per_sec();
            let _ = match r {
                r if r >= 1e6 => write!(w, "{:.1}M/s", r / 1e6),
                r if r >= 1e3 => write!(w, "{:.0}k/s", r / 1e3),
                r => write!(w, "{r:.0}/s"),
            };
        }));
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        bar
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert LIBSVM text or MNIST IDX files into a dataset directory of binary shards.
    Convert(ConvertArgs),
    /// Describe a dataset: rows, nonzeros, dimension, encoding, labels, shards.
    Inspect {
        /// The dataset directory.
        dataset: PathBuf,
        /// Verify every checksum (reads every byte).
        #[arg(long)]
        verify: bool,
    },
    /// Mistake bounds: R, the margin of a reference separator, Novikoff's (R/γ)² and
    /// Freund–Schapire's ((R+D)/γ)², beside the mistakes of one Perceptron pass.
    Bounds {
        /// The dataset directory (labels ±1).
        dataset: PathBuf,
        /// Passes of the averaged Perceptron that serves as the reference separator.
        #[arg(long, default_value_t = 10.0)]
        passes: f64,
        /// Seed of the reference's shuffled order.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Use this model (linear, binary) as the reference separator instead.
        #[arg(long, conflicts_with_all = ["passes", "seed"])]
        model: Option<PathBuf>,
    },
    /// Train a learner on a dataset and save the model.
    Train(TrainArgs),
    /// Evaluate a model on a dataset: error rate, confusion matrix, precision, recall, F1,
    /// and for scoring models log loss and ROC AUC.
    Eval {
        /// The model file.
        model: PathBuf,
        /// The dataset directory.
        dataset: PathBuf,
    },
    /// Predict every row of a dataset directory or LIBSVM text file: one line
    /// per row, in input order, with the predicted label and its score.
    Predict {
        /// The model file.
        model: PathBuf,
        /// A dataset directory, or a LIBSVM text file (plain, .gz or .bz2) in
        /// the index base of the model's training data.
        input: PathBuf,
        /// Write the predictions here instead of to standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Benchmarks.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Generate datasets, written straight to shards.
    #[command(subcommand)]
    Datasets(DatasetsCommand),
    /// The OCR benchmark on the bundled MNIST (converted into datasets/cache on first use).
    Demo,
    /// Write a dataset's rows back as LIBSVM text, in its own index base.
    Export {
        /// The dataset directory.
        dataset: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OrderArg {
    /// A fresh random permutation every pass.
    Shuffle,
    /// As stored.
    Sequential,
    /// n draws with replacement.
    Sample,
    /// Blocks of 65,536 rows in random order, rows shuffled within each,
    /// each block released after use: resident memory stays near one block
    /// (for data larger than memory).
    Blocks,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MixArg {
    Uniform,
    Weighted,
}

#[derive(clap::Args, Debug)]
struct TrainArgs {
    /// The training dataset directory.
    dataset: PathBuf,
    /// The learner: perceptron, batch-perceptron, averaged-perceptron, voted-perceptron, hinge-sgd, pegasos, logistic,
    /// winnow, eg, eg-pm, ftrl-randomized, ftrl-proximal, pa, pa1, pa2, multiclass-perceptron,
    /// multiclass-averaged-perceptron (the hyper-parameter flags below give each learner's default).
    #[arg(long)]
    learner: String,
    /// Passes (fractions allowed); for batch-perceptron the pass limit (default 100).
    #[arg(long)]
    passes: Option<f64>,
    /// Example order.
    #[arg(long, value_enum, default_value = "shuffle")]
    order: OrderArg,
    /// Seed of the order (and of ftrl-randomized's draws).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Hold out this fraction of the rows (the last ones) and report its error per pass.
    #[arg(long, conflicts_with = "test")]
    holdout: Option<f64>,
    /// Report the error on this dataset per pass.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Where to write the model.
    #[arg(short, long)]
    output: PathBuf,
    /// Threads: the rows are cut into this many parts, trained in parallel
    /// and mixed after every pass (default: every core). The same data,
    /// seed and thread count give the same model.
    #[arg(long)]
    threads: Option<usize>,
    /// How the parts are mixed: uniformly, or weighted by their updates.
    #[arg(long, value_enum, default_value = "uniform")]
    mix: MixArg,
    /// Step size (perceptrons: 1; SGD, logistic, EG: 0.1).
    #[arg(long)]
    eta: Option<f64>,
    /// L2 strength (hinge-sgd, logistic: 0; pegasos: 1e-4).
    #[arg(long)]
    lambda: Option<f64>,
    /// Passive-aggressive C (1).
    #[arg(long)]
    c: Option<f64>,
    /// Winnow's promotion factor (2); FTRL-Proximal's alpha (0.1).
    #[arg(long)]
    alpha: Option<f64>,
    /// FTRL-Proximal's beta (1).
    #[arg(long)]
    beta: Option<f64>,
    /// FTRL-Proximal's L1 (1).
    #[arg(long)]
    l1: Option<f64>,
    /// FTRL-Proximal's L2 (1).
    #[arg(long)]
    l2: Option<f64>,
    /// EG's norm B (1).
    #[arg(long)]
    b: Option<f64>,
    /// Winnow's threshold (the dimension).
    #[arg(long)]
    threshold: Option<f64>,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// MNIST one digit against the rest: the Perceptron's final vector, the Voted and the
    /// Averaged Perceptron over several pass counts, tested on the 10,000 test images.
    Ocr(OcrArgs),
}

#[derive(Subcommand, Debug)]
enum DatasetsCommand {
    /// A sparse binary set: Zipf-distributed features, labels from a hidden
    /// sparse linear model with label noise. Writes DIR/train and DIR/test.
    Sparse(SparseArgs),
    /// Deformed MNIST training digits ("infinite MNIST"-style): each row is
    /// training digit (row mod 60,000) under a random small affine map and a
    /// smooth elastic distortion, labelled with its digit (or ±1 with
    /// --target). Writes dense-u8 shards directly; deterministic for a seed
    /// whatever the thread count.
    Ocr(OcrGenArgs),
}

#[derive(clap::Args, Debug)]
struct OcrGenArgs {
    /// The dataset directory to create.
    #[arg(short, long)]
    output: PathBuf,
    /// Rows.
    #[arg(long, default_value_t = 1_000_000)]
    rows: u64,
    /// Seed of the deformations.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Label +1 for this digit and -1 for the rest (default: the digit, 0..=9).
    #[arg(long)]
    target: Option<u8>,
    /// The folder with the MNIST training IDX files (gzipped or not).
    #[arg(long, default_value = "datasets/mnist")]
    mnist: PathBuf,
    /// Translation range, ± pixels on each axis.
    #[arg(long, default_value_t = 2.0)]
    shift: f32,
    /// Rotation range, ± degrees.
    #[arg(long, default_value_t = 10.0)]
    rotate: f32,
    /// Scaling range, 1 ± this.
    #[arg(long, default_value_t = 0.1)]
    scale: f32,
    /// Elastic distortion strength, pixels per unit of smoothed field (0: none).
    #[arg(long, default_value_t = 16.0)]
    alpha: f32,
    /// Width of the Gaussian smoothing the elastic field, in pixels.
    #[arg(long, default_value_t = 4.0)]
    sigma: f32,
}

#[derive(clap::Args, Debug)]
struct SparseArgs {
    /// The directory to create (it gets `train` and `test` datasets).
    #[arg(short, long)]
    output: PathBuf,
    /// Training rows.
    #[arg(long, default_value_t = 2_000_000)]
    rows: usize,
    /// Test rows (same hidden model, another sample).
    #[arg(long, default_value_t = 100_000)]
    test_rows: usize,
    /// Dimension.
    #[arg(long, default_value_t = 1 << 20)]
    dim: usize,
    /// Features per row.
    #[arg(long, default_value_t = 80)]
    nnz: usize,
    /// Zipf exponent of the feature frequencies.
    #[arg(long, default_value_t = 1.0)]
    zipf: f64,
    /// Fraction of features in the hidden model.
    #[arg(long, default_value_t = 0.1)]
    density: f64,
    /// Label noise: probability a label is flipped.
    #[arg(long, default_value_t = 0.05)]
    noise: f64,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(clap::Args, Debug)]
struct OcrArgs {
    /// A folder of MNIST IDX files, or a converted one-vs-rest training dataset.
    #[arg(long, default_value = "datasets/mnist")]
    data: PathBuf,
    /// The MNIST IDX folder the test images come from when --data is a dataset.
    #[arg(long, default_value = "datasets/mnist")]
    test_data: PathBuf,
    /// Where converted datasets are cached.
    #[arg(long, default_value = "datasets/cache")]
    cache: PathBuf,
    /// Pass counts, comma-separated (fractions allowed).
    #[arg(long, value_delimiter = ',', default_value = "0.1,1,2,3,4,10")]
    passes: Vec<f64>,
    /// Seeds of the training order (0..N); the table shows mean and spread.
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    /// The digit that is +1.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(0..=9))]
    target: u8,
    /// Also train the multi-class averaged Perceptron on all ten digits
    /// (needs the IDX folder or a dataset labelled with digits).
    #[arg(long)]
    multiclass: bool,
    /// Training order: shuffle, blocks (out of core: resident memory near
    /// 65,536 rows), or auto (blocks when the training shards exceed 1 GiB).
    #[arg(long, value_parser = ["auto", "shuffle", "blocks"], default_value = "auto")]
    order: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Libsvm,
    Mnist,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// Input files: LIBSVM text (plain, .gz or .bz2), or for MNIST the images file then the labels file.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The dataset directory to create.
    #[arg(short, long)]
    output: PathBuf,
    /// Input format (default: mnist for two IDX files, else libsvm).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// LIBSVM indices start at 0 (default: 1).
    #[arg(long)]
    zero_based: bool,
    /// Sort each row's features instead of rejecting unsorted rows.
    #[arg(long)]
    sort_indices: bool,
    /// Labels are comma-separated class-id lists.
    #[arg(long)]
    multilabel: bool,
    /// Skip malformed lines, counting and reporting each.
    #[arg(long)]
    skip_bad_lines: bool,
    /// MNIST one-vs-rest: this digit is +1, every other −1 (default: the ten class ids).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=9))]
    target: Option<u8>,
    /// Target shard size in bytes.
    #[arg(long, default_value_t = 256 << 20)]
    shard_size: u64,
    /// Force an encoding: sparse-u16-f32, sparse-u16-u8, sparse-u16-binary, sparse-u32-…, dense-f32, dense-u8.
    #[arg(long)]
    encoding: Option<String>,
    /// Dimension, if larger than the largest index + 1.
    #[arg(long)]
    dim: Option<u64>,
    /// Parser threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        // The library errors already print their cause; add only causes
        // that say something new.
        let mut line = e.to_string();
        for cause in e.chain().skip(1) {
            let c = cause.to_string();
            if !line.contains(&c) {
                line = format!("{line}: {c}");
            }
        }
        eprintln!("error: {line}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    let ui = Ui { json: cli.json, quiet: cli.quiet };
    match cli.command {
        None => {
            if ui.json {
                let v = serde_json::json!({ "version": env!("CARGO_PKG_VERSION"), "simd": rosenblatt::kernels::describe() });
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                println!("rosenblatt {}", rosenblatt::version_line());
                println!("run `rosenblatt --help` for the commands");
            }
            Ok(())
        }
        Some(Command::Convert(a)) => convert(a, ui),
        Some(Command::Inspect { dataset, verify }) => inspect(&dataset, verify, ui),
        Some(Command::Export { dataset, output }) => export(&dataset, output.as_deref(), ui),
        Some(Command::Bounds { dataset, passes, seed, model }) => bounds(&dataset, passes, seed, model.as_deref(), ui),
        Some(Command::Bench(BenchCommand::Ocr(a))) => ocr(a, ui),
        Some(Command::Train(a)) => train_cmd(a, ui),
        Some(Command::Eval { model, dataset }) => eval_cmd(&model, &dataset, ui),
        Some(Command::Datasets(DatasetsCommand::Sparse(a))) => sparse_cmd(a, ui),
        Some(Command::Datasets(DatasetsCommand::Ocr(a))) => ocr_gen_cmd(a, ui),
        Some(Command::Predict { model, input, output }) => predict_cmd(&model, &input, output.as_deref(), ui),
        Some(Command::Demo) => ocr(
            OcrArgs {
                data: "datasets/mnist".into(),
                test_data: "datasets/mnist".into(),
                cache: "datasets/cache".into(),
                passes: vec![0.1, 1.0, 2.0, 3.0, 4.0, 10.0],
                seeds: 3,
                target: 9,
                multiclass: false,
                order: "auto".into(),
            },
            ui,
        ),
    }
}

fn looks_like_idx(p: &Path) -> bool {
    let n = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    n.contains("idx") || n.contains("ubyte")
}

fn convert(a: ConvertArgs, ui: Ui) -> Result<()> {
    let start = Instant::now();
    let bar = ui.bar(None, "");
    let format = a.format.unwrap_or(if a.inputs.len() == 2 && a.inputs.iter().all(|p| looks_like_idx(p)) {
        Format::Mnist
    } else {
        Format::Libsvm
    });
    let mut wopts = WriteOptions { shard_bytes: a.shard_size.max(1), dim: a.dim, ..Default::default() };
    let mut input_bytes = 0u64;
    let rows = match format {
        Format::Mnist => {
            let [images, labels] = a.inputs.as_slice() else {
                bail!("--format mnist takes two inputs, the images file then the labels file");
            };
            if a.zero_based || a.multilabel || a.sort_indices {
                bail!("--zero-based, --multilabel and --sort-indices apply to LIBSVM text, not MNIST");
            }
            wopts.index_base = 0;
            wopts.label_kind = Some(if a.target.is_some() { LabelKind::Binary } else { LabelKind::Classes });
            bar.set_message(format!("reading {}", images.display()));
            let (rows, dim) = idx::read_mnist(images, labels, a.target)?;
            wopts.dim = Some(a.dim.unwrap_or(dim));
            input_bytes += std::fs::metadata(images).map(|m| m.len()).unwrap_or(0);
            rows
        }
        Format::Libsvm => {
            if a.target.is_some() {
                bail!("--target applies to MNIST input; LIBSVM labels are used as they are");
            }
            let popts = ParseOptions {
                zero_based: a.zero_based,
                sort_indices: a.sort_indices,
                multilabel: a.multilabel,
                skip_bad_lines: a.skip_bad_lines,
            };
            wopts.index_base = u8::from(!a.zero_based);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(a.threads.unwrap_or(0)).build()?;
            let mut all: Option<loader::Rows> = None;
            for path in &a.inputs {
                bar.set_message(format!("parsing {}", path.display()));
                let bytes = input::read_input(path, 1 << 40)?;
                input_bytes += bytes.len() as u64;
                let rows = pool
                    .install(|| libsvm::parse_parallel(&bytes, &popts, 4 << 20))
                    .map_err(|error| loader::LoadError::Parse { path: path.clone(), error })?;
                bar.suspend(|| {
                    for e in &rows.skipped {
                        eprintln!("warning: skipped {}:{}:{}: {}", path.display(), e.line, e.column, e.kind);
                    }
                    if !rows.skipped.is_empty() {
                        eprintln!("warning: skipped {} bad line(s) in {}", rows.skipped.len(), path.display());
                    }
                });
                match &mut all {
                    None => all = Some(rows),
                    Some(acc) => acc.append(rows),
                }
            }
            let rows = all.expect("at least one input");
            if rows.is_empty() {
                return Err(loader::LoadError::Empty { path: a.inputs[0].clone() }.into());
            }
            rows
        }
    };
    if let Some(name) = &a.encoding {
        wopts.encoding = Some(dataset::parse_encoding(name, None)?);
    }
    bar.set_message(format!("writing {}", a.output.display()));
    let m = dataset::write_dataset(&a.output, &rows, &wopts)
        .with_context(|| format!("converting into {}", a.output.display()))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let bytes: u64 = m.shards.iter().map(|s| s.bytes).sum();
    if ui.json {
        let mut v = serde_json::to_value(&m)?;
        v["dataset"] = serde_json::json!(a.output);
        v["bytes"] = bytes.into();
        v["input_bytes"] = input_bytes.into();
        v["seconds"] = secs.into();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!(
        "{}: {} rows, {} nonzeros, dimension {}, {} labels, encoding {}, {} shard(s), {} bytes; {:.2} s ({:.0} MB/s of input)",
        a.output.display(),
        m.rows,
        m.nonzeros,
        m.dim,
        m.label_kind,
        m.encoding,
        m.shards.len(),
        bytes,
        secs,
        input_bytes as f64 / secs / 1e6,
    );
    Ok(())
}

fn inspect(dir: &Path, verify: bool, ui: Ui) -> Result<()> {
    let ds = Dataset::open(dir, OpenOptions { verify_checksums: verify, in_memory: false })?;
    let m = ds.manifest();
    let bytes: u64 = m.shards.iter().map(|s| s.bytes).sum();
    if ui.json {
        let mut v = serde_json::to_value(m)?;
        v["bytes"] = bytes.into();
        v["verified"] = verify.into();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let density = m.nonzeros as f64 / (m.rows as f64 * m.dim as f64).max(1.0);
    println!("dataset      {}", dir.display());
    println!("rows         {}", m.rows);
    println!("nonzeros     {} (density {:.4}); {} stored entries", m.nonzeros, density, m.nnz);
    println!("dimension    {}", m.dim);
    println!("index base   {}", m.index_base);
    println!("encoding     {}{}", m.encoding, m.scale.map(|s| format!(" (scale {s:e})")).unwrap_or_default());
    println!("labels       {}{}", m.label_kind, if m.has_qids { ", with qids" } else { "" });
    for (label, count) in &m.label_counts {
        println!("  {label:>10}  {count}");
    }
    println!("shards       {} ({} bytes)", m.shards.len(), bytes);
    for s in &m.shards {
        println!("  {}  {} rows  {} nonzeros  {} bytes  crc32 {:08x}", s.file, s.rows, s.nnz, s.bytes, s.crc32);
    }
    if verify {
        println!("checksums    verified");
    }
    Ok(())
}

fn bounds(dir: &Path, passes: f64, seed: u64, model: Option<&Path>, ui: Ui) -> Result<()> {
    use rosenblatt::learners::{
        AveragedPerceptron, OnlineLearner, Order, Perceptron, PerceptronParams, TrainOptions, mistake_bounds, train,
    };
    let ds = Dataset::open(dir, OpenOptions::default())?;
    if ds.manifest().label_kind != "binary" {
        bail!(
            "{}: labels are {}, the bounds need ±1 labels (for MNIST, convert with --target DIGIT)",
            dir.display(),
            ds.manifest().label_kind
        );
    }
    let saved = model.map(rosenblatt::model::SavedModel::load).transpose()?;
    let reference_name = match (&saved, model) {
        (Some(m), Some(path)) => format!("{} ({})", path.display(), m.meta.learner),
        _ => format!("averaged perceptron, {passes} passes, seed {seed}"),
    };
    loader::with_examples!(ds.examples()?, |ex| {
        let dim = ds.dim() as usize;
        let u = match &saved {
            Some(m) => {
                let rosenblatt::model::Weights::Linear(w) = &m.weights else {
                    bail!(
                        "{}: a {} model has no single weight vector; --model takes a linear binary model (perceptron, averaged-perceptron, pegasos, …)",
                        model.expect("saved implies a path").display(),
                        m.meta.learner
                    );
                };
                let mut w = w.clone();
                // Features the model never saw get weight 0 (and the model's
                // extra ones meet zeros in every row).
                w.weights.resize(dim.max(w.weights.len()), 0.0);
                w
            }
            None => {
                let mut reference = AveragedPerceptron::new(dim, PerceptronParams::default(), false)?;
                let opts = TrainOptions { passes, order: Order::Shuffle, seed, stop_when_separated: false };
                train(&mut reference, &ex, &opts)?;
                reference.model()
            }
        };
        let mut p = Perceptron::new(dim, PerceptronParams::default())?;
        let one = TrainOptions { passes: 1.0, order: Order::Sequential, seed: 0, stop_when_separated: false };
        let mistakes = train(&mut p, &ex, &one)?.mistakes();
        let Some(b) = mistake_bounds(&ex, &u, true) else {
            bail!("the reference separator classifies no example correctly; no margin to bound with");
        };
        if ui.json {
            let v = serde_json::json!({
                "examples": ds.rows(), "r": b.r, "reference_margin": b.margin, "novikoff": b.novikoff,
                "gamma": b.gamma, "deficit": b.deficit, "freund_schapire": b.freund_schapire,
                "perceptron_mistakes": mistakes, "reference": reference_name,
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            println!("examples            {}", ds.rows());
            println!("reference u         {reference_name}, normalised with its bias");
            println!("R = max ‖(x, 1)‖    {:.6}", b.r);
            println!(
                "margin of u         {:.6}{}",
                b.margin,
                if b.margin > 0.0 { "" } else { " (u does not separate the data)" }
            );
            match b.novikoff {
                Some(n) => println!("(R/γ)²              {n:.1}"),
                None => println!("(R/γ)²              none (no positive margin)"),
            }
            println!("best γ for ((R+D)/γ)²  {:.6} (D = {:.4})", b.gamma, b.deficit);
            println!("((R+D)/γ)²          {:.1}", b.freund_schapire);
            println!("Perceptron mistakes {mistakes} (one sequential pass, with a bias)");
        }
        Ok(())
    })
}

fn train_cmd(a: TrainArgs, ui: Ui) -> Result<()> {
    use rosenblatt::learners::{Order, TrainOptions};
    use rosenblatt::train::{HyperParams, TrainSpec};
    // Before the table header, so a typo prints only the error.
    rosenblatt::train::check_learner(&a.learner)?;
    let ds = Dataset::open(&a.dataset, OpenOptions::default())?;
    let test = a.test.as_ref().map(|t| Dataset::open(t, OpenOptions::default())).transpose()?;
    let batch = a.learner == "batch-perceptron";
    let options = TrainOptions {
        passes: a.passes.unwrap_or(if batch { 100.0 } else { 1.0 }),
        order: if batch {
            Order::Sequential
        } else {
            match a.order {
                OrderArg::Shuffle => Order::Shuffle,
                OrderArg::Sequential => Order::Sequential,
                OrderArg::Sample => Order::Sample,
                OrderArg::Blocks => Order::Blocks,
            }
        },
        seed: a.seed,
        stop_when_separated: batch,
    };
    let spec = TrainSpec {
        learner: a.learner.clone(),
        options,
        params: HyperParams {
            eta: a.eta,
            lambda: a.lambda,
            c: a.c,
            alpha: a.alpha,
            beta: a.beta,
            l1: a.l1,
            l2: a.l2,
            b: a.b,
            threshold: a.threshold,
        },
        holdout: a.holdout,
        threads: a.threads,
        mixing: match a.mix {
            MixArg::Uniform => rosenblatt::learners::Mixing::Uniform,
            MixArg::Weighted => rosenblatt::learners::Mixing::Weighted,
        },
    };
    if let Some(t) = a.threads {
        if t == 0 {
            bail!("--threads 0: give at least 1 thread");
        }
        // The pool that evaluation and the parts run on.
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global()?;
    }
    let mixable = rosenblatt::train::MIXABLE.contains(&a.learner.as_str());
    if !mixable && a.threads.is_some_and(|t| t > 1) && !ui.quiet {
        eprintln!(
            "note: {} trains on one thread (its state does not mix); --threads applies to evaluation only",
            a.learner
        );
    }
    let json = ui.json;
    let header = |bar: &ProgressBar| {
        let eval = if a.holdout.is_some() {
            "holdout"
        } else if a.test.is_some() {
            "test"
        } else {
            ""
        };
        bar.suspend(|| {
            println!(
                "{:>5} {:>10} {:>12} {:>12} {:>10} {:>12}",
                "pass", "mistakes", "train error", eval, "seconds", "examples/s"
            )
        });
    };
    let steps = (spec.options.passes * ds.rows() as f64 * (1.0 - a.holdout.unwrap_or(0.0))).round() as u64;
    let bar = ui.bar(Some(steps), "examples");
    bar.set_message(a.learner.clone());
    let mut lines = Vec::new();
    let mut progress = |done: u64| bar.set_position(done);
    // The header waits for the first pass, so that a refusal (wrong labels
    // for the learner) is the only line printed.
    let mut headed = false;
    let on_pass = |l: &rosenblatt::train::PassLine| {
        if !json {
            if !headed {
                header(&bar);
                headed = true;
            }
            let e = l.eval_error.map(|e| format!("{:.4}", e)).unwrap_or_default();
            let t = l.train_error.map(|e| format!("{:.4}", e)).unwrap_or_else(|| "-".into());
            bar.suspend(|| {
                println!(
                    "{:>5} {:>10} {:>12} {:>12} {:>10.3} {:>12.3e}",
                    l.pass, l.mistakes, t, e, l.seconds, l.examples_per_second
                )
            });
        }
        lines.push(l.clone());
    };
    let model = rosenblatt::train::train_dataset_with_progress(&ds, test.as_ref(), &spec, on_pass, &mut progress)?;
    bar.finish_and_clear();
    model.save(&a.output)?;
    if batch {
        match model.meta.training.get("separated_at").and_then(|v| v.as_u64()) {
            Some(p) => eprintln!("converged: pass {p} made no mistake ({} updates)", model.meta.training["updates"]),
            None => eprintln!("not separated within {} passes", spec.options.passes),
        }
    }
    if json {
        let v = serde_json::json!({ "model": a.output, "learner": a.learner, "passes": lines, "training": model.meta.training });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        let threads = model.meta.training.get("threads").and_then(|v| v.as_u64()).unwrap_or(1);
        let how = match model.meta.training.get("mixing").and_then(|v| v.as_str()) {
            Some(m) => format!("{threads} threads, parts mixed {m} after every pass"),
            None if mixable => "1 thread".to_string(),
            None => "1 thread: this learner's state does not mix".to_string(),
        };
        println!("model written to {} ({how})", a.output.display());
    }
    Ok(())
}

fn eval_cmd(model: &Path, dataset: &Path, ui: Ui) -> Result<()> {
    let m = rosenblatt::model::SavedModel::load(model)?;
    let ds = Dataset::open(dataset, OpenOptions::default())?;
    let e = loader::with_examples!(ds.examples()?, |ex| rosenblatt::eval::evaluate(&m, &ex))?;
    if e.features_beyond_model {
        eprintln!(
            "note: {} has features beyond the model's dimension {}; they get weight 0",
            dataset.display(),
            m.meta.dim
        );
    }
    if ui.json {
        println!("{}", serde_json::to_string_pretty(&e)?);
        return Ok(());
    }
    println!("model        {} ({}, dimension {})", model.display(), m.meta.learner, m.meta.dim);
    println!("examples     {}", e.examples);
    println!("error rate   {:.4}", e.error_rate);
    if let Some(l) = e.log_loss {
        println!("log loss     {l:.4}");
    }
    if let Some(a) = e.roc_auc {
        println!("ROC AUC      {a:.4}");
    }
    println!("confusion (rows: true class, columns: predicted)");
    print!("{:>10}", "");
    e.classes.iter().for_each(|c| print!("{c:>10}"));
    println!();
    for (c, row) in e.classes.iter().zip(&e.confusion) {
        print!("{c:>10}");
        row.iter().for_each(|n| print!("{n:>10}"));
        println!();
    }
    println!("{:>10} {:>10} {:>10} {:>10}", "class", "precision", "recall", "F1");
    for (i, c) in e.classes.iter().enumerate() {
        println!("{c:>10} {:>10.4} {:>10.4} {:>10.4}", e.precision[i], e.recall[i], e.f1[i]);
    }
    Ok(())
}

fn ocr(a: OcrArgs, ui: Ui) -> Result<()> {
    if !a.data.exists() {
        bail!(
            "{}: not found (run from the repository root, or pass --data with the MNIST IDX folder)",
            a.data.display()
        );
    }
    let opts = rosenblatt::ocr::OcrOptions {
        data: a.data.clone(),
        test_idx: a.test_data.clone(),
        cache: a.cache.clone(),
        passes: a.passes.clone(),
        seeds: a.seeds,
        target: a.target,
        multiclass: a.multiclass,
        blocks: match a.order.as_str() {
            "blocks" => Some(true),
            "shuffle" => Some(false),
            _ => None,
        },
    };
    let bar = ui.bar(None, "");
    let report = rosenblatt::ocr::run(&opts, |msg| bar.set_message(msg.to_string()))?;
    bar.finish_and_clear();
    if ui.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "MNIST digit {} vs rest: {} training rows ({}), {} test rows; {} seed(s); {}",
        a.target,
        report.train_rows,
        report.encoding,
        report.test_rows,
        a.seeds,
        rosenblatt::kernels::describe()
    );
    println!(
        "read-only pass over the training shards: {:.2} ms; order: {}",
        report.read_only_seconds * 1e3,
        report.order
    );
    println!();
    println!(
        "{:<20} {:>6} {:>16} {:>10} {:>12} {:>12} {:>10}",
        "learner", "passes", "test error", "ms/pass", "examples/s", "nonzeros/s", "÷ read"
    );
    for r in &report.records {
        println!(
            "{:<20} {:>6} {:>8.2}% ±{:>5.2} {:>10.2} {:>12.3e} {:>12.3e} {:>10.2}",
            r.learner,
            r.passes,
            r.test_error * 100.0,
            r.test_error_std * 100.0,
            r.seconds_per_pass * 1e3,
            r.examples_per_second,
            r.nonzeros_per_second,
            r.pass_over_read_only
        );
    }
    Ok(())
}

fn fmt_f32(v: f32) -> String {
    if v == 0.0 || (1e-4..1e15).contains(&v.abs()) { format!("{v}") } else { format!("{v:e}") }
}

fn sparse_cmd(a: SparseArgs, ui: Ui) -> Result<()> {
    use rosenblatt_datasets::sparse::{SparseSpec, write};
    let spec = SparseSpec {
        rows: a.rows,
        dim: a.dim,
        nnz: a.nnz,
        zipf: a.zipf,
        density: a.density,
        noise: a.noise,
        seed: a.seed,
    };
    let (tr, te) = (a.output.join("train"), a.output.join("test"));
    for d in [&tr, &te] {
        if d.join("dataset.json").exists() {
            bail!("{}: already holds a dataset; remove it or choose another directory", d.display());
        }
    }
    let bar = ui.bar(None, "");
    bar.set_message(format!("generating {} + {} rows", a.rows, a.test_rows));
    let start = Instant::now();
    let test = (a.test_rows > 0).then_some((a.test_rows, te.as_path()));
    let (m, t) = write(&spec, &tr, test)?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if ui.json {
        let v = serde_json::json!({
            "train": tr, "test": t.as_ref().map(|_| &te), "rows": m.rows, "test_rows": t.as_ref().map(|t| t.rows),
            "nonzeros": m.nonzeros, "dim": m.dim, "encoding": m.encoding, "seconds": secs,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "{}: {} rows, {} nonzeros, dimension {}, encoding {}{}; {:.1} s",
            tr.display(),
            m.rows,
            m.nonzeros,
            m.dim,
            m.encoding,
            t.map(|t| format!("; {}: {} rows", te.display(), t.rows)).unwrap_or_default(),
            secs
        );
    }
    Ok(())
}

fn ocr_gen_cmd(a: OcrGenArgs, ui: Ui) -> Result<()> {
    use rosenblatt_datasets::ocr::{Deformation, Digits, OcrSpec, write};
    let images = rosenblatt::ocr::find_idx(&a.mnist, "train-images.idx3-ubyte")?;
    let labels = rosenblatt::ocr::find_idx(&a.mnist, "train-labels.idx1-ubyte")?;
    if a.output.join("dataset.json").exists() {
        bail!("{}: already holds a dataset; remove it or choose another directory", a.output.display());
    }
    let spec = OcrSpec {
        rows: a.rows,
        seed: a.seed,
        target: a.target,
        deformation: Deformation { shift: a.shift, rotate: a.rotate, scale: a.scale, alpha: a.alpha, sigma: a.sigma },
        ..Default::default()
    };
    let start = Instant::now();
    let digits = Digits::read(&images, &labels)?;
    let bar = ui.bar(Some(a.rows), "rows");
    let m = write(&digits, &spec, &a.output, |done| bar.set_position(done))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let bytes: u64 = m.shards.iter().map(|s| s.bytes).sum();
    if ui.json {
        let v = serde_json::json!({
            "dataset": a.output, "rows": m.rows, "dim": m.dim, "encoding": m.encoding, "label_kind": m.label_kind,
            "shards": m.shards.len(), "bytes": bytes, "seconds": secs, "rows_per_second": m.rows as f64 / secs,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "{}: {} rows of deformed digits ({} labels), {} shards, {:.2} GB, encoding {}; {:.1} s ({:.0} rows/s)",
            a.output.display(),
            m.rows,
            m.label_kind,
            m.shards.len(),
            bytes as f64 / 1e9,
            m.encoding,
            secs,
            m.rows as f64 / secs
        );
    }
    Ok(())
}

fn predict_cmd(model: &Path, input: &Path, output: Option<&Path>, ui: Ui) -> Result<()> {
    use rosenblatt::model::{Prediction, SavedModel};
    let m = SavedModel::load(model)?;
    let bar = ui.bar(None, "");
    bar.set_message(format!("predicting {}", input.display()));
    let (predictions, beyond) = if input.is_dir() {
        let ds = Dataset::open(input, OpenOptions::default())?;
        let mut p = vec![Prediction::default(); ds.rows() as usize];
        loader::with_examples!(ds.examples()?, |ex| m.predictions_into(&ex, &mut p))?;
        (p, ds.dim() > m.meta.dim)
    } else {
        // Text is read in the index base of the data the model was trained on.
        let base = m.meta.training.get("index_base").and_then(|v| v.as_u64()).unwrap_or(1);
        let popts = ParseOptions { zero_based: base == 0, ..Default::default() };
        let bytes = input::read_input(input, 1 << 40)?;
        let rows = libsvm::parse_parallel(&bytes, &popts, 4 << 20)
            .map_err(|error| loader::LoadError::Parse { path: input.to_path_buf(), error })?;
        let top = rows.indices.iter().max().map_or(0, |&i| i as usize + 1);
        let mut ex = rosenblatt::learners::InMemoryExamples::new(top.max(m.meta.dim as usize));
        for r in 0..rows.len() {
            let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
            let label = rows.labels.get(r).copied().unwrap_or(0.0);
            ex.push(&rows.indices[s..e], &rows.values[s..e], label)
                .with_context(|| format!("{}: row {}", input.display(), r + 1))?;
        }
        let mut p = vec![Prediction::default(); ex.len()];
        m.predictions_into(&&ex, &mut p)?;
        (p, top as u64 > m.meta.dim)
    };
    bar.finish_and_clear();
    if beyond && !ui.quiet {
        eprintln!(
            "note: {} has features beyond the model's dimension {}; they get weight 0",
            input.display(),
            m.meta.dim
        );
    }
    let mut out = Vec::with_capacity(predictions.len() * 16);
    for p in &predictions {
        if ui.json && output.is_none() {
            writeln!(out, "{}", serde_json::to_string(p)?)?;
        } else {
            writeln!(out, "{} {}", p.label, p.score)?;
        }
    }
    match output {
        Some(path) => {
            loader::shard::write_atomic(path, &out)?;
            if ui.json {
                let v = serde_json::json!({
                    "model": model, "input": input, "output": path, "rows": predictions.len(),
                    "features_beyond_model": beyond,
                });
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else if !ui.quiet {
                eprintln!("{} predictions written to {}", predictions.len(), path.display());
            }
        }
        None => write_stdout(&out)?,
    }
    Ok(())
}

/// Writes `bytes` to standard output; a closed pipe (`| head`) is not an
/// error worth a message.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match lock.write_all(bytes).and_then(|()| lock.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

fn export(dir: &Path, output: Option<&Path>, ui: Ui) -> Result<()> {
    if ui.json && output.is_none() {
        bail!("export writes LIBSVM text to standard output; with --json give -o FILE and the summary goes to stdout");
    }
    let ds = Dataset::open(dir, OpenOptions::default())?;
    let rows = ds.to_rows();
    let zero_based = ds.manifest().index_base == 0;
    let mut out = Vec::with_capacity(rows.indices.len() * 12);
    for r in 0..rows.len() {
        let label = if rows.label_offsets.is_empty() {
            fmt_f32(rows.labels[r])
        } else {
            let ids = &rows.multilabels[rows.label_offsets[r] as usize..rows.label_offsets[r + 1] as usize];
            ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        };
        out.extend_from_slice(label.as_bytes());
        if rows.qids[r] != libsvm::NO_QID {
            write!(out, " qid:{}", rows.qids[r])?;
        }
        let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
        for k in s..e {
            write!(out, " {}:{}", u64::from(rows.indices[k]) + u64::from(!zero_based), fmt_f32(rows.values[k]))?;
        }
        out.push(b'\n');
    }
    match output {
        Some(p) => {
            loader::shard::write_atomic(p, &out)?;
            if ui.json {
                let v = serde_json::json!({ "dataset": dir, "output": p, "rows": rows.len(), "bytes": out.len() });
                println!("{}", serde_json::to_string_pretty(&v)?);
            }
        }
        None => write_stdout(&out)?,
    }
    Ok(())
}
