//! Loss functions of a margin `y·m`: their values (for reports and the
//! pocket) and the factor of their (sub)gradient that drives an update.
//! The bottom layer: it depends on nothing else in the crate.

/// The loss whose (sub)gradient drives the updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// `max(0, 1 − y·m)`: update when `y·m ≤ 1`.
    Hinge,
    /// `max(0, −y·m)`: update when `y·m ≤ 0` (the Perceptron).
    Perceptron,
    /// `ln(1 + e^(−y·m))`: every step, by `y·σ(−y·m)`.
    Logistic,
}

impl Loss {
    /// The loss at margin `y·m`, in f64.
    pub fn value(self, ym: f64) -> f64 {
        match self {
            Loss::Hinge => (1.0 - ym).max(0.0),
            Loss::Perceptron => (-ym).max(0.0),
            Loss::Logistic => {
                if ym > 0.0 {
                    (-ym).exp().ln_1p()
                } else {
                    -ym + ym.exp().ln_1p()
                }
            }
        }
    }

    /// `−∂loss/∂m · y`: the factor `g` of the update `w += η·g·y·x`.
    #[inline]
    pub fn gradient_factor(self, ym: f32) -> f32 {
        match self {
            Loss::Hinge => f32::from(u8::from(ym <= 1.0)),
            Loss::Perceptron => f32::from(u8::from(ym <= 0.0)),
            // σ(−ym), computed without overflow.
            Loss::Logistic => {
                if ym >= 0.0 {
                    let e = (-ym).exp();
                    e / (1.0 + e)
                } else {
                    1.0 / (1.0 + ym.exp())
                }
            }
        }
    }
}
