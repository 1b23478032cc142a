//! Helpers shared by the board's unit tests: points by name and boards from stone lists.

pub(crate) use super::random_games;

use super::Board;
use crate::core::{Color, Pos, Rule};

/// The point of a name such as `h8`.
pub(crate) fn at(s: &str) -> Pos {
    Pos::from_human(s).expect("bad point")
}

/// A 15x15 board with the given stones of each colour (space-separated names) and `side`
/// to move.
pub(crate) fn setup(rule: Rule, black: &str, white: &str, side: Color) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for (c, list) in [(Color::Black, black), (Color::White, white)] {
        for s in list.split_whitespace() {
            b.make_move_as(at(s), c);
        }
    }
    b.set_side_to_move(side);
    b
}
