#!/usr/bin/env python3
"""The product path, as a user meets it: whole-process `rosenblatt train`
and `rosenblatt convert` times on this machine, each as a ratio to the
read-only pass over the same shards and to scikit-learn's fastest
configuration, all measured in one run. Medians of the repeats.

A training pass is (T(K + 1 passes) − T(1 pass)) / K of the whole process,
so everything a user waits for per pass (reports, progress, mixing) counts
and start-up does not. Each training row's ratio is to the read-only pass
measured in alternation with it (the note gives that pass), not to the
one at the top of its block: this machine's pace drifts within minutes.

usage (from the repository root, after `cargo build --release -p rosenblatt`,
in a Python environment with scikit-learn):

    python3 benches/scripts/product_path.py --out /tmp/pp [--repeats 5]
        [--sparse-rows 2000000] [--skip-sklearn]

It writes MNIST 9-vs-rest and the `datasets sparse` set (and its LIBSVM
text, about 2 GB at the default size) under --out, prints a Markdown table
and writes results.json there.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

p = argparse.ArgumentParser()
p.add_argument("--binary", default="target/release/rosenblatt")
p.add_argument("--train-binary", help="the binary whose train and convert are timed (default: --binary), "
               "e.g. an older build for a before/after table")
p.add_argument("--out", required=True)
p.add_argument("--repeats", type=int, default=5)
p.add_argument("--sparse-rows", type=int, default=2_000_000)
p.add_argument("--mnist-passes", type=int, default=40)
p.add_argument("--sparse-passes", type=int, default=4)
p.add_argument("--skip-sklearn", action="store_true")
# Row names hold commas ("sparse convert, 1 thread(s)"): one name per flag.
p.add_argument("--only", action="append", default=[], help="a row name to run; repeat for more (default: all)")
a = p.parse_args()
B = a.binary
T = a.train_binary or a.binary
os.makedirs(a.out, exist_ok=True)
only = set(a.only)


def sh(*args, **kw):
    return subprocess.run([str(x) for x in args], check=True, capture_output=True, text=True, **kw)


def wall(*args):
    t = time.perf_counter()
    sh(*args)
    return time.perf_counter() - t


def median(f, repeats):
    return statistics.median(f() for _ in range(repeats))


def ensure(path, *cmd):
    if not os.path.exists(path):
        print("making", path, file=sys.stderr)
        sh(*cmd)


mnist9, t10k9 = f"{a.out}/mnist9", f"{a.out}/t10k9"
m = "datasets/mnist"
ensure(mnist9, B, "convert", f"{m}/train-images.idx3-ubyte.gz", f"{m}/train-labels.idx1-ubyte.gz", "--target", "9", "-o", mnist9)
ensure(t10k9, B, "convert", f"{m}/t10k-images.idx3-ubyte.gz", f"{m}/t10k-labels.idx1-ubyte.gz", "--target", "9", "-o", t10k9)
sparse = f"{a.out}/sparse"
ensure(f"{sparse}/train", B, "datasets", "sparse", "--rows", a.sparse_rows, "-o", sparse)
texts = {}
for name, ds in [("mnist9", mnist9), ("t10k9", t10k9), ("sparse", f"{sparse}/train"), ("sparse-test", f"{sparse}/test")]:
    texts[name] = f"{a.out}/{name}.svm"
    ensure(texts[name], B, "export", ds, "-o", texts[name])


def read_only(ds, repeats=15):
    return json.loads(sh(B, "bench", "read", ds, "--repeats", repeats, "--json").stdout)["seconds"]


def per_pass(ds, learner, passes, *extra):
    """The training pass and the read-only pass over `ds`, each the median
    of the repeats, measured in alternation: on a shared machine whose pace
    drifts within minutes, a ratio of two figures taken apart says little."""
    ones, manys, reads = [], [], []
    for _ in range(a.repeats):
        reads.append(read_only(ds, 5))
        one_and_many(ds, learner, passes, ones, manys, *extra)
    return (statistics.median(manys) - statistics.median(ones)) / passes, statistics.median(reads)


def one_and_many(ds, learner, passes, ones, manys, *extra):
    """Appends the wall seconds of `train` for one pass to `ones` and for
    `passes + 1` to `manys`: their difference is what the passes cost,
    start-up and the model's writing left out."""
    base = [T, "train", ds, "--learner", learner, "--threads", "1", "-o", f"{a.out}/m.model", *extra]
    ones.append(wall(*base, "--passes", 1))
    manys.append(wall(*base, "--passes", passes + 1))


