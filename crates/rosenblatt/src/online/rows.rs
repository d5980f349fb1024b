//! A batch's rows as a program hands them over — a borrowed CSR matrix,
//! a borrowed row-major dense matrix, or a dataset's shards — checked
//! once where they come in (indices sorted, unique and in range; values
//! finite), then read in place.

use super::*;

/// Rows of a borrowed CSR matrix (zero-based `u32` column indices, `f32`
/// values), with a label per row or none (for prediction). Built only by
/// [`CsrRows::try_new`], which checks every row once; the kernels then read
/// them without further checks.
#[derive(Clone, Copy, Debug)]
pub struct CsrRows<'a> {
    dim: usize,
    indptr: &'a [u64],
    indices: &'a [u32],
    values: &'a [f32],
    labels: Option<&'a [f32]>,
    weights: Option<&'a [f32]>,
}

impl<'a> CsrRows<'a> {
    /// `indptr.len() - 1` rows of dimension `dim`: row `i` holds
    /// `indices[indptr[i]..indptr[i + 1]]` and the same range of `values`.
    /// Refuses (naming the row) indices that are not strictly increasing
    /// within a row or not below `dim`, non-finite values, a malformed
    /// `indptr`, and labels of another length.
    pub fn try_new(
        dim: usize,
        indptr: &'a [u64],
        indices: &'a [u32],
        values: &'a [f32],
        labels: Option<&'a [f32]>,
    ) -> Result<Self, Error> {
        let bad = |what: String| Err(Error::Input(what));
        if dim > u32::MAX as usize {
            return bad(format!("dimension {dim} exceeds the 2^32 − 1 that u32 indices reach"));
        }
        let Some((&first, _)) = indptr.split_first() else {
            return bad("indptr is empty: it needs one entry more than there are rows".into());
        };
        let rows = indptr.len() - 1;
        if first != 0 {
            return bad(format!("indptr[0] is {first}, not 0"));
        }
        if indices.len() != values.len() {
            return bad(format!("{} indices but {} values", indices.len(), values.len()));
        }
        if indptr[rows] != indices.len() as u64 {
            return bad(format!("indptr ends at {}, but there are {} indices", indptr[rows], indices.len()));
        }
        if let Some(l) = labels
            && l.len() != rows
        {
            return bad(format!("{} labels for {rows} rows", l.len()));
        }
        if rows_fit(dim, indptr, indices) && bulk_valid(indices, values, boundary_descents(indptr, indices)) {
            return Ok(CsrRows { dim, indptr, indices, values, labels, weights: None });
        }
        for i in 0..rows {
            let (s, e) = (indptr[i], indptr[i + 1]);
            if s > e {
                return bad(format!("row {i}: indptr decreases ({s} then {e})"));
            }
            if e > indices.len() as u64 {
                return bad(format!("row {i}: indptr[{}] is {e}, past the {} indices", i + 1, indices.len()));
            }
            let (s, e) = (s as usize, e as usize);
            check_indices(dim, &indices[s..e]).map_err(|err| Error::Input(format!("row {i}: {err}")))?;
            if let Some(k) = values[s..e].iter().position(|v| !v.is_finite()) {
                return bad(format!("row {i}: the value of feature {} is {}", indices[s + k], values[s + k]));
            }
        }
        Ok(CsrRows { dim, indptr, indices, values, labels, weights: None })
    }
}

/// Entries per task of the check [`CsrRows::try_new`] and
/// [`DenseRows::try_new`] make of every entry, spread over the current
/// rayon pool: 1 MB of indices and values, large enough that a task's cost
/// dwarfs rayon's, small enough to spread a mini-batch over the pool. A
/// batch of no more entries is checked as one task: there is nothing for a
/// pool to share.
pub const CHECK_BLOCK: usize = 1 << 17;

/// Whether `indptr` (starting at 0 and ending at `indices.len()`) never
/// decreases, and the last index of each row is below `dim`: with indices
/// increasing within rows ([`bulk_valid`]), every index is then in range.
pub(crate) fn rows_fit(dim: usize, indptr: &[u64], indices: &[u32]) -> bool {
    indptr
        .windows(2)
        .all(|w| w[0] <= w[1] && (w[0] == w[1] || indices.get(w[1] as usize - 1).is_some_and(|&j| (j as usize) < dim)))
}

