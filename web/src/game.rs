//! The game record a browser tab plays: moves, redo stack, outcome, and the board judgements
//! (legal points, winning five, renju forbidden points) made with the engine library's rules.

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};
use serde::Serialize;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// `black`, `white`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// `five`, `foul`, `resign`, `draw`, or `illegal` (an engine's illegal answer).
    pub reason: &'static str,
    /// A sentence for the person, e.g. `Black wins by five`.
    pub detail: String,
    /// The winning line's stones, `[x, y]` pairs (empty unless `reason` is `five`).
    pub five: Vec<[usize; 2]>,
}

/// The name of a colour as the page shows it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Parses `black` / `white`.
pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Why a point cannot be played.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    OffBoard,
    Occupied,
    Forbidden,
    Over,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::OffBoard => "that point is off the board",
            Refusal::Occupied => "that point is taken",
            Refusal::Forbidden => "that point is forbidden to Black (renju)",
            Refusal::Over => "the game is over",
        })
    }
}

/// One game: size, rule, the moves in order, moves taken back (for redo) and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    pub size: usize,
    pub rule: Rule,
    pub moves: Vec<Pos>,
    pub redo: Vec<Pos>,
    pub outcome: Option<Outcome>,
}

impl Game {
    /// An empty game; `size` must be within 5..=32.
    pub fn new(size: usize, rule: Rule) -> Result<Game, String> {
        Board::new(size, size, rule).map_err(|e| e.to_string())?;
        Ok(Game {
            size,
            rule,
            moves: Vec::new(),
            redo: Vec::new(),
            outcome: None,
        })
    }

    /// A game set up from recorded moves, judged move by move (a move after the end, or an
    /// occupied or off-board point, is an error naming the move).
    pub fn from_moves(size: usize, rule: Rule, moves: &[Pos]) -> Result<Game, String> {
        let mut g = Game::new(size, rule)?;
        for (i, &p) in moves.iter().enumerate() {
            if g.outcome.is_some() {
                return Err(format!("move {} comes after the end of the game", i + 1));
            }
            match g.check(p) {
                Ok(()) | Err(Refusal::Forbidden) => g.push(p),
                Err(e) => return Err(format!("move {} ({}): {e}", i + 1, p.to_human())),
            }
        }
        Ok(g)
    }

    /// The board after all moves.
    pub fn board(&self) -> Board {
        let mut b = Board::new(self.size, self.size, self.rule).expect("size checked in new");
        for &p in &self.moves {
            b.make_move(p);
        }
        b
    }

    /// The colour to move next.
    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// May the side to move play `p`? (Renju forbidden points are refused for Black.)
    pub fn check(&self, p: Pos) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::Over);
        }
        if p.x() >= self.size || p.y() >= self.size {
            return Err(Refusal::OffBoard);
        }
        let b = self.board();
        if !b.is_empty(p) {
            return Err(Refusal::Occupied);
        }
        if self.to_move() == Color::Black && b.is_forbidden(p) && !b.is_win_move(p, Color::Black) {
            return Err(Refusal::Forbidden);
        }
        Ok(())
    }

    /// Plays `p` for the side to move (already checked for emptiness) and judges the result:
    /// a five, a renju foul (a forbidden point played by Black), or a full board.
    pub fn push(&mut self, p: Pos) {
        let side = self.to_move();
        let before = self.board();
        let wins = before.is_win_move(p, side);
        let foul = !wins && side == Color::Black && before.is_forbidden(p);
        self.moves.push(p);
        self.redo.clear();
        let who = if side == Color::Black {
            "Black"
        } else {
            "White"
        };
        self.outcome = if wins {
            Some(Outcome {
                winner: Some(color_name(side)),
                reason: "five",
                detail: format!("{who} wins by five"),
                five: five_line(&self.board(), p, side),
            })
        } else if foul {
            Some(Outcome {
                winner: Some("white"),
                reason: "foul",
                detail: format!(
                    "White wins: Black played the forbidden point {}",
                    p.to_human()
                ),
                five: Vec::new(),
            })
        } else if self.moves.len() == self.size * self.size {
            Some(Outcome {
                winner: None,
                reason: "draw",
                detail: "Draw: the board is full".into(),
                five: Vec::new(),
            })
        } else {
            None
        };
    }

    /// Ends the game: `loser` resigned (or lost by `reason` with `detail`).
    pub fn end(&mut self, loser: Color, reason: &'static str, detail: String) {
        self.outcome = Some(Outcome {
            winner: Some(color_name(loser.opp())),
            reason,
            detail,
            five: Vec::new(),
        });
    }

    /// Takes back the last move (onto the redo stack). False when there is none.
    pub fn undo(&mut self) -> bool {
        match self.moves.pop() {
            Some(p) => {
                self.redo.push(p);
                self.outcome = None;
                true
            }
            None => false,
        }
    }

    /// Replays the last move taken back. False when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(p) => {
                let keep = std::mem::take(&mut self.redo);
                self.push(p);
                self.redo = keep;
                true
            }
            None => false,
        }
    }

    /// Black's forbidden points now (renju, Black to move, game not over), `[x, y]` pairs.
    pub fn forbidden(&self) -> Vec<[usize; 2]> {
        if !self.rule.is_renju() || self.outcome.is_some() || self.to_move() != Color::Black {
            return Vec::new();
        }
        let b = self.board();
        b.forbidden_points()
            .into_iter()
            .filter(|&p| !b.is_win_move(p, Color::Black))
            .map(|p| [p.x(), p.y()])
            .collect()
    }
}

