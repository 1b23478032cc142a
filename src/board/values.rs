//! Per-cell values read from a table indexed by a cell's pattern code (the four line patterns
//! through it, for one colour), summed over the empty cells and kept up to date by move/undo.
//!
//! A cell's *pattern code* (`pcode`) is the multiset of its four per-direction internal codes:
//! direction order does not matter, so the 12 codes give C(15, 4) = 1365 classes. The table
//! the board reads is expanded from per-pcode values to every packed 16-bit code (4 bits per
//! direction, as [`super::incr::CellInfo`] stores them), Black's half then White's, so the hot
//! path needs one lookup per colour and changed cell. The board keeps
//! `sum(Black's value) - sum(White's value)` over the empty cells; what the values mean is
//! the evaluation's business (`crate::eval`).

use std::sync::{Arc, OnceLock};

use super::pattern::{self, Pattern, Pattern4, N_CODES};
use crate::core::Color;

/// Number of pattern codes: multisets of four internal per-direction codes.
pub const N_PCODES: usize = 1365;

/// Entries of an expanded value table: both colours' halves of 2^16 packed codes.
pub(super) const TABLE_LEN: usize = 1 << 17;

/// Binomial coefficient C(n, k) for the small arguments of the pcode index.
const fn binomial(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The pattern code of four internal per-direction codes (each below `N_CODES`), in any
/// order: the index of the sorted multiset in the combinatorial number system.
pub fn pcode(codes: [u8; 4]) -> usize {
    let mut c = codes.map(usize::from);
    c.sort_unstable_by(|a, b| b.cmp(a));
    binomial(c[0] + 3, 4) + binomial(c[1] + 2, 3) + binomial(c[2] + 1, 2) + c[3]
}

/// The four codes of a pattern code, highest first (the inverse of [`pcode`]).
pub fn pcode_codes(pc: usize) -> [u8; 4] {
    static CODES: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    CODES.get_or_init(|| {
        let mut all = vec![[0u8; 4]; N_PCODES];
        for packed in 0..1usize << 16 {
            let codes = unpack(packed as u16);
            if codes.iter().all(|&c| usize::from(c) < N_CODES) {
                let mut sorted = codes;
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                all[pcode(codes)] = sorted;
            }
        }
        all
    })[pc]
}

/// The four line patterns of a pattern code.
pub fn pcode_patterns(pc: usize) -> [Pattern; 4] {
    pcode_codes(pc).map(Pattern::from_code)
}

/// The combined class of a pattern code; `renju_black` applies Black's renju restrictions,
/// counting a possible double three (which needs the board to decide) as legal.
pub fn pcode_class(pc: usize, renju_black: bool) -> Pattern4 {
    let codes = pcode_codes(pc);
    let code = pattern::combine(codes, renju_black);
    if pattern::is_maybe33(code) {
        pattern::combine_legal(codes)
    } else {
        Pattern4::from_code(code)
    }
}

/// The four per-direction codes of a packed 16-bit code.
fn unpack(packed: u16) -> [u8; 4] {
    [0, 4, 8, 12].map(|s| ((packed >> s) & 15) as u8)
}

/// The pattern code of a packed 16-bit code (direction d in bits 4d..4d+4); codes at or above
/// `N_CODES` (never stored) map to 0.
pub fn pcode_of_packed(packed: u16) -> usize {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << 16)
            .map(|p| {
                let codes = unpack(p as u16);
                if codes.iter().all(|&c| usize::from(c) < N_CODES) {
                    pcode(codes) as u16
                } else {
                    0
                }
            })
            .collect()
    })[usize::from(packed)] as usize
}

/// An expanded per-cell value table (see the module doc), shared between boards, with the
/// further tables of the same evaluation that the board carries for the evaluator but never
/// reads itself (`extra`), so a board alone is enough to evaluate it.
pub struct CellValues {
    table: Box<[i16; TABLE_LEN]>,
    extra: Box<[i16]>,
}

