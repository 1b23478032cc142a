//! Evaluation read off the board's incremental pattern state; weights in one place.
//!
//! The value is a weighted sum of the board's per-colour pattern counts (per-direction line
//! shapes and combined per-cell shapes), from the side to move's point of view, plus a tempo
//! bonus. No board scan: it costs a few dozen counter reads.

pub mod weights;

use crate::board::{Board, Pattern, Pattern4};

/// Largest magnitude an evaluation can take (well below mate scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// Static evaluation of `board` for the side to move.
pub fn evaluate(board: &Board) -> i32 {
    let w = weights::for_rule(board.rule().kind);
    let me = board.side_to_move();
    let opp = me.opp();
    let mut s = w.tempo;
    for p4 in Pattern4::ALL {
        let i = p4 as usize;
        s += w.cell_me[i] * board.pattern4_count(me, p4) as i32;
        s -= w.cell_opp[i] * board.pattern4_count(opp, p4) as i32;
    }
    for p in Pattern::ALL {
        let i = p as usize;
        s += w.line_me[i] * board.pattern_count(me, p) as i32;
        s -= w.line_opp[i] * board.pattern_count(opp, p) as i32;
    }
    s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Pos, Rule};

    #[test]
    fn own_shape_is_good_for_the_mover() {
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        // Black builds a three while White's stones are scattered.
        for (x, y) in [(7, 7), (0, 0), (8, 7), (14, 14), (9, 7), (0, 14)] {
            b.make_move(Pos::new(x, y));
        }
        // Black to move with an open three: clearly better for Black.
        assert!(evaluate(&b) > 100, "eval {}", evaluate(&b));
        b.set_side_to_move(crate::core::Color::White);
        assert!(evaluate(&b) < -100, "eval {}", evaluate(&b));
    }
}
