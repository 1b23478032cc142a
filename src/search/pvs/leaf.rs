//! The search's leaves: the static evaluation, a VCF for the side to move, and their
//! transposition-table entries.

use crate::board::Threat;
use crate::core::Pos;
use crate::eval;

use super::super::params::{
    leaf_tt, qvcf_delta, qvcf_depth, qvcf_eval, qvcf_near, qvcf_nodes, qvcf_plain, USE_LEAF_VCF,
};
use super::super::qfours::{quiesce_fours, QuiescenceLimits};
use super::super::score::{mate_in, value_from_tt, value_to_tt, Score, MATE_BOUND};
use super::super::tt::{Bound, TtHit};
use super::super::vcf;
use super::Worker;

impl Worker<'_> {
    /// The value of a node with no depth left: through the transposition table when
    /// `leaf_tt` is on, else evaluated afresh.
    pub(super) fn leaf(&mut self, alpha: Score, beta: Score, ply: usize, threat: Threat) -> Score {
        if leaf_tt() > 0 {
            self.cached_leaf(alpha, beta, ply)
        } else {
            self.quiesce(alpha, beta, ply, threat)
        }
    }

    /// A leaf through the transposition table: an entry that settles the window answers at
    /// once; otherwise the leaf is evaluated ([`Worker::leaf_value`]) and stored at depth 0,
    /// unless a deeper entry holds the position.
    fn cached_leaf(&mut self, alpha: Score, beta: Score, ply: usize) -> Score {
        let key = self.board.hash();
        let tte = self.sh.tt.probe(key);
        if let Some(h) = tte {
            let v = value_from_tt(h.value, ply);
            let settled = match h.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
                Bound::None => false,
            };
            if settled {
                return v;
            }
        }
        let stand = eval::evaluate(&self.board);
        let (v, bound) = self.leaf_value(stand, alpha, beta, ply);
        if tte.is_none_or(|h| h.depth <= 0) {
            // A leaf result keeps the principal-variation flag a deeper visit may have set.
            let entry = TtHit {
                mv: Pos::NONE,
                value: value_to_tt(v, ply),
                eval: stand,
                depth: 0,
                bound,
                pv: tte.is_some_and(|h| h.pv),
            };
            self.sh.tt.store_entry(key, entry);
        }
        v
    }

    /// Leaf evaluation without the table: a VCF for the side to move, else the static
    /// evaluation. (Razoring uses it too.)
    pub(super) fn quiesce(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
        threat: Threat,
    ) -> Score {
        let _ = threat;
        let stand = eval::evaluate(&self.board);
        self.leaf_value(stand, alpha, beta, ply).0
    }

    /// The leaf's value from its static evaluation `stand`, with what it bounds: `stand` when
    /// it holds beta (a lower bound: the VCF is not tried), or when it lies `qvcf_delta` or
    /// more below alpha (an upper bound: the VCF is not tried either), else a VCF's mate for
    /// the side to move if one is found (a lower bound), else `stand` (exact: no window
    /// changes it).
    fn leaf_value(
        &mut self,
        stand: Score,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, Bound) {
        if stand >= beta {
            return (stand, Bound::Lower);
        }
        if !USE_LEAF_VCF {
            return (stand, Bound::Exact);
        }
        if qvcf_delta() > 0 && stand + qvcf_delta() <= alpha && alpha.abs() < MATE_BOUND {
            return (stand, Bound::Upper);
        }
        if qvcf_eval() > 0 {
            return self.quiesce_fours(stand, alpha, beta, ply);
        }
        let me = self.board.side_to_move();
        let nodes = qvcf_nodes();
        let mut budget = nodes;
        let found = if qvcf_near() > 0 {
            vcf::vcf_near(&mut self.board, me, qvcf_depth(), &mut budget)
        } else {
            vcf::vcf(&mut self.board, me, qvcf_depth(), &mut budget)
        };
        self.nodes += nodes - budget;
        if let Some(plies) = found {
            return (mate_in(ply + plies as usize), Bound::Lower);
        }
        (stand, Bound::Exact)
    }

    /// The evaluating four quiescence's value of the leaf and what it bounds.
    fn quiesce_fours(
        &mut self,
        stand: Score,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, Bound) {
        let limits = QuiescenceLimits {
            fours: qvcf_depth(),
            plain_levels: qvcf_plain(),
        };
        let nodes = qvcf_nodes();
        let mut budget = nodes;
        let v = quiesce_fours(
            &mut self.board,
            stand,
            alpha,
            beta,
            ply,
            limits,
            &mut budget,
        );
        self.nodes += nodes - budget;
        let bound = if v >= beta {
            Bound::Lower
        } else if v <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        (v, bound)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;

    use super::super::super::bench::board_from_moves;
    use super::super::super::limits::Exclusions;
    use super::super::super::report::no_root_events;
    use super::super::super::smp::InFlight;
    use super::super::super::time::TimeManager;
    use super::super::super::tt::TTable;
    use super::super::Shared;
    use super::*;
    use crate::core::Rule;

    const TABLE_BYTES: usize = 1 << 20;

    /// Runs `f` on a one-thread worker over `moves` (freestyle 15x15) with its own table.
    fn with_worker<T>(moves: &str, f: impl FnOnce(&mut Worker, &TTable) -> T) -> T {
        let board = board_from_moves(Rule::FREESTYLE, 15, moves).unwrap();
        let tt = TTable::new(TABLE_BYTES);
        let stop = AtomicBool::new(false);
        let excluded = Exclusions::default();
        let shared = Shared {
            tt: &tt,
            stop: &stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            time: TimeManager::infinite(),
            max_nodes: None,
            threads: 1,
            in_flight: InFlight::new(),
            excluded: &excluded,
            root_events: &no_root_events,
        };
        let mut w = Worker::new(0, &shared, &board);
        f(&mut w, &tt)
    }

    /// Black to move with no three: no four to make, so no VCF.
    const QUIET: &str = "h8 h9 i8 i9";
    /// Black to move with an open three (h8 i8 j8): the open four wins by fours.
    const OPEN_THREE: &str = "h8 a1 i8 a15 j8 o1";
    const WIDE: (Score, Score) = (-(MATE_BOUND - 1), MATE_BOUND - 1);

    #[test]
    fn a_leaf_without_a_vcf_is_stored_exact_at_its_static_value() {
        with_worker(QUIET, |w, tt| {
            let stand = eval::evaluate(&w.board);
            let v = w.cached_leaf(WIDE.0, WIDE.1, 3);
            assert_eq!(v, stand);
            let h = tt.probe(w.board.hash()).expect("the leaf is stored");
            assert_eq!(
                (h.value, h.eval, h.depth, h.bound),
                (stand, stand, 0, Bound::Exact)
            );
        });
    }

    #[test]
    fn a_leaf_holding_beta_is_a_lower_bound_and_its_vcf_is_not_tried() {
        with_worker(OPEN_THREE, |w, tt| {
            let stand = eval::evaluate(&w.board);
            let v = w.cached_leaf(stand - 10, stand, 3);
            assert_eq!((v, w.nodes), (stand, 0));
            let h = tt.probe(w.board.hash()).unwrap();
            assert_eq!((h.value, h.bound), (stand, Bound::Lower));
            // A higher beta needs the VCF, which finds the open four's win.
            let v = w.cached_leaf(WIDE.0, WIDE.1, 3);
            assert_eq!(v, mate_in(3 + 3));
            assert!(w.nodes > 0);
            let h = tt.probe(w.board.hash()).unwrap();
            assert_eq!(value_from_tt(h.value, 3), mate_in(6));
            assert_eq!((h.eval, h.bound), (stand, Bound::Lower));
        });
    }

    #[test]
    fn a_stored_leaf_answers_without_a_second_vcf() {
        with_worker(OPEN_THREE, |w, _| {
            let first = w.cached_leaf(WIDE.0, WIDE.1, 5);
            let spent = w.nodes;
            assert!(spent > 0);
            // At another ply the same mate is as far from the leaf.
            assert_eq!(w.cached_leaf(WIDE.0, WIDE.1, 7), first + 5 - 7);
            assert_eq!(w.nodes, spent);
        });
    }

    #[test]
    fn a_deeper_entry_settles_the_leaf_and_is_not_overwritten() {
        with_worker(QUIET, |w, tt| {
            let key = w.board.hash();
            let stand = eval::evaluate(&w.board);
            tt.store(key, Pos::NONE, 123, stand, 4, Bound::Lower);
            // The deeper lower bound holds beta 100: its value answers.
            assert_eq!(w.cached_leaf(50, 100, 2), 123);
            // It does not hold beta 500: the leaf is evaluated, the deeper entry stays.
            assert_eq!(w.cached_leaf(WIDE.0, 500, 2), stand);
            let h = tt.probe(key).unwrap();
            assert_eq!((h.value, h.depth, h.bound), (123, 4, Bound::Lower));
        });
    }

    #[test]
    fn a_leaf_store_keeps_the_principal_variation_flag() {
        with_worker(QUIET, |w, tt| {
            let key = w.board.hash();
            let stand = eval::evaluate(&w.board);
            let shallow_pv = TtHit {
                mv: Pos::NONE,
                value: stand - 500,
                eval: stand,
                depth: 0,
                bound: Bound::Upper,
                pv: true,
            };
            tt.store_entry(key, shallow_pv);
            // The entry does not settle the window, so the leaf is evaluated and stored again.
            assert_eq!(w.cached_leaf(WIDE.0, WIDE.1, 2), stand);
            let h = tt.probe(key).unwrap();
            assert_eq!((h.value, h.bound, h.pv), (stand, Bound::Exact, true));
        });
    }
}
