//! The search's leaves: the static evaluation, a VCF for the side to move near the
//! attacker's last stone, and their transposition-table entries.

use crate::core::Pos;
use crate::eval;

use super::super::params::{qvcf_depth, qvcf_nodes};
use super::super::score::{mate_in, value_from_tt, value_to_tt, Score};
use super::super::tt::Bound;
use super::super::vcf;
use super::Worker;

impl Worker<'_> {
    /// The value of a node with no depth left, through the transposition table: an entry
    /// that settles the window answers at once; otherwise the leaf is evaluated
    /// ([`Worker::leaf_value`]) and stored at depth 0, unless a deeper entry holds the
    /// position.
    pub(super) fn leaf(&mut self, alpha: Score, beta: Score, ply: usize) -> Score {
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
        if let Some(samples) = self.sh.leaf_samples {
            samples.offer(&self.board);
        }
        let stand = eval::evaluate(&self.board);
        let (v, bound) = self.leaf_value(stand, beta, ply);
        if tte.is_none_or(|h| h.depth <= 0) {
            let value = value_to_tt(v, ply);
            self.sh.tt.store(key, Pos::NONE, value, stand, 0, bound);
        }
        v
    }

    /// Leaf evaluation without the table, for razoring: a VCF for the side to move, else
    /// the static evaluation.
    pub(super) fn quiesce(&mut self, beta: Score, ply: usize) -> Score {
        let stand = eval::evaluate(&self.board);
        self.leaf_value(stand, beta, ply).0
    }

    /// The leaf's value from its static evaluation `stand`, with what it bounds: `stand` when
    /// it holds beta (a lower bound: the VCF is not tried), else a mate for the side to move
    /// if a VCF near the attacker's last stone finds one (a lower bound), else `stand`
    /// (exact: no window changes it).
    fn leaf_value(&mut self, stand: Score, beta: Score, ply: usize) -> (Score, Bound) {
        if stand >= beta {
            return (stand, Bound::Lower);
        }
        let me = self.board.side_to_move();
        let nodes = qvcf_nodes();
        let mut budget = nodes;
        let found = vcf::vcf_near(&mut self.board, me, qvcf_depth(), &mut budget);
        self.nodes += nodes - budget;
        if let Some(plies) = found {
            return (mate_in(ply + plies as usize), Bound::Lower);
        }
        (stand, Bound::Exact)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;

    use super::super::super::bench::board_from_moves;
    use super::super::super::limits::Exclusions;
    use super::super::super::report::no_root_events;
    use super::super::super::score::MATE_BOUND;
    use super::super::super::smp::InFlight;
    use super::super::super::time::TimeManager;
    use super::super::super::tt::{TTable, TtHit};
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
            leaf_samples: None,
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
            let v = w.leaf(WIDE.0, WIDE.1, 3);
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
            let v = w.leaf(stand - 10, stand, 3);
            assert_eq!((v, w.nodes), (stand, 0));
            let h = tt.probe(w.board.hash()).unwrap();
            assert_eq!((h.value, h.bound), (stand, Bound::Lower));
            // A higher beta needs the VCF, which finds the open four's win.
            let v = w.leaf(WIDE.0, WIDE.1, 3);
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
            let first = w.leaf(WIDE.0, WIDE.1, 5);
            let spent = w.nodes;
            assert!(spent > 0);
            // At another ply the same mate is as far from the leaf.
            assert_eq!(w.leaf(WIDE.0, WIDE.1, 7), first + 5 - 7);
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
            assert_eq!(w.leaf(50, 100, 2), 123);
            // It does not hold beta 500: the leaf is evaluated, the deeper entry stays.
            assert_eq!(w.leaf(WIDE.0, 500, 2), stand);
            let h = tt.probe(key).unwrap();
            assert_eq!((h.value, h.depth, h.bound), (123, 4, Bound::Lower));
        });
    }

    #[test]
    fn a_leaf_the_shallow_entry_does_not_settle_is_stored_again() {
        with_worker(QUIET, |w, tt| {
            let key = w.board.hash();
            let stand = eval::evaluate(&w.board);
            let shallow = TtHit {
                mv: Pos::NONE,
                value: stand - 500,
                eval: stand,
                depth: 0,
                bound: Bound::Upper,
            };
            tt.store_entry(key, shallow);
            // The entry does not settle the window, so the leaf is evaluated and stored again.
            assert_eq!(w.leaf(WIDE.0, WIDE.1, 2), stand);
            let h = tt.probe(key).unwrap();
            assert_eq!((h.value, h.depth, h.bound), (stand, 0, Bound::Exact));
        });
    }
}
