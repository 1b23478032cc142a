//! Integer inference of the network's parts: a cell's activation from its four line keys,
//! and the heads (value, policy weights) from the pooled activations. Plain fixed-size loops
//! that the compiler vectorises; `board/features.rs` runs the per-cell part inside an AVX2
//! function where the processor has it, and [`Heads::hidden`] the heads with AVX2's 16-bit
//! multiply-adds.

use super::{CountColumns, Network, ACT_ONE, CHANNELS, HIDDEN, POOL_SHIFT};

/// One side to move's head weights (integer scales in [`super`]).
#[derive(Clone, Debug)]
pub struct Heads {
    pub(super) w1: [[i16; CHANNELS]; HIDDEN],
    pub(super) b1: [i32; HIDDEN],
    pub(super) w2: [[i16; HIDDEN]; HIDDEN],
    pub(super) b2: [i32; HIDDEN],
    pub(super) w3: [i16; HIDDEN],
    pub(super) b3: i32,
    pub(super) p: [i16; CHANNELS],
    pub(super) u: [[i16; HIDDEN]; CHANNELS],
}

/// What the heads make of one position: the value logit and the first hidden layer (the
/// policy's context).
#[derive(Clone, Copy, Debug)]
pub struct Hidden {
    /// Value logit for the side to move, [`super::VALUE_ONE`] = 1.0.
    pub value: i32,
    /// First hidden layer, [`ACT_ONE`] = 1.0.
    pub h1: [i16; HIDDEN],
}

/// `clamp(x >> 6, 0, ACT_ONE)`: a weighted sum back to the activation scale, clipped.
#[inline(always)]
fn clipped(x: i32) -> i16 {
    (x >> 6).clamp(0, ACT_ONE) as i16
}

/// `Σ w[i] × x[i] + b` in `i32`.
#[inline(always)]
fn dot<const N: usize>(w: &[i16; N], x: &[i16; N], b: i32) -> i32 {
    w.iter()
        .zip(x)
        .fold(b, |s, (&w, &x)| s + i32::from(w) * i32::from(x))
}

/// The width of the heads' layers (channels and hidden units alike).
type Lanes = [i16; 32];
const _: () = assert!(CHANNELS == 32 && HIDDEN == 32);

/// [`dot`] of 32 lanes with AVX2: `vpmaddwd` multiplies the 16-bit pairs and adds
/// neighbours into 32 bits, then the eight sums are added across. Exact, as [`dot`] is, for
/// the weights a file can hold (the trainer's export checks its largest accumulator).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot32_avx2(w: &Lanes, x: &Lanes, b: i32) -> i32 {
    use std::arch::x86_64::*;
    // SAFETY: both arrays hold 32 i16 (64 bytes): two unaligned 256-bit loads each.
    let (w0, w1, x0, x1) = unsafe {
        let (w, x) = (w.as_ptr().cast::<__m256i>(), x.as_ptr().cast::<__m256i>());
        (
            _mm256_loadu_si256(w),
            _mm256_loadu_si256(w.add(1)),
            _mm256_loadu_si256(x),
            _mm256_loadu_si256(x.add(1)),
        )
    };
    let s = _mm256_add_epi32(_mm256_madd_epi16(w0, x0), _mm256_madd_epi16(w1, x1));
    let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s) + b
}

/// The pattern counts' term of the pool, `Σ_k n_k R[k][c]` per channel, from the transposed
/// rows and the counts in two halves of 32 (AVX2's multiply-adds where the processor has
/// them). Exact: counts up to 4,096 times weights up to 2,047, 64 of them, stay inside i32.
pub(super) fn count_term(columns: &CountColumns, counts: &[Lanes; 2]) -> [i32; CHANNELS] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { count_term_avx2(columns, counts) };
    }
    count_term_with(columns, counts, dot::<32>)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn count_term_avx2(columns: &CountColumns, counts: &[Lanes; 2]) -> [i32; CHANNELS] {
    // SAFETY: this function runs only where the processor has AVX2.
    count_term_with(columns, counts, |w, x, b| unsafe { dot32_avx2(w, x, b) })
}

#[inline(always)]
fn count_term_with(
    columns: &CountColumns,
    counts: &[Lanes; 2],
    dot: impl Fn(&Lanes, &Lanes, i32) -> i32,
) -> [i32; CHANNELS] {
    // A plain loop, not `array::from_fn`, so that it inlines into the AVX2 caller.
    let mut term = [0i32; CHANNELS];
    for (out, column) in term.iter_mut().zip(columns) {
        *out = dot(&column[1], &counts[1], dot(&column[0], &counts[0], 0));
    }
    term
}

impl Network {
    /// The activation of an empty cell with Black-view line keys `keys`:
    /// `clamp(Σ_d E[key_d], 0, ACT_ONE)` per channel (the sum unclipped for a network with
    /// linear cells).
    #[inline(always)]
    pub fn cell_activation(&self, keys: [usize; 4]) -> [i16; CHANNELS] {
        let [a, b, c, d] = keys.map(|k| self.row(k));
        std::array::from_fn(|i| {
            // Rows hold at most i16::MAX / 4 in magnitude (checked on load): no overflow.
            let sum = a[i] + b[i] + c[i] + d[i];
            if self.linear_cells() {
                sum
            } else {
                sum.clamp(0, ACT_ONE as i16)
            }
        })
    }
}

