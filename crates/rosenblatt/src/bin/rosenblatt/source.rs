//! Training data given as text (`train FILE`, `--test FILE`): LIBSVM, VW
//! or CSV, plain or compressed, converted on the way in — once, into the
//! cache (`loader::cache`), keyed on the file's identity and the
//! conversion's settings, reused while both match and converted again,
//! with the reason said, when either differs. A pipe, or `--no-cache`,
//! converts into a temporary directory removed after the run.

use crate::hashing::HashArgs;
use crate::ui::Ui;
use clap::Args;
use rosenblatt::loader::cache::{Made, cached_convert};
use rosenblatt::loader::convert::{ConvertOptions, Format, convert};
use rosenblatt::loader::{Dataset, OpenOptions, WriteOptions};
use std::path::{Path, PathBuf};

/// Where text given for training is converted.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Text in")]
pub struct SourceArgs {
    /// Where text given instead of a dataset is converted and kept
    /// [default: $XDG_CACHE_HOME/rosenblatt, else ~/.cache/rosenblatt].
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Convert text given instead of a dataset afresh, into a temporary
    /// directory removed after the run.
    #[arg(long, conflicts_with = "cache")]
    pub no_cache: bool,
}

/// A dataset opened for a run, and the temporary directory it lives in
/// (removed when dropped), if any.
pub struct Opened {
    pub dataset: Dataset,
    temporary: Option<PathBuf>,
}

impl Drop for Opened {
    fn drop(&mut self) {
        if let Some(dir) = self.temporary.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The dataset at `path`: a dataset directory as it is, or text converted
/// with `hashing` (VW text, CSV) through the cache.
pub fn open(path: &Path, hashing: &HashArgs, src: &SourceArgs, ui: Ui) -> anyhow::Result<Opened> {
    if path.is_dir() {
        if let Some(flag) = hashing.given() {
            anyhow::bail!("{flag} applies to text; the dataset {} knows how it was made", path.display());
        }
        let dataset = Dataset::open(path, OpenOptions::VERIFIED)?;
        return Ok(Opened { dataset, temporary: None });
    }
    let inputs = [path.to_path_buf()];
    let format = Format::guess(&inputs);
    if let Some(flag) = hashing.given()
        && format == Format::Libsvm
    {
        anyhow::bail!("{flag} applies to VW text and CSV (files named .vw or .csv)");
    }
    // The format left to `convert`'s own reading of the names (which also
    // refuses a lone IDX file, saying so). Nothing waits for the disk: a
    // temporary directory goes with the run, and a cache's entry is
    // verified whenever it is reused.
    let write = WriteOptions { durable: false, ..Default::default() };
    let opts = ConvertOptions { hashing: hashing.hashing(), write, ..Default::default() };
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if src.no_cache || !regular {
        let dir = std::env::temp_dir().join(format!("rosenblatt-text-{}-{}", std::process::id(), unique()));
        let why = if regular { "--no-cache" } else { "a pipe is read once" };
        ui.note(&format!("converting {} into a temporary dataset ({why})", path.display()));
        // A failed conversion removes the directory it made.
        convert(&inputs, &dir, &opts, &mut |_| {})?;
        return match Dataset::open(&dir, OpenOptions::default()) {
            Ok(dataset) => Ok(Opened { dataset, temporary: Some(dir) }),
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                Err(e.into())
            }
        };
    }
    let root = src.cache.clone().unwrap_or_else(default_cache);
    // Every setting that changes the dataset, in words, and a version of
    // the converter's own choices.
    let key = format!("{format:?} text, {}, v1", serde_json::to_string(&opts.hashing)?);
    let label = path
        .file_name()
        .map_or("text".into(), |n| n.to_string_lossy().replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', "_"));
    // The first word from the cache says whether and why it converts;
    // the conversion's own steps are not notes.
    let mut said = false;
    let mut say = |m: &str| {
        if !std::mem::replace(&mut said, true) {
            ui.note(m);
        }
    };
    let cached = cached_convert(&root, &label, &inputs, &opts, &key, &mut say)?;
    if let Made::Reused = cached.made {
        ui.note(&format!("{}: converted before, read from {}", path.display(), cached.entry.display()));
    }
    Ok(Opened { dataset: cached.dataset, temporary: None })
}

/// The cache's default place.
fn default_cache() -> PathBuf {
    match (std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")) {
        (Some(x), _) if !x.is_empty() => PathBuf::from(x).join("rosenblatt"),
        (_, Some(h)) if !h.is_empty() => PathBuf::from(h).join(".cache").join("rosenblatt"),
        _ => std::env::temp_dir().join("rosenblatt-cache"),
    }
}

/// A number no other temporary directory of this process has.
fn unique() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
