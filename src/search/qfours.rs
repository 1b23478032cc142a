//! The evaluating four quiescence: at a leaf the side to move may stand on its static
//! evaluation or play fours near its last stone (the defender only blocks), and the leaf is
//! worth the best evaluation at the end of those lines, or a mate where the fours win.
//!
//! Unlike the mate-only [`super::vcf`] leaf, a sequence of fours that does not win still
//! counts for what it leaves on the board. Renju-correct as the VCF is: Black's forbidden
//! points are neither fours nor blocks, and a four whose block is forbidden to Black wins.

use crate::board::{Board, GenKind, Pattern4};
use crate::core::Pos;
use crate::eval;

use super::params::MAX_FOUR_MOVES;
use super::score::{mate_in, mated_in, Score};
use super::vcf::is_near;

/// How far the quiescence may go.
#[derive(Clone, Copy, Debug)]
pub struct QuiescenceLimits {
    /// Most attacking fours on one line.
    pub fours: i32,
    /// Fours of the first this many levels may be plain fours; deeper, only fours that also
    /// make a three or two (`Pattern4::Block4Plus` and better) are tried.
    pub plain_levels: i32,
}

/// The value for the side to move of the position on `board`, whose static evaluation is
/// `stand`, within the window (`alpha`, `beta`), fail-soft. The side to move is the
/// attacker: the opponent must have no five point unless it is answered here. Each attacker
/// node costs one unit of `budget`; with none left a node stands on its evaluation.
pub fn quiesce_fours(
    board: &mut Board,
    stand: Score,
    alpha: Score,
    beta: Score,
    ply: usize,
    limits: QuiescenceLimits,
    budget: &mut u64,
) -> Score {
    let me = board.side_to_move();
    let last = board
        .history()
        .rev()
        .find(|&(_, c)| c == me)
        .map(|(p, _)| p);
    let mut q = Quiescence {
        board,
        limits,
        budget,
    };
    q.attacker_node(Some(stand), alpha, beta, ply, 0, last)
}

struct Quiescence<'a> {
    board: &'a mut Board,
    limits: QuiescenceLimits,
    budget: &'a mut u64,
}

