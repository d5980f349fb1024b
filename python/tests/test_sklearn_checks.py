"""scikit-learn's own estimator checks, for every learner."""

from sklearn.utils.estimator_checks import parametrize_with_checks

import rosenblatt
from rosenblatt import RosenblattClassifier

# Winnow takes binary features only and the checks feed real-valued ones:
# it is checked in test_estimator.py on binary data.
LEARNERS = sorted(name for name in rosenblatt.learners() if name != "winnow")

# Checks declared as expected failures, per learner, each one that
# scikit-learn also declares for its own Perceptron or SGDClassifier.
# Weight k scales a row's update by k; k repeats of the row are k online
# steps, each from where the last left the model (and a shuffled order of
# more rows is another order): equal only in the limits the Rust suite
# states (crates/learners/tests/weights.rs).
_SAMPLE_WEIGHT = "sample_weight is not equivalent to removing/repeating samples."
EXPECTED_FAILURES = {
    name: {
        "check_sample_weight_equivalence_on_dense_data": _SAMPLE_WEIGHT,
        "check_sample_weight_equivalence_on_sparse_data": _SAMPLE_WEIGHT,
    }
    for name in LEARNERS
}


def _expected(estimator):
    return EXPECTED_FAILURES.get(estimator.learner, {})


@parametrize_with_checks(
    [RosenblattClassifier(learner=name, random_state=0) for name in LEARNERS],
    expected_failed_checks=_expected,
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
