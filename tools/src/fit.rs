//! What the fitters (`eval-tune`, `train`) share: the choice of held-out
//! games, the logistic function, and the Adam optimiser over a dense parameter vector.

/// Whether game number `game` is held out: about one game in `every`, chosen by `seed`.
pub fn is_held_out(seed: u64, game: usize, every: u64) -> bool {
    let mut h = seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h ^ h >> 29).is_multiple_of(every)
}

/// The logistic function: the winning chance of an evaluation in logistic units.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam's moment decay rates.
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;

/// Adam's state for `n` parameters.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
        }
    }

    /// One step of size `rate` down the gradient `g` plus an L2 pull `l2 * w`.
    pub fn step(&mut self, w: &mut [f64], g: &[f64], rate: f64, l2: f64) {
        self.steps += 1;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        for i in 0..w.len() {
            let gi = g[i] + l2 * w[i];
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * gi;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * gi * gi;
            w[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_down_a_quadratic_and_hold_out_is_a_share() {
        let mut w = vec![5.0, -3.0];
        let mut adam = Adam::new(2);
        for _ in 0..2000 {
            let g: Vec<f64> = w.iter().map(|x| 2.0 * x).collect();
            adam.step(&mut w, &g, 0.05, 0.0);
        }
        assert!(w.iter().all(|x| x.abs() < 0.05), "{w:?}");
        let held = (0..10_000).filter(|&g| is_held_out(7, g, 10)).count();
        assert!((800..1200).contains(&held), "{held}");
        assert_eq!(sigmoid(0.0), 0.5);
        assert!((sigmoid(2.0) + sigmoid(-2.0) - 1.0).abs() < 1e-15);
    }
}
