//! The registry: every learner by name, its hyper-parameters validated into
//! a typed configuration, built and trained.

mod common;
use common::{generate, seq};
use rosenblatt_learners::{
    AnyModel, DataFacts, HyperParams, LearnError, Learner, Mixable, OnlineLearner, Param, ParamDefault, Scales, Visit,
    train,
};

fn facts(dim: usize, classes: usize) -> DataFacts<'static> {
    DataFacts { dim, classes, steps: 100, scales: &|| Scales { max_norm: 2.0, max_abs: 0.5 }, spread: &|| 8.0 }
}

#[test]
fn names_round_trip_and_are_unique() {
    let mut names: Vec<&str> = Learner::ALL.iter().map(|l| l.name()).collect();
    for l in Learner::ALL {
        assert_eq!(Learner::from_name(l.name()), Ok(l));
        assert_eq!(l.name().parse::<Learner>(), Ok(l));
        // serde writes the same name (model files store it).
        let json = format!("\"{}\"", l.name());
        assert_eq!(serde_json_like(&json), l.name());
        assert!(!l.about().is_empty());
    }
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Learner::ALL.len());
    let e = Learner::from_name("perceptorn").unwrap_err();
    assert!(
        matches!(&e, LearnError::UnknownLearner { name, known } if name == "perceptorn" && known.contains("averaged-perceptron"))
    );
}

/// The name inside a JSON string (the serde form is checked end to end by
/// the model-file tests; here only that names are plain kebab-case).
fn serde_json_like(s: &str) -> &str {
    let inner = s.trim_matches('"');
    assert!(inner.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{inner}");
    inner
}

#[test]
fn a_hyper_parameter_the_learner_does_not_take_is_refused_by_name() {
    let given = HyperParams::default().with(Param::Lambda, 0.5);
    let e = Learner::Perceptron.configure(&given, &facts(4, 2), 0).unwrap_err();
    assert_eq!(e.to_string(), "perceptron takes no `lambda` (it takes eta)");
    let e = Learner::Pa.configure(&HyperParams::default().with(Param::C, 1.0), &facts(4, 2), 0).unwrap_err();
    assert!(e.to_string().contains("it takes no hyper-parameters"), "{e}");
    // Out of range: the learner's own check, before any data is read.
    let e = Learner::Pegasos.configure(&HyperParams::default().with(Param::Lambda, 0.0), &facts(4, 2), 0).unwrap_err();
    assert!(e.to_string().contains("lambda = 0"), "{e}");
    let e = Learner::Winnow.configure(&HyperParams::default().with(Param::Alpha, 0.5), &facts(4, 2), 0).unwrap_err();
    assert!(e.to_string().contains("alpha = 0.5"), "{e}");
}

#[test]
fn defaults_are_filled_in_and_recorded() {
    for l in Learner::ALL {
        let c = l.configure(&HyperParams::default(), &facts(7, if l.multiclass() { 3 } else { 2 }), 0).unwrap();
        assert_eq!(c.learner, l);
        for &(p, d) in l.params() {
            // The facts: d = 7, T = 100, R = 2, max |x_i| = 0.5, d·Var = 8.
            let want = match d {
                // The Gaussian kernel by default; the polynomial one's
                // parameters are not recorded with it.
                _ if l.kernel() && matches!(p, Param::Coef0 | Param::Degree) => {
                    assert!(!c.params.iter().any(|r| r.0 == p.name()), "{l}: {}", p.name());
                    continue;
                }
                ParamDefault::KernelGamma { rbf, .. } => rbf / 8.0,
                ParamDefault::Value(v) => v,
                ParamDefault::Dimension => 7.0,
                ParamDefault::DimOverMaxAbs => 14.0,
                ParamDefault::EgRate => (2.0 * 14f64.ln() / 100.0).sqrt() / 0.5,
                ParamDefault::OverRSquared(c) => c / 4.0,
                // AdaGrad's steps are the default where they are offered.
                ParamDefault::ByStep { adaptive, .. } => adaptive,
            };
            let got = c.params.iter().find(|r| r.0 == p.name()).map(|r| r.1);
            assert_eq!(got, Some(want), "{l}: {}", p.name());
        }
    }
    let c = Learner::FtrlRandomized.configure(&HyperParams::default(), &facts(3, 2), 0).unwrap();
    assert_eq!(c.params, vec![("r", 2.0)]);
    // Derived defaults say how they were derived; given values say nothing.
    let c = Learner::EgPm.configure(&HyperParams::default(), &facts(7, 2), 0).unwrap();
    assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
    assert!(c.notes[0].starts_with("b = 14: d / max |x_i|; here d = 7, max |x_i| = 0.5"), "{:?}", c.notes);
    assert!(c.params.contains(&("bias_input", 0.5)), "{:?}", c.params);
    let c = Learner::EgPm.configure(&HyperParams::default().with(Param::B, 2.0).with(Param::Eta, 0.1), &facts(7, 2), 0);
    assert!(c.unwrap().notes.is_empty());
    // Turning adaptive steps off changes the step size's default.
    let c = Learner::Logistic.configure(&HyperParams::default().with(Param::Adaptive, 0.0), &facts(3, 2), 0).unwrap();
    assert!(c.params.contains(&("eta", 1.0)), "{:?}", c.params);
    // Normalised steps take their own (η0 = 1); they are adaptive, and
    // refuse to be anything else.
    let c = Learner::Logistic.configure(&HyperParams::default().with(Param::Normalized, 1.0), &facts(3, 2), 0).unwrap();
    assert!(c.params.contains(&("eta", 1.0)) && c.params.contains(&("normalized", 1.0)), "{:?}", c.params);
    let off = HyperParams::default().with(Param::Normalized, 1.0).with(Param::Adaptive, 0.0);
    let e = Learner::HingeSgd.configure(&off, &facts(3, 2), 0).unwrap_err().to_string();
    assert!(e.contains("adaptive") && e.contains("normalized"), "{e}");
    // A given value wins over the default.
    let c = Learner::HingeSgd.configure(&HyperParams::default().with(Param::Eta, 0.25), &facts(3, 2), 0).unwrap();
    assert!(c.params.contains(&("eta", 0.25)) && c.params.contains(&("lambda", 0.0)));
    // The polynomial kernel takes γ = 1, c = 1, d = 4 by default, and its
    // parameters only with it.
    let poly = HyperParams::default().with(Param::Kernel, 1.0);
    let c = Learner::KernelPerceptron.configure(&poly, &facts(3, 2), 0).unwrap();
    for want in [("kernel", 1.0), ("gamma", 1.0), ("coef0", 1.0), ("degree", 4.0), ("budget", 0.0)] {
        assert!(c.params.contains(&want), "{want:?} in {:?}", c.params);
    }
    let e = Learner::KernelPerceptron.configure(&HyperParams::default().with(Param::Degree, 3.0), &facts(3, 2), 0);
    assert!(e.unwrap_err().to_string().contains("kernel = poly"));
    for (p, v) in [(Param::Kernel, 2.0), (Param::Degree, 2.5), (Param::Degree, 17.0), (Param::Gamma, 0.0)] {
        let e = Learner::KernelAveragedPerceptron.configure(&poly.with(p, v), &facts(3, 2), 0).unwrap_err();
        assert!(e.to_string().contains(p.name()), "{e}");
    }
    let e = Learner::KernelVotedPerceptron.configure(&HyperParams::default().with(Param::Budget, 9.0), &facts(3, 2), 0);
    assert!(e.unwrap_err().to_string().contains("budget"));
    assert_eq!(Param::Kernel.show(1.0), "poly");
    assert_eq!(Param::Gamma.show(0.5), "0.5");
}

/// Trains whatever it is handed for one pass, and says how it was handed.
struct TrainOne<'a>(&'a rosenblatt_learners::InMemoryExamples);

