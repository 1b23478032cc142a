//! The positions file: training positions with a search score and the game's result, one
//! per line, written by `pentad-tools label` and read by `pentad-tools train-eval`.
//!
//! Format (text, space-separated, `#` starts a comment line):
//!
//! ```text
//! <rule> <width>x<height> <result> <score> <moves>
//! renju 15x15 1 35 h8,i9,j10,k11
//! ```
//!
//! `rule` is a rule name ([`Rule::from_name`]); `result` is the game's result for the side to move
//! in the position (`1` won, `0` lost, `0.5` drawn); `score` is the search score for the side
//! to move (mates clamped to ±29000); `moves` are all stones in `h8` notation, Black first,
//! comma-separated (the position is the one after them).

use anyhow::{bail, Context, Result};
use pentad::board::Board;
use pentad::core::{Pos, Rule};

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// Result for the side to move: 1, 0 or 0.5.
    pub result: f32,
    /// Search score for the side to move.
    pub score: i32,
    pub moves: Vec<Pos>,
}

impl Position {
    /// The line of this position in the file format.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|p| p.to_human()).collect();
        let moves = moves.join(",");
        format!(
            "{} {}x{} {} {} {}",
            self.rule.name(),
            self.width,
            self.height,
            self.result,
            self.score,
            moves
        )
    }

    /// Parses one line of the file format.
    pub fn parse(line: &str) -> Result<Position> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 5 {
            bail!("expected 5 fields, found {}", f.len());
        }
        let rule = Rule::from_name(f[0]).with_context(|| format!("unknown rule `{}`", f[0]))?;
        let (w, h) = f[1].split_once('x').context("size must be WxH")?;
        let (width, height) = (w.parse()?, h.parse()?);
        let result: f32 = f[2].parse().context("result")?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            bail!("result must be 0, 0.5 or 1");
        }
        let score = f[3].parse().context("score")?;
        let moves = f[4]
            .split(',')
            .map(|m| Pos::from_human(m).with_context(|| format!("bad move `{m}`")))
            .collect::<Result<Vec<Pos>>>()?;
        Ok(Position {
            rule,
            width,
            height,
            result,
            score,
            moves,
        })
    }

    /// The board after the moves; an error when a move is off the board or occupied.
    pub fn board(&self) -> Result<Board> {
        let mut b = Board::new(self.width, self.height, self.rule)?;
        for &p in &self.moves {
            if !b.is_empty(p) {
                bail!("move {p} is off the board or occupied");
            }
            b.make_move(p);
        }
        Ok(b)
    }
}

/// Consecutive lines of a positions file taken as one game when it is split into games
/// (a positions file does not mark where games end; `label` writes about this many a game).
pub const POSITIONS_PER_GAME: usize = 40;

/// Reads a positions file; the error names the line.
pub fn read(path: &str) -> Result<Vec<Position>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Position::parse(l).with_context(|| format!("{path}:{}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_refused() {
        let p = Position::parse("renju 15x15 0.5 -35 h8,i9,j10").unwrap();
        assert_eq!(p.moves.len(), 3);
        assert_eq!(Position::parse(&p.to_line()).unwrap(), p);
        assert!(p.board().is_ok());
        for bad in [
            "renju 15x15 1 35",
            "chess 15x15 1 35 h8",
            "renju 15 1 35 h8",
            "renju 15x15 2 35 h8",
            "renju 15x15 1 x h8",
            "renju 15x15 1 3 h8,z",
        ] {
            assert!(Position::parse(bad).is_err(), "{bad}");
        }
        let twice = Position::parse("renju 15x15 1 0 h8,h8").unwrap();
        assert!(twice.board().is_err());
    }
}
