//! Training over a team of processes, each holding only its parts' rows:
//! the same bits as one process training every part. The processes here
//! are threads that talk over channels ([`Threads`]) — the collective
//! operations an MPI team performs, in the same order — so that the
//! arithmetic of mixing across processes is tested without MPI.

mod common;
use common::{generate, plain};
use rosenblatt_learners::{
    AveragedPerceptron, Hooks, InMemoryExamples, LearnError, Loss, Mixable, Mixing, OneProcess, OnlineLearner, Order,
    ParallelOptions, PassReport, Perceptron, PerceptronParams, Sgd, SgdParams, Slice, Team, TrainOptions,
    VotedPerceptron, scales, scales_over, spread, spread_over, train_parallel,
};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

enum Msg {
    Words(Vec<u64>),
    Values(Vec<f64>),
}

/// One thread's end of a team of threads: a channel to and from every other.
struct Threads {
    rank: usize,
    to: Vec<Sender<Msg>>,
    from: Vec<Mutex<Receiver<Msg>>>,
}

/// `size` connected ends, one per thread.
fn team(size: usize) -> Vec<Threads> {
    // links[a][b]: a sends to b.
    let mut senders: Vec<Vec<Option<Sender<Msg>>>> = (0..size).map(|_| (0..size).map(|_| None).collect()).collect();
    let mut receivers: Vec<Vec<Option<Receiver<Msg>>>> = (0..size).map(|_| (0..size).map(|_| None).collect()).collect();
    for (a, row) in senders.iter_mut().enumerate() {
        for (b, s) in row.iter_mut().enumerate() {
            let (tx, rx) = channel();
            *s = Some(tx);
            receivers[b][a] = Some(rx);
        }
    }
    (0..size)
        .map(|rank| Threads {
            rank,
            to: senders[rank].iter_mut().map(|s| s.take().unwrap()).collect(),
            from: receivers[rank].iter_mut().map(|r| Mutex::new(r.take().unwrap())).collect(),
        })
        .collect()
}

impl Threads {
    fn get(&self, from: usize) -> Msg {
        self.from[from].lock().unwrap().recv().unwrap()
    }
}

impl Team for Threads {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.to.len()
    }
    fn all_gather(&self, mine: &[u64]) -> Vec<Vec<u64>> {
        for t in &self.to {
            t.send(Msg::Words(mine.to_vec())).unwrap();
        }
        (0..self.size())
            .map(|r| match self.get(r) {
                Msg::Words(w) => w,
                Msg::Values(_) => panic!("rank {r} sent values where words were due"),
            })
            .collect()
    }
    fn send(&self, to: usize, data: &[f64]) {
        self.to[to].send(Msg::Values(data.to_vec())).unwrap();
    }
    fn receive(&self, from: usize, data: &mut [f64]) {
        match self.get(from) {
            Msg::Values(v) => data.copy_from_slice(&v),
            Msg::Words(_) => panic!("rank {from} sent words where values were due"),
        }
    }
    fn broadcast(&self, root: usize, data: &mut [f64]) {
        if self.rank == root {
            for (r, t) in self.to.iter().enumerate() {
                if r != root {
                    t.send(Msg::Values(data.to_vec())).unwrap();
                }
            }
        } else {
            self.receive(root, data);
        }
    }
}

fn opts(passes: f64, order: Order, seed: u64) -> TrainOptions {
    TrainOptions { passes, order, seed, stop_when_separated: false, first_pass: 0 }
}

/// What every process ends with: its learner and the run's pass reports
/// (seconds zeroed), or its error.
type Outcome<L> = Result<(L, Vec<PassReport>), LearnError>;

