//! The one place where the library's words become the command line's.
//! Library messages name a setting as `name = value` (`holdout = 0.2`,
//! `kernel = poly`): the same words serve Python's keywords and C's
//! options. Here, a setting that is one of this command line's flags is
//! said as the flag a user passes (`--holdout 0.2`, `--kernel poly`).

use rosenblatt::learners::Param;

/// The settings that are flags of the same name, besides the
/// hyper-parameters.
const SETTINGS: &[&str] = &[
    "passes",
    "parts",
    "holdout",
    "threads",
    "seed",
    "order",
    "mix",
    "target",
    "runs",
    "init",
    "test",
    "train-error",
    "model",
    "multiclass",
    "json",
    "zero-based",
    "one-based",
    "multilabel",
    "sort-indices",
    "skip-bad-lines",
    "bits",
    "hash-seed",
    "quadratic",
    "cubic",
    "interactions",
    "ignore",
    "ignore-linear",
    "keep",
    "label-column",
];

fn is_flag(name: &str) -> bool {
    SETTINGS.contains(&name) || Param::from_name(name).is_some()
}

/// `line` with every `name = value` whose name is a flag said as
/// `--name value`, and every `` `name` `` that is a flag as `--name`.
pub fn worded(line: &str) -> String {
    quoted(&assigned(line))
}

/// `` `name` `` as `--name` where the name is a flag.
fn quoted(line: &str) -> String {
    let parts: Vec<&str> = line.split('`').collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (k, part) in parts.iter().enumerate() {
        // Odd pieces sat between a pair of backticks.
        let inside = k % 2 == 1 && k + 1 < parts.len();
        if inside && is_flag(part) {
            out.push_str("--");
            out.push_str(part);
        } else if inside {
            out.push('`');
            out.push_str(part);
            out.push('`');
        } else {
            if k % 2 == 1 {
                // A lone backtick, unpaired: kept.
                out.push('`');
            }
            out.push_str(part);
        }
    }
    out
}

/// `name = value` as `--name value` where the name is a flag.
fn assigned(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(at) = rest.find(" = ") {
        let (before, after) = rest.split_at(at);
        // The name: the identifier just before " = ".
        let start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).map_or(0, |i| i + 1);
        let name = &before[start..];
        if !name.is_empty() && is_flag(name) {
            out.push_str(&before[..start]);
            out.push_str("--");
            out.push_str(name);
            out.push(' ');
        } else {
            out.push_str(before);
            out.push_str(" = ");
        }
        rest = &after[3..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::worded;

    #[test]
    fn settings_become_flags_and_the_rest_stays() {
        assert_eq!(
            worded("degree = 3 is invalid: given with (kernel = poly) only"),
            "--degree 3 is invalid: given with (--kernel poly) only"
        );
        assert_eq!(worded("holdout = 0.5 of 3 rows; R = 2"), "--holdout 0.5 of 3 rows; R = 2");
        assert_eq!(worded("no setting here"), "no setting here");
        assert_eq!(worded("d = 784, passes = 0"), "d = 784, --passes 0");
        assert_eq!(
            worded("read it with `zero-based`; `label index:value …`"),
            "read it with --zero-based; `label index:value …`"
        );
        assert_eq!(worded("an odd ` stays"), "an odd ` stays");
    }
}
