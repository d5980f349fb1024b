//! Files to a dataset, as `rosenblatt convert` does it: one or more LIBSVM
//! text files (plain, gzip or bzip2; joined in order), or an MNIST images
//! file and its labels file.

use crate::error::{LoadError, ParseError};
use crate::format::LabelKind;
use crate::idx::read_mnist;
use crate::input::read_input;
use crate::libsvm::{ParseOptions, Rows, parse_parallel};
use crate::manifest::Manifest;
use crate::writer::{WriteOptions, write_dataset};
use std::path::{Path, PathBuf};

/// What the input files are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// LIBSVM/svmlight text.
    Libsvm,
    /// MNIST IDX: an images file, then a labels file.
    Mnist,
}

impl Format {
    /// MNIST for two files whose names say IDX (`idx`, `ubyte`), else LIBSVM.
    pub fn guess(inputs: &[PathBuf]) -> Format {
        let idx = |p: &PathBuf| {
            let n = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
            n.contains("idx") || n.contains("ubyte")
        };
        if inputs.len() == 2 && inputs.iter().all(idx) { Format::Mnist } else { Format::Libsvm }
    }
}

/// How to convert.
#[derive(Clone, Debug, Default)]
pub struct ConvertOptions {
    /// The input format (`None`: [`Format::guess`]).
    pub format: Option<Format>,
    /// How to read LIBSVM text.
    pub parse: ParseOptions,
    /// MNIST one-vs-rest: this digit is +1, the others −1 (`None`: the
    /// digits as class ids).
    pub target: Option<u8>,
    /// Shard size, forced encoding and dimension; the index base and label
    /// kind follow from the input.
    pub write: WriteOptions,
    /// Parser threads (`None`: the current rayon pool).
    pub threads: Option<usize>,
}

/// What a conversion did.
#[derive(Debug)]
pub struct Converted {
    /// The new dataset's manifest.
    pub manifest: Manifest,
    /// Bytes of input read (decompressed).
    pub input_bytes: u64,
    /// Lines skipped with `skip_bad_lines`, by file.
    pub skipped: Vec<(PathBuf, ParseError)>,
}

/// Converts `inputs` into a new dataset in `out` (refused if `out` already
/// holds one). `progress` hears what is being done.
pub fn convert(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    let Some(first) = inputs.first() else {
        return Err(LoadError::Invalid("no input files".into()));
    };
    for p in inputs {
        if p.is_dir() {
            let what = if p.join(crate::manifest::MANIFEST).exists() {
                "is already a dataset directory (convert reads text or IDX files)"
            } else {
                "is a directory; convert reads LIBSVM text files or an MNIST images and labels file"
            };
            return Err(LoadError::Invalid(format!("{}: {what}", p.display())));
        }
    }
    let mut wopts = opts.write.clone();
    let mut input_bytes = 0u64;
    let mut skipped = Vec::new();
    let rows = match opts.format.unwrap_or_else(|| Format::guess(inputs)) {
        Format::Mnist => {
            let [images, labels] = inputs else {
                return Err(LoadError::Invalid("MNIST takes two inputs, the images file then the labels file".into()));
            };
            let p = &opts.parse;
            if p.zero_based || p.multilabel || p.sort_indices || p.skip_bad_lines {
                return Err(LoadError::Invalid(
                    "--zero-based, --multilabel, --sort-indices and --skip-bad-lines apply to LIBSVM text, not MNIST"
                        .into(),
                ));
            }
            progress(&format!("reading {}", images.display()));
            let (rows, dim) = read_mnist(images, labels, opts.target)?;
            wopts.index_base = crate::libsvm::DEFAULT_BASE;
            wopts.label_kind = Some(if opts.target.is_some() { LabelKind::Binary } else { LabelKind::Classes });
            wopts.dim = Some(wopts.dim.unwrap_or(dim));
            input_bytes += std::fs::metadata(images).map(|m| m.len()).unwrap_or(0);
            rows
        }
        Format::Libsvm => {
            if opts.target.is_some() {
                return Err(LoadError::Invalid(
                    "--target applies to MNIST input; LIBSVM labels are used as they are".into(),
                ));
            }
            wopts.index_base = u8::from(!opts.parse.zero_based);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(opts.threads.unwrap_or(0))
                .build()
                .map_err(|e| LoadError::Invalid(format!("cannot start the parser threads: {e}")))?;
            let mut all: Option<Rows> = None;
            for path in inputs {
                progress(&format!("parsing {}", path.display()));
                let bytes = read_input(path, 1 << 40)?;
                input_bytes += bytes.len() as u64;
                let mut rows = pool
                    .install(|| parse_parallel(&bytes, &opts.parse, 4 << 20))
                    .map_err(|error| LoadError::Parse { path: path.clone(), error })?;
                skipped.extend(rows.skipped.drain(..).map(|e| (path.clone(), e)));
                match &mut all {
                    None => all = Some(rows),
                    Some(acc) => acc.append(rows),
                }
            }
            let rows = all.expect("at least one input");
            if rows.is_empty() {
                return Err(LoadError::Empty { path: first.clone() });
            }
            rows
        }
    };
    progress(&format!("writing {}", out.display()));
    let manifest = write_dataset(out, &rows, &wopts)?;
    Ok(Converted { manifest, input_bytes, skipped })
}