/// How many rows start with an index not above the last one of the row
/// before (the adjacent pairs of `indices` that cross a row boundary and do
/// not increase). `indptr` never decreases ([`rows_fit`]): the boundaries
/// are the starts of the non-empty rows after the first entry.
pub(crate) fn boundary_descents(indptr: &[u64], indices: &[u32]) -> u64 {
    indptr
        .windows(2)
        .filter(|w| w[0] < w[1] && w[0] > 0)
        .map(|w| u64::from(indices[w[0] as usize - 1] >= indices[w[0] as usize]))
        .sum()
}

/// Whether every value is finite and every adjacent pair of `indices`
/// increases except for `boundaries` pairs (those that cross a row
/// boundary and may not; `indices` is empty for dense rows). One pass over
/// both arrays, each block counted without a branch per entry (the
/// comparisons vectorise), the blocks spread over the current rayon pool:
/// a fit's check runs at memory speed; one block is counted on this thread
/// without rayon. On `false` the caller searches row by row to name the
/// culprit.
pub(crate) fn bulk_valid(indices: &[u32], values: &[f32], boundaries: u64) -> bool {
    use rayon::prelude::*;
    const EXPONENT: u32 = 0x7f80_0000;
    let next = indices.get(1..).unwrap_or_default();
    let pairs = next.len();
    let block = |b: usize| {
        let r = b * CHECK_BLOCK..((b + 1) * CHECK_BLOCK);
        let (lo, hi) = (r.start.min(pairs), r.end.min(pairs));
        let descents = indices[lo..hi].iter().zip(&next[lo..hi]).map(|(a, b)| u32::from(a >= b)).sum::<u32>();
        let (lo, hi) = (r.start.min(values.len()), r.end.min(values.len()));
        let infinite = values[lo..hi].iter().map(|v| u32::from(v.to_bits() & EXPONENT == EXPONENT)).sum::<u32>();
        (u64::from(descents), u64::from(infinite))
    };
    let blocks = values.len().max(pairs).div_ceil(CHECK_BLOCK);
    let (descents, infinite) = if blocks <= 1 {
        block(0)
    } else {
        (0..blocks).into_par_iter().map(block).reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    descents == boundaries && infinite == 0
}

impl<'a> Examples for CsrRows<'a> {
    type Row = SparseRow<'a, u32, &'a [f32]>;
    fn len(&self) -> usize {
        self.indptr.len() - 1
    }
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline]
    fn row(&self, i: usize) -> Self::Row {
        let (s, e) = (self.indptr[i] as usize, self.indptr[i + 1] as usize);
        // SAFETY: `try_new` checked that every row's indices are strictly
        // increasing and below `dim`, and that values and indices have the
        // same length; the slices are borrowed for 'a and cannot change.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        self.labels.map_or(0.0, |l| l[i])
    }
    #[inline]
    fn weight(&self, i: usize) -> f32 {
        self.weights.map_or(1.0, |w| w[i])
    }
    fn weighted(&self) -> bool {
        self.weights.is_some()
    }
    /// The training loop asks for the next example's row ahead of time, as
    /// shards do: shuffled orders read rows at random.
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i + 1 < self.indptr.len() {
            let (s, e) = (self.indptr[i] as usize, self.indptr[i + 1] as usize);
            rosenblatt_kernels::prefetch(&self.indices[s..e]);
            rosenblatt_kernels::prefetch(&self.values[s..e]);
        }
    }
}

/// Rows of a borrowed row-major dense matrix: row `i` is
/// `values[i·dim..(i + 1)·dim]`.
#[derive(Clone, Copy, Debug)]
pub struct DenseRows<'a> {
    dim: usize,
    rows: usize,
    values: &'a [f32],
    labels: Option<&'a [f32]>,
    weights: Option<&'a [f32]>,
}

impl<'a> DenseRows<'a> {
    /// `rows × dim` values, row by row. Refuses a length other than
    /// `rows·dim`, non-finite values (naming the row and column) and labels
    /// of another length.
    pub fn try_new(rows: usize, dim: usize, values: &'a [f32], labels: Option<&'a [f32]>) -> Result<Self, Error> {
        if rows.checked_mul(dim) != Some(values.len()) {
            return Err(Error::Input(format!("{} values for {rows} rows of {dim}", values.len())));
        }
        if let Some(l) = labels
            && l.len() != rows
        {
            return Err(Error::Input(format!("{} labels for {rows} rows", l.len())));
        }
        if !bulk_valid(&[], values, 0)
            && let Some(k) = values.iter().position(|v| !v.is_finite())
        {
            return Err(Error::Input(format!("row {}, column {}: the value is {}", k / dim, k % dim, values[k])));
        }
        Ok(DenseRows { dim, rows, values, labels, weights: None })
    }
}

