//! How a pass's parts run: one part alone, or several parts on the pool,
//! mixed after every pass (iterative parameter mixing).

use super::*;

/// How the parts of a pass run: the learner alone, or copies mixed.
pub(super) trait Engine<L> {
    /// Where this process's `rows` sit among every process's.
    fn place(&mut self, rows: usize) -> Place;
    /// Fails if `checked` failed here or on another process.
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError>;
    /// Before the first pass: this process trains `parts` of them.
    fn start(&mut self, learner: &mut L, parts: Range<usize>);
    /// One pass of this process's parts (`orders[p]`, its first `lens[p]`
    /// examples, each by `pass`); every part's report, over all processes.
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError>;
    /// Calls `f`, if any, with the learner whose model is the run's so far.
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError>;
    /// After the last pass: leaves the run's learner in `learner`.
    fn finish(self, learner: &mut L) -> Result<(), LearnError>;
}

/// One part: the learner itself, on this thread.
pub(super) struct Alone;

impl<L: OnlineLearner> Engine<L> for Alone {
    fn place(&mut self, rows: usize) -> Place {
        Place { rows, first_row: 0, rank: 0, size: 1, held: vec![rows] }
    }
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError> {
        checked
    }
    fn start(&mut self, _: &mut L, parts: Range<usize>) {
        debug_assert_eq!(parts, 0..1);
    }
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError> {
        Ok(vec![pass(learner, 0, &mut orders[0], lens[0], kind, progress)])
    }
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError> {
        if let Some(f) = f {
            f(learner);
        }
        Ok(())
    }
    fn finish(self, _: &mut L) -> Result<(), LearnError> {
        Ok(())
    }
}

/// Copies of the learner, one per part this process trains, mixed after
/// every pass over the team; with one part in all, the learner itself as
/// [`Alone`] (so that `P = 1` is the sequential algorithm bit for bit).
pub(super) struct Mixed<'r, L> {
    pub(super) mixing: Mixing,
    pub(super) team: &'r dyn Team,
    /// The first part this process trains.
    pub(super) first: usize,
    /// The global index of this process's first row.
    pub(super) first_row: usize,
    pub(super) copies: Vec<Apart<L>>,
    /// Each part's state saved for mixing, for learners not mixed in
    /// place ([`Mixable::ready_to_mix`]; empty for the others).
    pub(super) states: Vec<MixState>,
    pub(super) base: MixState,
    pub(super) mixed: MixState,
    /// Whether the copies after the first have yet to load the last mix
    /// (`base`): each loads it as its next pass starts, so that its state
    /// is in cache for the pass, not pushed out by the other parts'
    /// loads. Loaded all at once after the mix, 16 parts of the sparse
    /// set over 2^20 features ran their passes 1.4× slower than one part
    /// (SPEED.md#parallel-passes-parameter-mixing).
    pub(super) behind: bool,
}

impl<L: Mixable> Mixed<'_, L> {
    /// Every part's learner, in part order, from every process (learners
    /// whose parts keep what mixing does not carry).
    pub(super) fn gathered(&self) -> Result<Vec<L>, LearnError> {
        if self.team.size() == 1 {
            return Ok(self.copies.iter().map(|c| c.0.clone()).collect());
        }
        // Each process's parts' words, each part's as its length first.
        let mut mine = Vec::new();
        for c in &self.copies {
            let kept = c.kept();
            mine.push(kept.len() as u64);
            mine.extend(kept);
        }
        let model = &self.copies[0];
        let mut all = Vec::new();
        for (rank, words) in self.team.all_gather(&mine).iter().enumerate() {
            let bad = || LearnError::Process { rank, reason: "sent parts that do not fit this learner".into() };
            let mut rest = &words[..];
            while let Some((&len, tail)) = rest.split_first() {
                let len = usize::try_from(len).ok().filter(|&l| l <= tail.len()).ok_or_else(bad)?;
                all.push(model.with_kept(&tail[..len]).ok_or_else(bad)?);
                rest = &tail[len..];
            }
        }
        Ok(all)
    }
}

