#!/usr/bin/env python3
"""The Python package against scikit-learn, as a Python user meets both,
all measured in one run on this machine; medians of the repeats.

1. `fit` for 10 passes on MNIST 9-vs-rest given as float32 CSR (read in
   place), against scikit-learn's `Perceptron` and `SGDClassifier` (hinge,
   log_loss, averaged hinge) on the same rows as float64 CSR (its fastest
   input), each with its test error on the 10,000 test images.
2. `rosenblatt.load_svmlight_file` against scikit-learn's on a LIBSVM file
   of MNIST's training rows written twice (about 150 MB).
3. `partial_fit` over 100 mini-batches against one `fit` pass.
4. `fit` for 10 passes on all ten digits (one-vs-rest: the classes learn
   in parallel over every core), against scikit-learn's one-vs-rest on
   every core (`n_jobs=-1`).

usage (from the repository root, with the package and scikit-learn
installed: `pip install ./python scikit-learn`):

    python3 benches/scripts/python_fit.py [--repeats 3] [--tmp DIR]
"""

import argparse
import os
import statistics
import tempfile
import time

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
from sklearn.datasets import load_svmlight_file as sk_load
from sklearn.linear_model import Perceptron, SGDClassifier

import rosenblatt
from rosenblatt import RosenblattClassifier
from mnist_idx import idx


def mnist(split, digits=False):
    images = idx(f"{split}-images.idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / 255.0
    labels = idx(f"{split}-labels.idx1-ubyte.gz").astype(np.int64)
    return sp.csr_matrix(images), labels if digits else np.where(labels == 9, 1, -1)


def median_seconds(f, repeats):
    times = []
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tmp", default=None)
    a = ap.parse_args()
    X, y = mnist("train")
    Xt, yt = mnist("t10k")
    X64, Xt64 = X.astype(np.float64), Xt.astype(np.float64)
    print(f"rosenblatt {rosenblatt.version()}; {os.cpu_count()} cores; medians of {a.repeats}")
    print("\n## fit, 10 passes, MNIST 9-vs-rest (60,000 × 784, float32 CSR in place; scikit-learn float64 CSR)\n")
    print("| rosenblatt | s | test error | scikit-learn | s | test error | speed-up |")
    print("|---|---:|---:|---|---:|---:|---:|")
    pairs = [
        ("perceptron", {}, "Perceptron", lambda: Perceptron(max_iter=10, tol=None, random_state=0)),
        ("hinge-sgd", {}, "SGDClassifier(hinge)", lambda: SGDClassifier(max_iter=10, tol=None, random_state=0)),
        (
            "logistic",
            {},
            "SGDClassifier(log_loss)",
            lambda: SGDClassifier(loss="log_loss", max_iter=10, tol=None, random_state=0),
        ),
        (
            "averaged-perceptron",
            {},
            "SGDClassifier(hinge, average)",
            lambda: SGDClassifier(average=True, max_iter=10, tol=None, random_state=0),
        ),
    ]
    for learner, params, peer, make in pairs:
        ours, m = median_seconds(
            lambda: RosenblattClassifier(learner, max_iter=10, random_state=0, **params).fit(X, y), a.repeats
        )
        our_err = 1.0 - m.score(Xt, yt)
        theirs, s = median_seconds(lambda: make().fit(X64, y), a.repeats)
        their_err = 1.0 - s.score(Xt64, yt)
        print(
            f"| {learner} | {ours:.3f} | {our_err:.2%} | {peer} | {theirs:.3f} | {their_err:.2%} | {theirs / ours:.1f}× |"
        )

    with tempfile.TemporaryDirectory(dir=a.tmp) as tmp:
        path = os.path.join(tmp, "mnist2x.svm")
        ints = sp.csr_matrix(((X.data * 255).round().astype(np.float64), X.indices, X.indptr), shape=X.shape)
        dump_svmlight_file(sp.vstack([ints, ints]), np.concatenate([y, y]), path)
        size = os.path.getsize(path)
        ours, (Xr, _) = median_seconds(lambda: rosenblatt.load_svmlight_file(path), a.repeats)
        theirs, (Xs, _) = median_seconds(lambda: sk_load(path), a.repeats)
        assert Xr.shape == Xs.shape and Xr.nnz == Xs.nnz
        print(f"\n## load_svmlight_file, {size / 1e6:.0f} MB ({Xr.shape[0]} rows, {Xr.nnz} non-zeros)\n")
        print("| rosenblatt | scikit-learn | speed-up |")
        print("|---:|---:|---:|")
        print(f"| {ours:.2f} s ({size / ours / 1e6:.0f} MB/s) | {theirs:.2f} s ({size / theirs / 1e6:.0f} MB/s) | {theirs / ours:.1f}× |")

    print("\n## partial_fit over 100 mini-batches of 600 rows against one fit pass (MNIST 9-vs-rest)\n")
    print("| learner | one fit pass, s | 100 partial_fit calls, s | ratio |")
    print("|---|---:|---:|---:|")
    batches = [(X[i : i + 600], y[i : i + 600]) for i in range(0, 60000, 600)]
    for learner in ["perceptron", "logistic"]:
        one, _ = median_seconds(lambda: RosenblattClassifier(learner, max_iter=1, random_state=0).fit(X, y), a.repeats)

        def stream():
            c = RosenblattClassifier(learner, random_state=0)
            for bx, by in batches:
                c.partial_fit(bx, by, classes=[-1, 1])
            return c

        many, _ = median_seconds(stream, a.repeats)
        print(f"| {learner} | {one:.3f} | {many:.3f} | {many / one:.2f}× |")

    print("\n## fit, 10 passes, MNIST ten digits, one-vs-rest on every core (n_jobs=-1 on both sides)\n")
    print("| rosenblatt | s | test error | scikit-learn | s | test error | speed-up |")
    print("|---|---:|---:|---|---:|---:|---:|")
    _, y10 = mnist("train", digits=True)
    _, yt10 = mnist("t10k", digits=True)
    pairs = [
        ("perceptron", "Perceptron", lambda: Perceptron(max_iter=10, tol=None, random_state=0, n_jobs=-1)),
        (
            "averaged-perceptron",
            "SGDClassifier(hinge, average)",
            lambda: SGDClassifier(average=True, max_iter=10, tol=None, random_state=0, n_jobs=-1),
        ),
    ]
    for learner, peer, make in pairs:
        ours, m = median_seconds(
            lambda: RosenblattClassifier(learner, max_iter=10, random_state=0, n_jobs=-1).fit(X, y10), a.repeats
        )
        our_err = 1.0 - m.score(Xt, yt10)
        theirs, s = median_seconds(lambda: make().fit(X64, y10), a.repeats)
        their_err = 1.0 - s.score(Xt64, yt10)
        print(
            f"| {learner} | {ours:.3f} | {our_err:.2%} | {peer} | {theirs:.3f} | {their_err:.2%} | {theirs / ours:.1f}× |"
        )


if __name__ == "__main__":
    main()
