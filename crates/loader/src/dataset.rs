//! Opening a dataset directory: the manifest checked against every shard
//! (rows, entries, dimension, size, encoding; checksums on request), the
//! shards validated as they open; and a dataset's rows back in columnar form;
//! rows made a dataset held in memory (text to predict on).

use crate::error::LoadError;
use crate::libsvm::{NO_QID, Rows};
use crate::manifest::{FORMAT_NAME, MANIFEST, MANIFEST_VERSION, Manifest};
use crate::shard::{OpenOptions, Shard};
use std::path::{Path, PathBuf};

/// An opened dataset: its manifest and validated shards.
#[derive(Debug)]
pub struct Dataset {
    dir: PathBuf,
    manifest: Manifest,
    /// The shards opened: all, or those holding the rows asked for.
    shards: Vec<Shard>,
    /// The dataset's row index of the first opened shard's first row.
    first_row: u64,
}

impl Dataset {
    /// Opens the dataset in `dir`, validating the manifest and every shard
    /// (and, with `verify_checksums`, every checksum).
    pub fn open(dir: impl AsRef<Path>, opts: OpenOptions) -> Result<Dataset, LoadError> {
        Dataset::open_rows(dir, opts, 0..u64::MAX)
    }

    /// Opens the dataset in `dir` as [`Dataset::open`] does, but only the
    /// shards that hold some of `rows` (the others are neither mapped nor
    /// read): for a process that trains on its share of the rows. The
    /// opened shards' rows start at [`Dataset::first_row`];
    /// [`Dataset::rows`] is still the whole dataset's.
    pub fn open_rows(
        dir: impl AsRef<Path>,
        opts: OpenOptions,
        rows: std::ops::Range<u64>,
    ) -> Result<Dataset, LoadError> {
        let dir = dir.as_ref();
        let mpath = dir.join(MANIFEST);
        let text = std::fs::read(&mpath).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound && !dir.exists() {
                // Nothing there at all: say so, not that a manifest is missing.
                LoadError::io(dir, std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"))
            } else if e.kind() == std::io::ErrorKind::NotFound {
                LoadError::dataset(
                    dir,
                    format!("no {MANIFEST} (not a dataset directory, or a conversion that did not finish)"),
                )
            } else {
                LoadError::io(&mpath, e)
            }
        })?;
        let manifest: Manifest = serde_json::from_slice(&text)
            .map_err(|e| LoadError::dataset(&mpath, format!("manifest is not valid JSON for this format: {e}")))?;
        if manifest.format != FORMAT_NAME {
            return Err(LoadError::dataset(&mpath, format!("format is `{}`, not `{FORMAT_NAME}`", manifest.format)));
        }
        if manifest.version != MANIFEST_VERSION {
            return Err(LoadError::dataset(
                &mpath,
                format!("manifest version {}; this build reads version {MANIFEST_VERSION}", manifest.version),
            ));
        }
        let mut shards = Vec::with_capacity(manifest.shards.len().min(1 << 16));
        let (mut at, mut nnz, mut first_row) = (0u64, 0u64, None);
        for entry in &manifest.shards {
            if entry.file.contains(['/', '\\']) || entry.file.starts_with('.') {
                return Err(LoadError::dataset(
                    &mpath,
                    format!("shard name `{}` is not a plain file name", entry.file),
                ));
            }
            let start = at;
            at = at.checked_add(entry.rows).ok_or_else(|| LoadError::dataset(&mpath, "shard rows overflow"))?;
            nnz = nnz.checked_add(entry.nnz).ok_or_else(|| LoadError::dataset(&mpath, "shard entries overflow"))?;
            if !(start < rows.end && rows.start < at) {
                continue;
            }
            first_row.get_or_insert(start);
            // The whole file's checksum is the manifest's to check: summed
            // as the rows are checked, compared below.
            let path = dir.join(&entry.file);
            let (shard, crc) = if opts.verify_checksums {
                let (shard, crc) = Shard::open_summed(&path, opts)?;
                (shard, Some(crc))
            } else {
                (Shard::open(&path, opts)?, None)
            };
            let h = shard.header();
            let agree = h.rows == entry.rows
                && h.nnz == entry.nnz
                && h.dim == manifest.dim
                && shard.file_len() == entry.bytes
                && h.encoding.kind() == manifest.encoding
                && h.label_kind == manifest.label_kind;
            if !agree {
                return Err(LoadError::dataset(
                    &mpath,
                    format!(
                        "shard {} does not match the manifest (rows, entries, dimension, size, encoding or label kind)",
                        entry.file
                    ),
                ));
            }
            if crc.is_some_and(|c| c != entry.crc32) {
                // Section by section, to name the damaged one.
                shard.verify_checksums()?;
                return Err(LoadError::dataset(
                    &mpath,
                    format!("shard {} fails its manifest checksum: the file is corrupted", entry.file),
                ));
            }
            shards.push(shard);
        }
        if at != manifest.rows || nnz != manifest.nnz {
            return Err(LoadError::dataset(&mpath, "shard totals do not match the manifest's rows and entries"));
        }
        Ok(Dataset { dir: dir.to_path_buf(), manifest, shards, first_row: first_row.unwrap_or(0) })
    }

    pub(crate) fn from_parts(dir: PathBuf, manifest: Manifest, shards: Vec<Shard>) -> Dataset {
        Dataset { dir, manifest, shards, first_row: 0 }
    }

    /// The dataset's row index of the first opened row (0 unless opened
    /// with [`Dataset::open_rows`]).
    pub fn first_row(&self) -> u64 {
        self.first_row
    }

    /// Writes every row as LIBSVM text to `out`, indices counted from
    /// `base` (1, the convention, or 0), shard by shard. When no row has a
    /// non-zero at the last feature, the first row states the dimension
    /// with an explicit zero there (`784:0`), so that converting the text
    /// back gives the same dataset.
    pub fn write_libsvm(&self, base: u8, out: &mut impl std::io::Write) -> std::io::Result<()> {
        use crate::rows::RowSet;
        use rosenblatt_kernels::Row;
        let multilabel = self.manifest.label_kind == crate::LabelKind::Multi;
        let last = self.dim() as usize;
        let top = self.shards.iter().map(|s| with_rows!(s.rows(), |rows| rows.last_nonzero())).max().flatten();
        let mut state = top.map_or(last > 0, |t| t + 1 < last);
        for shard in &self.shards {
            let labels = shard.labels();
            with_rows!(shard.rows(), |rows| {
                #[allow(clippy::needless_range_loop)] // `r` indexes rows, labels and qids alike
                for r in 0..rows.len() {
                    let row = rows.row(r);
                    let label = if multilabel { Err(shard.multilabels(r)) } else { Ok(labels[r]) };
                    // Dense rows store zeros; text does not.
                    let entries = (0..row.nnz()).map(|k| row.entry(k)).filter(|e| e.1 != 0.0);
                    let dim = std::mem::take(&mut state).then_some((last - 1, 0.0));
                    crate::libsvm::write_row(out, label, shard.qid(r), entries.chain(dim), base)?;
                }
            });
        }
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
    /// The shards, in row order.
    pub fn shards(&self) -> &[Shard] {
        &self.shards
    }
    /// Total rows.
    pub fn rows(&self) -> u64 {
        self.manifest.rows
    }
    /// Dimension.
    pub fn dim(&self) -> u64 {
        self.manifest.dim
    }

    /// Every row back in columnar form (for export and interop).
    pub fn to_rows(&self) -> Rows {
        let multilabel = self.manifest.label_kind == crate::LabelKind::Multi;
        let mut out = Rows {
            offsets: vec![0],
            label_offsets: if multilabel { vec![0] } else { Vec::new() },
            ..Default::default()
        };
        for shard in &self.shards {
            append_rows(shard, &mut out);
        }
        out.dim = self.dim();
        if !out.qids.iter().any(|&q| q != NO_QID) {
            out.qids.iter_mut().for_each(|q| *q = NO_QID);
        }
        out
    }
}

