//! Match statistics: score, Elo difference with a 95 % interval, LOS, pentanomial counts of
//! game pairs, and the generalized SPRT (GSPRT) with logistic or normalized Elo bounds.
//!
//! GSPRT (normal approximation of the log-likelihood ratio, as used by fishtest and
//! fastchess): for N observations with empirical mean `m` and variance `v`, testing
//! H0: mean = mu0 against H1: mean = mu1,
//! `LLR = N (mu1 - mu0) (2 m - mu0 - mu1) / (2 v)`.
//! An observation is one game's score (trinomial) or the average score of a game pair
//! (pentanomial). Logistic Elo `e` means an expected score `1 / (1 + 10^(-e/400))`;
//! normalized Elo `n` means `0.5 + n / (800 / ln 10) * sigma` with `sigma` the per-game
//! standard deviation.

/// Wins, losses and draws from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Wld {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction (wins + draws / 2) / games; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Adds one game result given as the first engine's score (1, 0.5 or 0).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Counts of game pairs by the first engine's total score: 0, 0.5, 1, 1.5, 2.
pub type Pentanomial = [u32; 5];

/// Index into [`Pentanomial`] for a pair total (0..=2 in half points).
pub fn pentanomial_index(pair_score: f64) -> usize {
    ((pair_score * 2.0).round() as i64).clamp(0, 4) as usize
}

/// Elo difference for an expected score `s` (logistic model); ±infinity at 1 and 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// An Elo estimate with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower and upper ends of the 95 % interval.
    pub lo: f64,
    pub hi: f64,
    /// Likelihood of superiority (probability the first engine is stronger), 0..1.
    pub los: f64,
}

impl EloEstimate {
    /// Half the width of the interval (the `±` figure).
    pub fn margin(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// Mean and population variance of a discrete distribution given as (value, weight) pairs.
fn mean_var(points: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = points.iter().map(|p| p.1).sum();
    if n <= 0.0 {
        return (0.0, 0.5, 0.0);
    }
    let m = points.iter().map(|p| p.0 * p.1).sum::<f64>() / n;
    let v = points.iter().map(|p| (p.0 - m).powi(2) * p.1).sum::<f64>() / n;
    (n, m, v)
}

fn trinomial_points(r: &Wld) -> [(f64, f64); 3] {
    [
        (0.0, r.losses as f64),
        (0.5, r.draws as f64),
        (1.0, r.wins as f64),
    ]
}

fn pentanomial_points(p: &Pentanomial) -> [(f64, f64); 5] {
    [
        (0.0, p[0] as f64),
        (0.25, p[1] as f64),
        (0.5, p[2] as f64),
        (0.75, p[3] as f64),
        (1.0, p[4] as f64),
    ]
}

fn estimate(points: &[(f64, f64)], los: f64) -> Option<EloEstimate> {
    let (n, m, v) = mean_var(points);
    if n <= 0.0 {
        return None;
    }
    let se = (v / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(m),
        lo: elo_from_score(m - Z95 * se),
        hi: elo_from_score(m + Z95 * se),
        los,
    })
}

/// Likelihood of superiority from wins and losses (draws carry no information).
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * (wins + losses) as f64).sqrt()))
}

/// Elo estimate from game results (each game an independent observation).
pub fn elo_trinomial(r: &Wld) -> Option<EloEstimate> {
    estimate(&trinomial_points(r), los(r.wins, r.losses))
}

/// Elo estimate from game pairs (each pair, same opening with colours swapped, one observation).
pub fn elo_pentanomial(p: &Pentanomial, r: &Wld) -> Option<EloEstimate> {
    estimate(&pentanomial_points(p), los(r.wins, r.losses))
}

