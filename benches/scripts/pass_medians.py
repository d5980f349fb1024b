#!/usr/bin/env python3
"""Median seconds per training pass, as `rosenblatt train --json` reports
them, for a fixed set of learners and datasets: the pass-time side of the
release-profile table in SPEED.md.

usage: pass_medians.py BINARY MNIST9_DIR SPARSE_TRAIN_DIR [repeats]
"""
import json
import statistics
import subprocess
import sys
import tempfile

binary, mnist, sparse = sys.argv[1:4]
repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
runs = [
    ("mnist9", mnist, "perceptron", "sequential", 20),
    ("mnist9", mnist, "averaged-perceptron", "shuffle", 20),
    ("sparse", sparse, "perceptron", "shuffle", 5),
    ("sparse", sparse, "averaged-perceptron", "shuffle", 5),
    ("sparse", sparse, "logistic", "shuffle", 5),
    ("sparse", sparse, "ftrl-proximal", "shuffle", 3),
    ("sparse", sparse, "eg-pm", "shuffle", 2),
]
with tempfile.TemporaryDirectory() as tmp:
    for name, data, learner, order, passes in runs:
        secs = []
        for _ in range(repeats):
            out = subprocess.run(
                [binary, "train", data, "--learner", learner, "--order", order, "--passes", str(passes),
                 "--threads", "1", "-o", f"{tmp}/m", "--json"],
                check=True, capture_output=True, text=True).stdout
            secs += [p["seconds"] for p in json.loads(out)["passes"]]
        print(f"{name:8} {learner:20} {order:10} median {statistics.median(secs) * 1e3:9.2f} ms/pass")
