#!/usr/bin/env python3
"""`rosenblatt bench serve` over the issue's configurations, in one run:
server and load generator in one process on this machine's loopback, every
reply checked against `predict`. Prints a Markdown table (the median of
--runs for each row, by requests/s).

  census-shaped rows (`datasets tabular`, ~14 non-zeros), logistic:
      8 connections x 64 in flight; 16 connections x 1 paced to 20,000/s
  MNIST test rows (~150 non-zeros), 9 against the rest: averaged, voted and
      kernel Perceptron, 8 connections x 32 in flight

usage: python3 benches/scripts/serve_bench.py ROSENBLATT_BINARY [--runs K] [--dir D]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile


def sh(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def bench(binary, model, data, *flags):
    out = subprocess.run([binary, "bench", "serve", model, data, "--json", *flags],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir")
    a = ap.parse_args()
    d = a.dir or tempfile.mkdtemp(prefix="serve-bench-")
    rb = a.binary
    here = os.path.dirname(os.path.abspath(__file__))
    mnist = os.path.join(here, "..", "..", "datasets", "mnist")
    sh(rb, "datasets", "tabular", "-o", f"{d}/tab", "--quiet")
    sh(rb, "export", f"{d}/tab/test", "-o", f"{d}/tab.svm")
    sh(rb, "train", f"{d}/tab/train", "--learner", "logistic", "-o", f"{d}/tab.model", "--quiet")
    sh(rb, "convert", f"{mnist}/train-images.idx3-ubyte.gz", f"{mnist}/train-labels.idx1-ubyte.gz",
       "--target", "9", "-o", f"{d}/mtrain", "--quiet")
    sh(rb, "convert", f"{mnist}/t10k-images.idx3-ubyte.gz", f"{mnist}/t10k-labels.idx1-ubyte.gz",
       "--target", "9", "-o", f"{d}/mtest", "--quiet")
    sh(rb, "export", f"{d}/mtest", "-o", f"{d}/mnist.svm")
    for l in ["averaged-perceptron", "voted-perceptron", "kernel-perceptron"]:
        sh(rb, "train", f"{d}/mtrain", "--learner", l, "-o", f"{d}/{l}.model", "--quiet")
    cases = [
        ("logistic, census-shaped rows", f"{d}/tab.model", f"{d}/tab.svm",
         ["--connections", "8", "--pipeline", "64", "--requests", "400000"]),
        ("logistic, census-shaped rows, paced to 20,000/s", f"{d}/tab.model", f"{d}/tab.svm",
         ["--connections", "16", "--pipeline", "1", "--requests", "100000", "--rate", "20000"]),
    ] + [
        (f"{l}, MNIST rows", f"{d}/{l}.model", f"{d}/mnist.svm",
         ["--connections", "8", "--pipeline", "32", "--requests", "100000" if l != "kernel-perceptron" else "20000"])
        for l in ["averaged-perceptron", "voted-perceptron", "kernel-perceptron"]
    ]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; median of {a.runs} runs by requests/s\n")
    print("| model and rows | connections × in flight | requests | requests/s | p50 µs | p99 µs | replies equal to predict |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, model, data, flags in cases:
        runs = sorted((bench(rb, model, data, *flags) for _ in range(a.runs)), key=lambda r: r["requests_per_second"])
        r = runs[len(runs) // 2]
        print(f"| {name} | {r['connections']} × {r['pipeline']} | {r['requests']:,} | {r['requests_per_second']:,.0f} "
              f"| {r['latency_us']['p50']:,.0f} | {r['latency_us']['p99']:,.0f} | {r['requests'] - r['wrong']:,} of {r['requests']:,} |")


if __name__ == "__main__":
    main()
