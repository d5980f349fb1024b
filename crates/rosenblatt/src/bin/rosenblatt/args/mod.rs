//! The command line: every command, flag and default, and nothing else.

use crate::hashing::HashArgs;
use crate::hyper::HyperArgs;
use crate::source::SourceArgs;
use clap::{Args, Parser, Subcommand, ValueEnum};
use rosenblatt::learners::{Learner, Mixing, Order};
use std::path::PathBuf;

mod bench;
mod serve;
pub use bench::*;
pub use serve::*;

/// Online linear classification at memory speed.
#[derive(Parser, Debug)]
#[command(name = "rosenblatt", version = rosenblatt::version_line(), about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Machine-readable JSON on stdout instead of tables.
    #[arg(long, global = true, help_heading = "Output")]
    pub json: bool,
    /// No progress bars or notes on stderr (bars are off anyway when stderr
    /// is not a terminal).
    #[arg(long, global = true, help_heading = "Output")]
    pub quiet: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert LIBSVM or VW text, or MNIST IDX files, into a dataset directory of binary shards.
    Convert(ConvertArgs),
    /// Describe a dataset (rows, non-zeros, dimension, encoding, labels,
    /// shards) or a model file (learner, hyper-parameters, training record);
    /// with --audit, where each feature of VW text goes.
    Inspect(InspectArgs),
    /// Mistake bounds: R, the margin of a reference separator, Novikoff's (R/γ)² and
    /// Freund–Schapire's ((R+D)/γ)², beside the mistakes of one Perceptron pass.
    Bounds(BoundsArgs),
    /// Every learner: what it is, the labels it takes, whether it mixes
    /// across parts, and its hyper-parameters with their defaults.
    Learners {
        /// The list as the README's Markdown.
        #[arg(long)]
        markdown: bool,
    },
    /// Train a learner on a dataset and save the model.
    Train(Box<TrainArgs>),
    /// Search a small log-spaced grid of a learner's main hyper-parameters
    /// (multiples of its defaults as derived from the data), each point
    /// trained as `train` would and scored on a holdout tail or a test set;
    /// prints the table and the best settings as a `train` command.
    Tune(Box<TuneArgs>),
    /// Evaluate a model on a dataset: error rate, confusion matrix, precision, recall, F1,
    /// and for scoring models log loss and ROC AUC.
    Eval(EvalArgs),
    /// Predict every row of a dataset directory or LIBSVM text file: one line
    /// per row, in input order, with the predicted label and its score.
    Predict(PredictArgs),
    /// Serve predictions over TCP, a Unix socket or standard input: one
    /// reply line per request line, as `predict` prints it.
    Serve(ServeArgs),
    /// Benchmarks.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Generate datasets, written straight to shards.
    #[command(subcommand)]
    Datasets(DatasetsCommand),
    /// The OCR benchmark on the bundled MNIST (converted into datasets/cache on
    /// first use): `bench ocr` with its defaults, which its flags change.
    Demo(OcrArgs),
    /// Render what `train --json` or `bench ocr --json` wrote as a directory
    /// a person reads: learning curves and weight images as SVG, the OCR
    /// table, and an index.html (no network, no JavaScript).
    Report {
        /// JSON documents written by `train --json` or `bench ocr --json`.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The directory to write (created if missing).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Write a dataset's rows as LIBSVM text (one-based indices, the
    /// convention; `convert` reads them back unchanged).
    Export {
        /// The dataset directory.
        dataset: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Count indices from 0 instead (convert such text with --zero-based).
        #[arg(long)]
        zero_based: bool,
    },
}

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// The dataset directory (labels ±1).
    pub dataset: PathBuf,
    /// Passes of the averaged Perceptron that serves as the reference separator.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub passes: f64,
    /// Seed of the reference's shuffled order.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
    /// Use this model (linear, binary) as the reference separator instead.
    #[arg(long, conflicts_with_all = ["passes", "seed"])]
    pub model: Option<PathBuf>,
}

