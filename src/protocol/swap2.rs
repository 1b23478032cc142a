//! Swap2 opening decisions for SWAP2BOARD: propose three stones, or choose SWAP / moves.
//!
//! A simple, deterministic first version: a fixed three-stone proposal near the centre, and
//! a shape count (stones of one colour on a common line within two cells) to decide whether
//! Black's stones look stronger than White's. The search may replace [`respond`] later.

use std::fmt;

use crate::board::Board;
use crate::core::{Cell, Color, Pos};
use crate::search::pick_simple_move;

/// Our answer to SWAP2BOARD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Reply {
    /// Take the other colour (`SWAP`).
    Swap,
    /// Stones to place, in order (three, two or one).
    Moves(Vec<Pos>),
}

impl fmt::Display for Swap2Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Reply::Swap => write!(f, "SWAP"),
            Swap2Reply::Moves(ms) => {
                let v: Vec<String> = ms.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", v.join(" "))
            }
        }
    }
}

/// Sum over pairs of `c` stones on one line at distance 1 (2 points) or 2 (1 point).
fn shape(board: &Board, c: Color) -> i32 {
    let stones: Vec<Pos> = board
        .history()
        .filter(|&(_, col)| col == c)
        .map(|(p, _)| p)
        .collect();
    let mut score = 0;
    for (i, a) in stones.iter().enumerate() {
        for b in &stones[i + 1..] {
            let dx = (a.x() as i32 - b.x() as i32).abs();
            let dy = (a.y() as i32 - b.y() as i32).abs();
            let collinear = dx == 0 || dy == 0 || dx == dy;
            let dist = dx.max(dy);
            if collinear && dist == 1 {
                score += 2;
            } else if collinear && dist == 2 {
                score += 1;
            }
        }
    }
    score
}

/// Black's shape advantage over White's.
fn black_edge(board: &Board) -> i32 {
    shape(board, Color::Black) - shape(board, Color::White)
}

/// Answers a Swap2 position. `board` holds the stones in Swap2 order (Black, White, Black,
/// White, Black) with White to move after 3 or 5 stones. Returns `None` for a stone count
/// other than 0, 3 or 5.
pub fn respond(board: &Board) -> Option<Swap2Reply> {
    match board.stone_count() {
        0 => {
            let (cx, cy) = (
                (board.width() as i32 - 1) / 2,
                (board.height() as i32 - 1) / 2,
            );
            let wanted = [(cx, cy), (cx + 1, cy + 1), (cx + 2, cy - 1)];
            let mut moves: Vec<Pos> = wanted
                .iter()
                .filter_map(|&(x, y)| board.pos(x, y))
                .filter(|&p| board.cell(p) == Cell::Empty)
                .collect();
            // Walls could block the fixed shape: fill up with the central empty points.
            let mut b = board.clone();
            for &p in &moves {
                b.make_move(p);
            }
            while moves.len() < 3 {
                let p = pick_simple_move(&b);
                if p.is_none() {
                    return None;
                }
                b.make_move(p);
                moves.push(p);
            }
            Some(Swap2Reply::Moves(moves))
        }
        3 => {
            // We are White: swap when Black's two stones already work together.
            if black_edge(board) >= 2 {
                Some(Swap2Reply::Swap)
            } else {
                one_move(board)
            }
        }
        5 => {
            // We chose last time: take Black if its three stones outshape White's two.
            if black_edge(board) >= 3 {
                Some(Swap2Reply::Swap)
            } else {
                one_move(board)
            }
        }
        _ => None,
    }
}

fn one_move(board: &Board) -> Option<Swap2Reply> {
    let p = pick_simple_move(board);
    (!p.is_none()).then(|| Swap2Reply::Moves(vec![p]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn setup(stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for &(x, y) in stones {
            b.make_move(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn proposes_three_distinct_stones() {
        let r = respond(&setup(&[])).unwrap();
        let Swap2Reply::Moves(ms) = r else {
            panic!("expected moves")
        };
        assert_eq!(ms.len(), 3);
        assert!(ms[0] != ms[1] && ms[1] != ms[2] && ms[0] != ms[2]);
        let small = Board::new(5, 5, Rule::FREESTYLE).unwrap();
        assert!(matches!(respond(&small), Some(Swap2Reply::Moves(m)) if m.len() == 3));
    }

    #[test]
    fn swaps_on_connected_black_and_plays_otherwise() {
        assert_eq!(
            respond(&setup(&[(7, 7), (0, 0), (8, 7)])),
            Some(Swap2Reply::Swap)
        );
        let r = respond(&setup(&[(7, 7), (8, 8), (3, 12)])).unwrap();
        assert!(matches!(r, Swap2Reply::Moves(ref m) if m.len() == 1));
        assert_eq!(respond(&setup(&[(7, 7)])), None);
        assert_eq!(Swap2Reply::Swap.to_string(), "SWAP");
    }
}
