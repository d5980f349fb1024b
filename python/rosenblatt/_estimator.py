"""The scikit-learn estimator over the engine's online trainer."""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state
from sklearn.utils._available_if import available_if
from sklearn.utils.multiclass import check_classification_targets, unique_labels
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from . import _native

# Every learner, as the engine's table describes it: whether one model
# takes every class at once (the multiclass- learners, and the kernel ones
# that train one output per class over one support set), whether it trains
# on one whole batch (the kernel learners: fit, no partial_fit, no coef_),
# whether its scores are log-odds, its description and its parameters with
# their defaults.
_LEARNERS = {
    name: dict(multiclass=multiclass, classes=classes, whole=whole, probabilistic=proba, about=about, params=dict(p))
    for name, multiclass, classes, whole, proba, about, p in _native.learners()
}
# Parameters whose values are names (the kernel), with their names in order.
_CHOICES = dict(_native.choices())
# Estimator parameter -> the engine's hyper-parameter. `lambda` is a Python
# keyword, so the L2 strength is `lam`; C keeps scikit-learn's capital.
_HYPER = {
    "eta": "eta",
    "lam": "lambda",
    "C": "c",
    "alpha": "alpha",
    "beta": "beta",
    "l1": "l1",
    "l2": "l2",
    "b": "b",
    "threshold": "threshold",
    "average": "average",
    "adaptive": "adaptive",
    "normalized": "normalized",
    "kernel": "kernel",
    "gamma": "gamma",
    "coef0": "coef0",
    "degree": "degree",
    "budget": "budget",
}
_MISSING = set(n for info in _LEARNERS.values() for n in info["params"]) - set(_HYPER.values())
assert not _MISSING, f"engine hyper-parameters with no estimator parameter: {_MISSING}"


def learners():
    """Every learner the estimator offers: ``{name: (multiclass,
    description, {hyper-parameter: default})}``, the kernel Perceptrons
    included (they train on the whole of ``X`` in ``fit`` and have no
    ``coef_``)."""
    return {k: (v["multiclass"], v["about"], dict(v["params"])) for k, v in _LEARNERS.items()}


def _n_jobs(n_jobs):
    if n_jobs is None or n_jobs == -1:
        return 0
    if isinstance(n_jobs, numbers.Integral) and n_jobs > 0:
        return int(n_jobs)
    raise ValueError(f"n_jobs={n_jobs!r}: give None, -1 (every core) or a positive int")


def _engine_ready(X):
    """Whether X is already what the engine reads in place."""
    if sp.issparse(X):
        return (
            X.format == "csr"
            and X.dtype == np.float32
            and X.indices.dtype == np.int32
            and X.has_canonical_format
        )
    return isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype == np.float32 and X.flags.c_contiguous


def _index_of(classes, y):
    """Each label's index in the sorted ``classes``, or None if a label is
    not one of them. Two classes (the common case, and every call of a
    binary stream's partial_fit) take two comparisons instead of a search."""
    if len(classes) == 2:
        positive = y == classes[1]
        if not (positive | (y == classes[0])).all():
            return None
        return positive.view(np.int8)
    index = np.searchsorted(classes, y).clip(0, len(classes) - 1)
    return index if np.array_equal(classes[index], y) else None