/// Trains `make()` on `data` in `parts` parts over `size` threads, each
/// holding only its parts' rows.
fn over<L: Mixable>(
    make: impl Fn() -> L + Sync,
    data: &InMemoryExamples,
    o: &TrainOptions,
    par: &ParallelOptions,
    size: usize,
    rows_of: impl Fn(usize) -> std::ops::Range<usize> + Sync,
) -> Vec<Outcome<L>> {
    let ends = team(size);
    std::thread::scope(|s| {
        let handles: Vec<_> = ends
            .iter()
            .map(|end| {
                let (make, rows_of) = (&make, &rows_of);
                s.spawn(move || {
                    let rows = rows_of(end.rank);
                    let mine = Slice::new(&data, rows.start, rows.len());
                    let mut l = make();
                    let r = train_parallel(&mut l, &mine, o, par, end, Hooks::none())?;
                    Ok((l, r.passes.iter().map(|p| PassReport { seconds: 0.0, ..*p }).collect()))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The rows of rank `r`'s parts: parts `r·P/N..(r+1)·P/N` of `n` rows.
fn share(n: usize, parts: usize, size: usize) -> impl Fn(usize) -> std::ops::Range<usize> + Sync {
    move |r| {
        let per = parts / size;
        r * per * n / parts..(r + 1) * per * n / parts
    }
}

fn one<L: Mixable>(mut l: L, data: &InMemoryExamples, o: &TrainOptions, par: &ParallelOptions) -> (L, Vec<PassReport>) {
    let r = train_parallel(&mut l, &data, o, par, &OneProcess, Hooks::none()).unwrap();
    (l, r.passes.iter().map(|p| PassReport { seconds: 0.0, ..*p }).collect())
}

/// Every process ends with the model — bit for bit — and the pass counts of
/// one process training every part, for the Perceptron, the averaged and
/// voted Perceptrons and logistic regression, at 2, 3 and 4 processes,
/// in every order, mixed uniformly or by updates, fractional passes too.
#[test]
fn a_team_trains_the_model_of_one_process() {
    let (data, _) = generate(997, 24, 0.0, 0.1, false, 41);
    let pp = PerceptronParams::default();
    let logistic = SgdParams { loss: Loss::Logistic, average: true, ..SgdParams::default() };
    for (size, parts) in [(2, 2), (2, 4), (3, 3), (3, 6), (4, 4), (4, 8)] {
        for (order, mixing) in [(Order::Chunks, Mixing::Uniform), (Order::Shuffle, Mixing::Weighted)] {
            let o = opts(2.5, order, 5);
            let par = ParallelOptions { parts, mixing };
            let rows = share(data.len(), parts, size);
            macro_rules! same {
                ($make:expr) => {{
                    let (want, passes) = one($make, &data, &o, &par);
                    for (rank, got) in over(|| $make, &data, &o, &par, size, &rows).into_iter().enumerate() {
                        let (got, got_passes) = got.unwrap();
                        let what = format!("rank {rank} of {size}, {parts} parts, {order:?}, {mixing:?}");
                        assert_eq!(got.model(), want.model(), "{what}");
                        assert_eq!(got_passes, passes, "{what}");
                    }
                }};
            }
            same!(Perceptron::new(24, pp).unwrap());
            same!(AveragedPerceptron::new(24, pp, false).unwrap());
            same!(VotedPerceptron::new(24, pp, false).unwrap());
            same!(Sgd::new(24, logistic).unwrap());
        }
    }
}

/// A team whose parts do not divide among its processes, or whose processes
/// hold other rows than their parts', is refused on every process; a bad
/// label on one process fails all of them, naming that process and the row
/// as the whole training set counts it.
#[test]
fn a_team_refuses_what_it_cannot_train() {
    let (mut data, _) = generate(200, 8, 0.0, 0.0, false, 3);
    let o = opts(1.0, Order::Chunks, 0);
    let make = || Perceptron::new(8, PerceptronParams::default()).unwrap();
    let par = |parts| ParallelOptions { parts, mixing: Mixing::Uniform };
    for got in over(make, &data, &o, &par(3), 2, |r| r * 100..(r + 1) * 100) {
        assert!(matches!(got, Err(LearnError::Processes { parts: 3, processes: 2 })), "{:?}", got.err());
    }
    for got in over(make, &data, &o, &par(2), 2, |r| if r == 0 { 0..90 } else { 90..200 }) {
        match got {
            Err(LearnError::Rows { rank: 0, held, parts }) => assert_eq!((held, parts), (0..90, 0..100)),
            other => panic!("{:?}", other.err()),
        }
    }
    // Row 150 (rank 1's 50th) gets a label no binary learner takes.
    let mut bad = InMemoryExamples::new(8);
    for i in 0..200 {
        let x: Vec<f32> = (0..8).map(|j| ((i * 7 + j * 3) % 11) as f32 - 5.0).collect();
        bad.push_dense(
            &x,
            if i == 150 {
                2.0
            } else if i % 2 == 0 {
                1.0
            } else {
                -1.0
            },
        )
        .unwrap();
    }
    data = bad;
    let got = over(make, &data, &o, &par(2), 2, share(200, 2, 2));
    for g in &got {
        match g {
            Err(LearnError::Process { rank: 1, reason }) => assert!(reason.contains("example 150"), "{reason}"),
            other => panic!("{:?}", other.as_ref().err()),
        }
    }
}

/// The data's scales and spread, which data-derived defaults come from, are
/// those of all the rows however they are spread over processes, bit for
/// bit; the scales are the plain f64 maxima, and on a pool of any size the
/// same.
#[test]
fn a_team_measures_the_scales_of_all_its_rows() {
    let (data, _) = generate(1001, 30, 0.0, 0.0, false, 8);
    let want = scales(&&data);
    let want_spread = spread(&&data);
    // The reference: f64 maxima of ‖x‖² and |x_i|, row by row.
    let (mut n2, mut m) = (0.0f64, 0.0f64);
    for x in &plain(&data).x {
        n2 = n2.max(x.iter().map(|v| v * v).sum::<f64>());
        m = x.iter().fold(m, |m, v| m.max(v.abs()));
    }
    assert!((want.max_norm - n2.sqrt()).abs() <= 1e-6 * n2.sqrt(), "{} against {}", want.max_norm, n2.sqrt());
    assert_eq!(want.max_abs, m);
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        assert_eq!(pool.install(|| scales(&&data)), want, "{threads} threads");
    }
    for size in [1, 2, 3, 4] {
        let ends = team(size);
        let got: Vec<_> = std::thread::scope(|s| {
            let hs: Vec<_> = ends
                .iter()
                .map(|end| {
                    let data = &data;
                    s.spawn(move || {
                        let rows = share(data.len(), size, size)(end.rank);
                        let mine = Slice::new(&data, rows.start, rows.len());
                        (scales_over(end, &mine), spread_over(end, &mine))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (rank, (g, sp)) in got.iter().enumerate() {
            assert_eq!(
                [g.max_norm, g.max_abs, *sp].map(f64::to_bits),
                [want.max_norm, want.max_abs, want_spread].map(f64::to_bits),
                "rank {rank} of {size}"
            );
        }
    }
}

/// States longer than one message travel in segments (the chain
/// pipelined): the bits are still one process's.
#[test]
fn long_states_mix_in_segments_to_the_same_bits() {
    let dim = 20_000;
    let (data, _) = generate(300, dim, 0.0, 0.1, false, 17);
    let pp = PerceptronParams::default();
    for (size, parts) in [(2, 4), (3, 3)] {
        let o = opts(2.0, Order::Chunks, 1);
        let par = ParallelOptions { parts, mixing: Mixing::Weighted };
        let rows = share(data.len(), parts, size);
        let (want, _) = one(AveragedPerceptron::new(dim, pp, false).unwrap(), &data, &o, &par);
        for (rank, got) in over(|| AveragedPerceptron::new(dim, pp, false).unwrap(), &data, &o, &par, size, &rows)
            .into_iter()
            .enumerate()
        {
            assert_eq!(got.unwrap().0.model(), want.model(), "rank {rank} of {size}");
        }
    }
}
