//! The hyper-parameter flags, made from the parameter table: one flag per
//! parameter (`--eta`, `--average`, `--kernel poly`, …), typed by its
//! kind, its help the table's doc line and every learner's default.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use rosenblatt::learners::{HyperParams, Learner, Param, ParamDefault, ParamKind};

/// The hyper-parameters given on the command line (the rest take each
/// learner's default); each learner refuses those it does not take.
#[derive(Debug, Default)]
pub struct HyperArgs(pub HyperParams);

impl HyperArgs {
    /// The hyper-parameters given, by name.
    pub fn params(&self) -> HyperParams {
        self.0
    }
    /// `config` with the hyper-parameters given.
    pub fn given(&self, config: rosenblatt::Config) -> rosenblatt::Config {
        Param::ALL.into_iter().fold(config, |c, p| match self.0.get(p) {
            Some(v) => c.param(p, v),
            None => c,
        })
    }
}

/// A default as its flag takes it: a choice's name, a switch on or off, a
/// number, or the rule that derives it from the data.
pub fn shown(p: Param, d: &ParamDefault) -> String {
    match (d, p.kind()) {
        (ParamDefault::Value(v), ParamKind::Choice(names)) => {
            names.get(*v as usize).map_or(v.to_string(), |n| n.to_string())
        }
        (ParamDefault::Value(v), ParamKind::Switch) => (if *v == 1.0 { "on" } else { "off" }).into(),
        (ParamDefault::Value(v), _) => v.to_string(),
        (d, _) => d.to_string(),
    }
}

/// The learners' defaults for `p`, grouped: "1 (perceptron, …); …".
fn defaults(p: Param) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for l in Learner::ALL {
        let Some((_, d)) = l.params().iter().find(|t| t.0 == p) else { continue };
        let shown = shown(p, d);
        match groups.iter_mut().find(|g| g.0 == shown) {
            Some(g) => g.1.push(l.name()),
            None => groups.push((shown, vec![l.name()])),
        }
    }
    groups.iter().map(|(d, ls)| format!("{d} ({})", ls.join(", "))).collect::<Vec<_>>().join("; ")
}

impl Args for HyperArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for p in Param::ALL {
            let help = format!("{} [default: {}]", p.doc().trim_end_matches('.'), defaults(p));
            let arg = Arg::new(p.name()).long(p.name()).help(help).action(ArgAction::Set);
            let arg = match p.kind() {
                ParamKind::Real | ParamKind::Whole => arg
                    .value_parser(clap::value_parser!(f64))
                    .allow_negative_numbers(true)
                    .value_name(p.name().to_uppercase()),
                ParamKind::Switch => arg
                    .num_args(0..=1)
                    .default_missing_value("1")
                    .value_name("1|0")
                    .hide_possible_values(true)
                    .value_parser(clap::builder::BoolishValueParser::new()),
                ParamKind::Choice(names) => arg
                    .value_parser(clap::builder::PossibleValuesParser::new(names.iter().copied()))
                    .value_name(p.name().to_uppercase()),
            };
            cmd = cmd.arg(arg);
        }
        cmd
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for HyperArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut hp = HyperParams::default();
        for p in Param::ALL {
            let v = match p.kind() {
                ParamKind::Real | ParamKind::Whole => m.get_one::<f64>(p.name()).copied(),
                ParamKind::Switch => m.get_one::<bool>(p.name()).map(|&on| if on { 1.0 } else { 0.0 }),
                ParamKind::Choice(names) => {
                    m.get_one::<String>(p.name()).and_then(|n| names.iter().position(|c| c == n)).map(|k| k as f64)
                }
            };
            hp.set(p, v);
        }
        Ok(HyperArgs(hp))
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