/// Appends `shard`'s rows to `out` as a parser gives them: the stored
/// non-zeros, labels (or label sets: `out` in multi-label form), query
/// ids ([`NO_QID`] where a row has none) and importance weights (a column
/// only once some shard has one). The values are the encoding's,
/// which are the parsed ones wherever the writer chose the encoding.
#[allow(clippy::needless_range_loop)] // `r` indexes rows, labels and multi-labels alike
pub(crate) fn append_rows(shard: &crate::Shard, out: &mut Rows) {
    let multilabel = shard.header().label_kind == crate::LabelKind::Multi;
    let labels = shard.labels();
    with_rows!(shard.rows(), |rows| {
        use crate::rows::RowSet;
        use rosenblatt_kernels::Row;
        for r in 0..rows.len() {
            let row = rows.row(r);
            for k in 0..row.nnz() {
                let (i, v) = row.entry(k);
                if v != 0.0 {
                    out.indices.push(i as u32);
                    out.values.push(v);
                }
            }
            out.offsets.push(out.indices.len() as u64);
            if multilabel {
                out.multilabels.extend_from_slice(shard.multilabels(r));
                out.label_offsets.push(out.multilabels.len() as u64);
            } else {
                out.labels.push(labels[r]);
            }
            out.qids.push(shard.qid(r));
        }
    });
    if !shard.weights().is_empty() || !out.weights.is_empty() {
        let n = shard.header().rows as usize;
        out.weights.resize(out.len() - n, 1.0);
        out.weights.extend((0..n).map(|r| shard.weight(r)));
    }
    out.dim = out.dim.max(shard.header().dim);
}