/// The stones of the longest same-coloured line through `p` (the five just made).
fn five_line(b: &Board, p: Pos, c: Color) -> Vec<[usize; 2]> {
    use pentad::core::Cell;
    let mut best: Vec<[usize; 2]> = Vec::new();
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        let mut line = vec![[p.x(), p.y()]];
        for sign in [1, -1] {
            let (mut x, mut y) = (p.x() as i32, p.y() as i32);
            loop {
                x += sign * dx;
                y += sign * dy;
                match b.pos(x, y) {
                    Some(q) if b.cell(q) == Cell::Stone(c) => line.push([q.x(), q.y()]),
                    _ => break,
                }
            }
        }
        if line.len() >= 5 && line.len() > best.len() {
            best = line;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &[(usize, usize)]) -> Vec<Pos> {
        s.iter().map(|&(x, y)| Pos::new(x, y)).collect()
    }

    #[test]
    fn five_ends_the_game_and_is_highlighted() {
        let moves = pts(&[
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
        ]);
        let mut g = Game::from_moves(15, Rule::FREESTYLE, &moves).unwrap();
        assert!(g.outcome.is_none());
        g.push(Pos::new(4, 0));
        let o = g.outcome.clone().unwrap();
        assert_eq!((o.winner, o.reason), (Some("black"), "five"));
        assert_eq!(o.five.len(), 5);
        assert_eq!(g.check(Pos::new(9, 9)), Err(Refusal::Over));
        assert!(g.undo() && g.outcome.is_none());
        assert!(g.redo() && g.outcome.is_some());
        assert!(!g.redo());
    }

    #[test]
    fn renju_forbidden_points_are_refused_for_black() {
        // Black: three on row 7 (x 5..=7) and three on column 9 (y 5, 6, 8).
        let moves = pts(&[
            (5, 7),
            (0, 0),
            (6, 7),
            (0, 2),
            (7, 7),
            (0, 4),
            (9, 5),
            (0, 6),
        ]);
        let moves = [moves, pts(&[(9, 6), (0, 8), (9, 8), (0, 10)])].concat();
        let g = Game::from_moves(15, Rule::RENJU, &moves).unwrap();
        // (9,7) makes a four on the row and a four on the column: 4-4 for Black.
        assert_eq!(g.check(Pos::new(9, 7)), Err(Refusal::Forbidden));
        assert!(g.forbidden().contains(&[9, 7]));
        let free = Game::from_moves(15, Rule::FREESTYLE, &moves).unwrap();
        assert_eq!(free.check(Pos::new(9, 7)), Ok(()));
        assert!(free.forbidden().is_empty());
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(Game::new(4, Rule::FREESTYLE).is_err());
        let e = Game::from_moves(15, Rule::FREESTYLE, &pts(&[(1, 1), (1, 1)])).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        let e = Game::from_moves(9, Rule::FREESTYLE, &pts(&[(10, 1)])).unwrap_err();
        assert!(e.contains("off the board"), "{e}");
    }
}
