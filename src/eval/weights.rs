//! Every evaluation and move-ordering weight, indexed by `Pattern` / `Pattern4` discriminant.
//!
//! Order of `Pattern`: Dead, Overline, Block1, Flex1, Block2, Flex2, Block3, Flex3, Block4,
//! Flex4, Five. Order of `Pattern4`: None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3,
//! Flex3Plus, Flex3x2, Block4, Block4Plus, Block4Flex3, Flex4, Five.

use super::tables::Family;
use crate::board::{Pattern, LINE_DOUBLE_FOUR};
use crate::core::RuleKind;

/// The evaluation's weights for one family of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Bonus for having the move.
    pub tempo: i32,
    /// Value of each combined-pattern cell count for the side to move (Flex4/Five are wins
    /// and handled by the search's static win check).
    pub cell_me: [i32; 14],
    /// Value of each combined-pattern cell count for the opponent (threats one tempo away).
    pub cell_opp: [i32; 14],
    /// Value of each per-direction pattern cell count for the side to move.
    pub line_me: [i32; 11],
    /// Value of each per-direction pattern cell count for the opponent.
    pub line_opp: [i32; 11],
    /// A correction to `line_me[Block1]` in [`FINE_UNIT`]ths of a point, a tuning handle:
    /// every stone makes dozens of one-stone line cells, so their weights act as a tempo term
    /// that whole points tune only coarsely (half a point either way measured no gain,
    /// docs/experiments-2.md; renju's small values come from the fit to a stronger engine's
    /// scores).
    pub fine_me_block1: i32,
    /// A correction to `line_opp[Block1]` in [`FINE_UNIT`]ths of a point.
    pub fine_opp_block1: i32,
}

/// The unit of the one-stone corrections: a sixteenth of a point.
pub const FINE_UNIT: i32 = 16;

/// Weights for renju: the self-play fit moved a quarter of the way towards a fit to a
/// stronger engine's scores (docs/eval-training.md).
pub const RENJU: EvalWeights = EvalWeights {
    tempo: 12,
    cell_me: [0, -46, -13, -2, -8, 15, 22, 55, 71, 25, 138, 160, 300, 0],
    cell_opp: [0, -77, -15, -4, -14, 2, 3, 28, 51, -4, 89, 232, 196, 0],
    line_me: [0, 0, 0, -2, 6, 7, 17, 10, 64, 27, 0],
    line_opp: [0, 0, -1, -2, 6, 7, 18, 15, 86, 86, 0],
    fine_me_block1: 2,
    fine_opp_block1: 1,
};

/// Weights for freestyle, standard and caro (no forbidden points): fitted to the results of
/// Rapfi with its model playing on from positions of Pentad's games, the tempo and the
/// one-stone weights kept (`eval-tune --keep-one-stone`, docs/eval-tuning.md).
pub const GOMOKU: EvalWeights = EvalWeights {
    tempo: 5,
    cell_me: [0, 0, 0, -4, -4, 19, 25, 51, 54, 12, 103, 160, 300, 0],
    cell_opp: [0, 0, -7, -8, -13, 8, 0, 21, 22, -15, 60, 267, 188, 0],
    line_me: [0, 0, -1, -1, 3, 5, 16, 16, 54, 30, 0],
    line_opp: [0, 0, -2, -1, 4, 8, 18, 31, 76, 96, 0],
    fine_me_block1: 0,
    fine_opp_block1: 0,
};

/// The weight set used under `kind`.
pub fn for_rule(kind: RuleKind) -> &'static EvalWeights {
    match Family::of(kind) {
        Family::Renju => &RENJU,
        Family::Gomoku => &GOMOKU,
    }
}

/// The linear evaluation's weights in the layout of [`crate::board::Board::raw_counts`], for
/// the side to move of colour index `me`: the mover's line and cell weights at its own
/// counts, the opponent's negated at the other colour's; a one-line double four weighs as an
/// open four; the renju 3-3 candidates (resolved apart) and unused codes weigh nothing.
pub const fn count_weights(w: &EvalWeights, me: usize) -> [i32; 64] {
    let mut v = [0; 64];
    let mut c = 0;
    while c < 2 {
        let (line, cell, sign) = if c == me {
            (&w.line_me, &w.cell_me, 1)
        } else {
            (&w.line_opp, &w.cell_opp, -1)
        };
        let mut code = 0;
        while code < line.len() {
            v[16 * c + code] = sign * line[code];
            code += 1;
        }
        v[16 * c + LINE_DOUBLE_FOUR as usize] = sign * line[Pattern::Flex4 as usize];
        let mut code = 0;
        while code < cell.len() {
            v[32 + 16 * c + code] = sign * cell[code];
            code += 1;
        }
        c += 1;
    }
    v
}

/// [`count_weights`] of the built-in weights: by [`Family::index`] (renju first) and side to
/// move.
const COUNT_WEIGHTS: [[[i32; 64]; 2]; 2] = [
    [count_weights(&RENJU, 0), count_weights(&RENJU, 1)],
    [count_weights(&GOMOKU, 0), count_weights(&GOMOKU, 1)],
];

/// [`count_weights`] of the weight set used under `kind` ([`for_rule`]), for the side to move
/// `me`.
pub fn count_weights_for_rule(kind: RuleKind, me: usize) -> &'static [i32; 64] {
    &COUNT_WEIGHTS[Family::of(kind).index()][me & 1]
}

/// The move ordering's pattern values: what a point is worth to the mover by the shapes it
/// makes and blocks there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderWeights {
    /// Value of the point for the mover's own shape (by `Pattern4`).
    pub attack: [i32; 14],
    /// Value of the point for blocking the opponent's shape (by `Pattern4`).
    pub defend: [i32; 14],
}

/// The move ordering's pattern values, for every rule.
pub const ORDER: OrderWeights = OrderWeights {
    attack: [
        0, 0, 40, 45, 100, 110, 180, 240, 800, 200, 280, 1800, 6000, 20_000,
    ],
    defend: [
        0, 0, 24, 28, 60, 70, 120, 160, 600, 120, 180, 1200, 4000, 16_000,
    ],
};
