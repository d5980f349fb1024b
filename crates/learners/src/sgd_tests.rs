//! Sgd's bit-for-bit checks of its internal shortcuts: held updates of the
//! running sum, and the state in cells.

use super::*;
use crate::Lifted;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rosenblatt_kernels::{DenseRow, SparseRow, U8Values};

fn bits(m: &LinearModel) -> Vec<u32> {
    m.weights.iter().chain([&m.bias]).map(|x| x.to_bits()).collect()
}

/// Holding back the updates of the running sum leaves every bit as
/// updating it at once, under the schedules that hold them (Pegasos'
/// first step zeroes `v` through a fold; a dense row between sparse
/// ones flushes): the average compared after every step, through
/// mixing's save and load, and at the end. Adaptive steps hold none.
#[test]
fn deferring_the_running_sums_updates_changes_no_bit() {
    let d = 300;
    for schedule in [Schedule::Adaptive, Schedule::Normalized] {
        let p = SgdParams { average: true, schedule, ..SgdParams::default() };
        assert!(!Sgd::new(1 << 17, p).unwrap().held.is_on(), "{schedule:?}");
    }
    let schedules = [
        SgdParams { average: true, ..SgdParams::pegasos(0.01) },
        SgdParams { average: true, lambda: 0.001, ..SgdParams::default() },
        SgdParams { average: true, loss: Loss::Logistic, schedule: Schedule::InverseK, ..SgdParams::default() },
    ];
    for p in schedules {
        assert!(Sgd::new(1 << 17, p).unwrap().held.is_on(), "{p:?}");
        let mut l = [Sgd::new(d, p).unwrap(), Sgd::new(d, p).unwrap()];
        assert!(!l[1].held.is_on());
        l[0].held = Deferred::new(true);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let dense: Vec<f32> = (0..d).map(|i| (i % 5) as f32 * 0.2 - 0.4).collect();
        for step in 0..600 {
            let mut ix: Vec<u32> = (0..25).map(|_| rng.random_range(0..d as u32)).collect();
            ix.sort_unstable();
            ix.dedup();
            let vals: Vec<f32> = ix.iter().map(|_| rng.random_range(-3.0f32..3.0)).collect();
            let bytes: Vec<u8> = ix.iter().map(|_| rng.random_range(0u8..=255)).collect();
            let y = if rng.random_range(0..2) == 0 { -1.0 } else { 1.0 };
            for l in &mut l {
                match step % 7 {
                    0 if step % 70 == 0 => l.learn(&DenseRow::new(&dense[..]), y, 1.0, step),
                    1 | 2 => l.learn(&SparseRow::try_new(d, &ix, U8Values::new(&bytes, 0.03)).unwrap(), y, 1.0, step),
                    _ => l.learn(&SparseRow::try_new(d, &ix, &vals[..]).unwrap(), y, 1.0, step),
                };
            }
            assert_eq!(bits(&l[0].model()), bits(&l[1].model()), "{p:?}: the average after step {step}");
            if step == 300 {
                let mut s = [MixState::default(), MixState::default()];
                l.iter_mut().zip(&mut s).for_each(|(l, s)| l.save_state(s));
                assert_eq!(s[0].total, s[1].total, "{p:?}: the saved sums");
                l.iter_mut().zip(&s).for_each(|(l, s)| l.load_state(s));
            }
        }
        assert!(l[0].held.held() > 0, "{p:?}: updates are held at the end");
        l[0].held.flush(&mut l[0].avg.u);
        let ubits = |l: &Sgd| l.avg.u.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(ubits(&l[0]), ubits(&l[1]), "{p:?}: the running sums");
    }
}

/// The state in cells (`[v_i, G_i]` for AdaGrad, `[v_i, G_i, s_i, unused]`
/// for NAG: adaptive steps over a large dimension) and in separate arrays
/// give the same bits: AdaGrad and NAG, with and without averaging and a
/// bias, on sparse rows of floats and bytes, dense rows and lifted rows;
/// the model after every step, the state mixing saves and a checkpoint's
/// bytes mid-run, and a checkpoint of one layout restored into the other.
#[test]
fn state_in_cells_changes_no_bit() {
    let d = 300;
    let mut checked = 0;
    for schedule in [Schedule::Adaptive, Schedule::Normalized] {
        for average in [false, true] {
            for bias in [Bias::Explicit, Bias::None] {
                let p = SgdParams { schedule, average, bias, loss: Loss::Logistic, ..SgdParams::default() };
                assert!(matches!(Sgd::new(1 << 17, p).unwrap().v, Coords::Cells { .. }), "{p:?}: cells when large");
                let mut l = [Sgd::new(d, p).unwrap(), Sgd::new(d, p).unwrap()];
                assert!(matches!(l[0].v, Coords::Split { .. }), "{p:?}: two arrays when small");
                l[1].v = Coords::new(d, true, schedule == Schedule::Normalized, true).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
                let dense: Vec<f32> = (0..d).map(|i| (i % 7) as f32 * 0.3 - 0.9).collect();
                for step in 0..400 {
                    let mut ix: Vec<u32> = (0..25).map(|_| rng.random_range(0..d as u32 - 1)).collect();
                    ix.sort_unstable();
                    ix.dedup();
                    let vals: Vec<f32> = ix.iter().map(|_| rng.random_range(-3.0f32..3.0)).collect();
                    let bytes: Vec<u8> = ix.iter().map(|_| rng.random_range(0u8..=255)).collect();
                    let y = if rng.random_range(0..2) == 0 { -1.0 } else { 1.0 };
                    let h = [1.0, 0.5, 3.0][step % 3];
                    for l in &mut l {
                        match step % 9 {
                            0 if step % 45 == 0 => l.learn(&DenseRow::new(&dense[..]), y, h, step),
                            1 | 2 => {
                                l.learn(&SparseRow::try_new(d, &ix, U8Values::new(&bytes, 0.03)).unwrap(), y, h, step)
                            }
                            3 => l.learn(&Lifted(SparseRow::try_new(d - 1, &ix, &vals[..]).unwrap()), y, h, step),
                            _ => l.learn(&SparseRow::try_new(d, &ix, &vals[..]).unwrap(), y, h, step),
                        };
                    }
                    assert_eq!(bits(&l[0].model()), bits(&l[1].model()), "{p:?}: the model after step {step}");
                    if step == 200 {
                        let mut s = [MixState::default(), MixState::default()];
                        l.iter_mut().zip(&mut s).for_each(|(l, s)| l.save_state(s));
                        assert_eq!(s[0].total, s[1].total, "{p:?}: the saved sums");
                        assert_eq!(s[0].mean, s[1].mean, "{p:?}: the saved means");
                        l.iter_mut().zip(&s).for_each(|(l, s)| l.load_state(s));
                        let saved = l.each_mut().map(crate::state::save);
                        assert_eq!(saved[0], saved[1], "{p:?}: the checkpoints");
                        // Each restored from the other's bytes.
                        crate::state::restore(&mut l[0], &saved[1]).unwrap();
                        crate::state::restore(&mut l[1], &saved[0]).unwrap();
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8);
}
