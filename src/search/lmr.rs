//! Late-move reductions: the base reduction by remaining depth and move index, tabulated once
//! per search thread so the node loop reads a number instead of taking logarithms.

use super::params::{lmr_log_div, lmr_log_div_renju, ONE_PLY};
use crate::core::RuleKind;

/// Depths and move indices past this share the last row or column of the table.
const TABLE_LEN: usize = 64;

/// Base late-move reductions (`ONE_PLY` units), before a node's own adjustments.
pub(crate) struct Reductions(Box<[[i32; TABLE_LEN]; TABLE_LEN]>);

impl Reductions {
    /// The table for the current tunables: `ln(depth) * ln(i + 1) * 100 / lmr_log_div` plies,
    /// in fractions of a ply. Renju reads `lmr_log_div_renju` for `lmr_log_div`.
    pub fn new(rule: RuleKind) -> Reductions {
        let log_div = match rule {
            RuleKind::Renju => lmr_log_div_renju(),
            _ => lmr_log_div(),
        };
        let mut table = Box::new([[0; TABLE_LEN]; TABLE_LEN]);
        for (depth, row) in table.iter_mut().enumerate() {
            for (i, cell) in row.iter_mut().enumerate() {
                *cell = base_reduction(depth as i32, i, log_div).max(0);
            }
        }
        Reductions(table)
    }

    /// Base reduction of the late move `i` (0-based) at remaining `depth` (whole plies, ≥ 0).
    #[inline]
    pub fn get(&self, depth: i32, i: usize) -> i32 {
        let d = (depth.max(0) as usize).min(TABLE_LEN - 1);
        self.0[d][i.min(TABLE_LEN - 1)]
    }
}

/// The base reduction (`ONE_PLY` units) of move `i` at `depth` for divisor `log_div` (> 0).
fn base_reduction(depth: i32, i: usize, log_div: i32) -> i32 {
    let surface = f64::from(depth.max(1)).ln() * ((i + 1) as f64).ln();
    let plies = surface * 100.0 / f64::from(log_div);
    (plies * f64::from(ONE_PLY)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_formula_and_clamps_large_indices() {
        for (rule, log_div) in [
            (RuleKind::Freestyle, lmr_log_div()),
            (RuleKind::Renju, lmr_log_div_renju()),
        ] {
            let r = Reductions::new(rule);
            for depth in 1..TABLE_LEN as i32 {
                for i in 0..TABLE_LEN {
                    let expected = base_reduction(depth, i, log_div).max(0);
                    assert_eq!(r.get(depth, i), expected, "{depth} {i}");
                }
            }
            assert_eq!(r.get(500, 500), r.get(TABLE_LEN as i32 - 1, TABLE_LEN - 1));
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_move_index() {
        for rule in [RuleKind::Freestyle, RuleKind::Renju] {
            let r = Reductions::new(rule);
            assert!(r.get(3, 3) >= ONE_PLY / 2);
            for depth in 2..TABLE_LEN as i32 {
                for i in 1..TABLE_LEN {
                    assert!(r.get(depth, i) >= r.get(depth, i - 1));
                    assert!(r.get(depth, i) >= r.get(depth - 1, i));
                }
            }
        }
    }

    #[test]
    fn renju_reduces_less_than_freestyle_by_default() {
        let (free, renju) = (
            Reductions::new(RuleKind::Freestyle),
            Reductions::new(RuleKind::Renju),
        );
        assert!(renju.get(10, 10) < free.get(10, 10));
        assert_eq!(renju.get(1, 0), 0);
    }
}