impl<'a> Examples for DenseRows<'a> {
    type Row = DenseRow<&'a [f32]>;
    fn len(&self) -> usize {
        self.rows
    }
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline]
    fn row(&self, i: usize) -> Self::Row {
        DenseRow::new(&self.values[i * self.dim..(i + 1) * self.dim])
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        self.labels.map_or(0.0, |l| l[i])
    }
    #[inline]
    fn weight(&self, i: usize) -> f32 {
        self.weights.map_or(1.0, |w| w[i])
    }
    fn weighted(&self) -> bool {
        self.weights.is_some()
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i < self.rows {
            rosenblatt_kernels::prefetch(&self.values[i * self.dim..(i + 1) * self.dim]);
        }
    }
}

/// A batch of rows in any of the forms the trainer reads in place.
#[derive(Clone, Debug)]
pub enum Rows<'a> {
    /// A borrowed CSR matrix.
    Csr(CsrRows<'a>),
    /// A borrowed dense matrix.
    Dense(DenseRows<'a>),
    /// A dataset's shards, in any encoding.
    View(ExamplesView<'a>),
}

/// Runs `$body` with `$ex` bound to the batch's rows as their own type.
macro_rules! with_rows {
    ($rows:expr, |$ex:ident| $body:expr) => {
        match $rows {
            Rows::Csr(c) => {
                let $ex = c;
                $body
            }
            Rows::Dense(d) => {
                let $ex = d;
                $body
            }
            Rows::View(v) => with_examples!(v, |$ex| $body),
        }
    };
}
pub(crate) use with_rows;

impl<'a> Rows<'a> {
    /// Borrowed CSR rows: zero-based row pointers `indptr` (one more than
    /// there are rows), column `indices` and `values`, `dim` features;
    /// checked once here (indices sorted, unique and below `dim`, values
    /// finite). Unlabelled: [`Rows::with_labels`] gives them labels.
    pub fn csr(indptr: &'a [u64], indices: &'a [u32], values: &'a [f32], dim: usize) -> Result<Rows<'a>, Error> {
        Ok(Rows::Csr(CsrRows::try_new(dim, indptr, indices, values, None)?))
    }

    /// Borrowed dense rows: `n_rows` rows of `dim` values, row after row;
    /// checked once here (values finite). Unlabelled.
    pub fn dense(values: &'a [f32], n_rows: usize, dim: usize) -> Result<Rows<'a>, Error> {
        Ok(Rows::Dense(DenseRows::try_new(n_rows, dim, values, None)?))
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        with_rows!(self, |e| e.len())
    }
    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The dimension.
    pub fn dim(&self) -> usize {
        with_rows!(self, |e| e.dim())
    }
    /// The same rows labelled `labels[i]` (one-vs-rest trainers share one
    /// checked batch, each with its own labels); refused unless there is
    /// one label per row.
    pub fn with_labels<'b>(&self, labels: &'b [f32]) -> Result<Rows<'b>, Error>
    where
        'a: 'b,
    {
        if labels.len() != self.len() {
            return Err(Error::Input(format!("{} labels for {} rows", labels.len(), self.len())));
        }
        Ok(match self {
            Rows::Csr(c) => Rows::Csr(CsrRows { labels: Some(labels), ..*c }),
            Rows::Dense(d) => Rows::Dense(DenseRows { labels: Some(labels), ..*d }),
            Rows::View(v) => Rows::View(v.with_labels(labels)),
        })
    }
    /// The same rows with importance `weights[i]` (each row's update
    /// scaled by it; 0 leaves a row out of training); refused unless there
    /// is one weight per row, each finite and ≥ 0.
    pub fn with_weights<'b>(&self, weights: &'b [f32]) -> Result<Rows<'b>, Error>
    where
        'a: 'b,
    {
        rosenblatt_learners::check_weights(weights, self.len())?;
        Ok(match self {
            Rows::Csr(c) => Rows::Csr(CsrRows { weights: Some(weights), ..*c }),
            Rows::Dense(d) => Rows::Dense(DenseRows { weights: Some(weights), ..*d }),
            Rows::View(v) => Rows::View(v.with_weights(weights)),
        })
    }
    /// Whether some row may carry a weight other than 1.
    pub fn weighted(&self) -> bool {
        with_rows!(self, |e| e.weighted())
    }
    /// The labels as one slice: those of borrowed CSR or dense rows.
    pub(crate) fn labels(&self) -> Option<&[f32]> {
        match self {
            Rows::Csr(c) => c.labels,
            Rows::Dense(d) => d.labels,
            Rows::View(_) => None,
        }
    }
    /// Whether `self` and `other` borrow the same CSR or dense arrays
    /// (labels aside).
    pub(crate) fn same_rows(&self, other: &Rows<'_>) -> bool {
        fn same<T>(a: &[T], b: &[T]) -> bool {
            std::ptr::eq(a, b)
        }
        match (self, other) {
            (Rows::Csr(a), Rows::Csr(b)) => {
                a.dim == b.dim && same(a.indptr, b.indptr) && same(a.indices, b.indices) && same(a.values, b.values)
            }
            (Rows::Dense(a), Rows::Dense(b)) => (a.rows, a.dim) == (b.rows, b.dim) && same(a.values, b.values),
            _ => false,
        }
    }
    pub(crate) fn scales(&self) -> Scales {
        with_rows!(self, |e| rosenblatt_learners::scales(e))
    }
    pub(crate) fn spread(&self) -> f64 {
        with_rows!(self, |e| rosenblatt_learners::spread(e))
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// The same fast path on a batch of one block, which it counts
    /// without rayon: 1,000 rows of 0-9 increasing indices.
    #[test]
    fn the_one_block_check_says_yes_to_valid_rows_and_no_to_each_fault() {
        let (mut indptr, mut indices) = (vec![0u64], Vec::new());
        for r in 0..1000u32 {
            indices.extend((0..r % 10).map(|j| j * 7 + r % 3));
            indptr.push(indices.len() as u64);
        }
        assert!(indices.len() <= CHECK_BLOCK);
        let values = vec![0.25f32; indices.len()];
        let fast = |i: &[u32], v: &[f32]| rows_fit(70, &indptr, i) && bulk_valid(i, v, boundary_descents(&indptr, i));
        assert!(fast(&indices, &values));
        for k in [0, 1, indices.len() / 2, indices.len() - 1] {
            let mut v = values.clone();
            v[k] = f32::INFINITY;
            assert!(!fast(&indices, &v) && !bulk_valid(&[], &v, 0), "infinity at {k}");
            if !indptr.contains(&(k as u64)) {
                let mut i = indices.clone();
                i[k] = i[k - 1];
                assert!(!fast(&i, &values), "repeated index at {k}");
            }
        }
    }

    /// The fast path alone (the row-by-row search behind it would hide a
    /// fast path that says no to valid rows, or yes to a fault it missed):
    /// rows of every length across several blocks, including rows that
    /// start below where the row before them ended, then one fault at a
    /// time, at the blocks' edges and at random.
    #[test]
    fn the_bulk_check_says_yes_to_valid_rows_and_no_to_each_fault() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let dim = 500usize;
        let (mut indptr, mut indices) = (vec![0u64], Vec::new());
        while indices.len() < 3 * CHECK_BLOCK {
            let mut row: Vec<u32> = (0..[0, 1, 3, 200][next(4) as usize]).map(|_| next(dim as u64) as u32).collect();
            row.sort_unstable();
            row.dedup();
            indices.extend(row);
            indptr.push(indices.len() as u64);
        }
        let values = vec![0.5f32; indices.len()];
        let fast = |i: &[u32], v: &[f32]| rows_fit(dim, &indptr, i) && bulk_valid(i, v, boundary_descents(&indptr, i));
        assert!(boundary_descents(&indptr, &indices) > 0);
        assert!(fast(&indices, &values));
        assert!(bulk_valid(&[], &values, 0));
        let mut places: Vec<usize> = (1..4).flat_map(|b| [b * CHECK_BLOCK - 1, b * CHECK_BLOCK]).collect();
        places.extend([0, indices.len() - 1]);
        places.extend((0..100).map(|_| next(indices.len() as u64) as usize));
        for k in places {
            let mut v = values.clone();
            v[k] = f32::NAN;
            assert!(!fast(&indices, &v) && !bulk_valid(&[], &v, 0), "NaN at {k}");
            let mut i = indices.clone();
            i[k] = dim as u32;
            assert!(!fast(&i, &values), "index {dim} at {k}");
            if !indptr.contains(&(k as u64)) {
                i[k] = i[k - 1];
                assert!(!fast(&i, &values), "repeated index at {k}");
            }
        }
    }
}
