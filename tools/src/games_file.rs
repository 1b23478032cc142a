//! The games file of `pentad-tools selfplay`: one finished game per line, with the search
//! score of every move the engine chose, so a game of 60 moves takes about 600 bytes instead
//! of the 60 lines a positions file (`positions.rs`) would give it. `train-eval` reads it
//! directly, expanding each game into its positions.
//!
//! Format (text, space-separated, `#` starts a comment line):
//!
//! ```text
//! <id> <rule> <width>x<height> <result> <opening> <moves> <scores>
//! 17 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20
//! ```
//!
//! `id` is the game's number in its run (games are reproducible from the run's seed and it);
//! `result` is `1-0` (Black won), `0-1` or `1/2-1/2`; `opening` is how many of the moves were
//! the opening (not searched); `moves` are all stones in `h8` notation, Black first; `scores`
//! holds, for each searched move in order, the search score for the side that moved (mates
//! clamped to ±29000), so there are `moves − opening` of them (`-` when there are none). A
//! line is written whole when its game ends; a run that was killed may leave a last line
//! without its newline, which the next run cuts off before it appends.

use std::collections::HashSet;

use anyhow::{bail, Context, Result};
use pentad::core::{Color, Pos, Rule};

use crate::positions::{self, Position, POSITIONS_PER_GAME};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win(Color),
    Draw,
}

impl GameResult {
    fn text(self) -> &'static str {
        match self {
            GameResult::Win(Color::Black) => "1-0",
            GameResult::Win(_) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::Win(Color::Black),
            "0-1" => GameResult::Win(Color::White),
            "1/2-1/2" => GameResult::Draw,
            _ => return None,
        })
    }

    /// The result for `side`: 1 won, 0 lost, 0.5 drawn.
    pub fn for_side(self, side: Color) -> f32 {
        match self {
            GameResult::Win(w) if w == side => 1.0,
            GameResult::Win(_) => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    pub id: usize,
    /// pentad-arena rule name.
    pub rule: String,
    pub width: usize,
    pub height: usize,
    pub result: GameResult,
    pub opening_plies: usize,
    pub moves: Vec<Pos>,
    /// Search score of each searched move, for the side that played it.
    pub scores: Vec<i32>,
}

impl GameLine {
    /// The line of this game, newline included.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|p| p.to_human()).collect();
        let scores: Vec<String> = self.scores.iter().map(|s| s.to_string()).collect();
        let scores = if scores.is_empty() {
            "-".to_string()
        } else {
            scores.join(",")
        };
        format!(
            "{} {} {}x{} {} {} {} {}\n",
            self.id,
            self.rule,
            self.width,
            self.height,
            self.result.text(),
            self.opening_plies,
            moves.join(","),
            scores
        )
    }

    /// Parses one line of the format.
    pub fn parse(line: &str) -> Result<GameLine> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 7 {
            bail!("expected 7 fields, found {}", f.len());
        }
        let id = f[0].parse().context("game id")?;
        Rule::from_name(f[1]).with_context(|| format!("unknown rule `{}`", f[1]))?;
        let (w, h) = f[2].split_once('x').context("size must be WxH")?;
        let result = GameResult::parse(f[3]).context("result must be 1-0, 0-1 or 1/2-1/2")?;
        let opening_plies: usize = f[4].parse().context("opening length")?;
        let moves = f[5]
            .split(',')
            .map(|m| Pos::from_human(m).with_context(|| format!("bad move `{m}`")))
            .collect::<Result<Vec<Pos>>>()?;
        let scores = match f[6] {
            "-" => Vec::new(),
            s => s
                .split(',')
                .map(|v| v.parse().with_context(|| format!("bad score `{v}`")))
                .collect::<Result<Vec<i32>>>()?,
        };
        if opening_plies > moves.len() || scores.len() != moves.len() - opening_plies {
            bail!(
                "{} moves, {opening_plies} of opening, {} scores",
                moves.len(),
                scores.len()
            );
        }
        Ok(GameLine {
            id,
            rule: f[1].to_string(),
            width: w.parse().context("width")?,
            height: h.parse().context("height")?,
            result,
            opening_plies,
            moves,
            scores,
        })
    }

    /// The searched positions of the game, each with its score and the result for the side
    /// to move.
    pub fn positions(&self) -> Vec<Position> {
        let rule = Rule::from_name(&self.rule).expect("checked by parse");
        (0..self.scores.len())
            .map(|i| {
                let ply = self.opening_plies + i;
                let side = if ply.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                Position {
                    rule,
                    width: self.width,
                    height: self.height,
                    result: self.result.for_side(side),
                    score: self.scores[i],
                    moves: self.moves[..ply].to_vec(),
                }
            })
            .collect()
    }
}