/// How SPRT Elo bounds are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Ordinary (logistic) Elo.
    Logistic,
    /// Normalized Elo (fishtest's nElo): Elo scaled by the result variance.
    Normalized,
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    pub model: EloModel,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl SprtConfig {
    /// Parses `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
    pub fn parse(s: &str, model: EloModel) -> Result<SprtConfig, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("bad number {t:?} in --sprt"))
            })
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match v.as_slice() {
            [a, b] => (*a, *b, 0.05, 0.05),
            [a, b, c, d] => (*a, *b, *c, *d),
            _ => return Err("--sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA".into()),
        };
        if elo1 <= elo0 {
            return Err("--sprt needs ELO0 < ELO1".into());
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err("--sprt ALPHA and BETA must be in (0, 0.5)".into());
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// LLR from trinomial game results.
    pub fn llr_trinomial(&self, r: &Wld) -> f64 {
        self.llr(&trinomial_points(r), false)
    }

    /// LLR from pentanomial pair counts.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&pentanomial_points(p), true)
    }

    fn llr(&self, points: &[(f64, f64)], pairs: bool) -> f64 {
        if points.iter().all(|p| p.1 == 0.0) {
            return 0.0;
        }
        // Regularize empty buckets (as fishtest does) so a one-sided run still has variance.
        let reg: Vec<(f64, f64)> = points.iter().map(|&(x, w)| (x, w.max(1e-3))).collect();
        let (n, m, v) = mean_var(&reg);
        if v <= 0.0 {
            return 0.0;
        }
        let (mu0, mu1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                let sigma_pg = if pairs { (2.0 * v).sqrt() } else { v.sqrt() };
                let k = std::f64::consts::LN_10 / 800.0;
                (
                    0.5 + self.elo0 * k * sigma_pg,
                    0.5 + self.elo1 * k * sigma_pg,
                )
            }
        };
        n * (mu1 - mu0) * (2.0 * m - mu0 - mu1) / (2.0 * v)
    }

    /// Decision for a given LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_known_values() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_864_9, 1e-9));
        assert!(close(elo_from_score(0.64), 100.0, 0.1));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_877_8, 2e-7));
        assert!(close(los(10, 10), 0.5, 1e-7));
        // W=60, L=40: z = 20 / sqrt(100) = 2 → Φ(2) = 0.97725
        assert!(close(los(60, 40), 0.977_249_868, 1e-6));
    }

    #[test]
    fn trinomial_interval() {
        // 30 W, 40 D, 30 L: mean 0.5, per-game var 0.15, se = sqrt(0.0015).
        let r = Wld {
            wins: 30,
            losses: 30,
            draws: 40,
        };
        let e = elo_trinomial(&r).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        let se = 0.0015f64.sqrt();
        assert!(close(e.hi, elo_from_score(0.5 + Z95 * se), 1e-9));
        assert!(close(e.hi, 53.158, 0.001), "{}", e.hi);
        assert!(close(e.lo, -e.hi, 1e-9));
        assert_eq!(r.score(), 0.5);
        assert!(elo_trinomial(&Wld::default()).is_none());
    }

    #[test]
    fn pentanomial_interval_is_tighter_for_correlated_pairs() {
        // 50 pairs all 1-1 (each side wins with Black): pair var 0 → tiny interval;
        // trinomial sees 50 W, 50 L with a wide interval.
        let r = Wld {
            wins: 50,
            losses: 50,
            draws: 0,
        };
        let p = [0, 0, 50, 0, 0];
        let e5 = elo_pentanomial(&p, &r).unwrap();
        let e3 = elo_trinomial(&r).unwrap();
        assert!(e5.margin() < 1e-9 && e3.margin() > 50.0);
        assert_eq!(pentanomial_index(1.5), 3);
        assert_eq!(pentanomial_index(0.0), 0);
    }

    #[test]
    fn sprt_bounds_and_llr_known_values() {
        let s = SprtConfig::parse("0,10", EloModel::Logistic).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979_166_440_5, 1e-12));
        assert!(close(hi, 2.944_438_979_166_440_5, 1e-12));
        // 60 W, 30 D, 10 L, logistic 0..10: values computed independently (python reimplementation).
        let r = Wld {
            wins: 60,
            losses: 10,
            draws: 30,
        };
        assert!(close(s.llr_trinomial(&r), 3.105_156_006_565_774, 1e-6));
        let n = SprtConfig::parse("0,10", EloModel::Normalized).unwrap();
        assert!(close(n.llr_trinomial(&r), 2.103_885_917_642_043, 1e-6));
        // Pentanomial counts [2, 5, 20, 15, 8] with logistic -5,5.
        let p = SprtConfig::parse("-5,5,0.1,0.2", EloModel::Logistic).unwrap();
        assert!(close(
            p.llr_pentanomial(&[2, 5, 20, 15, 8]),
            1.258_281_379_961_288,
            1e-6
        ));
        assert!(close(p.bounds().0, (0.2f64 / 0.9).ln(), 1e-12));
        assert_eq!(s.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
    }

    #[test]
    fn sprt_one_sided_runs_decide() {
        let s = SprtConfig::parse("0,20", EloModel::Logistic).unwrap();
        let all_wins = Wld {
            wins: 12,
            losses: 0,
            draws: 0,
        };
        assert_eq!(s.decide(s.llr_trinomial(&all_wins)), SprtDecision::AcceptH1);
        let all_losses = Wld {
            wins: 0,
            losses: 12,
            draws: 0,
        };
        assert_eq!(
            s.decide(s.llr_trinomial(&all_losses)),
            SprtDecision::AcceptH0
        );
        assert_eq!(s.llr_trinomial(&Wld::default()), 0.0);
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(SprtConfig::parse("10,0", EloModel::Logistic).is_err());
        assert!(SprtConfig::parse("0", EloModel::Logistic).is_err());
        assert!(SprtConfig::parse("0,5,0.6,0.05", EloModel::Logistic).is_err());
        assert!(SprtConfig::parse("0,x", EloModel::Logistic).is_err());
    }
}
