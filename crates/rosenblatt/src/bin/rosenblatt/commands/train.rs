//! `rosenblatt train`: a learner on a dataset, a line per pass, a model file.

use crate::args::TrainArgs;
use crate::procs::Procs;
use crate::ui::{Ui, outln};
use rosenblatt::Config;
use rosenblatt::checkpoint::train_checkpointed;
use rosenblatt::cluster;
use rosenblatt::learners::Team;
use rosenblatt::loader::Dataset;
use rosenblatt::model::Model;
use rosenblatt::train::{Hooks, PassLine, Run};

pub fn run(a: TrainArgs, ui: Ui, procs: &Procs) -> anyhow::Result<()> {
    // The pool first: opening verifies checksums on it.
    crate::ui::threads(a.threads)?;
    let Some(team) = procs.team() else {
        let open = |p: &std::path::Path| crate::source::open(p, &a.hashing, &a.source, ui);
        let ds = open(&a.dataset)?;
        let test = a.test.as_deref().map(open).transpose()?;
        let request = request(&a)?;
        outputs(&a)?;
        return train(a, ui, &ds.dataset, test.as_ref().map(|t| &t.dataset), request, None);
    };
    if !a.dataset.is_dir() {
        anyhow::bail!(
            "{}: under mpirun, give a dataset directory (each process opens its parts' shards): rosenblatt convert \
             {} -o DIR first",
            a.dataset.display(),
            a.dataset.display()
        );
    }
    // Each process opens the shards of its parts' rows and checks the
    // request; any failure, on any process, stops all of them here.
    let prepared = prepare(&a, team).map_err(|e| rosenblatt::Error::Input(format!("{e:#}")));
    let (ds, test, request) = cluster::settle(team, prepared)?;
    let crc = |d: &Dataset| u64::from(crc32fast::hash(&serde_json::to_vec(d.manifest()).unwrap_or_default()));
    cluster::agree(team, &format!("the manifest of {}", a.dataset.display()), crc(&ds))?;
    if let Some(t) = &test {
        cluster::agree(team, &format!("the manifest of {}", t.dir().display()), crc(t))?;
    }
    let quiet = Ui { quiet: true, json: false };
    let ui = if procs.rank() == 0 { ui } else { quiet };
    train(a, ui, &ds, test.as_ref(), request, Some(procs))
}

/// The training request the flags make: the config, and the model it
/// resumes.
type Request = (Config, Option<Model>);

/// What one process of several needs before training: its rows, the test
/// set, the request checked for what several processes can do.
fn prepare(a: &TrainArgs, team: &dyn Team) -> anyhow::Result<(Dataset, Option<Dataset>, Request)> {
    let (config, init) = unchecked(a)?;
    let test = a.test.as_deref().map(crate::ui::open_dataset).transpose()?;
    let run = Run { test: test.as_ref(), holdout: a.holdout, train_error: a.train_error, init, ..Run::default() };
    // What several processes cannot do is said first.
    config.check_team(&run, team.size())?;
    config.check()?;
    let init = run.init;
    let ds = crate::ui::open_share(&a.dataset, team, a.parts)?;
    if team.rank() == 0 {
        outputs(a)?;
    }
    Ok((ds, test, (config, init)))
}

/// Fails now, not after the training, where the model or the report could
/// not be written.
fn outputs(a: &TrainArgs) -> anyhow::Result<()> {
    crate::ui::output_file(&a.output)?;
    a.report.as_deref().map(|d| super::report::check_dir(d, "--report")).transpose()?;
    Ok(())
}

/// The training request the flags make, checked.
fn request(a: &TrainArgs) -> anyhow::Result<Request> {
    let (config, init) = unchecked(a)?;
    config.check()?;
    Ok((config, init))
}

