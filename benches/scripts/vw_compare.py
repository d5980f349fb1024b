#!/usr/bin/env python3
"""Vowpal Wabbit against rosenblatt on the same VW text, in one run: the
sparse set (`rosenblatt datasets sparse`, 500,000 training rows of ~80
features over 2^20, and its test set) written as VW text, one namespace
with numeric feature names (`1 |f 17:0.5 …`), hashed into 2^20 weights by
both. Logistic regression, one pass, each with its defaults.

  VW from text      vw -d train.vw --loss_function logistic -b 20 -f m   (the vowpalwabbit package's driver)
  VW, cache made    the same with -c -k (reads text, writes its cache)
  VW from cache     the same with -c again (reads the cache)
  rosenblatt        convert train.vw --bits 20; train --learner logistic --passes 1
                    (whole processes; and the two together)

Prints the medians of --runs runs (whole-process wall seconds) and each
model's test error (VW: `-t -i m -p` on the test text; rosenblatt: `eval`
on the test text, hashed with the model's settings).

usage: python3 benches/scripts/vw_compare.py ROSENBLATT_BINARY [--rows N] [--runs K] [--dir D]
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


def to_vw(svm, out):
    with open(svm) as f, open(out, "w") as g:
        for line in f:
            label, _, rest = line.partition(" ")
            g.write("%s |f %s" % (label, rest if rest.endswith("\n") else rest + "\n"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rows", type=int, default=500000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir")
    a = ap.parse_args()
    rb = os.path.abspath(a.binary)
    tmp = a.dir or tempfile.mkdtemp(prefix="vw-compare-")
    os.makedirs(tmp, exist_ok=True)
    j = lambda n: os.path.join(tmp, n)
    subprocess.run([rb, "--quiet", "datasets", "sparse", "--rows", str(a.rows), "--seed", "7", "-o", j("sparse")], check=True)
    for part in ("train", "test"):
        subprocess.run([rb, "--quiet", "export", j("sparse/" + part), "-o", j(part + ".svm")], check=True)
        to_vw(j(part + ".svm"), j(part + ".vw"))
        os.remove(j(part + ".svm"))
    size = os.path.getsize(j("train.vw"))
    rows = {"vw_text": [], "vw_cache_made": [], "vw_cache": [], "rb_convert": [], "rb_train": [], "rb_both": []}
    for _ in range(a.runs):
        for f in ("m.vw", "train.vw.cache"):
            if os.path.exists(j(f)):
                os.remove(j(f))
        base = "--loss_function logistic -b 20 --quiet -f %s" % j("m.vw")
        rows["vw_text"].append(vw("-d %s %s" % (j("train.vw"), base)))
        rows["vw_cache_made"].append(vw("-d %s -c -k %s" % (j("train.vw"), base)))
        rows["vw_cache"].append(vw("-d %s -c %s" % (j("train.vw"), base)))
        shutil.rmtree(j("data"), ignore_errors=True)
        c = timed([rb, "--quiet", "convert", j("train.vw"), "--bits", "20", "-o", j("data")])
        t = timed([rb, "--quiet", "train", j("data"), "--learner", "logistic", "-o", j("m.rb")])
        rows["rb_convert"].append(c)
        rows["rb_train"].append(t)
        rows["rb_both"].append(c + t)
    vw("-t -i %s -d %s -p %s --quiet" % (j("m.vw"), j("test.vw"), j("preds")))
    with open(j("test.vw")) as f:
        labels = [float(l.split(" ", 1)[0]) for l in f]
    with open(j("preds")) as f:
        preds = [float(l.split()[0]) for l in f]
    vw_err = sum((p > 0) != (y > 0) for p, y in zip(preds, labels)) / len(labels)
    ev = subprocess.run([rb, "--quiet", "--json", "eval", j("m.rb"), j("test.vw")], check=True, capture_output=True, text=True)
    rb_err = json.loads(ev.stdout)["error_rate"]
    vw_version = subprocess.run([sys.executable, "-c", "import vowpalwabbit; print(vowpalwabbit.__version__)"],
                                capture_output=True, text=True).stdout.strip()
    med = {k: statistics.median(v) for k, v in rows.items()}
    print("machine: %s, %d cores; VW %s; %d training rows, %.0f MB of VW text; medians of %d runs" % (
        platform.processor() or platform.machine(), os.cpu_count(), vw_version, a.rows, size / 1e6, a.runs))
    print("| | seconds | test error |")
    print("|---|---:|---:|")
    print("| VW, one pass from text | %.2f | %.4f |" % (med["vw_text"], vw_err))
    print("| VW, one pass from text writing its cache | %.2f | |" % med["vw_cache_made"])
    print("| VW, one pass from its cache | %.2f | |" % med["vw_cache"])
    print("| rosenblatt `convert` of the VW text | %.2f | |" % med["rb_convert"])
    print("| rosenblatt `train`, one pass | %.2f | %.4f |" % (med["rb_train"], rb_err))
    print("| rosenblatt, both | %.2f | |" % med["rb_both"])
    print("ratios: VW from text / rosenblatt both = %.2f; VW from cache / rosenblatt train = %.2f" % (
        med["vw_text"] / med["rb_both"], med["vw_cache"] / med["rb_train"]))
    if not a.dir:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
