//! `bench`'s commands and their flags.

use clap::{Args, Subcommand, ValueEnum};
use rosenblatt::learners::Learner;
use std::path::PathBuf;

/// `--kernel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KernelArg {
    /// exp(−γ‖x − x′‖²).
    Rbf,
    /// (γ⟨x, x′⟩ + c)^d.
    Poly,
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// MNIST one digit against the rest: the Perceptron's final vector, the Voted and the
    /// Averaged Perceptron over several pass counts, tested on the 10,000 test images.
    Ocr(OcrArgs),
    /// The read-only pass over a dataset's shards: what a training pass is
    /// measured against (median of the repeats).
    Read {
        /// The dataset directory.
        dataset: PathBuf,
        /// Passes to take the median of (1 to 1,000,000).
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        repeats: u32,
    },
    /// What cores buy: `train` as a whole process, for every --parts and
    /// --threads given, one pass and --passes passes (the best of
    /// --repeats); per pass = the difference over the passes between; each
    /// part count's models compared across thread counts (they must be the
    /// same bytes).
    Scaling(ScalingArgs),
    /// A server under load: the model served on loopback, --connections
    /// clients sending the data's lines --pipeline at a time, every reply
    /// checked against `predict`; throughput and latency percentiles.
    Serve(crate::args::BenchServeArgs),
}

#[derive(Args, Debug)]
pub struct ScalingArgs {
    /// The dataset directory.
    pub dataset: PathBuf,
    /// The learner.
    #[arg(long, value_enum, default_value = "averaged-perceptron")]
    pub learner: Learner,
    /// Part counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 2, 16])]
    pub parts: Vec<usize>,
    /// Thread counts, comma-separated (default: 1 and every core).
    #[arg(long, value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// The longer run's passes (2 to 1,000).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub passes: u32,
    /// Runs of each, the best taken (1 to 100).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeats: u32,
    /// A test set: each longer run's test error is reported.
    #[arg(long)]
    pub test: Option<PathBuf>,
}

/// `bench ocr` and `demo`; the defaults are the library's
/// (`rosenblatt::ocr::OcrOptions::default`).
#[derive(Args, Debug)]
pub struct OcrArgs {
    /// A folder of MNIST IDX files (MNIST's names, or with dashes as
    /// Fashion-MNIST's), or a converted training dataset [default: datasets/mnist].
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The MNIST IDX folder the test images (t10k) come from [default: the
    /// --data folder; needed when --data is a dataset].
    #[arg(long)]
    pub test_data: Option<PathBuf>,
    /// Where converted datasets are cached [default: datasets/cache].
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Pass counts, comma-separated (fractions allowed) [default: 0.1,1,2,3,4,10].
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub passes: Option<Vec<f64>>,
    /// Runs of each learner and pass count, with the training order's
    /// seeds 0..N; the table shows mean and spread [default: 3].
    #[arg(long, value_name = "N", alias = "seeds", allow_negative_numbers = true)]
    pub runs: Option<u64>,
    /// The digit that is +1 [default: 9].
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=9), allow_negative_numbers = true)]
    pub target: Option<u8>,
    /// Also train the multi-class averaged Perceptron on all ten digits
    /// (needs the IDX folder or a dataset labelled with digits).
    #[arg(long)]
    pub multiclass: bool,
    /// Also train the kernel averaged Perceptron with this kernel on all
    /// ten digits (one-vs-rest over one support set; the kernel's
    /// defaults), at the whole pass counts of --passes.
    #[arg(long, value_enum)]
    pub kernel: Option<KernelArg>,
    /// Training order.
    #[arg(long, value_enum, default_value = "auto")]
    pub order: OcrOrder,
    /// Also write a report into this directory (`rosenblatt report`: the
    /// table beside its plot, index.html).
    #[arg(long)]
    pub report: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OcrOrder {
    /// Blocks when the training shards exceed 1 GiB, else chunks.
    Auto,
    /// Chunks of rows in random order, shuffled together (train's default).
    Chunks,
    /// A fresh random permutation every pass.
    Shuffle,
    /// Out of core: blocks of 65,536 rows in random order, each released
    /// after use (resident memory near one block).
    Blocks,
}
