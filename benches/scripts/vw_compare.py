#!/usr/bin/env python3
"""Vowpal Wabbit against rosenblatt on the same VW text, in one run: the
sparse set (`rosenblatt datasets sparse`, 500,000 training rows of ~80
features over 2^20, and its test set) written as VW text, one namespace,
features named by words (`1 |f w17:0.5 …`; `--names numbers` for `17:0.5`),
hashed into 2^20 weights by both. Logistic regression, each with its
defaults.

  one pass from text   VW: vw -d train.vw --loss_function logistic -b 20 -f m
                       rosenblatt: train train.vw --bits 20 (the cache cold: convert and train, one process)
  per later pass       VW: (--passes 6 − --passes 1) / 5, reading its cache (-c --holdout_off)
                       rosenblatt: (train --passes 6 − --passes 1) / 5 on the converted dataset

Prints the medians of --runs runs (whole-process wall seconds) and each
one-pass model's test error (VW: `-t -i m -p` on the test text;
rosenblatt: `eval` on the test text, hashed with the model's settings).

usage: python3 benches/scripts/vw_compare.py ROSENBLATT_BINARY [--rows N] [--runs K] [--names words|numbers] [--dir D]
Needs `pip install vowpalwabbit` (VW 9).
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

VW_CHILD = r"""
import sys
from vowpalwabbit import Workspace
Workspace(sys.argv[1]).finish()
"""


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t


def vw(args):
    return timed([sys.executable, "-c", VW_CHILD, args])


def to_vw(svm, out, words):
    with open(svm) as f, open(out, "w") as g:
        for line in f:
            label, _, rest = line.rstrip("\n").partition(" ")
            if words:
                rest = " ".join("w" + t for t in rest.split(" ") if t)
            g.write("%s |f %s\n" % (label, rest))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rows", type=int, default=500000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--names", choices=["words", "numbers"], default="words")
    ap.add_argument("--dir")
    a = ap.parse_args()
    rb = os.path.abspath(a.binary)
    tmp = a.dir or tempfile.mkdtemp(prefix="vw-compare-")
    os.makedirs(tmp, exist_ok=True)
    j = lambda n: os.path.join(tmp, n)
    # A --dir used before holds the last run's set: made afresh.
    shutil.rmtree(j("sparse"), ignore_errors=True)
    subprocess.run([rb, "--quiet", "datasets", "sparse", "--rows", str(a.rows), "--seed", "7", "-o", j("sparse")],
                   check=True, stdout=subprocess.DEVNULL)
    for part in ("train", "test"):
        subprocess.run([rb, "--quiet", "export", j("sparse/" + part), "-o", j(part + ".svm")], check=True)
        to_vw(j(part + ".svm"), j(part + ".vw"), a.names == "words")
        os.remove(j(part + ".svm"))
    size = os.path.getsize(j("train.vw"))
    t = {k: [] for k in ("vw_text", "vw_cache1", "vw_cache6", "rb_text", "rb_1", "rb_6")}
    base = "--loss_function logistic -b 20 --quiet"
    for _ in range(a.runs):
        for f in ("train.vw.cache",):
            if os.path.exists(j(f)):
                os.remove(j(f))
        t["vw_text"].append(vw("-d %s %s -f %s" % (j("train.vw"), base, j("m.vw"))))
        vw("-d %s -c -k %s" % (j("train.vw"), base))  # makes the cache
        t["vw_cache1"].append(vw("-d %s -c --holdout_off %s" % (j("train.vw"), base)))
        t["vw_cache6"].append(vw("-d %s -c --holdout_off --passes 6 %s" % (j("train.vw"), base)))
        shutil.rmtree(j("cache"), ignore_errors=True)
        t["rb_text"].append(timed([rb, "--quiet", "train", j("train.vw"), "--bits", "20", "--learner", "logistic",
                                   "--cache", j("cache"), "-o", j("m.rb")]))
        data = [os.path.join(j("cache"), e, "dataset") for e in os.listdir(j("cache"))][0]
        for p in (1, 6):
            t["rb_%d" % p].append(timed([rb, "--quiet", "train", data, "--learner", "logistic", "--passes", str(p),
                                         "-o", j("m%d.rb" % p)]))
    vw("-t -i %s -d %s -p %s --quiet" % (j("m.vw"), j("test.vw"), j("preds")))
    with open(j("test.vw")) as f:
        labels = [float(l.split(" ", 1)[0]) for l in f]
    with open(j("preds")) as f:
        preds = [float(l.split()[0]) for l in f]
    vw_err = sum((p > 0) != (y > 0) for p, y in zip(preds, labels)) / len(labels)
    ev = subprocess.run([rb, "--quiet", "--json", "eval", j("m.rb"), j("test.vw")], check=True, capture_output=True,
                        text=True)
    rb_err = json.loads(ev.stdout)["error_rate"]
    vw_version = subprocess.run([sys.executable, "-c", "import vowpalwabbit; print(vowpalwabbit.__version__)"],
                                capture_output=True, text=True).stdout.strip()
    m = {k: statistics.median(v) for k, v in t.items()}
    vw_pass = (m["vw_cache6"] - m["vw_cache1"]) / 5
    rb_pass = (m["rb_6"] - m["rb_1"]) / 5
    print("machine: %s, %d cores; VW %s; %d training rows, %.0f MB of VW text (feature names: %s); medians of %d runs"
          % (platform.processor() or platform.machine(), os.cpu_count(), vw_version, a.rows, size / 1e6, a.names,
             a.runs))
    print("| | VW | rosenblatt | VW / rosenblatt |")
    print("|---|---:|---:|---:|")
    print("| one pass from text (s) | %.2f | %.2f | %.2f |" % (m["vw_text"], m["rb_text"], m["vw_text"] / m["rb_text"]))
    print("| per later pass (s) | %.3f | %.3f | %.2f |" % (vw_pass, rb_pass, vw_pass / rb_pass))
    print("| 1 pass from its cache / dataset, whole process (s) | %.2f | %.2f | %.2f |"
          % (m["vw_cache1"], m["rb_1"], m["vw_cache1"] / m["rb_1"]))
    print("| test error after one pass | %.4f | %.4f | |" % (vw_err, rb_err))
    if not a.dir:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
