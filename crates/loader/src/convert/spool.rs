//! The batches of a conversion on their way to shards: each written at
//! once in the encoding the rows so far call for, on the pool while the
//! next block is parsed, and written again only if later rows call for
//! another encoding, dimension or label kind.

use super::*;

/// Parsed rows on their way to shards, a batch at a time. While the
/// batches keep calling for the encoding the first full one did (over a
/// dimension that may grow, for sparse rows), each is
/// written as shards in it at once (`ahead`) — with more than one parser
/// thread, on the pool while the next batch is parsed: when that is the
/// final choice, as it usually is, no row is written twice. The batches
/// after the first that called for something else wait in files under
/// `dir` (removed when the spool is dropped), to be written once the final
/// choice is known; if that choice is not the guessed one, the shards
/// written ahead are moved into `dir`, read back and written again.
pub(super) struct Spool {
    /// The new dataset's directory.
    out: PathBuf,
    dir: PathBuf,
    /// The batch being filled.
    batch: Rows,
    /// The first batches, written as shards in the encoding they called for.
    ahead: Option<Ahead>,
    /// A batch being written on the pool: its writer and buffers come back
    /// here when it is done.
    writing: Option<Receiver<Written>>,
    /// The buffers of a batch written, for the batch after next (parsing
    /// into fresh ones would cost a page fault per 4 KiB).
    spare: Rows,
    /// The batches after those written ahead, in order.
    files: Vec<PathBuf>,
    multilabel: bool,
    limit: u64,
    /// The writers' options: the index base and hashing they record.
    write: WriteOptions,
    shard_bytes: u64,
}

/// Batches written ahead in a guessed encoding.
pub(super) struct Ahead {
    choice: Choice,
    /// `None` while it writes a batch on the pool.
    writer: Option<DatasetWriter>,
    /// Shards written for each batch (a batch is cut into shards by
    /// itself, so a batch written again is cut the same way as a batch
    /// written once).
    shards: Vec<usize>,
}

/// A batch written on the pool: the writer, the batch's buffers, and the
/// number of shards it became.
pub(super) struct Written {
    writer: DatasetWriter,
    rows: Rows,
    shards: Result<usize, LoadError>,
}

/// Writes `rows` as the writer's next shards: how many.
pub(super) fn write_batch_ahead(writer: &mut DatasetWriter, rows: &Rows, shard_bytes: u64) -> Result<usize, LoadError> {
    let before = writer.written().len();
    writer.write_cut(rows, shard_bytes)?;
    Ok(writer.written().len() - before)
}

impl Spool {
    pub(super) fn new(out: &Path, opts: &ConvertOptions) -> Self {
        Spool {
            out: out.to_path_buf(),
            dir: out.join(".spool"),
            batch: Rows::default(),
            ahead: None,
            writing: None,
            spare: Rows::default(),
            files: Vec::new(),
            multilabel: opts.parse.multilabel,
            limit: opts.batch_bytes,
            write: WriteOptions { index_base: u8::from(!opts.parse.zero_based), ..opts.write.clone() },
            shard_bytes: opts.write.shard_bytes.max(1),
        }
    }

    /// The batch being filled: blocks are parsed straight into it. It
    /// keeps its buffers from one file to the next: fresh ones would cost a
    /// page fault per 4 KiB, a fifth of a conversion's time (SPEED.md#convert).
    pub(super) fn batch(&mut self) -> &mut Rows {
        if self.batch.offsets.is_empty() {
            self.batch.clear(self.multilabel);
        }
        &mut self.batch
    }

    pub(super) fn full(&self) -> bool {
        8 * self.batch.indices.len() as u64 >= self.limit
    }

    /// Waits for the batch being written on the pool, if any: its writer
    /// back in place, its buffers kept for a later batch.
    pub(super) fn settle(&mut self) -> Result<(), LoadError> {
        let Some(done) = self.writing.take() else { return Ok(()) };
        let Written { writer, mut rows, shards } =
            done.recv().map_err(|_| LoadError::Invalid("the shard writer stopped".into()))?;
        if let Some(a) = &mut self.ahead {
            a.writer = Some(writer);
            a.shards.push(shards?);
        }
        rows.clear(self.multilabel);
        self.spare = rows;
        Ok(())
    }

