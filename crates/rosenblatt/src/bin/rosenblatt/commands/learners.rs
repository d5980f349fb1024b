//! `rosenblatt learners`: every learner of the table, with what it takes.

use crate::hyper::shown;
use crate::ui::{Ui, outln};
use rosenblatt::learners::{Labels, Learner, ParamDefault, ParamKind};

fn labels(l: Learner) -> &'static str {
    match l.labels() {
        Labels::Binary => "±1",
        Labels::Classes => "class ids",
        Labels::Either => "±1 or class ids (one-vs-rest over one model)",
    }
}

pub fn run(as_markdown: bool, ui: Ui) -> anyhow::Result<()> {
    if as_markdown {
        return Ok(crate::ui::write_stdout(markdown().as_bytes())?);
    }
    if ui.json {
        let v: Vec<serde_json::Value> = Learner::ALL
            .iter()
            .map(|&l| {
                let params: Vec<serde_json::Value> = l
                    .params()
                    .iter()
                    .map(|(p, d)| {
                        let kind = match p.kind() {
                            ParamKind::Real => "real".to_string(),
                            ParamKind::Whole => "whole".to_string(),
                            ParamKind::Switch => "switch".to_string(),
                            ParamKind::Choice(names) => format!("choice: {}", names.join(", ")),
                        };
                        serde_json::json!({ "name": p.name(), "kind": kind, "default": shown(*p, d), "doc": p.doc() })
                    })
                    .collect();
                serde_json::json!({
                    "name": l.name(), "about": l.about(), "labels": l.labels(), "mixes": l.mixes(),
                    "whole": l.kernel(), "probabilistic": l.probabilistic(),
                    "until_separated": l.stops_when_separated(), "params": params,
                })
            })
            .collect();
        return crate::ui::json(&serde_json::Value::Array(v));
    }
    for l in Learner::ALL {
        outln!("{}", l.name())?;
        outln!("    {}", l.about())?;
        let mut facts = vec![format!("labels {}", labels(l))];
        facts.push(if l.mixes() { "mixes across parts".into() } else { "one part".into() });
        if l.kernel() {
            facts.push("trains on the whole set at once".into());
        }
        if l.probabilistic() {
            facts.push("scores are log-odds (probabilities)".into());
        }
        if l.stops_when_separated() {
            facts.push("stops at a pass without mistakes".into());
        }
        outln!("    {}", facts.join("; "))?;
        for (p, d) in l.params() {
            outln!("    --{} {}", p.name(), shown(*p, d))?;
        }
    }
    Ok(())
}

/// Every learner as a Markdown list item: its name, what it is and the
/// hyper-parameters it takes with their defaults. The README's list is this
/// text (`learners --markdown`; a test holds it to it).
fn markdown() -> String {
    let mut s = String::new();
    for l in Learner::ALL {
        let params: Vec<String> = l
            .params()
            .iter()
            .map(|(p, d)| match (d, p.choices()) {
                (ParamDefault::Value(v), Some(names)) => {
                    let default = names[*v as usize];
                    let others: Vec<String> =
                        names.iter().filter(|n| **n != default).map(|n| format!("`{n}`")).collect();
                    format!("`--{} {default}` or {}", p.name(), others.join(" or "))
                }
                (ParamDefault::Value(v), None) => format!("`--{} {v}`", p.name()),
                (rule, _) => format!("`--{}` = {rule}", p.name()),
            })
            .collect();
        let params = if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) };
        s.push_str(&format!("- `{}` — {}{params}\n", l.name(), l.about()));
    }
    s
}