impl Quiescence<'_> {
    /// The attacker (side to move) at `level` fours deep; `stand` is its evaluation when
    /// already known.
    fn attacker_node(
        &mut self,
        stand: Option<Score>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        level: i32,
        near: Option<Pos>,
    ) -> Score {
        let b = &mut *self.board;
        let att = b.side_to_move();
        let def = att.opp();
        if b.pattern4_count(att, Pattern4::Five) > 0 {
            return mate_in(ply + 1);
        }
        match b.pattern4_count(def, Pattern4::Five) {
            0 => {}
            1 => {
                // The defender's counter-four: the attacker's only move is the block.
                let Some(q) = b.first_point_with(def, Pattern4::Five) else {
                    return mated_in(ply + 2);
                };
                if !b.can_play(q, att) {
                    return mated_in(ply + 2);
                }
                return self.attack_with(q, alpha, beta, ply, level, near);
            }
            _ => return mated_in(ply + 2),
        }
        let stand = stand.unwrap_or_else(|| eval::evaluate(b));
        if stand >= beta || level >= self.limits.fours || *self.budget == 0 {
            return stand;
        }
        *self.budget -= 1;
        if b.pattern4_count(att, Pattern4::Flex4) > 0 {
            return mate_in(ply + 3);
        }
        alpha = alpha.max(stand);
        let least = if level < self.limits.plain_levels {
            Pattern4::Block4
        } else {
            Pattern4::Block4Plus
        };
        let mut buf = [(Pos::NONE, Pattern4::None); MAX_FOUR_MOVES];
        let mut len = 0;
        b.generate(att, GenKind::Fours, |_, p, a| {
            if len < buf.len() && a >= least && near.is_none_or(|c| is_near(c, p)) {
                buf[len] = (p, a);
                len += 1;
            }
        });
        buf[..len].sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut best = stand;
        for &(m, _) in &buf[..len] {
            let v = self.attack_with(m, alpha, beta, ply, level, Some(m));
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// The attacker plays `m`: a four is blocked and the attack goes on one level deeper;
    /// a move that makes no four (a forced block) leaves the defender to move in a quiet
    /// position, worth its static evaluation.
    fn attack_with(
        &mut self,
        m: Pos,
        alpha: Score,
        beta: Score,
        ply: usize,
        level: i32,
        near: Option<Pos>,
    ) -> Score {
        let b = &mut *self.board;
        let att = b.side_to_move();
        let def = att.opp();
        b.make_move_as(m, att);
        let v = match b.pattern4_count(att, Pattern4::Five) {
            0 => -eval::evaluate(b),
            1 => match b
                .five_point_near(m, att)
                .or_else(|| b.first_point_with(att, Pattern4::Five))
            {
                Some(q) if b.can_play(q, def) => {
                    b.make_move_as(q, def);
                    let v = self.attacker_node(None, alpha, beta, ply + 2, level + 1, near);
                    self.board.undo();
                    v
                }
                _ => mate_in(ply + 3),
            },
            _ => mate_in(ply + 3),
        };
        self.board.undo();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Rule};
    use crate::search::bench::board_from_moves;
    use crate::search::score::MATE_BOUND;

    const WIDE: (Score, Score) = (-MATE_BOUND, MATE_BOUND);
    const PLY: usize = 4;
    const ALL: QuiescenceLimits = QuiescenceLimits {
        fours: 6,
        plain_levels: 6,
    };

    fn run(b: &mut Board, limits: QuiescenceLimits, budget: u64) -> Score {
        let stand = eval::evaluate(b);
        quiesce_fours(b, stand, WIDE.0, WIDE.1, PLY, limits, &mut budget.clone())
    }

    /// Black to move with a three blocked by White's g8 (h8 i8 j8): two plain fours, k8 and
    /// l8, neither of which wins.
    const BLOCKED_THREE: &str = "h8 g8 i8 a1 j8 a15";

    #[test]
    fn without_fours_the_leaf_is_its_static_value() {
        let mut b = board_from_moves(Rule::FREESTYLE, 15, "h8 h9 i8 i9").unwrap();
        let stand = eval::evaluate(&b);
        assert_eq!(run(&mut b, ALL, 100), stand);
    }

    #[test]
    fn an_open_three_wins_by_its_open_four() {
        let mut b = board_from_moves(Rule::FREESTYLE, 15, "h8 a1 i8 a15 j8 o1").unwrap();
        assert_eq!(run(&mut b, ALL, 100), mate_in(PLY + 3));
    }

    #[test]
    fn a_four_that_does_not_win_counts_for_the_position_it_leaves() {
        let mut b = board_from_moves(Rule::FREESTYLE, 15, BLOCKED_THREE).unwrap();
        let stand = eval::evaluate(&b);
        // By hand: each four, its block, then the attacker's evaluation.
        let mut best = stand;
        for (four, block) in [("k8", "l8"), ("l8", "k8")] {
            b.make_move_as(Pos::from_human(four).unwrap(), Color::Black);
            b.make_move_as(Pos::from_human(block).unwrap(), Color::White);
            best = best.max(eval::evaluate(&b));
            b.undo();
            b.undo();
        }
        let one = QuiescenceLimits {
            fours: 1,
            plain_levels: 1,
        };
        let v = run(&mut b, one, 100);
        assert_eq!(v, best);
        assert!(v.abs() < MATE_BOUND);
        // Plain fours not allowed, or no budget: the leaf stands on its evaluation.
        let no_plain = QuiescenceLimits {
            fours: 1,
            plain_levels: 0,
        };
        assert_eq!(run(&mut b, no_plain, 100), stand);
        assert_eq!(run(&mut b, one, 0), stand);
        // The board is left as it was.
        assert_eq!(
            b.hash(),
            board_from_moves(Rule::FREESTYLE, 15, BLOCKED_THREE)
                .unwrap()
                .hash()
        );
    }

    #[test]
    fn a_stand_at_or_above_beta_is_returned_without_a_search() {
        let mut b = board_from_moves(Rule::FREESTYLE, 15, "h8 a1 i8 a15 j8 o1").unwrap();
        let stand = eval::evaluate(&b);
        let mut budget = 100;
        let v = quiesce_fours(&mut b, stand, stand - 10, stand, PLY, ALL, &mut budget);
        assert_eq!((v, budget), (stand, 100));
    }

    /// White to move with i9 j10 k11 against Black's m13; h8 is a double-three point of Black
    /// (g8 i8 across, h7 h9 down). White's last stone k11 is next to its four point l12.
    const FORBIDDEN_BLOCK: &str = "g8 i9 i8 j10 h7 a1 h9 a15 m13 k11 g7";

    #[test]
    fn a_four_whose_block_is_forbidden_to_black_wins_in_renju() {
        let h8 = Pos::from_human("h8").unwrap();
        let mut b = board_from_moves(Rule::RENJU, 15, FORBIDDEN_BLOCK).unwrap();
        assert!(b.is_forbidden(h8));
        let one = QuiescenceLimits {
            fours: 1,
            plain_levels: 1,
        };
        assert_eq!(run(&mut b, one, 100), mate_in(PLY + 3));
        // In freestyle Black blocks at h8 and one four does not win.
        let mut b = board_from_moves(Rule::FREESTYLE, 15, FORBIDDEN_BLOCK).unwrap();
        assert!(run(&mut b, one, 100) < MATE_BOUND);
    }
}
