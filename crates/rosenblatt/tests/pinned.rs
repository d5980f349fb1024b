//! Models pinned bit for bit: every learner, several orders, encodings and
//! numbers of parts, trained on small fixed data, must give exactly the
//! weights they gave when these hashes were recorded. A refactoring of the
//! training path that changes any bit of any model fails here.
//!
//! The hashes depend on the kernels' instruction set (FMA rounds once where
//! SSE2 rounds twice), so they are recorded per backend.

use rosenblatt::Config;
use rosenblatt::kernels::Backend;
use rosenblatt::learners::{Learner, Order};
use rosenblatt::loader::{Dataset, OpenOptions, Rows, WriteOptions, idx::read_mnist, write_dataset};
use rosenblatt::model::Model;
use rosenblatt::train::Run;
use rosenblatt_datasets::sparse::{SparseSpec, generate};
use std::path::Path;

/// The first `n` rows of `rows`.
fn head(rows: &Rows, n: usize) -> Rows {
    let e = rows.offsets[n] as usize;
    Rows {
        labels: rows.labels[..n].to_vec(),
        qids: rows.qids[..n].to_vec(),
        offsets: rows.offsets[..=n].to_vec(),
        indices: rows.indices[..e].to_vec(),
        values: rows.values[..e].to_vec(),
        ..Default::default()
    }
}

struct Data {
    _tmp: tempfile::TempDir,
    mnist9: Dataset,
    digits: Dataset,
    binary: Dataset,
    real: Dataset,
}

fn data() -> Data {
    let tmp = tempfile::tempdir().unwrap();
    let mnist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/mnist");
    let images = mnist.join("t10k-images.idx3-ubyte.gz");
    let labels = mnist.join("t10k-labels.idx1-ubyte.gz");
    let write = |name: &str, rows: &Rows, dim: u64| {
        let dir = tmp.path().join(name);
        write_dataset(&dir, rows, &WriteOptions { dim: Some(dim), index_base: 0, ..Default::default() }).unwrap();
        Dataset::open(&dir, OpenOptions::default()).unwrap()
    };
    let (rows, dim) = read_mnist(&images, &labels, Some(9)).unwrap();
    let mnist9 = write("mnist9", &head(&rows, 3000), dim);
    let (rows, dim) = read_mnist(&images, &labels, None).unwrap();
    let digits = write("digits", &head(&rows, 3000), dim);
    let spec = SparseSpec { rows: 4000, dim: 1 << 17, nnz: 20, zipf: 1.0, density: 0.1, noise: 0.05, seed: 7 };
    let mut rows = generate(&spec, 0).unwrap();
    rows.values.iter_mut().for_each(|v| *v = 1.0);
    let binary = write("binary", &rows, 1 << 17);
    rows.values.iter_mut().enumerate().for_each(|(k, v)| *v = 1.0 + (k % 7) as f32 * 0.1);
    let real = write("real", &rows, 1 << 17);
    for (ds, enc) in
        [(&mnist9, "dense-u8"), (&digits, "dense-u8"), (&binary, "sparse-u32-binary"), (&real, "sparse-u32-f32")]
    {
        assert_eq!(ds.manifest().encoding.name(), enc);
    }
    Data { _tmp: tmp, mnist9, digits, binary, real }
}

/// CRC-32 of the model file's weights payload (the bytes after the
/// metadata, before the checksum).
/// The hash of the model's weights as the file stores them (its learner
/// state, and that state's length, left out: the resume tests hold the
/// state).
fn weights_hash(m: &Model) -> String {
    let b = Model { state: None, ..m.clone() }.to_bytes();
    let mlen = u64::from_le_bytes(b[16..24].try_into().unwrap()) as usize;
    let payload = &b[24 + mlen..b.len() - 12];
    format!("{:08x}:{}", crc32fast::hash(payload), payload.len())
}

struct Case {
    name: &'static str,
    learner: &'static str,
    data: fn(&Data) -> &Dataset,
    order: Order,
    passes: f64,
    parts: usize,
    holdout: Option<f64>,
}

const fn case(
    name: &'static str,
    learner: &'static str,
    data: fn(&Data) -> &Dataset,
    order: Order,
    passes: f64,
    parts: usize,
) -> Case {
    Case { name, learner, data, order, passes, parts, holdout: None }
}

