//! Seeded random games, for the property tests of the board and the tools that check
//! solvers against it.

use super::Board;
use crate::core::{Pos, Rule};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Plays `games` random 15x15 games of `rule` (each move uniform among the candidates the
/// side to move may play, at most `plies` of them) and calls `visit` after every move; a
/// game ends at a five, with no move left, or when `visit` returns false.
pub fn random_games(
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