impl Visit for TrainOne<'_> {
    type Out = (bool, AnyModel);
    fn mixable<L: Mixable>(self, mut l: L) -> Self::Out
    where
        L::Model: Into<AnyModel>,
    {
        train(&mut l, &self.0, &seq(1.0)).unwrap();
        (true, l.model().into())
    }
    fn single<L: OnlineLearner + Send>(self, mut l: L) -> Self::Out
    where
        L::Model: Into<AnyModel>,
    {
        train(&mut l, &self.0, &seq(1.0)).unwrap();
        (false, l.model().into())
    }
}

#[test]
fn every_learner_builds_and_trains_and_the_registry_says_what_it_is() {
    let (binary, _) = generate(200, 6, 0.0, 0.1, true, 5);
    let mut multi = rosenblatt_learners::InMemoryExamples::new(6);
    for i in 0..200usize {
        multi.push(&[(i % 6) as u32], &[1.0], (i % 3) as f32).unwrap();
    }
    // Winnow's own regime: binary features.
    let mut ones = rosenblatt_learners::InMemoryExamples::new(6);
    for i in 0..200usize {
        let y = if i % 6 < 2 { 1.0 } else { -1.0 };
        ones.push(&[(i % 6) as u32], &[1.0], y).unwrap();
    }
    for l in Learner::ALL {
        if l.kernel() {
            // Not an online learner: trained whole (tests/kernel.rs).
            let c = l.configure(&HyperParams::default(), &facts(6, 2), 0).unwrap();
            let e = c.config.build(6, TrainOne(&binary)).unwrap_err();
            assert_eq!(e, LearnError::WholeData { learner: l.name() });
            assert!(!l.mixes(), "{l}");
            continue;
        }
        let data = match l {
            _ if l.multiclass() => &multi,
            Learner::Winnow => &ones,
            _ => &binary,
        };
        let c = l.configure(&HyperParams::default(), &facts(6, if l.multiclass() { 3 } else { 2 }), 0).unwrap();
        let (mixable, model) = c.config.build(6, TrainOne(data)).unwrap();
        // A learner that mixes has a mixable state (the batch Perceptron is
        // a Perceptron: mixable, but trained in one part).
        if l.mixes() {
            assert!(mixable, "{l}");
        }
        match model {
            AnyModel::Multiclass(_) => assert!(l.multiclass(), "{l}"),
            AnyModel::Voted(_) => assert_eq!(l, Learner::VotedPerceptron),
            AnyModel::Linear(_) => assert!(!l.multiclass(), "{l}"),
        }
    }
}

/// A dimension no allocation can hold (a LIBSVM index near 2^32 on a small
/// machine; here past what any address space takes) is an error naming the
/// size, for every learner, never an abort of the process.
#[test]
fn a_state_too_large_to_allocate_is_an_error_not_an_abort() {
    struct Built;
    impl Visit for Built {
        type Out = ();
        fn mixable<L: Mixable>(self, _: L) {}
        fn single<L: OnlineLearner + Send>(self, _: L) {}
    }
    let dim = usize::MAX / 4;
    for l in Learner::ALL.into_iter().filter(|l| !l.kernel()) {
        let c = l.configure(&HyperParams::default(), &facts(dim, if l.multiclass() { 3 } else { 2 }), 0);
        let e = match c {
            Ok(c) => c.config.build(dim, Built).unwrap_err(),
            Err(e) => e,
        };
        assert!(matches!(e, LearnError::TooLarge { values, .. } if values >= dim), "{l}: {e}");
        assert!(e.to_string().contains("hash or renumber the features"), "{l}: {e}");
    }
}
