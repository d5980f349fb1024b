//! Training across processes: what each process of a run holds, the checks
//! that they agree, and — with the `mpi` feature — MPI behind the learners'
//! [`Team`]. Each process trains its parts on its own rows; the parts'
//! states are mixed after every pass ([`rosenblatt_learners::mix`]) so that
//! every process ends with the model one process training all the parts
//! would make, bit for bit. No network code of our own: MPI moves the bytes.

use crate::error::Error;
use crate::model::{Model, Prediction};
use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{InMemoryExamples, Team, failures, held};
use rosenblatt_loader::{Dataset, ExamplesView};
use std::ops::Range;

/// This process's rank and the number of processes, when an MPI launcher
/// started it as one of several: OpenMPI's `mpirun` (`OMPI_COMM_WORLD_*`),
/// or one speaking PMI (`PMI_*`: MPICH's, Slurm's `srun --mpi=pmi2`). Read
/// from the environment, so it says so whether or not this build speaks
/// MPI. (Not Slurm's own `SLURM_*`: a batch script's plain `rosenblatt`
/// has them too, and is one process.)
pub fn launched() -> Option<(usize, usize)> {
    let var = |names: &[&str]| names.iter().find_map(|n| std::env::var(n).ok()?.parse::<usize>().ok());
    let size = var(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"])?;
    let rank = var(&["OMPI_COMM_WORLD_RANK", "PMI_RANK"])?;
    (size > 1 && rank < size).then_some((rank, size))
}

/// The training rows (of `rows`) that process `rank` of `size` holds when
/// `parts` parts train: its parts' rows, consecutive — parts
/// `rank·P/N..(rank+1)·P/N` of rows cut as one process cuts them.
pub fn rows_of(rank: usize, size: usize, parts: usize, rows: u64) -> Result<Range<u64>, Error> {
    if parts == 0 || !parts.is_multiple_of(size) {
        return Err(Error::Input(format!(
            "parts = {parts} over {size} processes: the parts must be a multiple of the processes (each \
             trains the same number of parts; try parts = {size})"
        )));
    }
    let rows = usize::try_from(rows).map_err(|_| Error::Input(format!("{rows} rows do not fit this machine")))?;
    let r = rosenblatt_learners::rows_of(rank, size, parts, rows);
    Ok(r.start as u64..r.end as u64)
}

/// The view of `rows` (the dataset's row indices) in `data`, opened with
/// [`rosenblatt_loader::Dataset::open_rows`] for them.
pub fn share<'d>(data: &'d Dataset, rows: Range<u64>) -> Result<ExamplesView<'d>, Error> {
    let all = data.examples()?;
    let first = data.first_row();
    if rows.start < first || rows.end - first > all.len() as u64 {
        return Err(Error::Input(format!(
            "rows {rows:?} are due here, but rows {first}..{} of {} were opened",
            first + all.len() as u64,
            data.dir().display()
        )));
    }
    Ok(all.range((rows.start - first) as usize..(rows.end - first) as usize))
}

/// Every process's `(label, prediction)` rows, in rank order (so, for
/// shares from [`rows_of`], in input order), on every process.
fn gather_labelled(team: &dyn Team, mine: &[(f32, Prediction)]) -> Vec<(f32, Prediction)> {
    let words: Vec<u64> = mine
        .iter()
        .flat_map(|(y, p)| [u64::from(y.to_bits()) << 32 | u64::from(p.label.to_bits()), u64::from(p.score.to_bits())])
        .collect();
    team.all_gather(&words)
        .iter()
        .flat_map(|w| {
            w.chunks_exact(2).map(|c| {
                let (y, label, score) = ((c[0] >> 32) as u32, c[0] as u32, c[1] as u32);
                (f32::from_bits(y), Prediction { label: f32::from_bits(label), score: f32::from_bits(score) })
            })
        })
        .collect()
}

/// Every row of `data` as (label, `model`'s prediction), predicted by the
/// processes of `team`, each its share ([`rows_of`] with one part per
/// process, `data` opened for it): on every process, all of them in input
/// order. A failure on any process fails all of them.
pub fn labelled_over(team: &dyn Team, model: &Model, data: &Dataset) -> Result<Vec<(f32, Prediction)>, Error> {
    let local = (|| {
        let mine = share(data, rows_of(team.rank(), team.size(), team.size(), data.rows())?)?;
        Ok(mine.labels().into_iter().zip(model.predictions(&mine)?).collect::<Vec<_>>())
    })();
    Ok(gather_labelled(team, &settle(team, local)?))
}