impl<L: Mixable> Engine<L> for Mixed<'_, L> {
    fn place(&mut self, rows: usize) -> Place {
        let (rank, size) = (self.team.rank(), self.team.size());
        let held = held(self.team, rows);
        self.first_row = held[..rank].iter().sum();
        Place { rows: held.iter().sum(), first_row: self.first_row, rank, size, held }
    }
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError> {
        if self.team.size() == 1 {
            return checked;
        }
        // The same failure everywhere is each process's own; otherwise
        // every process fails naming the first that failed.
        match failures(self.team, checked.as_ref().err().map(ToString::to_string).as_deref()) {
            None | Some((None, _)) => checked,
            Some((Some(rank), reason)) => Err(LearnError::Process { rank, reason }),
        }
    }
    fn start(&mut self, learner: &mut L, parts: Range<usize>) {
        self.first = parts.start;
        if parts.len() > 1 || self.team.size() > 1 {
            // Cloned on the pool: a copy's memory is fresh, and the
            // kernel zeroes its pages as the copy first writes them.
            let one = &*learner;
            self.copies = (0..parts.len()).into_par_iter().map(|_| Apart(one.clone())).collect();
            self.states = vec![MixState::default(); parts.len()];
            learner.save_state(&mut self.base);
        }
    }
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError> {
        if self.copies.is_empty() {
            return Alone.pass(learner, pass, orders, lens, kind, progress);
        }
        let (first_row, behind, base) = (self.first_row, self.behind, &self.base);
        let mut reports: Vec<PassReport> = (self.copies.par_iter_mut(), orders.par_iter_mut(), lens, &mut self.states)
            .into_par_iter()
            .enumerate()
            .map(|(p, (copy, order, &len, state))| {
                if behind && p > 0 {
                    copy.load_state(base);
                }
                let r = pass(copy, first_row, order, len, kind, progress);
                copy.ready_to_mix(state);
                r
            })
            .collect();
        if self.team.size() > 1 {
            let mine: Vec<u64> = reports.iter().flat_map(|r| [r.examples, r.mistakes, r.updates]).collect();
            let seconds = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
            reports = self
                .team
                .all_gather(&mine)
                .iter()
                .flat_map(|w| {
                    w.chunks_exact(3).map(|c| PassReport { examples: c[0], mistakes: c[1], updates: c[2], seconds })
                })
                .collect::<Vec<_>>();
        }
        let updates: Vec<u64> = reports.iter().map(|r| r.updates).collect();
        let mu = self.mixing.weights(&updates);
        let views: Vec<&dyn MixView> = self.copies.iter().zip(&self.states).map(|(c, s)| c.mix_view(s)).collect();
        mix(self.team, &self.base, &views, self.first, &mu, &mut self.mixed);
        // The first copy now: it is the run's learner between passes and at
        // the end. The others with their next pass, unless the model needs
        // them all (they must have loaded the same mixes, in order).
        let mixed = &self.mixed;
        if L::GATHERS {
            self.copies.par_iter_mut().for_each(|c| c.load_state(mixed));
        } else {
            self.copies[0].load_state(mixed);
            self.behind = true;
        }
        std::mem::swap(&mut self.base, &mut self.mixed);
        Ok(reports)
    }
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError> {
        match self.copies.split_first() {
            None => {
                if let Some(f) = f {
                    f(learner);
                }
            }
            Some(_) if L::GATHERS && (f.is_some() || self.team.size() > 1) => {
                // Other processes take part whether or not this one reports.
                let mut all = self.gathered()?.into_iter();
                if let (Some(f), Some(mut first)) = (f, all.next()) {
                    first.absorb(all.collect());
                    f(&first);
                }
            }
            Some((first, _)) => {
                if let Some(f) = f {
                    f(first);
                }
            }
        }
        Ok(())
    }
    fn finish(self, learner: &mut L) -> Result<(), LearnError> {
        if self.copies.is_empty() {
            return Ok(());
        }
        let mut all =
            if L::GATHERS { self.gathered()? } else { self.copies.into_iter().map(|c| c.0).collect() }.into_iter();
        if let Some(first) = all.next() {
            *learner = first;
            if L::GATHERS {
                learner.absorb(all.collect());
            }
        }
        Ok(())
    }
}

/// A part's copy of the learner, alone on its cache lines (two of them, as
/// the adjacent-line prefetcher fetches in pairs): its step counters and
/// the small arrays it keeps inline are written at every step, and a line
/// shared with the copy another core runs would pass between the cores at
/// every step. The small arrays a learner keeps on the heap and writes
/// while it learns are [`crate::memory::StateVec`]s, alone on theirs. On
/// the 2-core VM this moved `--parts 2 --threads 2` on the sparse set from
/// 88 to 85 ms a pass (median of 7), inside that machine's noise: two
/// parts side by side still run slower than either alone, and shared
/// lines did not explain it (SPEED.md#parallel-passes-parameter-mixing).
#[derive(Clone, Debug)]
#[repr(align(128))]
pub(super) struct Apart<L>(pub(super) L);

impl<L> std::ops::Deref for Apart<L> {
    type Target = L;
    fn deref(&self) -> &L {
        &self.0
    }
}

impl<L> std::ops::DerefMut for Apart<L> {
    fn deref_mut(&mut self) -> &mut L {
        &mut self.0
    }
}