def _validate_xy(estimator, X, y, reset):
    """scikit-learn's checks of a training batch, less two that cost a
    pass over the data each and that the engine makes anyway: that every
    value is finite (it checks every entry as the batch comes in, on the
    pool with the GIL released, and names the row), and the label type of an
    integer or boolean vector (always binary or multiclass)."""
    X, y = validate_data(
        estimator, X, y, accept_sparse="csr", dtype=[np.float32, np.float64], reset=reset, ensure_all_finite=False
    )
    if not (isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iub"):
        check_classification_targets(y)
    return X, y


def _rows(X):
    """X as the engine reads it in place: ``("csr", indptr, indices, values)``
    with uint64 row pointers, uint32 column indices (int32 indices are
    viewed, not copied) and float32 values, sorted and without duplicates;
    or ``("dense", X)`` C-ordered float32. Anything else is converted once."""
    if isinstance(X, _native.Dataset):
        return ("dataset", X)
    if sp.issparse(X):
        if X.format != "csr":
            X = sp.csr_matrix(X)
        if X.dtype != np.float32:
            data = _float32(X.data, lambda k: (int(np.searchsorted(X.indptr, k, "right")) - 1, int(X.indices[k])))
            X = sp.csr_matrix((data, X.indices, X.indptr), shape=X.shape)
        if not X.has_canonical_format:
            # Sorted indices, duplicates summed, on a copy: the caller's
            # matrix is not changed.
            X = X.copy()
            X.sum_duplicates()
        indices = X.indices
        if indices.dtype == np.int32:
            indices = indices.view(np.uint32)
        else:
            indices = indices.astype(np.uint32)
        return ("csr", X.indptr.astype(np.uint64), indices, X.data)
    X = np.asarray(X)
    if X.dtype == np.float32:
        return ("dense", np.ascontiguousarray(X))
    return ("dense", np.ascontiguousarray(_float32(X, lambda k: np.unravel_index(k, X.shape))))


def _float32(values, where):
    """``values`` (an array) as float32; a finite value beyond float32's
    range is an error naming it and where ``where(flat index)`` says it is,
    not an infinity the engine would then report as the caller's."""
    with np.errstate(over="raise"):
        try:
            return values.astype(np.float32)
        except FloatingPointError:
            pass
    flat = values.ravel()
    k = int(np.flatnonzero(np.isfinite(flat) & (np.abs(flat) > np.finfo(np.float32).max))[0])
    row, column = (int(i) for i in where(k))
    raise ValueError(
        f"row {row}, column {column}: the value {float(flat[k])!r} is beyond float32's range "
        "(the engine learns in float32); scale the features"
    )


def _weights(sample_weight, X):
    """``sample_weight`` as the engine takes it: None (every row 1), or one
    float32 per row of ``X``, finite and non-negative (each row's update is
    scaled by its weight; 0 leaves the row out)."""
    if sample_weight is None:
        return None
    w = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight holds a value that is not finite")
    if np.any(w > np.finfo(np.float32).max):
        raise ValueError("sample_weight holds a value beyond float32's range (the engine learns in float32)")
    return np.ascontiguousarray(w, dtype=np.float32)


def _batch(rows):
    """``_rows``' result as the native ``*_each`` functions take a batch:
    the CSR arrays as a tuple, the array, or the dataset."""
    return tuple(rows[1:]) if rows[0] == "csr" else rows[1]


class RosenblattClassifier(ClassifierMixin, BaseEstimator):
    """An online linear classifier from the rosenblatt engine.

    Parameters
    ----------
    learner : str, default="averaged-perceptron"
        The learner, by the engine's name (``rosenblatt.learners()`` lists
        them): perceptron, batch-perceptron, averaged-perceptron,
        voted-perceptron, hinge-sgd, pegasos, logistic, winnow, eg, eg-pm,
        ftrl-randomized, ftrl-proximal, pa, pa1, pa2,
        multiclass-perceptron, multiclass-averaged-perceptron,
        kernel-perceptron, kernel-voted-perceptron,
        kernel-averaged-perceptron, multiclass-kernel-perceptron.
    max_iter : int, default=5
        Passes over the data in ``fit`` (a limit for batch-perceptron, which
        stops at a pass without mistakes). ``partial_fit`` makes one.
    eta, lam, C, alpha, beta, l1, l2, b, threshold, average, adaptive, normalized : float or None
        The learner's hyper-parameters (``lam`` is the engine's ``lambda``,
        ``C`` its ``c``); None takes the learner's default, which for some is
        derived from the data (``notes_`` says how). Giving one the learner
        does not take is an error at ``fit``.
    kernel, gamma, coef0, degree, budget : str, float or None
        The kernel learners' kernel ("rbf" or "poly"), its γ, the
        polynomial kernel's constant and degree, and the support rows'
        budget (0: none); None takes the defaults.
    shuffle : bool, default=True
        Each pass in a seeded random order; False: the rows' order.
    random_state : int, RandomState or None
        The seed of the order and of randomised learners' draws.
    parts : int, default=1
        Parts trained in parallel and mixed after every pass (iterative
        parameter mixing); 1 is the sequential algorithm. The model depends
        on this number, never on ``n_jobs``.
    n_jobs : int or None
        Threads (None or -1: one per core) for mixing parts, one-vs-rest
        and prediction.

    Binary learners on more than two classes train one model per class
    (one-vs-rest); the multiclass- learners take every class at once.
    """

    def __init__(
        self,
        learner="averaged-perceptron",
        max_iter=5,
        *,
        eta=None,
        lam=None,
        C=None,
        alpha=None,
        beta=None,
        l1=None,
        l2=None,
        b=None,
        threshold=None,
        average=None,
        adaptive=None,
        normalized=None,
        kernel=None,
        gamma=None,
        coef0=None,
        degree=None,
        budget=None,
        shuffle=True,
        random_state=None,
        parts=1,
        n_jobs=None,
    ):
        self.learner = learner
        self.max_iter = max_iter
        self.eta = eta
        self.lam = lam
        self.C = C
        self.alpha = alpha
        self.beta = beta
        self.l1 = l1
        self.l2 = l2
        self.b = b
        self.threshold = threshold
        self.average = average
        self.adaptive = adaptive
        self.normalized = normalized
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.budget = budget
        self.shuffle = shuffle
        self.random_state = random_state
        self.parts = parts
        self.n_jobs = n_jobs

    # -- scikit-learn's protocol ---------------------------------------

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = True
        # EG on the simplex and Winnow learn non-negative weights only: a
        # separator that needs a negative weight is out of their reach, as
        # on scikit-learn's generic check data. The multi-class Perceptron's
        # last iterate on those overlapping blobs scores 0.83 to 0.91 over
        # random_state 0 to 4, about the checks' bar of 0.83 (its averaged
        # form: 0.93).
        tags.classifier_tags.poor_score = self.learner in ("eg", "winnow", "multiclass-perceptron")
        return tags

    def __sklearn_is_fitted__(self):
        return hasattr(self, "_trainers")

    # -- configuration ---------------------------------------------------

    def _check_params(self):
        if self.learner not in _LEARNERS:
            raise ValueError(f"learner={self.learner!r}: not one of {', '.join(_LEARNERS)}")
        if not (isinstance(self.max_iter, numbers.Integral) and self.max_iter >= 1):
            raise ValueError(f"max_iter={self.max_iter!r}: give an int >= 1")
        if not (isinstance(self.parts, numbers.Integral) and self.parts >= 1):
            raise ValueError(f"parts={self.parts!r}: give an int >= 1")
        takes = _LEARNERS[self.learner]["params"]
        params = {}
        for attr, name in _HYPER.items():
            v = getattr(self, attr)
            if v is None:
                continue
            if name not in takes:
                raise ValueError(
                    f"{attr}={v!r}: {self.learner} does not take it; it takes "
                    + (", ".join(a for a, n in _HYPER.items() if n in takes) or "no hyper-parameters")
                )
            if name in _CHOICES:
                if v not in _CHOICES[name]:
                    raise ValueError(f"{attr}={v!r}: give one of {', '.join(map(repr, _CHOICES[name]))}")
                v = float(_CHOICES[name].index(v))
            if isinstance(v, bool):
                v = float(v)
            if not isinstance(v, numbers.Real):
                raise ValueError(f"{attr}={v!r}: give a number")
            params[name] = float(v)
        return params

    def _multiclass_learner(self):
        return _LEARNERS[self.learner]["multiclass"]

    def _one_model(self):
        """Whether one trainer takes every class (by index) when there are
        more than two."""
        return _LEARNERS[self.learner]["classes"]

    def _whole(self):
        return _LEARNERS[self.learner]["whole"]

    def _new_trainers(self, n_features, n_classes):
        params = self._check_params()
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        make = lambda classes: _native.Trainer(  # noqa: E731
            self.learner, params, n_features, classes, seed, bool(self.shuffle), int(self.parts)
        )
        if self._one_model() or n_classes == 2:
            return [make(n_classes)]
        return [make(2) for _ in range(n_classes)]

    # -- training ----------------------------------------------------------

    def _targets(self, y_index, n_classes):
        """Per trainer, the labels it learns: ±1 (binary, or one class
        against the rest) or class indices (multiclass- learners)."""
        if self._multiclass_learner() or (self._one_model() and n_classes > 2):
            return [y_index.astype(np.float32)]
        if n_classes == 2:
            return [np.where(y_index == 1, np.float32(1), np.float32(-1))]
        return [np.where(y_index == c, 1.0, -1.0).astype(np.float32) for c in range(n_classes)]

    def _learn(self, rows, y_index, passes, weights=None):
        jobs = _n_jobs(self.n_jobs)
        targets = self._targets(y_index, len(self.classes_))
        if len(self._trainers) > 1:
            # One-vs-rest: the rows checked once, the classes cut into a
            # group per n_jobs thread, each group learning together (one
            # read of each row for all its classes).
            return max(_native.learn_each(self._trainers, _batch(rows), targets, float(passes), jobs, weights))
        trainer, labels = self._trainers[0], targets[0]
        if rows[0] == "csr":
            return trainer.learn_csr(rows[1], rows[2], rows[3], labels, float(passes), jobs, weights)
        return trainer.learn_dense(rows[1], labels, float(passes), jobs, weights)

    def _learn_dataset(self, ds, passes):
        jobs = _n_jobs(self.n_jobs)
        if len(self._trainers) == 1:
            return self._trainers[0].learn_dataset(ds, float(passes), jobs)
        labels = ds.labels
        targets = [np.where(labels == c, np.float32(1), np.float32(-1)) for c in self._dataset_classes]
        return max(_native.learn_each(self._trainers, ds, targets, float(passes), jobs))

    def fit(self, X, y=None, sample_weight=None):
        """Trains a new model for ``max_iter`` passes over ``X`` (an array,
        a sparse matrix, or a ``rosenblatt.Dataset`` with ``y=None``).
        ``sample_weight`` scales each row's update (0 leaves it out); a
        Dataset carries its own (VW text's importance column)."""
        self._check_params()
        for attr in ("_trainers", "classes_", "n_iter_", "coef_", "intercept_", "n_features_in_", "notes_"):
            self.__dict__.pop(attr, None)
        if isinstance(X, _native.Dataset):
            if sample_weight is not None:
                raise ValueError("a Dataset carries its rows' weights: call fit(dataset) with sample_weight=None")
            return self._fit_dataset(X, y)
        X, y = _validate_xy(self, X, y, reset=True)
        weights = _weights(sample_weight, X)
        # np.unique(return_inverse=True) sorts every label; a search among
        # the few classes costs a fraction of that.
        classes = np.unique(y)
        y_index = np.searchsorted(classes, y)
        if len(classes) < 2:
            raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class")
        trainers = self._new_trainers(X.shape[1], len(classes))
        self.classes_ = classes
        self._trainers = trainers
        return self._run(lambda: self._learn(_rows(X), y_index, self.max_iter, weights), first=True)

    def _fit_dataset(self, ds, y):
        if y is not None:
            raise ValueError("a Dataset carries its labels: call fit(dataset) with y=None")
        classes = np.asarray(ds.classes(), dtype=np.float64)
        self._dataset_classes = classes
        binary = list(classes) == [-1.0, 1.0]
        n_classes = 2 if binary else len(classes)
        if self._multiclass_learner() and binary:
            raise ValueError(f"{self.learner} needs class-id labels; this dataset's labels are ±1")
        if self._one_model() and not binary and list(classes) != list(range(len(classes))):
            raise ValueError(f"{self.learner} on a Dataset needs class ids 0..k-1; its labels are {list(classes)}")
        self.n_features_in_ = int(ds.n_features)
        self._trainers = self._new_trainers(self.n_features_in_, n_classes)
        # Whole-number labels (±1, class ids) as ints, as fitting on the
        # same labels in an int array gives them.
        self.classes_ = classes.astype(np.int64) if np.array_equal(classes, np.round(classes)) else classes
        return self._run(lambda: self._learn_dataset(ds, self.max_iter), first=True)

    def _partial_fit_available(self):
        # The voted Perceptron's model keeps its mistaken rows by their
        # position in one batch, and the kernel learners train on the whole
        # set at once: they learn with fit only.
        return self.learner != "voted-perceptron" and not self._whole()

    @available_if(_partial_fit_available)
    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over the batch ``(X, y)``, rows weighing
        ``sample_weight`` as in ``fit``. The first call needs ``classes``
        (every label the stream will have)."""
        first = not hasattr(self, "_trainers")
        if first or not (_engine_ready(X) and isinstance(y, np.ndarray) and y.ndim == 1):
            X, y = _validate_xy(self, X, y, reset=first)
        elif X.shape[1] != self.n_features_in_:
            # A stream's later batches, already in the engine's form: the
            # engine checks them (finite values, indices), scikit-learn's
            # validation would cost more than learning from a small batch.
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input."
            )
        elif X.shape[0] != y.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels")
        weights = _weights(sample_weight, X)
        if first:
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit")
            classes = unique_labels(classes)
            if len(classes) < 2:
                raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class")
            self._check_params()
            trainers = self._new_trainers(X.shape[1], len(classes))
            self.classes_ = classes
            self._trainers = trainers
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes={classes!r} is not the classes of the first call, {self.classes_!r}")
        y_index = _index_of(self.classes_, y)
        if y_index is None:
            unknown = np.setdiff1d(np.unique(y), self.classes_)
            if first:
                self.__dict__.pop("_trainers", None)
            raise ValueError(f"labels {unknown!r} are not in classes {self.classes_!r}")
        return self._run(lambda: self._learn(_rows(X), y_index, 1, weights), first=first)

    def _run(self, learn, first):
        """Runs ``learn`` (it returns the passes run); a first call that
        fails leaves the estimator unfitted."""
        try:
            passes = learn()
        except BaseException:
            if first:
                self.__dict__.pop("_trainers", None)
            raise
        self.n_iter_ = passes if first else self.n_iter_ + passes
        self._fitted()
        return self

    def _fitted(self):
        coefs = [t.coef() for t in self._trainers]
        if len(coefs) == 1 and coefs[0] is not None:
            self.coef_, self.intercept_ = coefs[0]
        elif all(c is not None for c in coefs):
            self.coef_ = np.vstack([c[0] for c in coefs])
            self.intercept_ = np.concatenate([c[1] for c in coefs])
        if "notes_" not in self.__dict__:
            # Set by the first batch, which derives the defaults.
            self.notes_ = self._trainers[0].notes()

    # -- prediction --------------------------------------------------------

    def _scores(self, X):
        """The scores of every row: the margin (or vote), shape (n,), for
        one trainer, one column per trainer for one-vs-rest; for the
        multiclass- learners ``(None, X)`` (scored with NumPy)."""
        check_is_fitted(self)
        jobs = _n_jobs(self.n_jobs)
        if isinstance(X, _native.Dataset):
            if X.n_features > self.n_features_in_:
                raise ValueError(f"X has {X.n_features} features, but this model has {self.n_features_in_}")
            rows = ("dataset", X)
        else:
            # The engine checks every value it scores; the multiclass-
            # learners score with NumPy (X @ coef_.T), which would not.
            finite = self._multiclass_learner()
            X = validate_data(
                self, X, accept_sparse="csr", dtype=[np.float32, np.float64], reset=False, ensure_all_finite=finite
            )
            rows = _rows(X)
        if self._multiclass_learner() and not self._whole():
            return None, X
        if self._whole() and (self._multiclass_learner() or len(self.classes_) > 2):
            # Every output's score, one column per class.
            return self._trainers[0].outputs(_batch(rows), self.n_features_in_, jobs), rows
        if len(self._trainers) > 1:
            return _native.scores_each(self._trainers, _batch(rows), self.n_features_in_, jobs), rows
        t = self._trainers[0]
        if rows[0] == "csr":
            return t.predict_csr(rows[1], rows[2], rows[3], self.n_features_in_, jobs)[1], rows
        if rows[0] == "dense":
            return t.predict_dense(rows[1], jobs)[1], rows
        return t.predict_dataset(rows[1], jobs)[1], rows

    def decision_function(self, X):
        """Scores: the margin (the vote for voted-perceptron) of the positive
        class, shape (n,), for two classes; one column per class otherwise."""
        if self._multiclass_learner() and not self._whole() and isinstance(X, _native.Dataset):
            raise ValueError("decision_function of a multiclass- learner takes rows, not a Dataset")
        scores, X = self._scores(X)
        if scores is None:
            scores = np.asarray(X @ self.coef_.T) + self.intercept_
        if scores.ndim == 2 and len(self.classes_) == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """The predicted class of every row."""
        if self._multiclass_learner() and not self._whole() and isinstance(X, _native.Dataset):
            check_is_fitted(self)
            labels, _ = self._trainers[0].predict_dataset(X, _n_jobs(self.n_jobs))
            return self.classes_[labels.astype(int)]
        s = self.decision_function(X)
        if s.ndim == 1:
            return self.classes_[(s > 0).astype(int)]
        return self.classes_[np.argmax(s, axis=1)]

    def score(self, X, y=None, sample_weight=None):
        """Mean accuracy on ``(X, y)``, or on a ``rosenblatt.Dataset`` and
        its own labels (``y=None``)."""
        if isinstance(X, _native.Dataset):
            if y is not None:
                raise ValueError("a Dataset carries its labels: call score(dataset) with y=None")
            y = X.labels
        return super().score(X, y, sample_weight=sample_weight)

    def _proba_available(self):
        return _LEARNERS[self.learner]["probabilistic"]

    @available_if(_proba_available)
    def predict_proba(self, X):
        """Class probabilities, for the learners whose scores are log-odds
        (logistic, ftrl-proximal); one-vs-rest probabilities normalised."""
        s = self.decision_function(X).astype(np.float64)
        p = 1.0 / (1.0 + np.exp(-s))
        if p.ndim == 1:
            return np.column_stack([1.0 - p, p])
        return p / p.sum(axis=1, keepdims=True)

    @available_if(_proba_available)
    def predict_log_proba(self, X):
        """The log of ``predict_proba``."""
        return np.log(self.predict_proba(X))

    # -- pickling through the model bytes ------------------------------------

    def __getstate__(self):
        state = super().__getstate__()
        if "_trainers" in state:
            state = dict(state)
            state["_trainers"] = [t.model_bytes() for t in state["_trainers"]]
        return state

    def __setstate__(self, state):
        if "_trainers" in state:
            state = dict(state)
            state["_trainers"] = [_native.Trainer.from_model_bytes(b) for b in state["_trainers"]]
        super().__setstate__(state)


__all__ = ["RosenblattClassifier", "learners", "NotFittedError"]
