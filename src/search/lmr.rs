//! Late-move reductions: the base reduction by remaining depth and move index, tabulated once
//! per search thread so the node loop reads a number instead of taking logarithms.

use super::params::ONE_PLY;

/// Depths and move indices past this share the last row or column of the table.
const TABLE_LEN: usize = 64;

/// Base late-move reductions (`ONE_PLY` units), before a node's own adjustments.
pub(crate) struct Reductions(Box<[[i32; TABLE_LEN]; TABLE_LEN]>);

impl Reductions {
    /// The table for divisor `log_div` (> 0, the rule's `lmr_log_div`):
    /// `ln(depth) * ln(i + 1) * 100 / log_div` plies, in fractions of a ply.
    pub fn new(log_div: i32) -> Reductions {
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
    use crate::core::RuleKind;
    use crate::search::params::RuleTunables;

    /// The table a search under `rule` uses.
    fn table_of(rule: RuleKind) -> Reductions {
        Reductions::new(RuleTunables::for_rule(rule).lmr_log_div)
    }

    #[test]
    fn table_matches_the_formula_and_clamps_large_indices() {
        for log_div in [100, 192, 10, 600] {
            let r = Reductions::new(log_div);
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
            let r = table_of(rule);
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
        let (free, renju) = (table_of(RuleKind::Freestyle), table_of(RuleKind::Renju));
        assert!(renju.get(10, 10) < free.get(10, 10));
        assert_eq!(renju.get(1, 0), 0);
    }
}