    /// Writes the full batch: as shards if `guess` (the choice of every
    /// row so far) is the choice of the batches written ahead, or the
    /// first and nothing went to a file before; else to a file. With more
    /// than one thread in `pool`, the shards are written on it.
    pub(super) fn spill(&mut self, guess: Option<Choice>, pool: &rayon::ThreadPool) -> Result<(), LoadError> {
        self.settle()?;
        let ahead = match (&mut self.ahead, guess) {
            _ if !self.files.is_empty() => None,
            (Some(a), Some(c)) if a.choice.grows_into(&c) => {
                if let Some(writer) = &mut a.writer {
                    writer.raise_dim(c.dim)?;
                }
                a.choice = c;
                Some(a)
            }
            (None, Some(choice)) => {
                let writer = choice.writer(&self.out, &self.write)?;
                Some(self.ahead.insert(Ahead { choice, writer: Some(writer), shards: Vec::new() }))
            }
            _ => None,
        };
        match ahead.and_then(|a| a.writer.take().map(|w| (a, w))) {
            Some((a, mut writer)) if pool.current_num_threads() == 1 => {
                let shards = write_batch_ahead(&mut writer, &self.batch, self.shard_bytes);
                a.writer = Some(writer);
                a.shards.push(shards?);
            }
            Some((_, mut writer)) => {
                let rows = std::mem::replace(&mut self.batch, std::mem::take(&mut self.spare));
                let (done, writing) = std::sync::mpsc::sync_channel(1);
                let shard_bytes = self.shard_bytes;
                pool.spawn(move || {
                    let shards = write_batch_ahead(&mut writer, &rows, shard_bytes);
                    // The spool waits for this before it goes: it cannot
                    // have hung up.
                    let _ = done.send(Written { writer, rows, shards });
                });
                self.writing = Some(writing);
            }
            None => {
                let path = self.dir.join(format!("batch-{:05}", self.files.len()));
                std::fs::create_dir_all(&self.dir).map_err(|e| LoadError::io(&self.dir, e))?;
                write_batch(&path, &self.batch).map_err(|e| LoadError::io(&path, e))?;
                self.files.push(path);
            }
        }
        self.batch.clear(self.multilabel);
        Ok(())
    }

    /// Whether every value so far is known to be a byte times `scale`
    /// without reading a file: the batches written ahead are if they were
    /// written with that scale; the batch in memory is checked.
    pub(super) fn exact_so_far(&self, scale: f32) -> bool {
        let ahead = match &self.ahead {
            None => true,
            Some(a) => {
                matches!(a.choice.encoding.values, ValueEncoding::U8 { scale: s } if s.to_bits() == scale.to_bits())
            }
        };
        ahead && self.files.is_empty() && u8_exact(&self.batch.values, scale)
    }

