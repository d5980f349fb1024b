//! Talking to the person (or program) at the other end: tables and JSON on
//! stdout, notes and progress bars on stderr.
//!
//! Standard output is written through [`print`] (the `outln!` macro): when
//! the reader goes away (`rosenblatt inspect DIR | head -5`), output stops
//! quietly and the command finishes its work — a model is still saved —
//! and exits 0, as ripgrep does.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Standard output's reader went away.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to standard output; a closed pipe is not an error (output stops).
pub fn print(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    write_stdout(args.to_string().as_bytes())
}

/// Writes `bytes` to standard output, as [`print`].
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        r => r,
    }
}

/// `println!` to standard output through [`print`]; evaluates to an
/// `io::Result`.
macro_rules! outln {
    () => { $crate::ui::print(format_args!("\n")) };
    ($($t:tt)*) => { $crate::ui::print(format_args!("{}\n", format_args!($($t)*))) };
}
pub(crate) use outln;

/// Prints `value` as pretty JSON on standard output.
pub fn json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    Ok(outln!("{}", serde_json::to_string_pretty(value)?)?)
}

/// How to talk.
#[derive(Clone, Copy, Debug)]
pub struct Ui {
    /// JSON on stdout.
    pub json: bool,
    /// Nothing on stderr but errors.
    pub quiet: bool,
}

impl Ui {
    /// A note on stderr (`note: …`), unless quiet.
    pub fn note(self, text: &str) {
        if !self.quiet {
            eprintln!("note: {text}");
        }
    }

    /// A progress bar over `len` units (a spinner when `None`), drawn on
    /// stderr only when it is a terminal and `--quiet` is off.
    pub fn bar(self, len: Option<u64>, unit: &str) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let (bar, template) = match len {
            Some(n) => (
                ProgressBar::new(n),
                format!("{{msg}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} {{rate}} ETA {{eta}}"),
            ),
            None => (ProgressBar::new_spinner(), "{spinner} {msg} {elapsed}".to_string()),
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

/// Sizes the pool that runs the parts, the runs and scoring (`--threads`;
/// none given: every core).
pub fn threads(n: Option<usize>) -> anyhow::Result<()> {
    if let Some(t) = n {
        if t == 0 {
            anyhow::bail!("--threads 0: give at least 1 thread");
        }
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global()?;
    }
    Ok(())
}

/// Opens the shards of a dataset directory holding the rows process
/// `team.rank()` trains on when `parts` parts are cut
/// ([`rosenblatt::cluster::rows_of`]): the manifest first, then those
/// shards only ([`rosenblatt::loader::Dataset::open_rows`]), their
/// checksums verified.
pub fn open_share(
    path: &std::path::Path,
    team: &dyn rosenblatt::learners::Team,
    parts: usize,
) -> anyhow::Result<rosenblatt::loader::Dataset> {
    use rosenblatt::loader::{Dataset, OpenOptions};
    not_a_file(path)?;
    let rows = Dataset::open_rows(path, OpenOptions::default(), 0..0)?.rows();
    let share = rosenblatt::cluster::rows_of(team.rank(), team.size(), parts, rows)?;
    Ok(Dataset::open_rows(path, OpenOptions::VERIFIED, share)?)
}

/// Opens a dataset directory, saying what to do when the path is a file.
pub fn open_dataset(path: &std::path::Path) -> anyhow::Result<rosenblatt::loader::Dataset> {
    not_a_file(path)?;
    Ok(rosenblatt::loader::Dataset::open(path, rosenblatt::loader::OpenOptions::VERIFIED)?)
}

/// Refuses a file where a dataset directory is due, saying what to do.
fn not_a_file(path: &std::path::Path) -> anyhow::Result<()> {
    if path.is_file() {
        anyhow::bail!(
            "{}: is a file, not a dataset directory; convert it first: rosenblatt convert {} -o DIR",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

/// Makes ready an output file that is written whole at the end: its
/// folders created as needed (the one rule for every `-o`, as `convert`
/// and `report` create theirs), and a probe that it can be written, so
/// that a bad path fails before the work rather than after it.
pub fn output_file(path: &std::path::Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if dir.exists() && !dir.is_dir() {
            anyhow::bail!(
                "{}: is not a directory (it is a file), so {} cannot be written",
                dir.display(),
                path.display()
            );
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("{}: cannot create the folder: {e}", dir.display()))?;
    }
    Ok(rosenblatt::loader::fs::AtomicFile::probe(path)?)
}

/// Loads a model file.
pub fn load_model(path: &std::path::Path) -> anyhow::Result<rosenblatt::model::Model> {
    Ok(rosenblatt::model::Model::load(path)?)
}

/// This process's command line as a shell would take it back: `rosenblatt`
/// and its arguments, those with anything but plain characters quoted.
pub fn command_line() -> String {
    let plain = |a: &str| !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c));
    let args = std::env::args_os().skip(1).map(|a| {
        let a = a.to_string_lossy().into_owned();
        if plain(&a) { a } else { format!("'{}'", a.replace('\'', r"'\''")) }
    });
    std::iter::once("rosenblatt".to_string()).chain(args).collect::<Vec<_>>().join(" ")
}

/// `value` as a document `report` reads (docs/report.md): its fields with
/// the `kind` and this process's command line added, then `extra`.
pub fn document(
    value: &impl serde::Serialize,
    kind: &str,
    extra: &[(&str, serde_json::Value)],
) -> anyhow::Result<serde_json::Value> {
    let mut v = serde_json::to_value(value)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("kind".into(), kind.into());
        o.insert("command".into(), command_line().into());
        o.extend(extra.iter().map(|(k, x)| (k.to_string(), x.clone())));
    }
    Ok(v)
}
