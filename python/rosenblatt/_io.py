"""Reading LIBSVM/svmlight text with the engine's parallel parser."""

import numpy as np
import scipy.sparse as sp

from . import _native


def load_svmlight_file(f, *, n_features=None, dtype=np.float32, zero_based="auto"):
    """Reads a LIBSVM/svmlight file (plain, gzip or bzip2) into ``(X, y)``:
    ``X`` a CSR matrix of ``dtype`` (float32 by default) with int32 indices,
    ``y`` a float64 array — what ``sklearn.datasets.load_svmlight_file``
    returns, parsed in parallel with the GIL released.

    ``zero_based``: True, False, or "auto" (zero-based if any index is 0,
    else one-based, as scikit-learn decides). ``n_features``: the number of
    columns, at least the file's largest index + 1.
    """
    if zero_based not in (True, False, "auto"):
        raise ValueError(f"zero_based={zero_based!r}: give True, False or 'auto'")
    zb = None if zero_based == "auto" else bool(zero_based)
    indptr, indices, values, labels, dim = _native.load_svmlight(str(f), zb, n_features)
    if np.dtype(dtype) != np.float32:
        values = values.astype(dtype)
    X = sp.csr_matrix((values, indices, indptr), shape=(len(indptr) - 1, dim))
    return X, labels