    /// Whether `f` holds for every run of values of every batch, in no
    /// promised order: the batch in memory first, then the shards written
    /// ahead, read where they lie (the values alone: copied back into rows,
    /// once for each scale that moved, they cost the VW conversion of the
    /// sparse set about a quarter of its time; SPEED.md#convert), then the
    /// batches in files. Stops at the first run that fails.
    /// Call [`Spool::settle`] first.
    pub(super) fn all_values(&self, mut f: impl FnMut(&[f32]) -> bool) -> Result<bool, LoadError> {
        if !f(&self.batch.values) {
            return Ok(false);
        }
        if let Some(Ahead { writer: Some(writer), .. }) = &self.ahead {
            for path in writer.written() {
                if !shard_values_all(&Shard::open(path, OpenOptions::default())?, &mut f) {
                    return Ok(false);
                }
            }
        }
        let mut rows = Rows::default();
        for path in &self.files {
            read_batch(path, &mut rows).map_err(|e| LoadError::io(path, e))?;
            if !f(&rows.values) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Writes every batch not yet written as `choice` into the dataset and
    /// finishes it: its manifest, and how many rows were written twice.
    pub(super) fn finish(mut self, choice: Choice) -> Result<(Manifest, u64), LoadError> {
        self.settle()?;
        // The batch in memory keeps only what it holds from here: the
        // batches read back need a buffer of their own.
        let b = &mut self.batch;
        b.offsets.shrink_to_fit();
        b.indices.shrink_to_fit();
        b.values.shrink_to_fit();
        b.labels.shrink_to_fit();
        let mut rows = std::mem::take(&mut self.spare);
        let mut rewritten = 0;
        let (ahead_writer, shards) = match self.ahead.take() {
            Some(Ahead { writer: Some(w), shards, choice: c }) => (Some((w, c)), shards),
            _ => (None, Vec::new()),
        };
        let mut writer = match ahead_writer {
            Some((mut w, c)) if c.grows_into(&choice) => {
                w.raise_dim(choice.dim)?;
                w
            }
            ahead => {
                // The shards written ahead move out of the way of the new
                // ones (same names), then are read back batch by batch.
                let mut moved = Vec::new();
                if let Some((w, _)) = ahead {
                    std::fs::create_dir_all(&self.dir).map_err(|e| LoadError::io(&self.dir, e))?;
                    rewritten = w.rows();
                    let written = w.abandon();
                    for (k, from) in written.iter().enumerate() {
                        let to = self.dir.join(format!("ahead-{k:05}.rbs"));
                        if let Err(e) = std::fs::rename(from, &to) {
                            // Those not moved are removed here; those moved,
                            // with the spool.
                            written[k..].iter().for_each(|p| drop(std::fs::remove_file(p)));
                            return Err(LoadError::io(from, e));
                        }
                        moved.push(to);
                    }
                }
                let mut writer = choice.writer(&self.out, &self.write)?;
                let mut paths = moved.as_slice();
                for n in shards {
                    read_shards(&paths[..n], self.multilabel, &mut rows)?;
                    paths[..n].iter().for_each(|p| drop(std::fs::remove_file(p)));
                    writer.write_cut(&rows, self.shard_bytes)?;
                    paths = &paths[n..];
                }
                writer
            }
        };
        for path in std::mem::take(&mut self.files) {
            read_batch(&path, &mut rows).map_err(|e| LoadError::io(&path, e))?;
            debug_assert_eq!(self.multilabel, !rows.label_offsets.is_empty());
            let _ = std::fs::remove_file(&path);
            writer.write_cut(&rows, self.shard_bytes)?;
        }
        if self.batch.offsets.len() > 1 {
            writer.write_cut(&self.batch, self.shard_bytes)?;
        }
        Ok((writer.finish()?, rewritten))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        // A batch still being written (the conversion failed elsewhere)
        // is waited for, so that its writer removes its shards before the
        // conversion returns.
        let _ = self.settle();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The rows of the shards at `paths`, in order, into `rows` (cleared
/// first).
pub(super) fn read_shards(paths: &[PathBuf], multilabel: bool, rows: &mut Rows) -> Result<(), LoadError> {
    rows.clear(multilabel);
    rows.dim = 0;
    for path in paths {
        let shard = Shard::open(path, OpenOptions::default())?;
        append_rows(&shard, rows);
    }
    Ok(())
}

/// Whether `f` holds for each run of `shard`'s values, read in place
/// (bytes decoded a run at a time).
fn shard_values_all(shard: &Shard, f: &mut impl FnMut(&[f32]) -> bool) -> bool {
    const RUN: usize = 1 << 14;
    let s = shard.sections()[3];
    // In bounds and aligned: checked when the shard was opened.
    let bytes = &shard.raw()[s.offset as usize..(s.offset + s.len) as usize];
    let mut run = Vec::with_capacity(RUN);
    match shard.header().encoding.values {
        ValueEncoding::F32 => f(bytemuck::cast_slice(bytes)),
        ValueEncoding::U8 { scale } => bytes.chunks(RUN).all(|c| {
            run.clear();
            run.extend(c.iter().map(|&k| f32::from(k) * scale));
            f(&run)
        }),
        ValueEncoding::Ones => {
            run.resize(RUN, 1.0);
            let n = shard.header().nnz as usize;
            (0..n).step_by(RUN).all(|at| f(&run[..RUN.min(n - at)]))
        }
    }
}

/// A batch's columns, each as its length then its little-endian bytes
/// (private to one conversion, never read by another build).
pub(super) fn write_batch(path: &Path, rows: &Rows) -> std::io::Result<()> {
    pub(super) fn column<T: bytemuck::Pod>(out: &mut impl Write, v: &[T]) -> std::io::Result<()> {
        out.write_all(&(v.len() as u64).to_le_bytes())?;
        out.write_all(bytemuck::cast_slice(v))
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    column(&mut out, &rows.offsets)?;
    column(&mut out, &rows.indices)?;
    column(&mut out, &rows.values)?;
    column(&mut out, &rows.labels)?;
    column(&mut out, &rows.qids)?;
    column(&mut out, &rows.weights)?;
    column(&mut out, &rows.label_offsets)?;
    column(&mut out, &rows.multilabels)?;
    column(&mut out, &[rows.dim])?;
    out.flush()
}

/// Reads what [`write_batch`] wrote into `rows`, reusing its buffers.
pub(super) fn read_batch(path: &Path, rows: &mut Rows) -> std::io::Result<()> {
    pub(super) fn column<T: bytemuck::Pod + bytemuck::Zeroable + Clone>(
        r: &mut impl Read,
        v: &mut Vec<T>,
    ) -> std::io::Result<()> {
        let mut len = [0u8; 8];
        r.read_exact(&mut len)?;
        v.clear();
        v.resize(u64::from_le_bytes(len) as usize, T::zeroed());
        r.read_exact(bytemuck::cast_slice_mut(v))
    }
    let mut r = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    column(&mut r, &mut rows.offsets)?;
    column(&mut r, &mut rows.indices)?;
    column(&mut r, &mut rows.values)?;
    column(&mut r, &mut rows.labels)?;
    column(&mut r, &mut rows.qids)?;
    column(&mut r, &mut rows.weights)?;
    column(&mut r, &mut rows.label_offsets)?;
    column(&mut r, &mut rows.multilabels)?;
    let mut dim = Vec::new();
    column::<u64>(&mut r, &mut dim)?;
    rows.dim = dim.first().copied().unwrap_or(0);
    rows.skipped.clear();
    Ok(())
}
