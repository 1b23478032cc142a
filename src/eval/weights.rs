//! Every evaluation and move-ordering weight, indexed by `Pattern` / `Pattern4` discriminant.
//!
//! Order of `Pattern`: Dead, Overline, Block1, Flex1, Block2, Flex2, Block3, Flex3, Block4,
//! Flex4, Five. Order of `Pattern4`: None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3,
//! Flex3Plus, Flex3x2, Block4, Block4Plus, Block4Flex3, Flex4, Five.

/// Bonus for having the move.
pub const TEMPO: i32 = 20;

/// Value of each per-direction pattern cell count for the side to move.
pub const LINE_ME: [i32; 11] = [0, 0, 1, 2, 3, 6, 7, 14, 16, 30, 0];
/// Value of each per-direction pattern cell count for the opponent.
pub const LINE_OPP: [i32; 11] = [0, 0, 1, 2, 3, 5, 6, 11, 12, 25, 0];

/// Value of each combined-pattern cell count for the side to move (Flex4/Five are wins and
/// handled by the search's static win check).
pub const CELL_ME: [i32; 14] = [0, 0, 4, 6, 14, 16, 20, 30, 70, 22, 36, 160, 300, 0];
/// Value of each combined-pattern cell count for the opponent (threats one tempo away).
pub const CELL_OPP: [i32; 14] = [0, 0, 3, 5, 10, 12, 14, 22, 50, 16, 26, 110, 130, 0];

/// Move ordering: value of the point for the mover's own shape (by `Pattern4`).
pub const ORDER_ATTACK: [i32; 14] = [
    0, 0, 40, 45, 100, 110, 180, 240, 800, 200, 280, 1800, 6000, 20_000,
];
/// Move ordering: value of the point for blocking the opponent's shape (by `Pattern4`).
pub const ORDER_DEFEND: [i32; 14] = [
    0, 0, 24, 28, 60, 70, 120, 160, 600, 120, 180, 1200, 4000, 16_000,
];
/// Move ordering: per-direction shape value for the mover (by `Pattern`).
pub const ORDER_LINE_ME: [i32; 11] = [0, 0, 2, 4, 6, 12, 14, 30, 32, 60, 100];
/// Move ordering: per-direction shape value of the opponent (by `Pattern`).
pub const ORDER_LINE_OPP: [i32; 11] = [0, 0, 1, 3, 4, 9, 10, 22, 24, 45, 80];
