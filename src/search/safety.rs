//! The root's safety check: after an iteration, the best move is tested against a win by
//! threats for the opponent ([`super::pns`]); a move that lets one in is dropped from the
//! root list, and the next move is tested in turn.
//!
//! The tree search sees the opponent's threat sequences only as deep as its iteration goes;
//! the proof-number search proves lines of 20-40 plies in a few thousand nodes when they
//! exist, so a move the tree search likes but that walks into such a line is caught.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use crate::board::Board;
use crate::core::Pos;

use super::budget::Budget;
use super::params::{
    safety_check_nodes, SAFETY_CHECKS_PER_ITERATION, SAFETY_NODE_LIMIT_DIVISOR, SAFETY_TOTAL_CHECKS,
};
use super::pns;
use super::pvs::RootMove;
use super::score::MATE_BOUND;

/// What the safety check knows during one search.
pub(crate) struct SafetyCheck {
    /// Root moves tested without a proof for the opponent.
    passed: Vec<Pos>,
    /// Root moves after which the opponent proved a win by threats.
    refuted: Vec<Pos>,
    /// Node budget of one test.
    nodes_per_check: u64,
    /// Tests left in this search.
    checks_left: usize,
    /// Nodes all tests took.
    pub used: u64,
}

impl SafetyCheck {
    /// A check with `nodes_per_check` nodes a test (none when 0).
    pub fn new(nodes_per_check: u64) -> SafetyCheck {
        SafetyCheck {
            passed: Vec::new(),
            refuted: Vec::new(),
            nodes_per_check,
            checks_left: if nodes_per_check == 0 {
                0
            } else {
                SAFETY_TOTAL_CHECKS
            },
            used: 0,
        }
    }

    /// The check for a search with an optional node limit: a test takes at most a tenth of it.
    pub fn for_limit(max_nodes: Option<u64>) -> SafetyCheck {
        let per = max_nodes.map_or(safety_check_nodes(), |m| {
            safety_check_nodes().min(m / SAFETY_NODE_LIMIT_DIVISOR)
        });
        SafetyCheck::new(per)
    }

    /// Whether `mv` was refuted by a proof for the opponent.
    pub fn is_refuted(&self, mv: Pos) -> bool {
        self.refuted.contains(&mv)
    }

    /// Tests the first root move (and, when it is refuted, the next ones) of `rms`, sorted
    /// best first; refuted moves leave the list, unless it is the last. `stop` and
    /// `deadline` end a test (without a proof).
    pub fn check_best(
        &mut self,
        board: &Board,
        rms: &mut Vec<RootMove>,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) {
        for _ in 0..SAFETY_CHECKS_PER_ITERATION {
            let Some(first) = rms.first() else {
                return;
            };
            let mv = first.mv;
            if self.checks_left == 0
                || first.score.abs() >= MATE_BOUND
                || self.passed.contains(&mv)
                || stop.load(Relaxed)
            {
                return;
            }
            self.checks_left -= 1;
            if !self.opponent_wins_after(board, mv, stop, deadline) {
                self.passed.push(mv);
                return;
            }
            self.refuted.push(mv);
            if rms.len() == 1 {
                return;
            }
            let dropped = rms.remove(0);
            // The next move leads until the next iteration scores it; it inherits the
            // dropped move's score as the aspiration window's centre.
            let next = &mut rms[0];
            next.score = dropped.score;
            next.prev_score = dropped.prev_score;
            next.pv = vec![next.mv];
        }
    }

    /// Whether the opponent has a proved win by threats after the side to move plays `mv`.
    fn opponent_wins_after(
        &mut self,
        board: &Board,
        mv: Pos,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) -> bool {
        let mut b = board.clone();
        b.make_move(mv);
        let mut table = pns::ProofTable::for_budget(self.nodes_per_check);
        let mut budget = Budget::limited(self.nodes_per_check, stop, deadline);
        let found = pns::prove(&mut b, &mut table, &mut budget);
        self.used += budget.used;
        found.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::search::bench::board_from_moves;

    fn root_move(m: &str, score: i32) -> RootMove {
        let mv = Pos::from_human(m).unwrap();
        RootMove {
            mv,
            score,
            prev_score: score,
            pv: vec![mv],
        }
    }

    #[test]
    fn a_move_that_lets_in_an_open_four_is_dropped() {
        // White's open three h8 i8 j8: unless Black blocks it, White makes an open four.
        let b = board_from_moves(Rule::FREESTYLE, 15, "a1 h8 a15 i8 o1 j8").unwrap();
        let stop = AtomicBool::new(false);
        let mut rms = vec![root_move("c3", 50), root_move("k8", 20), root_move("m3", 0)];
        let mut check = SafetyCheck::new(20_000);
        check.check_best(&b, &mut rms, &stop, None);
        assert!(check.is_refuted(Pos::from_human("c3").unwrap()));
        assert_eq!(rms[0].mv, Pos::from_human("k8").unwrap());
        assert_eq!(
            rms[0].score, 50,
            "the next move inherits the dropped move's score"
        );
        assert_eq!(rms.len(), 2);
        assert!(check.used > 0);
        // k8 passed: it is not tested again.
        let used = check.used;
        check.check_best(&b, &mut rms, &stop, None);
        assert_eq!(check.used, used);
    }

    #[test]
    fn without_a_budget_nothing_is_tested_and_the_last_move_stays() {
        let b = board_from_moves(Rule::FREESTYLE, 15, "a1 h8 a15 i8 o1 j8").unwrap();
        let stop = AtomicBool::new(false);
        let mut rms = vec![root_move("c3", 50), root_move("k8", 20)];
        let mut off = SafetyCheck::new(0);
        off.check_best(&b, &mut rms, &stop, None);
        assert_eq!((rms.len(), off.used), (2, 0));
        // A lone refuted move is kept (there must be a move to play) but marked.
        let mut rms = vec![root_move("c3", 50)];
        let mut check = SafetyCheck::new(20_000);
        check.check_best(&b, &mut rms, &stop, None);
        assert_eq!(rms.len(), 1);
        assert!(check.is_refuted(Pos::from_human("c3").unwrap()));
    }
}