impl Heads {
    /// Value and first hidden layer from the pooled activations (`pool` = Σ of the empty
    /// cells' activations).
    pub fn hidden(&self, pool: &[i32; CHANNELS]) -> Hidden {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { self.hidden_avx2(pool) };
        }
        self.hidden_inline(pool)
    }

    /// [`Heads::hidden`] with AVX2's multiply-add of 16-bit pairs for the dot products (the
    /// compiler's own vectorisation of [`dot`] widens to 32 bits first: about 3,700
    /// instructions a call against about 1,500).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn hidden_avx2(&self, pool: &[i32; CHANNELS]) -> Hidden {
        // SAFETY: this function runs only where the processor has AVX2.
        self.hidden_with(pool, |w, x, b| unsafe { dot32_avx2(w, x, b) })
    }

    #[inline(always)]
    fn hidden_inline(&self, pool: &[i32; CHANNELS]) -> Hidden {
        self.hidden_with(pool, dot::<32>)
    }

    /// The heads with `dot` for the 32-wide dot products.
    #[inline(always)]
    fn hidden_with(
        &self,
        pool: &[i32; CHANNELS],
        dot: impl Fn(&Lanes, &Lanes, i32) -> i32 + Copy,
    ) -> Hidden {
        let h1 = self.first_layer_with(pool, dot);
        // Plain loops, not `array::from_fn`: that one is not inlined into an AVX2 caller.
        let mut h2 = [0i16; HIDDEN];
        for (h, out) in h2.iter_mut().enumerate() {
            *out = clipped(dot(&self.w2[h], &h1, self.b2[h]));
        }
        Hidden {
            value: dot(&self.w3, &h2, self.b3),
            h1,
        }
    }

    /// The first hidden layer alone (all a policy network needs of the heads).
    pub fn first_layer(&self, pool: &[i32; CHANNELS]) -> [i16; HIDDEN] {
        self.first_layer_with(pool, dot::<32>)
    }

    #[inline(always)]
    fn first_layer_with(
        &self,
        pool: &[i32; CHANNELS],
        dot: impl Fn(&Lanes, &Lanes, i32) -> i32,
    ) -> [i16; HIDDEN] {
        let mut g = [0i16; CHANNELS];
        for (out, &sum) in g.iter_mut().zip(pool) {
            *out = (sum >> POOL_SHIFT).clamp(0, i32::from(i16::MAX)) as i16;
        }
        let mut h1 = [0i16; HIDDEN];
        for (h, out) in h1.iter_mut().enumerate() {
            *out = clipped(dot(&self.w1[h], &g, self.b1[h]));
        }
        h1
    }

    /// Whether the policy reads the position's context (`U` not zero); without it the
    /// channel weights are `p` alone and the heads need not run.
    pub fn policy_reads_context(&self) -> bool {
        self.u.iter().flatten().any(|&w| w != 0)
    }

    /// Whether the policy head reads anything (a network trained for its value alone has an
    /// all-zero policy head).
    pub fn has_policy(&self) -> bool {
        self.p
            .iter()
            .chain(self.u.iter().flatten())
            .any(|&w| w != 0)
    }

    /// Whether the value head reads anything (a network whose value head is all zero only
    /// orders moves).
    pub fn has_value(&self) -> bool {
        self.b3 != 0 || self.w3.iter().any(|&w| w != 0)
    }

    /// Per-channel policy weights `(p × 256 + U h1) >> 6` for a position's first hidden layer.
    pub fn policy_weights(&self, h1: &[i16; HIDDEN]) -> [i32; CHANNELS] {
        std::array::from_fn(|c| (dot(&self.u[c], h1, i32::from(self.p[c]) * ACT_ONE)) >> 6)
    }
}

/// Policy logit of a cell with activation `act` under `weights` ([`Heads::policy_weights`]),
/// [`super::POLICY_ONE`] = 1.0.
#[inline]
pub fn policy_logit(act: &[i16; CHANNELS], weights: &[i32; CHANNELS]) -> i32 {
    act.iter()
        .zip(weights)
        .fold(0, |s, (&a, &w)| s + i32::from(a) * w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{random_network, Family};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The pattern counts' term on the processor's fastest path equals the plain loops, for
    /// random rows within the file's bound and counts up to a 32 × 32 board's.
    #[test]
    fn fast_count_term_equals_the_plain_loops() {
        let mut rng = StdRng::seed_from_u64(92);
        for _ in 0..50 {
            let columns: CountColumns = std::array::from_fn(|_| {
                std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(-2047..=2047)))
            });
            let counts = std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(0..=4096)));
            let plain = count_term_with(&columns, &counts, dot::<32>);
            assert_eq!(count_term(&columns, &counts), plain);
        }
    }

    /// The heads on the processor's fastest path (AVX2's multiply-adds where it has them)
    /// equal the plain loops, for random weights and pools up to a full 32×32 board's.
    #[test]
    fn fast_heads_equal_the_plain_loops() {
        let mut rng = StdRng::seed_from_u64(87);
        for seed in 0..8 {
            let net = random_network(Family::Freestyle, seed);
            for side in 0..2 {
                let heads = net.heads(side);
                for _ in 0..50 {
                    let pool = std::array::from_fn(|_| rng.gen_range(0..=1024 * ACT_ONE));
                    let (fast, plain) = (heads.hidden(&pool), heads.hidden_inline(&pool));
                    assert_eq!((fast.value, fast.h1), (plain.value, plain.h1));
                }
            }
        }
    }
}