/// The training request the flags make, not yet checked.
fn unchecked(a: &TrainArgs) -> anyhow::Result<Request> {
    let init = a.init.as_deref().map(Model::load).transpose()?;
    let (order, seed) = match &init {
        Some(m) => rosenblatt::resume::order_and_seed(m, a.order.map(Into::into), a.seed)?,
        None => (a.order.unwrap_or(crate::args::OrderArg::Chunks).into(), a.seed.unwrap_or(0)),
    };
    let mut config = a.hyper.given(Config::new(a.learner)).seed(seed).order(order).parts(a.parts).mixing(a.mix.into());
    if let Some(p) = a.passes {
        config = config.passes(p);
    }
    Ok((config, init))
}

/// Trains and writes the model (rank 0 of a team writes; the others stay
/// silent).
fn train(
    a: TrainArgs,
    ui: Ui,
    ds: &Dataset,
    test: Option<&Dataset>,
    (config, init): Request,
    procs: Option<&Procs>,
) -> anyhow::Result<()> {
    let team = procs.and_then(Procs::team);
    let spent = procs.map_or(0.0, Procs::seconds);
    let learner = config.learner();
    let batch = learner.stops_when_separated();
    let first = team.is_none_or(|t| t.rank() == 0);
    let rows = ds.rows() - a.holdout.map_or(0, |f| (ds.rows() as f64 * f).round() as u64).min(ds.rows());
    let bar = ui.bar(Some((config.passes_planned() * rows as f64).round() as u64), "examples");
    bar.set_message(learner.name());
    let eval = if a.holdout.is_some() {
        "holdout"
    } else if a.test.is_some() {
        "test"
    } else {
        ""
    };
    let (mut lines, mut printed) = (Vec::new(), Ok(()));
    // Columns for what is scored: the training set when asked, the holdout
    // or test set when given.
    let mut columns = vec!["pass", "mistakes", "online error"];
    columns.extend(a.train_error.then_some("train error"));
    columns.extend((!eval.is_empty()).then_some(eval));
    columns.extend(["seconds", "examples/s"]);
    // The header waits for the first pass, so that a refusal is the only
    // line printed.
    let mut on_pass = |l: &PassLine| {
        interrupt::passed(l.pass);
        if !ui.json && printed.is_ok() {
            printed = bar.suspend(|| {
                if lines.is_empty() {
                    outln!("{}", aligned(&columns))?;
                }
                let mut cells = vec![
                    l.pass.to_string(),
                    l.mistakes.to_string(),
                    format!("{:.4}", l.mistakes as f64 / l.examples.max(1) as f64),
                ];
                cells.extend(l.train_error.map(|e| format!("{e:.4}")));
                cells.extend(l.eval_error.map(|e| format!("{e:.4}")));
                cells.extend([format!("{:.3}", l.seconds), format!("{:.3e}", l.examples_per_second)]);
                outln!("{}", aligned(&cells))
            });
        }
        lines.push(l.clone());
    };
    let mut note = |n: &str| bar.suspend(|| ui.note(n));
    // Rank 0 sees its own rows' progress: the others go as fast.
    let processes = team.map_or(1, |t| t.size()) as u64;
    let progress = |n: u64| bar.set_position(n * processes);
    let hooks = if first {
        Hooks { on_pass: Some(&mut on_pass), progress: Some(&progress), note: Some(&mut note), team }
    } else {
        Hooks { team, ..Hooks::default() }
    };
    if first {
        interrupt::install(&a.output, ui.quiet)?;
    }
    let started = std::time::Instant::now();
    let run = Run { test, holdout: a.holdout, train_error: a.train_error, init, hooks };
    let model = match a.checkpoint {
        None => config.fit_run(ds, run)?,
        Some(every) => {
            let mut save = |m: &rosenblatt::model::Model| {
                interrupt::saving(|| m.save(&a.output))?;
                interrupt::checkpointed(m.meta.training.passes_run);
                Ok(())
            };
            train_checkpointed(&config, ds, run, every, &mut save)?
        }
    };
    bar.finish_and_clear();
    printed?;
    if !first {
        return Ok(());
    }
    interrupt::saving(|| model.save(&a.output))?;
    interrupt::finished();
    let t = &model.meta.training;
    if batch && !ui.quiet {
        match t.separated_at {
            Some(p) => eprintln!("converged: pass {p} made no mistake ({} updates)", t.updates),
            None => eprintln!("not separated within {} passes", config.passes_planned()),
        }
    }
    // Across processes: how long rank 0 spent in MPI (exchanging, and
    // waiting for the others), over the whole run.
    let processes = team.zip(procs).map(|(team, p)| {
        let exchanged = p.seconds() - spent;
        let seconds = started.elapsed().as_secs_f64();
        if !ui.quiet && !ui.json {
            eprintln!(
                "{} processes: rank 0 spent {exchanged:.3} s of {seconds:.3} s exchanging with the others ({:.4} s \
                 per pass)",
                team.size(),
                exchanged / lines.len().max(1) as f64
            );
        }
        serde_json::json!({ "count": team.size(), "exchange_seconds": exchanged, "seconds": seconds })
    });
    // The one shape `report` reads (docs/report.md).
    let v = rosenblatt::report::TrainDoc {
        command: Some(crate::ui::command_line()),
        model: Some(a.output.clone()),
        learner: learner.name().to_string(),
        eval: (!eval.is_empty()).then(|| eval.to_string()),
        params: model.meta.params.clone(),
        passes: lines,
        training: Some(t.clone()),
        processes,
    }
    .to_value();
    if let Some(dir) = &a.report {
        super::report::write_one(v.clone(), Some(&model), dir, ui)?;
    }
    if ui.json {
        return crate::ui::json(&v);
    }
    let how = match t.mixing {
        Some(m) => {
            format!("{} parts, mixed {} after every pass", t.parts, serde_json::to_value(m)?.as_str().unwrap_or(""))
        }
        None => "1 part".to_string(),
    };
    outln!("model written to {} ({how})", a.output.display())?;
    Ok(())
}