def per_pass_pair(ds, first, second, passes, *extra):
    """`per_pass` of two learners taken in turn, run by run, without the
    read-only pass: their ratio is what it is asked for (the averaged
    Perceptron within 1.1× of the plain one), and on a machine whose pace
    moves within minutes two figures measured apart can differ by half."""
    runs = {first: ([], []), second: ([], [])}
    for _ in range(a.repeats):
        for learner, (ones, manys) in runs.items():
            one_and_many(ds, learner, passes, ones, manys, *extra)
    return [(statistics.median(m) - statistics.median(o)) / passes for o, m in runs.values()]


def test_error(ds, test, learner, passes, *extra):
    model = f"{a.out}/e.model"
    sh(T, "train", ds, "--learner", learner, "--passes", passes, "--threads", "1", "-o", model, *extra)
    return json.loads(sh(T, "eval", model, test, "--json").stdout)["error_rate"]


rows = []


def row(name, seconds, read=None, peer=None, error=None, note=""):
    r = {"name": name, "seconds": seconds, "read_only": read, "peer": peer, "test_error": error, "note": note}
    rows.append(r)
    ratio = f"{seconds / read:.2f}×" if read else ""
    vs = f"{peer / seconds:.2f}×" if peer else ""
    err = f"{error:.4f}" if error is not None else ""
    print(f"| {name} | {seconds * 1e3:.2f} ms | {ratio} | {vs} | {err} | {note} |", flush=True)


def alongside(read):
    return f"read-only pass {read * 1e3:.2f} ms alongside"


def want(name):
    return not only or name in only


sk = None
if not a.skip_sklearn:
    warnings.simplefilter("ignore")
    import numpy as np
    import sklearn
    from sklearn.datasets import load_svmlight_file
    from sklearn.linear_model import Perceptron, SGDClassifier

    sk = sklearn.__version__

    def load(path, n_features):
        # scikit-learn's SGD estimators take CSR with 32-bit indices only.
        X, y = load_svmlight_file(path, n_features=n_features)
        X.indices = X.indices.astype(np.int32)
        X.indptr = X.indptr.astype(np.int32)
        return X, y

    def fit_seconds(make, X, y):
        def once():
            est = make()
            t = time.perf_counter()
            est.fit(X, y)
            return time.perf_counter() - t
        return median(once, a.repeats)

    def sk_error(make, X, y, Xt, yt):
        est = make().fit(X, y)
        return float((est.predict(Xt) != yt).mean())

print(f"| run | per pass | ÷ read-only | vs scikit-learn {sk} | test error | note |")
print("|---|---:|---:|---:|---:|---|")

# MNIST 9-vs-rest, dense u8 shards; scikit-learn on float64 CSR.
ro = read_only(mnist9)
row("MNIST read-only pass", ro, ro)
peer_seq = peer_shuf = None
if sk:
    X, y = load(texts["mnist9"], 784)
    Xt, yt = load(texts["t10k9"], 784)
    seq = lambda: Perceptron(max_iter=1, tol=None, shuffle=False)
    shuf = lambda: Perceptron(max_iter=1, tol=None, shuffle=True, random_state=0)
    peer_seq, peer_shuf = fit_seconds(seq, X, y), fit_seconds(shuf, X, y)
    row("MNIST scikit-learn Perceptron, sequential", peer_seq, ro, peer_seq, sk_error(seq, X, y, Xt, yt))
    row("MNIST scikit-learn Perceptron, shuffled", peer_shuf, ro, peer_seq, sk_error(shuf, X, y, Xt, yt))
