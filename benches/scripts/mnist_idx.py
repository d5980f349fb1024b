"""MNIST's IDX files in the repository, read with numpy: shared by the
benchmark scripts beside this one."""

import gzip
import os

import numpy as np

MNIST = os.path.join(os.path.dirname(__file__), "..", "..", "datasets", "mnist")


def idx(name):
    """The array of the gzipped IDX file `name` in datasets/mnist."""
    with gzip.open(os.path.join(MNIST, name)) as f:
        raw = f.read()
    dims = raw[3]
    shape = [int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * dims).reshape(shape)
