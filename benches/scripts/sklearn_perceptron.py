"""One epoch of scikit-learn's Perceptron on MNIST 9-vs-rest, for comparison
with `cargo bench -p rosenblatt-benches --bench learners`.

Run in a scratch virtual environment (the project does not depend on it):
    python3 -m venv /tmp/skvenv && /tmp/skvenv/bin/pip install scikit-learn numpy
    /tmp/skvenv/bin/python benches/scripts/sklearn_perceptron.py
Prints the median of 15 one-epoch fits (data already in memory as float64,
as scikit-learn converts it), with shuffling on (its default) and off.
"""
import gzip, pathlib, statistics, time, warnings
import numpy as np
from sklearn.linear_model import Perceptron
from sklearn.exceptions import ConvergenceWarning

root = pathlib.Path(__file__).resolve().parents[2] / "datasets" / "mnist"
def idx(name, offset):
    return np.frombuffer(gzip.open(root / name).read(), dtype=np.uint8, offset=offset)
X = idx("train-images.idx3-ubyte.gz", 16).reshape(60000, 784).astype(np.float64) / 255.0
y = np.where(idx("train-labels.idx1-ubyte.gz", 8) == 9, 1, -1)
Xt = idx("t10k-images.idx3-ubyte.gz", 16).reshape(10000, 784).astype(np.float64) / 255.0
yt = np.where(idx("t10k-labels.idx1-ubyte.gz", 8) == 9, 1, -1)
warnings.simplefilter("ignore", ConvergenceWarning)
for shuffle in (True, False):
    times = []
    for seed in range(15):
        clf = Perceptron(max_iter=1, tol=None, shuffle=shuffle, random_state=seed)
        t = time.perf_counter()
        clf.fit(X, y)
        times.append(time.perf_counter() - t)
    err = float(np.mean(clf.predict(Xt) != yt))
    print(f"sklearn Perceptron, 1 epoch, shuffle={shuffle}: median {statistics.median(times)*1e3:.2f} ms "
          f"(min {min(times)*1e3:.2f}), test error {err:.4f}")

# How much of fit() is input checking rather than the epoch: skip the
# finiteness check, and time the check alone.
import sklearn
from sklearn.utils import check_array
t = time.perf_counter(); check_array(X, accept_sparse="csr", dtype=np.float64, order="C"); t_check = time.perf_counter() - t
with sklearn.config_context(assume_finite=True):
    times = []
    for seed in range(15):
        clf = Perceptron(max_iter=1, tol=None, shuffle=True, random_state=seed)
        t = time.perf_counter(); clf.fit(X, y); times.append(time.perf_counter() - t)
print(f"check_array alone: {t_check*1e3:.2f} ms; fit with assume_finite=True, shuffle=True: median {statistics.median(times)*1e3:.2f} ms")