for name, learner, extra in [
    ("MNIST Perceptron, sequential", "perceptron", ["--order", "sequential"]),
    ("MNIST Perceptron, default order", "perceptron", []),
    ("MNIST Perceptron, full shuffle", "perceptron", ["--order", "shuffle"]),
    ("MNIST averaged, default order", "averaged-perceptron", []),
]:
    if want(name):
        s, r = per_pass(mnist9, learner, a.mnist_passes, *extra)
        row(name, s, r, peer_seq, test_error(mnist9, t10k9, learner, 1, *extra), alongside(r))
name = "MNIST averaged ÷ Perceptron, default order, in turn"
if want(name):
    plain, averaged = per_pass_pair(mnist9, "perceptron", "averaged-perceptron", a.mnist_passes)
    row(name, averaged, note=f"the two run by run in turn: averaged {averaged / plain:.2f}× the Perceptron's {plain * 1e3:.2f} ms")

# The sparse set: 2^20 features, 80 per row.
sro = read_only(f"{sparse}/train")
row("sparse read-only pass", sro, sro)
speer = lpeer = None
if sk:
    t = time.perf_counter()
    X, y = load(texts["sparse"], 1 << 20)
    took = time.perf_counter() - t
    size = os.path.getsize(texts["sparse"])
    Xt, yt = load(texts["sparse-test"], 1 << 20)
    row("sparse scikit-learn load_svmlight_file", took, note=f"{size / took / 1e6:.0f} MB/s")
    seq = lambda: Perceptron(max_iter=1, tol=None, shuffle=False)
    speer = fit_seconds(seq, X, y)
    row("sparse scikit-learn Perceptron, sequential", speer, sro, speer, sk_error(seq, X, y, Xt, yt))
    log = lambda: SGDClassifier(loss="log_loss", max_iter=1, tol=None, random_state=0)
    lpeer = fit_seconds(log, X, y)
    row("sparse scikit-learn SGDClassifier(log_loss), shuffled", lpeer, sro, lpeer, sk_error(log, X, y, Xt, yt))
size = os.path.getsize(texts["sparse"])
for threads in [1, 2]:
    name = f"sparse convert, {threads} thread(s)"
    if want(name):
        # The text read once first, so that every run parses a file already
        # in memory: the figure is parse, encode, checksum and
        # write, not the disk.
        with open(texts["sparse"], "rb") as f:
            while f.read(64 << 20):
                pass
        runs = []

        def conv():
            out = f"{a.out}/conv"
            subprocess.run(["rm", "-rf", out], check=True)
            runs.append(wall(T, "convert", texts["sparse"], "--threads", threads, "-o", out))
            return runs[-1]
        # Every repeat: one run alone moved by a third here (9.59 and
        # 6.38 s, one after the other, on one thread).
        s = median(conv, a.repeats)
        row(name, s, note=f"{size / s / 1e6:.0f} MB/s end to end; runs " + ", ".join(f"{r:.2f}" for r in runs) + " s")
# Each learner against scikit-learn's estimator of the same loss: the
# Perceptrons against `Perceptron`, logistic against `SGDClassifier(log_loss)`;
# FTRL-Proximal and EG± have none there.
for name, learner, passes, peer in [
    ("sparse Perceptron, default order", "perceptron", a.sparse_passes, speer),
    ("sparse averaged, default order", "averaged-perceptron", a.sparse_passes, speer),
    ("sparse logistic, default order", "logistic", a.sparse_passes, lpeer),
    ("sparse FTRL-Proximal", "ftrl-proximal", 2, None),
    ("sparse EG±", "eg-pm", 1, None),
]:
    if want(name):
        s, r = per_pass(f"{sparse}/train", learner, passes)
        row(name, s, r, peer, test_error(f"{sparse}/train", f"{sparse}/test", learner, 1), alongside(r))

with open(f"{a.out}/results.json", "w") as f:
    json.dump({"sklearn": sk, "repeats": a.repeats, "rows": rows}, f, indent=1)
