//! One module per command; [`run`] dispatches.

mod bench;
mod bounds;
mod convert;
mod datasets;
mod eval;
mod export;
mod inspect;
mod learners;
mod predict;
mod report;
mod scaling;
mod serve;
mod serve_bench;
mod train;
mod tune;

use crate::args::{BenchCommand, Cli, Command, DatasetsCommand};
use crate::procs::Procs;
use crate::ui::{Ui, outln};

/// Runs the command `cli` names: `train`, `eval` and `predict` on every
/// process of a multi-process launch (each with its share of the rows),
/// any other command on rank 0 alone.
pub fn run(cli: Cli, procs: &Procs) -> anyhow::Result<()> {
    let ui = Ui { json: cli.json, quiet: cli.quiet };
    let shared = matches!(cli.command, Some(Command::Train(_) | Command::Eval(_) | Command::Predict(_)));
    if procs.rank() > 0 && !shared {
        return Ok(());
    }
    match cli.command {
        None => {
            if ui.json {
                let v = serde_json::json!({ "version": env!("CARGO_PKG_VERSION"), "simd": rosenblatt::kernels::describe() });
                crate::ui::json(&v)
            } else {
                outln!("rosenblatt {}", rosenblatt::version_line())?;
                Ok(outln!("run `rosenblatt --help` for the commands")?)
            }
        }
        Some(Command::Convert(a)) => convert::run(a, ui),
        Some(Command::Inspect(a)) => inspect::run(a, ui),
        Some(Command::Report { inputs, output }) => report::run(&inputs, &output, ui),
        Some(Command::Export { dataset, output, zero_based }) => {
            export::run(&dataset, output.as_deref(), zero_based, ui)
        }
        Some(Command::Bounds(a)) => bounds::run(a, ui),
        Some(Command::Learners { markdown }) => learners::run(markdown, ui),
        Some(Command::Train(a)) => train::run(*a, ui, procs),
        Some(Command::Tune(a)) => tune::run(*a, ui),
        Some(Command::Eval(a)) => eval::run(a.input, ui, procs),
        Some(Command::Predict(a)) => predict::run(a, ui, procs),
        Some(Command::Bench(BenchCommand::Ocr(a))) | Some(Command::Demo(a)) => bench::ocr(a, ui),
        Some(Command::Bench(BenchCommand::Read { dataset, repeats })) => bench::read(&dataset, repeats as usize, ui),
        Some(Command::Bench(BenchCommand::Scaling(a))) => scaling::run(a, ui),
        Some(Command::Bench(BenchCommand::Serve(a))) => serve_bench::run(a, ui),
        Some(Command::Serve(a)) => serve::run(a, ui),
        Some(Command::Datasets(DatasetsCommand::Sparse(a))) => datasets::sparse(a, ui),
        Some(Command::Datasets(DatasetsCommand::Ocr(a))) => datasets::ocr(a, ui),
        Some(Command::Datasets(DatasetsCommand::Tabular(a))) => datasets::tabular(a, ui),
    }
}

/// For one process of several: the model, and the shards of `dataset`
/// holding this process's share of its rows (one equal share per process).
fn open_share(
    model: &std::path::Path,
    dataset: &std::path::Path,
    team: &dyn rosenblatt::learners::Team,
) -> Result<(rosenblatt::model::Model, rosenblatt::loader::Dataset), rosenblatt::Error> {
    let open = || -> anyhow::Result<_> {
        Ok((crate::ui::load_model(model)?, crate::ui::open_share(dataset, team, team.size())?))
    };
    open().map_err(|e| rosenblatt::Error::Input(format!("{e:#}")))
}
