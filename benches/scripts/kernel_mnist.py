#!/usr/bin/env python3
"""The kernel Perceptrons on MNIST's ten digits beside scikit-learn's `SVC`
with the same kernel and the linear multi-class averaged Perceptron, all
measured in one run on this machine.

Through the command line as a user meets it (`rosenblatt train` with the
learners' defaults, the test set scored after every pass; the seconds are
train's own per pass, scoring excluded; predicting is the wall time of
`rosenblatt eval` on the 10,000 test rows, process start and model load
included):

- kernel-averaged-perceptron, Gaussian kernel, 5 passes;
- kernel-perceptron (the last iterate), Gaussian kernel, 5 passes;
- kernel-averaged-perceptron, polynomial kernel (⟨x, x′⟩ + 1)^4, 3 passes;
- multiclass-averaged-perceptron (linear), 10 passes;

and scikit-learn's `SVC(kernel="rbf", gamma=γ, C=10)` on the same pixels
scaled to [0, 1] (float32), γ = 3 / (d·Var(X)) — the value rosenblatt's
default takes — fit and predict timed (libsvm uses one core).

usage (from the repository root, after `cargo build --release`, with
numpy and scikit-learn installed):

    python3 benches/scripts/kernel_mnist.py [--no-svc] [--out FILE.md]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from mnist_idx import MNIST, idx

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def mnist(split):
    images = idx(f"{split}-images.idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / np.float32(255.0)
    return images, idx(f"{split}-labels.idx1-ubyte.gz").astype(np.int64)


def run(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    return p.stdout, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rosenblatt", default=os.path.join(ROOT, "target", "release", "rosenblatt"))
    ap.add_argument("--no-svc", action="store_true", help="leave scikit-learn's SVC out (it takes ~15 minutes)")
    ap.add_argument("--out", help="also write the table (Markdown) here")
    a = ap.parse_args()
    rb = a.rosenblatt
    tmp = tempfile.mkdtemp()
    train, test = os.path.join(tmp, "train"), os.path.join(tmp, "test")
    for split, out in [("train", train), ("t10k", test)]:
        run([rb, "convert", os.path.join(MNIST, f"{split}-images.idx3-ubyte.gz"),
             os.path.join(MNIST, f"{split}-labels.idx1-ubyte.gz"), "-o", out, "--quiet"])

    rows = []
    runs = [
        ("kernel-averaged-perceptron", ["--kernel", "rbf"], 5, "Gaussian"),
        ("kernel-perceptron", ["--kernel", "rbf"], 5, "Gaussian"),
        ("kernel-averaged-perceptron", ["--kernel", "poly"], 3, "(⟨x, x′⟩ + 1)^4"),
        ("multiclass-averaged-perceptron", [], 10, "linear"),
    ]
    gamma = None
    for learner, extra, passes, kernel in runs:
        model = os.path.join(tmp, f"{learner}-{kernel[:4]}.model")
        out, _ = run([rb, "train", train, "--learner", learner, "--passes", str(passes), "--test", test,
                      "-o", model, "--json", "--quiet"] + extra)
        doc = json.loads(out)
        lines = doc["passes"]
        if kernel == "Gaussian":
            gamma = doc["params"]["gamma"]
        fit = sum(p["seconds"] for p in lines)
        _, predict = run([rb, "eval", model, test, "--json"])
        errors = [p["eval_error"] for p in lines]
        rows.append({
            "what": f"rosenblatt `{learner}`, {kernel}",
            "passes": passes,
            "errors": errors,
            "fit": fit,
            "pass": max(p["seconds"] for p in lines),
            "predict": predict,
            "support": None,
        })
        print(f"{learner} {kernel}: test error by pass {[f'{100 * e:.2f}%' for e in errors]}, "
              f"fit {fit:.1f} s (slowest pass {rows[-1]['pass']:.2f} s), predict {predict:.2f} s", flush=True)

    xtr, ytr = mnist("train")
    xte, yte = mnist("t10k")
    spread = float(np.mean(np.sum(xtr.astype(np.float64) ** 2, axis=1)) - xtr.shape[1] * np.mean(xtr, dtype=np.float64) ** 2)
    svc_gamma = 3.0 / spread
    if gamma is not None:
        svc_gamma = gamma
    if not a.no_svc:
        from sklearn.svm import SVC

        svc = SVC(kernel="rbf", gamma=svc_gamma, C=10.0)
        t = time.perf_counter()
        svc.fit(xtr, ytr)
        fit = time.perf_counter() - t
        t = time.perf_counter()
        err = float(np.mean(svc.predict(xte) != yte))
        predict = time.perf_counter() - t
        rows.append({
            "what": f"scikit-learn `SVC`, Gaussian, C = 10",
            "passes": None,
            "errors": [err],
            "fit": fit,
            "pass": None,
            "predict": predict,
            "support": int(svc.n_support_.sum()),
        })
        print(f"SVC: test error {100 * err:.2f}%, fit {fit:.1f} s, predict {predict:.1f} s, "
              f"{rows[-1]['support']} support vectors", flush=True)

    table = [
        f"MNIST, ten digits, 60,000 training and 10,000 test rows; Gaussian kernel exp(−γ‖x − x′‖²) with "
        f"γ = {svc_gamma:.6f} (3 / (d·Var(X)), pixels in [0, 1]).",
        "",
        "| learner | passes | test error after each pass | fit | slowest pass | predict 10,000 |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        errs = ", ".join(f"{100 * e:.2f}%" for e in r["errors"])
        what = r["what"] + (f" ({r['support']:,} support vectors)" if r["support"] else "")
        table.append(
            f"| {what} | {r['passes'] or '—'} | {errs} | {r['fit']:.1f} s | "
            f"{'—' if r['pass'] is None else format(r['pass'], '.2f') + ' s'} | {r['predict']:.3g} s |"
        )
    text = "\n".join(table)
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
