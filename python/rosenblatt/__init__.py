"""rosenblatt: online linear classifiers at memory speed, for scikit-learn.

``RosenblattClassifier`` is a scikit-learn classifier over the Rust engine:
the Perceptron and its voted and averaged forms, Winnow, exponentiated
gradient, hinge and logistic SGD, Pegasos, FTRL and passive-aggressive.
``load_svmlight_file`` reads LIBSVM text with the engine's parallel parser;
``convert`` writes LIBSVM text as a directory of binary shards, and
``Dataset`` maps one so that ``fit`` trains on it without loading it into
Python.
"""

from ._native import Dataset, convert, version
from ._estimator import RosenblattClassifier, learners
from ._io import load_svmlight_file

__all__ = ["RosenblattClassifier", "Dataset", "convert", "load_svmlight_file", "learners", "version"]
