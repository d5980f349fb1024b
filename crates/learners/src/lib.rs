//! The learning algorithms: each holds its state, predicts a margin for a row
//! and updates from (row, label), reading rows through the
//! [`rosenblatt_kernels::Row`] trait. It depends on the row types in the
//! kernels crate, never on the loader, so any source of checked rows can
//! train a model. The algorithms arrive with the learner issues.
