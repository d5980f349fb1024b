"""A one-pass `train`'s fixed cost, measured: the whole process's wall time
less the seconds its pass line reports (start, open and checks, the model
made and written, exit), for one or more builds run alternately.

    python3 benches/scripts/around_the_pass.py DATASET RUNS THREADS BIN [BIN ...]

Prints, per build, the median, quartiles and least of RUNS runs. For one
build, `rosenblatt bench scaling` prints the same figure ("around it");
this script is for comparing builds, run in turns. Unlike
(6 passes - 1 pass) / 5, this does not count the first pass's extra work
(the averaged Perceptron makes twice the mistakes in its first pass than
on average in its next five) as fixed cost. Set LEARNER to train another
learner (default averaged-perceptron).
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> None:
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    data, runs, threads, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    learner = os.environ.get("LEARNER", "averaged-perceptron")
    model = os.path.join(tempfile.mkdtemp(), "m.model")
    around = {b: [] for b in bins}
    for _ in range(runs):
        for b in bins:
            cmd = [b, "train", data, "--learner", learner, "--threads", threads, "--passes", "1", "-o", model]
            start = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            line = re.search(r"\n\s+1\s+\d+\s+\S+\s+(\S+)", "\n" + out.stdout + out.stderr)
            around[b].append(wall - float(line.group(1)))
    for b in bins:
        v = sorted(around[b])
        q = lambda f: 1e3 * v[int(f * (len(v) - 1))]
        print(
            f"{b}: {learner}, {threads} thread(s), {data}: around the pass "
            f"median {1e3 * statistics.median(v):.1f} ms, quartiles {q(0.25):.1f}..{q(0.75):.1f}, least {q(0):.1f}"
        )
    os.remove(model)


if __name__ == "__main__":
    main()