/// What a model meets: a dataset directory or LIBSVM text, and how to read
/// and score it (`eval` and `predict`).
#[derive(Args, Debug)]
pub struct InputArgs {
    /// The model file.
    pub model: PathBuf,
    /// A dataset directory, or LIBSVM text (a file, plain, .gz or .bz2, a
    /// pipe, or - for standard input), read in the index base of the
    /// model's training data.
    pub input: PathBuf,
    /// Read the text's indices as counted from 0.
    #[arg(long, conflicts_with = "one_based")]
    pub zero_based: bool,
    /// Read the text's indices as counted from 1.
    #[arg(long)]
    pub one_based: bool,
    /// Threads that read and score (default: every core).
    #[arg(long, allow_negative_numbers = true)]
    pub threads: Option<usize>,
}

impl InputArgs {
    /// The index base the flags ask for text to be read in.
    pub fn base(&self) -> Option<u8> {
        if self.zero_based {
            Some(0)
        } else if self.one_based {
            Some(1)
        } else {
            None
        }
    }
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Args, Debug)]
pub struct PredictArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the predictions here instead of to standard output (folders
    /// created as needed).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// Chunks of 64 consecutive rows in random order, 16 chunks' rows
    /// shuffled together at a time: random for learning, read in runs.
    Chunks,
    /// A fresh random permutation of all rows every pass.
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

impl From<OrderArg> for Order {
    fn from(o: OrderArg) -> Order {
        match o {
            OrderArg::Chunks => Order::Chunks,
            OrderArg::Shuffle => Order::Shuffle,
            OrderArg::Sequential => Order::Sequential,
            OrderArg::Sample => Order::Sample,
            OrderArg::Blocks => Order::Blocks,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MixArg {
    /// Every part counts the same.
    Uniform,
    /// Each part by its share of the pass's updates.
    Weighted,
}

impl From<MixArg> for Mixing {
    fn from(m: MixArg) -> Mixing {
        match m {
            MixArg::Uniform => Mixing::Uniform,
            MixArg::Weighted => Mixing::Weighted,
        }
    }
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The training data: a dataset directory, or text (LIBSVM, VW or CSV;
    /// plain, .gz or .bz2; - for standard input) converted on the way in,
    /// once, into the cache.
    pub dataset: PathBuf,
    /// The learner (with --help, each is described below; -h lists the names).
    #[arg(long, value_enum)]
    pub learner: Learner,
    /// Passes (fractions allowed); for batch-perceptron the pass limit (default 100).
    #[arg(long, allow_negative_numbers = true)]
    pub passes: Option<f64>,
    /// Example order [default: chunks; with --init, the model's].
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
    /// Seed of the order (and of ftrl-randomized's draws) [default: 0; with
    /// --init, the model's].
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Resume this model's learner: its whole state, hyper-parameters, seed
    /// and order, on the same data; --passes more passes follow its own,
    /// bit-identical to having run them all at once.
    #[arg(long, value_name = "MODEL")]
    pub init: Option<PathBuf>,
    /// Hold out this fraction of the rows (the last ones) and report its error per pass.
    #[arg(long, conflicts_with = "test", allow_negative_numbers = true)]
    pub holdout: Option<f64>,
    /// Report the error on this dataset (or text, converted as the
    /// training text is) after every pass.
    #[arg(long)]
    pub test: Option<PathBuf>,
    /// Also report the error on the whole training set after every pass
    /// (costs about one more pass each time).
    #[arg(long)]
    pub train_error: bool,
    /// Where to write the model (folders created as needed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also write the model to --output every K passes (atomically, with
    /// its learner's state): a run stopped part-way leaves a model that
    /// --init resumes. The final model is the same bytes as without.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub checkpoint: Option<usize>,
    /// Also write a report of the run into this directory (`rosenblatt
    /// report`: learning curves, the weights as an image, index.html).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Parts: the rows are cut into this many parts, trained in parallel
    /// and mixed after every pass (iterative parameter mixing). 1 is the
    /// algorithm as published. The model depends on the parts, never on
    /// the threads.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub parts: usize,
    /// Threads that run the parts and score (default: every core).
    #[arg(long, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// How the parts are mixed: uniformly, or weighted by their updates.
    #[arg(long, value_enum, default_value = "uniform")]
    pub mix: MixArg,
    /// The learner's hyper-parameters (its defaults for those not given).
    #[command(flatten, next_help_heading = "Hyper-parameters (each learner takes its own)")]
    pub hyper: HyperArgs,
    #[command(flatten)]
    pub source: SourceArgs,
    #[command(flatten)]
    pub hashing: HashArgs,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The training dataset directory.
    pub dataset: PathBuf,
    /// The learner.
    #[arg(long, value_enum)]
    pub learner: Learner,
    /// Passes of every run (fractions allowed).
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    pub passes: f64,
    /// Example order.
    #[arg(long, value_enum, default_value = "chunks")]
    pub order: OrderArg,
    /// Seed of every run.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
    /// Score on this fraction of the rows (the last ones), held out of training.
    #[arg(long, default_value_t = 0.2, conflicts_with = "test", allow_negative_numbers = true)]
    pub holdout: f64,
    /// Score on this dataset instead of a holdout.
    #[arg(long)]
    pub test: Option<PathBuf>,
    /// Threads the runs share (default: every core).
    #[arg(long, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Hyper-parameters held fixed (taken off the grid).
    #[command(flatten, next_help_heading = "Hyper-parameters (each learner takes its own)")]
    pub hyper: HyperArgs,
}

#[derive(Subcommand, Debug)]
pub enum DatasetsCommand {
    /// A sparse binary set: Zipf-distributed features, labels from a hidden
    /// sparse linear model with label noise. Writes DIR/train and DIR/test.
    Sparse(SparseArgs),
    /// Deformed MNIST training digits ("infinite MNIST"-style): each row is
    /// training digit (row mod 60,000) under a random small affine map and a
    /// smooth elastic distortion, labelled with its digit (or ±1 with
    /// --target). Writes dense-u8 shards directly; deterministic for a seed
    /// whatever the thread count.
    Ocr(OcrGenArgs),
    /// One-hot categorical rows in the shape of the Adult census set
    /// (LIBSVM's a9a: 14 attributes, 123 binary features, 24% positive),
    /// labels +1 with probability σ(β·(w*·x + b*)) of a hidden linear
    /// model, so the Bayes error is known (printed). Writes DIR/train and
    /// DIR/test.
    Tabular(TabularArgs),
}

#[derive(Args, Debug)]
pub struct TabularArgs {
    /// The directory to create (it gets `train` and `test` datasets).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Training rows.
    #[arg(long, default_value_t = 32_561, allow_negative_numbers = true)]
    pub rows: usize,
    /// Test rows (same hidden model, another sample).
    #[arg(long, default_value_t = 16_281, allow_negative_numbers = true)]
    pub test_rows: usize,
    /// Share of rows on the positive side of the hidden model.
    #[arg(long, default_value_t = 0.24, allow_negative_numbers = true)]
    pub positive: f64,
    /// β: how sharply labels follow the hidden margin (larger: less noise).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub sharpness: f64,
    /// Seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct OcrGenArgs {
    /// The dataset directory to create.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Rows.
    #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true)]
    pub rows: u64,
    /// Seed of the deformations.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
    /// Label +1 for this digit and -1 for the rest (default: the digit, 0..=9).
    #[arg(long, allow_negative_numbers = true)]
    pub target: Option<u8>,
    /// The folder with the MNIST training IDX files (gzipped or not).
    #[arg(long, default_value = "datasets/mnist")]
    pub mnist: PathBuf,
    /// Translation range, ± pixels on each axis.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub shift: f32,
    /// Rotation range, ± degrees.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub rotate: f32,
    /// Scaling range, 1 ± this.
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pub scale: f32,
    /// Elastic distortion strength, pixels per unit of smoothed field (0: none).
    #[arg(long, default_value_t = 16.0, allow_negative_numbers = true)]
    pub alpha: f32,
    /// Width of the Gaussian smoothing the elastic field, in pixels.
    #[arg(long, default_value_t = 4.0, allow_negative_numbers = true)]
    pub sigma: f32,
}

#[derive(Args, Debug)]
pub struct SparseArgs {
    /// The directory to create (it gets `train` and `test` datasets).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Training rows.
    #[arg(long, default_value_t = 2_000_000, allow_negative_numbers = true)]
    pub rows: usize,
    /// Test rows (same hidden model, another sample).
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true)]
    pub test_rows: usize,
    /// Dimension.
    #[arg(long, default_value_t = 1 << 20, allow_negative_numbers = true)]
    pub dim: usize,
    /// Features per row.
    #[arg(long, default_value_t = 80, allow_negative_numbers = true)]
    pub nnz: usize,
    /// Zipf exponent of the feature frequencies.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub zipf: f64,
    /// Fraction of features in the hidden model.
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pub density: f64,
    /// Label noise: probability a label is flipped.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub noise: f64,
    /// Seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// LIBSVM/svmlight text.
    Libsvm,
    /// An MNIST images file, then its labels file.
    Mnist,
    /// Vowpal Wabbit's text format, its features hashed as VW hashes them.
    Vw,
    /// CSV with a header: numeric cells as values, others as `column=cell`
    /// features, hashed as VW text's (--label-column names the label).
    Csv,
}

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// A dataset directory or a model file; with --audit, VW text.
    pub path: PathBuf,
    /// Verify every checksum (reads every byte).
    #[arg(long)]
    pub verify: bool,
    /// For VW text: each row's features as VW's --audit lists them
    /// (name:index:value), hashed with the flags below.
    #[arg(long)]
    pub audit: bool,
    /// With --audit: the rows to list.
    #[arg(long, default_value_t = 10)]
    pub rows: usize,
    #[command(flatten)]
    pub hashing: HashArgs,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input files: LIBSVM text (plain, .gz or .bz2; a pipe such as
    /// /dev/stdin too), or for MNIST the images file then the labels file
    /// (from pipes, with --format mnist).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The dataset directory to create.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Input format (default: mnist for two IDX files, vw for files named
    /// .vw (.gz, .bz2), csv for .csv (.gz, .bz2), else libsvm).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    #[command(flatten)]
    pub hashing: HashArgs,
    /// LIBSVM indices start at 0 (default: 1).
    #[arg(long)]
    pub zero_based: bool,
    /// Sort each row's features instead of rejecting unsorted rows.
    #[arg(long)]
    pub sort_indices: bool,
    /// Labels are comma-separated class-id lists.
    #[arg(long)]
    pub multilabel: bool,
    /// Skip malformed lines, counting and reporting each.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// MNIST one-vs-rest: this digit is +1, every other −1 (default: the ten class ids).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=9), allow_negative_numbers = true)]
    pub target: Option<u8>,
    /// Target shard size in bytes.
    #[arg(long, default_value_t = 256 << 20, allow_negative_numbers = true)]
    pub shard_size: u64,
    /// Force an encoding.
    #[arg(long, value_parser = encoding_names())]
    pub encoding: Option<String>,
    /// Dimension, if larger than the largest index + 1.
    #[arg(long, allow_negative_numbers = true)]
    pub dim: Option<u64>,
    /// Parser threads (default: all cores).
    #[arg(long, allow_negative_numbers = true)]
    pub threads: Option<usize>,
}

fn encoding_names() -> Vec<&'static str> {
    rosenblatt::loader::EncodingKind::ALL.iter().map(|k| k.name()).collect()
}