/// Cells right-aligned in columns of 12, one space apart.
fn aligned(cells: &[impl std::fmt::Display]) -> String {
    cells.iter().map(|c| format!("{c:>12}")).collect::<Vec<_>>().join(" ")
}

/// What Ctrl-C (or SIGTERM) says during `train`: how many passes ran and
/// where the model is, if anywhere; and never a half-written model file:
/// an interrupt while a model is being written waits for the write.
mod interrupt {
    use std::path::PathBuf;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The last pass finished, and the pass of the last checkpoint written.
    static PASSED: AtomicUsize = AtomicUsize::new(0);
    static CHECKPOINT: AtomicUsize = AtomicUsize::new(0);
    /// Held while a model file is written; `true` once the final one is.
    static WRITING: Mutex<bool> = Mutex::new(false);

    pub fn install(output: &std::path::Path, quiet: bool) -> anyhow::Result<()> {
        let output: PathBuf = output.to_path_buf();
        let said = move |done: bool| {
            let (passed, saved) = (PASSED.load(Ordering::SeqCst), CHECKPOINT.load(Ordering::SeqCst));
            if done {
                format!("interrupted; the model was written to {}", output.display())
            } else if saved > 0 {
                format!(
                    "interrupted after pass {passed}; the model of pass {saved} is in {} (resume it with --init)",
                    output.display()
                )
            } else {
                format!("interrupted after pass {passed}; no model written")
            }
        };
        ctrlc::set_handler(move || {
            // Taking the lock waits out a write in progress; the process
            // exits holding it, so no write starts after this.
            let held = WRITING.lock();
            if !quiet {
                eprintln!("{}", said(held.as_deref().is_ok_and(|done| *done)));
            }
            std::process::exit(130);
        })?;
        Ok(())
    }

    pub fn passed(pass: usize) {
        PASSED.store(pass, Ordering::SeqCst);
    }

    pub fn checkpointed(pass: usize) {
        CHECKPOINT.store(pass, Ordering::SeqCst);
    }

    /// Runs `write` (a model file's) with interrupts held off.
    pub fn saving<T>(write: impl FnOnce() -> T) -> T {
        let _held = WRITING.lock();
        write()
    }

    pub fn finished() {
        if let Ok(mut done) = WRITING.lock() {
            *done = true;
        }
    }
}