fn cases() -> Vec<Case> {
    use Order::*;
    let m9: fn(&Data) -> &Dataset = |d| &d.mnist9;
    let dg: fn(&Data) -> &Dataset = |d| &d.digits;
    let bi: fn(&Data) -> &Dataset = |d| &d.binary;
    let re: fn(&Data) -> &Dataset = |d| &d.real;
    vec![
        case("perceptron/shuffle/1", "perceptron", m9, Shuffle, 2.0, 1),
        case("perceptron/sequential/2", "perceptron", m9, Sequential, 1.0, 2),
        case("averaged/shuffle/2", "averaged-perceptron", m9, Shuffle, 2.0, 2),
        Case { holdout: Some(0.2), ..case("averaged/holdout/1", "averaged-perceptron", m9, Shuffle, 1.0, 1) },
        case("voted/shuffle/1", "voted-perceptron", m9, Shuffle, 1.5, 1),
        case("voted/shuffle/2", "voted-perceptron", m9, Shuffle, 2.0, 2),
        case("batch/binary/1", "batch-perceptron", bi, Sequential, 5.0, 1),
        case("hinge-sgd/real/1", "hinge-sgd", re, Shuffle, 2.0, 1),
        case("logistic/sample/2", "logistic", re, Sample, 1.0, 2),
        case("pegasos/mnist/1", "pegasos", m9, Shuffle, 1.0, 1),
        case("winnow/binary/1", "winnow", bi, Shuffle, 2.0, 1),
        case("eg/real/1", "eg", re, Shuffle, 1.0, 1),
        case("eg-pm/mnist/1", "eg-pm", m9, Shuffle, 1.0, 1),
        case("ftrl-randomized/real/1", "ftrl-randomized", re, Shuffle, 1.0, 1),
        case("ftrl-proximal/real/2", "ftrl-proximal", re, Shuffle, 2.0, 2),
        case("pa/mnist/1", "pa", m9, Sequential, 1.0, 1),
        case("pa1/blocks/2", "pa1", re, Blocks, 1.0, 2),
        case("pa2/mnist/1", "pa2", m9, Shuffle, 0.5, 1),
        case("multiclass/digits/1", "multiclass-perceptron", dg, Shuffle, 1.0, 1),
        case("multiclass-averaged/digits/2", "multiclass-averaged-perceptron", dg, Shuffle, 2.0, 2),
    ]
}

/// (case, hash) recorded with the AVX2+FMA kernels.
const AVX2_FMA: &[(&str, &str)] = &[
    ("perceptron/shuffle/1", "24adffff:3140"),
    ("perceptron/sequential/2", "4924317b:3140"),
    ("averaged/shuffle/2", "e0186f7d:3140"),
    ("averaged/holdout/1", "f99b2ae8:3140"),
    ("voted/shuffle/1", "23dcced6:364752"),
    ("voted/shuffle/2", "4a1e67f3:479880"),
    ("batch/binary/1", "fff71812:524292"),
    ("hinge-sgd/real/1", "d5239146:524292"),
    ("logistic/sample/2", "d5a13119:524292"),
    ("pegasos/mnist/1", "d03b3616:3140"),
    ("winnow/binary/1", "bc1393c9:524292"),
    ("eg/real/1", "3bb741f2:524292"),
    ("eg-pm/mnist/1", "1b91d0c3:3140"),
    ("ftrl-randomized/real/1", "10252d2c:524292"),
    ("ftrl-proximal/real/2", "2badf3e3:524292"),
    ("pa/mnist/1", "e4d220dc:3140"),
    ("pa1/blocks/2", "0ea97fd9:524292"),
    ("pa2/mnist/1", "2753ab3d:3140"),
    ("multiclass/digits/1", "5bbb0268:31400"),
    ("multiclass-averaged/digits/2", "13dee83d:31400"),
];
/// (case, hash) recorded with the portable kernels of a default build.
const PORTABLE: &[(&str, &str)] = &[
    ("perceptron/shuffle/1", "06064b35:3140"),
    ("perceptron/sequential/2", "fbb06171:3140"),
    ("averaged/shuffle/2", "86f330cc:3140"),
    ("averaged/holdout/1", "635029a5:3140"),
    ("voted/shuffle/1", "23dcced6:364752"),
    ("voted/shuffle/2", "8d6b67ae:479880"),
    ("batch/binary/1", "fff71812:524292"),
    ("hinge-sgd/real/1", "d5239146:524292"),
    ("logistic/sample/2", "438c0a86:524292"),
    ("pegasos/mnist/1", "83ef28c9:3140"),
    ("winnow/binary/1", "bc1393c9:524292"),
    ("eg/real/1", "3bb741f2:524292"),
    ("eg-pm/mnist/1", "1b91d0c3:3140"),
    ("ftrl-randomized/real/1", "d47c9aa5:524292"),
    ("ftrl-proximal/real/2", "2badf3e3:524292"),
    ("pa/mnist/1", "b049b47f:3140"),
    ("pa1/blocks/2", "c6210c12:524292"),
    ("pa2/mnist/1", "d4f64b85:3140"),
    ("multiclass/digits/1", "c0a61d58:31400"),
    ("multiclass-averaged/digits/2", "c81e5fde:31400"),
];

#[test]
fn every_learner_trains_the_same_bits_as_when_pinned() {
    let recorded = match Backend::best().name() {
        "avx2+fma" | "avx2+fma, hardware gathers" => AVX2_FMA,
        "portable" if cfg!(not(target_feature = "avx2")) => PORTABLE,
        other => {
            eprintln!("no hashes recorded for the {other} kernels of this build; nothing to compare");
            return;
        }
    };
    let d = data();
    let mut got = Vec::new();
    for c in cases() {
        let learner: Learner = c.learner.parse().unwrap();
        let config = Config::new(learner).passes(c.passes).order(c.order).seed(3).parts(c.parts);
        let model = config.fit_run((c.data)(&d), Run { holdout: c.holdout, ..Run::default() }).unwrap();
        got.push((c.name, weights_hash(&model)));
    }
    let table: String = got.iter().map(|(n, h)| format!("        (\"{n}\", \"{h}\"),\n")).collect();
    let want: Vec<(&str, String)> = recorded.iter().map(|&(n, h)| (n, h.to_string())).collect();
    assert_eq!(got, want, "models differ from the pinned ones; this run's table:\n{table}");
}