impl CellValues {
    /// A table from per-pcode values of each colour (`values[colour][pcode]`), carrying
    /// `extra` for the evaluator.
    pub fn from_pcode_values(values: &[[i16; N_PCODES]; 2], extra: Vec<i16>) -> CellValues {
        let mut table: Box<[i16; TABLE_LEN]> = vec![0i16; TABLE_LEN]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("the vector has TABLE_LEN entries"));
        for (i, v) in table.iter_mut().enumerate() {
            let codes = unpack(i as u16);
            if codes.iter().all(|&c| usize::from(c) < N_CODES) {
                *v = values[i >> 16][pcode(codes)];
            }
        }
        CellValues {
            table,
            extra: extra.into_boxed_slice(),
        }
    }

    /// The evaluator's further tables given at construction.
    #[inline(always)]
    pub fn extra(&self) -> &[i16] {
        &self.extra
    }

    /// The all-zero table boards start with (shared).
    pub fn zero() -> Arc<CellValues> {
        static ZERO: OnceLock<Arc<CellValues>> = OnceLock::new();
        ZERO.get_or_init(|| {
            Arc::new(CellValues::from_pcode_values(
                &[[0; N_PCODES]; 2],
                Vec::new(),
            ))
        })
        .clone()
    }

    /// The expanded table (Black's half, then White's).
    #[inline(always)]
    pub(super) fn table(&self) -> &[i16; TABLE_LEN] {
        &self.table
    }

    /// Black's value minus White's for a cell with packed pattern codes `pats` (Black's in
    /// bits 0..16, White's in bits 16..32).
    #[inline(always)]
    pub(super) fn cell_value(&self, pats: u32) -> i32 {
        let b = self.table[(pats & 0xFFFF) as usize];
        let w = self.table[(pats >> 16 | 1 << 16) as usize];
        i32::from(b) - i32::from(w)
    }

    /// The value of colour `c` for pattern code `pc`.
    pub fn value(&self, c: Color, pc: usize) -> i16 {
        let codes = pcode_codes(pc);
        let packed = codes
            .iter()
            .enumerate()
            .fold(0usize, |acc, (d, &k)| acc | usize::from(k) << (4 * d));
        self.table[c.index() << 16 | packed]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcodes_number_the_multisets_densely() {
        let mut seen = vec![false; N_PCODES];
        for packed in 0..1u32 << 16 {
            let codes = unpack(packed as u16);
            if codes.iter().any(|&c| usize::from(c) >= N_CODES) {
                continue;
            }
            let pc = pcode(codes);
            assert!(pc < N_PCODES, "{codes:?} -> {pc}");
            seen[pc] = true;
            let mut rotated = codes;
            rotated.rotate_left(1);
            assert_eq!(pcode(rotated), pc, "order of directions must not matter");
            assert_eq!(pcode_of_packed(packed as u16), pc);
            let mut sorted = codes;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(pcode_codes(pc), sorted);
        }
        assert!(seen.iter().all(|&s| s), "every index is some multiset");
    }

    #[test]
    fn expanded_table_reads_back_per_colour() {
        let v: [[i16; N_PCODES]; 2] = [
            std::array::from_fn(|pc| pc as i16),
            std::array::from_fn(|pc| -(pc as i16) - 1),
        ];
        let t = CellValues::from_pcode_values(&v, vec![3]);
        assert_eq!(t.extra(), &[3]);
        for pc in [0, 1, 700, N_PCODES - 1] {
            assert_eq!(t.value(Color::Black, pc), pc as i16);
            assert_eq!(t.value(Color::White, pc), -(pc as i16) - 1);
        }
        // Black's packed codes [1,2,3,4], White's [0,0,0,0]: value(B) - value(W).
        let pats = 0x4321u32;
        assert_eq!(
            t.cell_value(pats),
            i32::from(v[0][pcode([1, 2, 3, 4])]) - i32::from(v[1][0])
        );
    }
}