/// Some of the training rows that the processes of a team hold, gathered
/// on every process: an example set as long as all of them, indexed as
/// they are, that holds only the rows asked for ([`gather_rows`]) — what
/// the voted Perceptron's predictor copies out of the training set.
pub struct Gathered {
    rows: InMemoryExamples,
    /// The training set's index of each of `rows`, ascending.
    at: Vec<u32>,
    len: usize,
}

/// The rows `wanted` (ascending indices into all the processes' training
/// rows, rank 0's first) from the processes that hold them (`data`, this
/// process's), on every process.
pub fn gather_rows<E: Examples>(team: &dyn Team, data: &E, wanted: &[u32]) -> Result<Gathered, Error> {
    let held = held(team, data.len());
    let first: usize = held[..team.rank()].iter().sum();
    // Each row as [nnz, label, (index, value) …], in `wanted` order.
    let mut mine = Vec::new();
    for &j in wanted {
        if let Some(i) = (j as usize).checked_sub(first).filter(|&i| i < data.len()) {
            let row = data.row(i);
            mine.extend([row.nnz() as u64, u64::from(data.label(i).to_bits())]);
            for k in 0..row.nnz() {
                let (f, v) = row.entry(k);
                mine.extend([f as u64, u64::from(v.to_bits())]);
            }
        }
    }
    let mut rows = InMemoryExamples::new(data.dim());
    let bad = |why: &str| Error::Input(format!("gathering the voted Perceptron's rows: {why}"));
    for words in team.all_gather(&mine) {
        let mut rest = &words[..];
        while let [nnz, label, tail @ ..] = rest {
            let n = usize::try_from(*nnz).ok().filter(|&n| n <= tail.len() / 2).ok_or_else(|| bad("a short row"))?;
            let (entries, next) = tail.split_at(2 * n);
            let indices = entries.iter().step_by(2).map(|&f| u32::try_from(f)).collect::<Result<Vec<_>, _>>();
            let indices = indices.map_err(|_| bad("a feature index above 2^32"))?;
            let values: Vec<f32> = entries.iter().skip(1).step_by(2).map(|&v| f32::from_bits(v as u32)).collect();
            rows.push(&indices, &values, f32::from_bits(*label as u32)).map_err(|e| bad(&e.to_string()))?;
            rest = next;
        }
    }
    if rows.len() != wanted.len() {
        return Err(bad(&format!("{} of {} rows arrived", rows.len(), wanted.len())));
    }
    Ok(Gathered { rows, at: wanted.to_vec(), len: held.iter().sum() })
}

impl<'a> Examples for &'a Gathered {
    type Row = <&'a InMemoryExamples as Examples>::Row;
    fn len(&self) -> usize {
        self.len
    }
    fn dim(&self) -> usize {
        (&self.rows).dim()
    }
    /// Row `i` of the training set; only the rows gathered are here.
    fn row(&self, i: usize) -> Self::Row {
        (&self.rows).row(self.slot(i))
    }
    fn label(&self, i: usize) -> f32 {
        (&self.rows).label(self.slot(i))
    }
}

impl Gathered {
    fn slot(&self, i: usize) -> usize {
        u32::try_from(i).ok().and_then(|i| self.at.binary_search(&i).ok()).expect("only gathered rows are read")
    }
}

/// `result` on every process if it is `Ok` on every one; otherwise the
/// same [`Error::Processes`] on all of them, naming the first process that
/// failed and why. Every process calls it at the same point.
pub fn settle<T>(team: &dyn Team, result: Result<T, Error>) -> Result<T, Error> {
    match failures(team, result.as_ref().err().map(ToString::to_string).as_deref()) {
        None => result,
        // The same failure everywhere needs no rank.
        Some((None, reason)) => Err(Error::Processes(reason)),
        Some((Some(rank), reason)) => Err(Error::Processes(format!("rank {rank}: {reason}"))),
    }
}

