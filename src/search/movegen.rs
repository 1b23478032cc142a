//! The tree search's move lists: the board's generator ([`Board::generate`]) chosen by the
//! threat the side to move faces, each move scored for ordering.
//!
//! Against a five only its block is generated; against an open three the defences plus own
//! fours; against a winning four-three point the moves that stop it plus own fours;
//! otherwise every candidate, ordered by the pattern values of both colours plus the
//! learned ordering values when the tables in use have them (`eval::tables`).

use crate::board::{Board, GenKind, Pattern4, Threat};
use crate::core::{Color, Pos};
use crate::eval::weights::OrderWeights;

use super::params::{
    defend_four_order, four_forcing, four_three_defence, DEFENCE_ORDER, FORCING_ORDER,
    USE_LINE_ORDER,
};

/// Ordering value of `p` for the mover `me`, whose class there is `a`, by the values `w`.
#[inline]
fn cell_order(w: &OrderWeights, board: &Board, p: Pos, me: Color, a: Pattern4) -> i32 {
    let opp = me.opp();
    let d = board.pattern4(p, opp);
    let mut s = w.attack[a as usize] + w.defend[d as usize];
    if USE_LINE_ORDER {
        for dir in 0..4 {
            s += w.line_me[board.pattern(p, me, dir) as usize];
            s += w.line_opp[board.pattern(p, opp, dir) as usize];
        }
    }
    let forcing_attack = if four_forcing() > 0 {
        Pattern4::Block4
    } else {
        Pattern4::Block4Flex3
    };
    if a >= forcing_attack || d >= Pattern4::Block4Flex3 {
        s += FORCING_ORDER;
    }
    s + board.order_value(p, me)
}

/// Moves for the side to move at an inner node facing `threat`, with ordering scores.
/// Empty for `Threat::Defend` when no defence exists (the node is lost).
pub(crate) fn generate(board: &mut Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let me = board.side_to_move();
    // A `tune` build reads the values set at run time; a normal one the constants.
    #[cfg(feature = "tune")]
    let w = &crate::eval::tuning::current_order();
    #[cfg(not(feature = "tune"))]
    let w = &crate::eval::weights::ORDER;
    match threat {
        Threat::Block(q) => out.push((q, FORCING_ORDER)),
        Threat::Defend => board.generate(me, GenKind::Defences, |b, p, a| {
            // Own fours already carry the forcing mark; a pure defence gets its own bonus.
            // With `defend_four_order` 0 a plain four (no three with it) is ranked among the
            // defences by its pattern value instead of before them.
            let bonus = if a < Pattern4::Block4 {
                DEFENCE_ORDER
            } else if a < Pattern4::Block4Flex3 && defend_four_order() == 0 {
                DEFENCE_ORDER - FORCING_ORDER
            } else {
                0
            };
            out.push((p, cell_order(w, b, p, me, a) + bonus));
        }),
        _ => {
            if four_three_defence() > 0 && board.pattern4_count(me.opp(), Pattern4::Block4Flex3) > 0
            {
                board.generate(me, GenKind::FourThreeDefences, |b, p, a| {
                    out.push((p, cell_order(w, b, p, me, a)));
                });
                if !out.is_empty() {
                    return;
                }
            }
            generate_all(board, w, out);
        }
    }
}

/// Every candidate of the side to move, scored by the values `w`.
fn generate_all(board: &mut Board, w: &OrderWeights, out: &mut Vec<(Pos, i32)>) {
    let me = board.side_to_move();
    board.generate(me, GenKind::All, |b, p, a| {
        out.push((p, cell_order(w, b, p, me, a)));
    });
}

/// Root moves: as `generate` against a four or an open three (every candidate when that
/// leaves none), and every candidate otherwise.
pub(crate) fn generate_root(board: &Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let mut b = board.clone();
    if matches!(threat, Threat::Block(_) | Threat::Defend) {
        generate(&mut b, threat, out);
    }
    if out.is_empty() {
        #[cfg(feature = "tune")]
        let w = &crate::eval::tuning::current_order();
        #[cfg(not(feature = "tune"))]
        let w = &crate::eval::weights::ORDER;
        generate_all(&mut b, w, out);
    }
}
