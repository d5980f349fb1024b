//! The flags that say how VW text and CSV are hashed: Vowpal Wabbit's own
//! (`-b`, `-q`, `--cubic`, `--interactions`, `--hash-seed`, `--hash`,
//! `--ignore`, `--ignore-linear`, `--keep`), with its defaults, and CSV's
//! label column; `convert` and `inspect --audit` take them.

use clap::Args;

/// How VW text (and CSV) is hashed: Vowpal Wabbit's flags, with its defaults.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "VW text and CSV")]
pub struct HashArgs {
    /// CSV: the label column's name.
    #[arg(long, value_name = "NAME")]
    pub label_column: Option<String>,
    /// Index bits: features are hashed into 2^B weights [default: 18].
    #[arg(short = 'b', long, value_name = "B")]
    pub bits: Option<u8>,
    /// The hash seed [default: 0].
    #[arg(long, value_name = "SEED")]
    pub hash_seed: Option<u32>,
    /// `strings`: names made only of digits are numbers; `all`: every name
    /// hashed [default: strings].
    #[arg(long, value_parser = ["strings", "all"])]
    pub hash: Option<String>,
    /// Cross two namespaces, by their first letters (`ab`; `:` any); repeatable.
    #[arg(short = 'q', long, value_name = "AB")]
    pub quadratic: Vec<String>,
    /// Cross three namespaces (`abc`); repeatable.
    #[arg(long, value_name = "ABC")]
    pub cubic: Vec<String>,
    /// Cross two or more namespaces (`abcd`); repeatable.
    #[arg(long, value_name = "SPEC")]
    pub interactions: Vec<String>,
    /// Drop these namespaces (letters); repeatable.
    #[arg(long, value_name = "LETTERS")]
    pub ignore: Vec<String>,
    /// Keep these namespaces in interactions only; repeatable.
    #[arg(long, value_name = "LETTERS")]
    pub ignore_linear: Vec<String>,
    /// Keep only these namespaces; repeatable.
    #[arg(long, value_name = "LETTERS")]
    pub keep: Vec<String>,
    /// Labels are class ids 1..k (VW's --oaa data), not ±1.
    #[arg(long)]
    pub multiclass: bool,
}

impl HashArgs {
    /// The settings the flags make (VW's defaults for the rest).
    pub fn hashing(&self) -> rosenblatt::loader::vw::Hashing {
        let d = rosenblatt::loader::vw::Hashing::default();
        rosenblatt::loader::vw::Hashing {
            bits: self.bits.unwrap_or(d.bits),
            hash_seed: self.hash_seed.unwrap_or(d.hash_seed),
            hash_all: self.hash.as_deref() == Some("all"),
            quadratic: self.quadratic.clone(),
            cubic: self.cubic.clone(),
            interactions: self.interactions.clone(),
            ignore: self.ignore.concat(),
            ignore_linear: self.ignore_linear.concat(),
            keep: self.keep.concat(),
            multiclass: self.multiclass,
            label_column: self.label_column.clone(),
        }
    }
    /// The first flag given, if any.
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--bits", self.bits.is_some()),
            ("--hash-seed", self.hash_seed.is_some()),
            ("--hash", self.hash.is_some()),
            ("--quadratic", !self.quadratic.is_empty()),
            ("--cubic", !self.cubic.is_empty()),
            ("--interactions", !self.interactions.is_empty()),
            ("--ignore", !self.ignore.is_empty()),
            ("--ignore-linear", !self.ignore_linear.is_empty()),
            ("--keep", !self.keep.is_empty()),
            ("--multiclass", self.multiclass),
            ("--label-column", self.label_column.is_some()),
        ]
        .into_iter()
        .find_map(|(f, on)| on.then_some(f))
    }
}