/// Fails, on every process, unless every process gives the same `value`
/// (`what` names it in the error, e.g. the dataset's manifest checksum).
pub fn agree(team: &dyn Team, what: &str, value: u64) -> Result<(), Error> {
    let all = team.all_gather(&[value]);
    match all.iter().position(|v| v != &all[0]) {
        None => Ok(()),
        Some(other) => Err(Error::Processes(format!(
            "the processes disagree on {what}: rank 0 has {:016x}, rank {other} {:016x} (every process must see the \
             same files)",
            all[0].first().copied().unwrap_or_default(),
            all[other].first().copied().unwrap_or_default()
        ))),
    }
}

#[cfg(feature = "mpi")]
pub use mpi_team::Mpi;

#[cfg(feature = "mpi")]
mod mpi_team {
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::{Communicator, CommunicatorCollectives, Destination, Root, Source};
    use rosenblatt_learners::Team;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Instant;

    /// The processes of `MPI_COMM_WORLD` as a [`Team`]. MPI is initialised
    /// when this is made and finalised when it is dropped. Calls come from
    /// one thread at a time (the one that runs training), as the threading
    /// level asked for, `MPI_THREAD_SERIALIZED`, allows.
    pub struct Mpi {
        _universe: mpi::environment::Universe,
        rank: usize,
        size: usize,
        /// Nanoseconds spent in MPI calls (waiting included).
        nanos: AtomicU64,
    }

    impl Mpi {
        /// Initialises MPI; `None` if it is already initialised or cannot be.
        pub fn start() -> Option<Mpi> {
            let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Serialized)?;
            let world = universe.world();
            let (rank, size) = (world.rank() as usize, world.size() as usize);
            Some(Mpi { _universe: universe, rank, size, nanos: AtomicU64::new(0) })
        }

        /// Seconds this process has spent in MPI calls (exchanging and
        /// waiting for the others).
        pub fn seconds(&self) -> f64 {
            self.nanos.load(Ordering::Relaxed) as f64 * 1e-9
        }

        /// Ends every process of the job with `code` (after a failure that
        /// the others cannot know of).
        pub fn abort(&self, code: i32) -> ! {
            SimpleCommunicator::world().abort(code)
        }

        fn timed<T>(&self, f: impl FnOnce(&SimpleCommunicator) -> T) -> T {
            let start = Instant::now();
            let out = f(&SimpleCommunicator::world());
            self.nanos.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
            out
        }
    }

    impl Team for Mpi {
        fn rank(&self) -> usize {
            self.rank
        }
        fn size(&self) -> usize {
            self.size
        }
        fn all_gather(&self, mine: &[u64]) -> Vec<Vec<u64>> {
            self.timed(|w| {
                let mut counts = vec![0u64; self.size];
                w.all_gather_into(&(mine.len() as u64), &mut counts[..]);
                let counts: Vec<i32> = counts.iter().map(|&c| c as i32).collect();
                let displs: Vec<i32> = counts
                    .iter()
                    .scan(0i32, |at, &c| {
                        let d = *at;
                        *at += c;
                        Some(d)
                    })
                    .collect();
                let mut all = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
                {
                    let mut part = mpi::datatype::PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
                    w.all_gather_varcount_into(mine, &mut part);
                }
                counts.iter().zip(&displs).map(|(&c, &d)| all[d as usize..(d + c) as usize].to_vec()).collect()
            })
        }
        fn send(&self, to: usize, data: &[f64]) {
            self.timed(|w| w.process_at_rank(to as i32).send(data))
        }
        fn receive(&self, from: usize, data: &mut [f64]) {
            self.timed(|w| {
                w.process_at_rank(from as i32).receive_into(data);
            })
        }
        fn broadcast(&self, root: usize, data: &mut [f64]) {
            self.timed(|w| w.process_at_rank(root as i32).broadcast_into(data))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_process_holds_its_parts_rows() {
        for (parts, size, rows) in [(4, 2, 1001u64), (6, 3, 7), (8, 4, 60_000), (3, 3, 3)] {
            let mut at = 0;
            for rank in 0..size {
                let r = rows_of(rank, size, parts, rows).unwrap();
                // The learners' cut: part p starts at p·n/P.
                let first_part = rank * parts / size;
                assert_eq!(r.start, first_part as u64 * rows / parts as u64);
                assert_eq!(r.start, at);
                at = r.end;
            }
            assert_eq!(at, rows);
        }
        let e = rows_of(0, 2, 3, 100).unwrap_err().to_string();
        assert!(e.contains("parts = 3 over 2 processes") && e.contains("multiple"), "{e}");
    }
}
