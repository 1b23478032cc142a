//! Helpers shared by the board's unit tests: points by name and boards from stone lists.

use super::Board;
use crate::core::{Color, Pos, Rule};
use rand::{rngs::StdRng, Rng, SeedableRng};

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

/// Plays `games` random 15x15 games of `rule` (each move uniform among the candidates the
/// side to move may play, at most `plies` of them) and calls `visit` after every move; a
/// game ends at a five, with no move left, or when `visit` returns false.
pub(crate) fn random_games(
    rule: Rule,
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&mut Board) -> bool,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut b = Board::new(15, 15, rule).unwrap();
        for _ in 0..plies {
            let me = b.side_to_move();
            let cands: Vec<Pos> = b.candidates().filter(|&p| b.can_play(p, me)).collect();
            if cands.is_empty() {
                break;
            }
            b.make_move(cands[rng.gen_range(0..cands.len())]);
            if b.last_move_won().is_some() || !visit(&mut b) {
                break;
            }
        }
    }
}
