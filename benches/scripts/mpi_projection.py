#!/usr/bin/env python3
"""The cost model of docs/distributed.md, as a table: the time of one pass
over N machines = computing (rows / N at one machine's measured rate) +
mixing (the chain and broadcast of rosenblatt's mix, with latency alpha and
seconds per byte beta). Prints the projection for 8, 64 and 512 machines
and the machine count where mixing starts to cost more than computing.

The rates are this machine's measured ones (benches/results/mpi-2026-11-24.md);
alpha and beta are assumptions about networks, not measurements.

    python3 benches/scripts/mpi_projection.py
"""

import math


def segment(coords, n):
    """Coordinates per chain message (crates/learners/src/mix.rs)."""
    return min(max(coords // n, 1 << 12), 1 << 16)


NETWORKS = {
    "10 Gb/s Ethernet (TCP)": (15e-6, 8 / 10e9),
    "100 Gb/s (RDMA)": (2e-6, 8 / 100e9),
}

# name: (rows, coordinates mixed, rows per second of one machine measured here)
SETS = {
    "OCR 8.1M x 784 (u8), Perceptron": (8.1e6, 786, 60000 / 3.39e-3),
    "OCR 8.1M x 784 (u8), averaged": (8.1e6, 1572, 60000 / 4.25e-3),
    "sparse 1e9 x 2^20 (80 nnz), Perceptron": (1e9, (1 << 20) + 2, 2e6 / 245.58e-3),
    "sparse 1e9 x 2^20 (80 nnz), averaged": (1e9, 2 * (1 << 20) + 3, 2e6 / 384.68e-3),
}


def mix_seconds(n, coords, alpha, beta):
    """Chain (pipelined in segments) + broadcast (scatter + all-gather) +
    the small all-gather of the parts' reports."""
    if n == 1:
        return 0.0
    seg = min(coords, segment(coords, n))
    k = math.ceil(coords / seg)
    chain = (n + k - 2) * (alpha + 8 * seg * beta)
    bcast = 2 * 8 * coords * beta + math.ceil(math.log2(n)) * alpha
    reports = math.ceil(math.log2(n)) * alpha
    return chain + bcast + reports


def crossover(rows, coords, rate, alpha, beta):
    n = 1
    while rows / rate / n > mix_seconds(n, coords, alpha, beta):
        n += 1
        if n > 10**6:
            return None
    return n


def main():
    for net, (alpha, beta) in NETWORKS.items():
        print(f"\n{net}: alpha = {alpha * 1e6:.0f} us, beta = {beta * 1e9:.2f} ns/byte\n")
        print("| data, learner | one machine | 8: compute + mix | 64: compute + mix | 512: compute + mix | "
              "mixing > computing from |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, (rows, coords, rate) in SETS.items():
            one = rows / rate
            cells = []
            for n in (8, 64, 512):
                c, m = one / n, mix_seconds(n, coords, alpha, beta)
                cells.append(f"{fmt(c)} + {fmt(m)}")
            x = crossover(rows, coords, rate, alpha, beta)
            print(f"| {name} | {fmt(one)} | {' | '.join(cells)} | {x if x else '>1e6'} machines |")


def fmt(s):
    return f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


if __name__ == "__main__":
    main()