impl Dataset {
    /// `rows` as a dataset held in memory, one shard, never written to
    /// disk (for predicting on text); `name` stands for it in messages.
    /// The encoding, dimension, index base and label kind follow `opts` as
    /// in [`write_dataset`].
    pub fn from_rows(name: &Path, rows: &Rows, opts: &crate::writer::WriteOptions) -> Result<Dataset, LoadError> {
        rows.check_structure().map_err(|e| LoadError::dataset(name, e))?;
        let min_dim = rows.min_dim();
        let dim = opts.dim.unwrap_or(min_dim).max(min_dim);
        let (kind, encoding) = crate::encoding::Stats::of(rows)
            .choose(opts, dim, &mut |scale| crate::encoding::u8_exact(&rows.values, scale))?;
        let (mut scratch, mut image) = (crate::writer::Scratch::default(), Vec::new());
        let columns = crate::writer::Columns { qids: rows.has_qids(), weights: rows.has_weights() };
        let (_, crc32) = crate::writer::encode_range(
            rows,
            0,
            rows.len(),
            dim,
            encoding,
            kind,
            opts.index_base,
            columns,
            None,
            &mut scratch,
            &mut image,
        )
        .map_err(|e| LoadError::io(name, e))?;
        let shard = Shard::from_image(name.to_path_buf(), &image, false)?;
        let mut counts = std::collections::BTreeMap::<u64, u64>::new();
        if kind != crate::format::LabelKind::Real && kind != crate::format::LabelKind::Multi {
            rows.labels.iter().for_each(|&l| *counts.entry(f64::from(l).to_bits()).or_default() += 1);
        }
        let manifest = Manifest {
            format: FORMAT_NAME.into(),
            version: MANIFEST_VERSION,
            rows: rows.len() as u64,
            nnz: shard.header().nnz,
            nonzeros: rows.indices.len() as u64,
            dim,
            index_base: opts.index_base,
            encoding: encoding.kind(),
            scale: match encoding.values {
                crate::format::ValueEncoding::U8 { scale } => Some(scale),
                _ => None,
            },
            label_kind: kind,
            label_counts: counts.into_iter().map(|(b, c)| (f64::from_bits(b), c)).collect(),
            has_qids: columns.qids,
            has_weights: columns.weights,
            hashing: opts.hashing.clone(),
            shards: vec![crate::manifest::ShardEntry {
                file: String::new(),
                rows: rows.len() as u64,
                nnz: shard.header().nnz,
                bytes: image.len() as u64,
                crc32,
            }],
        };
        Ok(Dataset::from_parts(name.to_path_buf(), manifest, vec![shard]))
    }
}
