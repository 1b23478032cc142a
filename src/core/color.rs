//! Stone colours and the contents of a board cell.

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What occupies one cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Stone(Color),
    /// A blocked cell (field 3 of BOARD in continuous games): a wall for both sides.
    Wall,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opp_flips_and_indexes() {
        assert_eq!(Color::Black.opp(), Color::White);
        assert_eq!(Color::White.opp(), Color::Black);
        assert_eq!(Color::Black.index(), 0);
        assert_eq!(Color::White.index(), 1);
    }
}
