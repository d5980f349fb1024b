#!/usr/bin/env python3
"""Training across processes, measured: pass time and time in MPI per pass
at 1, 2 and 4 processes, as a user runs it (`mpirun -np N rosenblatt train`).

One process runs without mpirun (the in-process parts); N > 1 processes run
under OpenMPI's mpirun on this machine, each with cores/N threads (at least
one). The same --parts P for every N, so every run trains the same model
(the script checks the model files are byte-identical). Per run: the median
pass seconds as rank 0 reports them (training and mixing), and rank 0's
seconds in MPI calls divided by the passes (exchange, and waiting for the
slowest process). Needs a rosenblatt built with `--features mpi`.

    cargo build --release --features mpi -p rosenblatt
    python3 benches/scripts/mpi_scaling.py DATASET [DATASET ...] \
        [--parts 4] [--passes 10] [--learner perceptron] [--ranks 1 2 4]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

BIN = os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "rosenblatt")


def run(dataset, learner, parts, passes, ranks, out):
    cores = os.cpu_count() or 1
    threads = max(1, cores // ranks)
    cmd = [BIN, "--json", "train", dataset, "--learner", learner, "--parts", str(parts),
           "--passes", str(passes), "--threads", str(threads), "-o", out]
    if ranks > 1:
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        over = ["--oversubscribe", "--mca", "mpi_yield_when_idle", "1"] if ranks > cores else []
        cmd = ["mpirun", "-np", str(ranks), "--bind-to", "none", *over, *cmd]
    else:
        env = os.environ
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    v = json.loads(p.stdout)
    seconds = [x["seconds"] for x in v["passes"]]
    exchange = (v.get("processes") or {}).get("exchange_seconds", 0.0) / len(seconds)
    return statistics.median(seconds), exchange, threads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--learner", default="perceptron")
    ap.add_argument("--parts", type=int, default=4)
    ap.add_argument("--passes", type=int, default=10)
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    print(f"| data | processes | threads each | median pass | in MPI per pass | same model |")
    print("|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for ds in a.datasets:
            first = None
            for n in a.ranks:
                out = os.path.join(tmp, f"m{n}")
                runs = [run(ds, a.learner, a.parts, a.passes, n, out) for _ in range(a.repeats)]
                pass_s = statistics.median(r[0] for r in runs)
                mpi_s = statistics.median(r[1] for r in runs)
                model = open(out, "rb").read()
                first = first or model
                same = "yes" if model == first else "NO"
                name = os.path.basename(os.path.normpath(ds))
                print(f"| {name} | {n} | {runs[0][2]} | {pass_s * 1e3:.2f} ms | {mpi_s * 1e3:.3f} ms | {same} |",
                      flush=True)


if __name__ == "__main__":
    main()