/// Reads a games file; the error names the line.
pub fn read(path: &str) -> Result<Vec<GameLine>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| GameLine::parse(l).with_context(|| format!("{path}:{}", i + 1)))
        .collect()
}

/// Makes `path` ready to be appended to by a resumed run: cuts off a last line without its
/// newline (a game whose writing was interrupted) and returns the ids of the games it holds.
/// A missing file is an empty run; a malformed complete line is an error (not overwritten).
pub fn prepare_for_append(path: &str) -> Result<HashSet<usize>> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
    };
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.set_len(whole as u64)?;
        f.sync_all()?;
    }
    let text = std::str::from_utf8(&text[..whole]).with_context(|| format!("{path}: not UTF-8"))?;
    let mut ids = HashSet::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let g = GameLine::parse(l).with_context(|| format!("{path}:{}", i + 1))?;
        ids.insert(g.id);
    }
    Ok(ids)
}

/// Opens a run's output file for appending, creating it if missing: the resumable tools
/// write each finished record at the end, so an interrupted run keeps what it wrote.
pub fn open_append(path: &str) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {path}"))
}

/// Options of `pentad-tools merge-games`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged games file to write (replaced).
    #[arg(long)]
    pub out: String,
    /// Games files of one run's shards (`selfplay --shard`), in any order.
    #[arg(required = true)]
    pub inputs: Vec<String>,
}

/// `pentad-tools merge-games`: joins the shards of a run into one games file ordered by game
/// number. A game found in two inputs must be the same line in both (shards of one run
/// never overlap; a resumed shard may be given twice); different lines under one number
/// mean shards of different runs, an error. A shard's cut-off last line is left out.
pub fn merge(args: &MergeArgs) -> Result<()> {
    let mut games = std::collections::BTreeMap::new();
    for path in &args.inputs {
        for line in read_whole_lines(path)? {
            let game = GameLine::parse(&line).with_context(|| format!("in {path}"))?;
            match games.get(&game.id) {
                Some(seen) if *seen != line => {
                    bail!(
                        "game {} differs between inputs (shards of different runs?)",
                        game.id
                    )
                }
                _ => {
                    games.insert(game.id, line);
                }
            }
        }
    }
    let mut text = String::new();
    for line in games.values() {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&args.out, text).with_context(|| format!("cannot write {}", args.out))?;
    eprintln!(
        "{} games from {} files in {}",
        games.len(),
        args.inputs.len(),
        args.out
    );
    Ok(())
}

/// The complete game lines of a games file (comments, blank lines and a last line without
/// its newline left out).
fn read_whole_lines(path: &str) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    Ok(text[..whole]
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// Reads a positions file, or a games file of `pentad-tools selfplay` (this module),
/// as games: a games file's lines are its games expanded into their positions; a positions
/// file's lines are taken [`POSITIONS_PER_GAME`] at a time. A file whose first line has the
/// games file's 7 fields is a games file.
pub fn read_games(path: &str) -> Result<Vec<Vec<Position>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.split_whitespace().count() == 7) {
        let games = read(path)?;
        return Ok(games.iter().map(|g| g.positions()).collect());
    }
    let all = positions::read(path)?;
    Ok(all
        .chunks(POSITIONS_PER_GAME)
        .map(<[Position]>::to_vec)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameLine {
        GameLine::parse("17 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20").unwrap()
    }

    #[test]
    fn lines_round_trip_and_bad_lines_are_refused() {
        let g = sample();
        assert_eq!(g.moves.len(), 6);
        assert_eq!(GameLine::parse(g.to_line().trim_end()).unwrap(), g);
        for bad in [
            "17 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35",
            "17 renju 15x15 2-0 4 h8,i9,j10,k11,h9,h10 35,-20",
            "17 chess 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20",
            "17 renju 15x15 1-0 7 h8,i9,j10,k11,h9,h10 -",
            "x renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20",
        ] {
            assert!(GameLine::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_carry_the_result_for_the_side_to_move() {
        let p = sample().positions();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].moves.len(), p[0].result, p[0].score), (4, 1.0, 35));
        assert_eq!((p[1].moves.len(), p[1].result, p[1].score), (5, 0.0, -20));
    }

    #[test]
    fn an_interrupted_last_line_is_cut_off_before_resuming() {
        let dir = tempfile::Builder::new()
            .prefix("pentad-games-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("games").to_str().unwrap().to_string();
        let whole = sample().to_line();
        std::fs::write(&path, format!("{whole}3 renju 15x15 1-0 4 h8,i9")).unwrap();
        let ids = prepare_for_append(&path).unwrap();
        assert_eq!(ids, HashSet::from([17]));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
        std::fs::write(&path, "garbage line\n").unwrap();
        assert!(prepare_for_append(&path).is_err());
        std::fs::remove_file(&path).unwrap();
        assert!(prepare_for_append(&path).unwrap().is_empty());
    }
}
