//! The threat situation of a position as a small index: which tactical shapes each side can
//! make with one stone. Its learned value carries what a sum of independent cell values
//! cannot: who has the initiative, and how threats combine.

use crate::board::{Board, Pattern4};
use crate::core::Color;

/// Bits of a threat index.
pub const THREAT_BITS: usize = 12;
/// Number of threat indices.
pub const N_THREAT: usize = 1 << THREAT_BITS;

/// The side to move's shapes, one bit each (bits 0..6), strongest first.
const OWN_SHAPES: [Pattern4; 6] = [
    Pattern4::Block4Flex3,
    Pattern4::Block4Plus,
    Pattern4::Block4,
    Pattern4::Flex3x2,
    Pattern4::Flex3Plus,
    Pattern4::Flex3,
];

/// The opponent's shapes, one bit each (bits 6..12). `Flex4` is the opponent's open three
/// (one stone from an open four), which the side to move must answer.
const OPP_SHAPES: [Pattern4; 6] = [
    Pattern4::Flex4,
    Pattern4::Block4Flex3,
    Pattern4::Block4Plus,
    Pattern4::Block4,
    Pattern4::Flex3x2,
    Pattern4::Flex3,
];

/// The threat index of `board` for side `me` (to move).
pub fn threat_index(board: &Board, me: Color) -> usize {
    let opp = me.opp();
    let mut index = 0;
    for (bit, &p) in OWN_SHAPES.iter().enumerate() {
        if board.pattern4_count(me, p) > 0 {
            index |= 1 << bit;
        }
    }
    for (bit, &p) in OPP_SHAPES.iter().enumerate() {
        if board.pattern4_count(opp, p) > 0 {
            index |= 1 << (OWN_SHAPES.len() + bit);
        }
    }
    index
}

/// The shapes behind a threat index, for reports: (own, opponent's).
pub fn threat_shapes(index: usize) -> (Vec<Pattern4>, Vec<Pattern4>) {
    let own = (0..OWN_SHAPES.len())
        .filter(|b| index >> b & 1 != 0)
        .map(|b| OWN_SHAPES[b])
        .collect();
    let opp = (0..OPP_SHAPES.len())
        .filter(|b| index >> (OWN_SHAPES.len() + b) & 1 != 0)
        .map(|b| OPP_SHAPES[b])
        .collect();
    (own, opp)
}

const _: () = assert!(OWN_SHAPES.len() + OPP_SHAPES.len() == THREAT_BITS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Pos, Rule};

    #[test]
    fn open_three_shows_for_both_sides() {
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for (x, y) in [(6, 7), (0, 0), (7, 7), (0, 14), (8, 7)] {
            b.make_move(Pos::new(x, y));
        }
        // White to move faces Black's open three: Black can make an open four.
        let white = threat_index(&b, Color::White);
        assert!(threat_shapes(white).1.contains(&Pattern4::Flex4));
        // Black (if it were to move) can make a four and an open four.
        let black = threat_index(&b, Color::Black);
        assert!(threat_shapes(black).0.contains(&Pattern4::Block4));
        assert_eq!(threat_shapes(0), (vec![], vec![]));
    }
}
