//! Recorded games from either kind of file the tools write: pentad-arena `--results`
//! records and `pentad-tools selfplay` games files, read into one form.

use std::collections::HashSet;

use anyhow::{Context, Result};
use pentad::core::{Color, Pos, Rule};

use crate::games_file;

/// One recorded game, whatever file it came from.
pub struct Record {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// Result for Black: 1, 0.5 or 0.
    pub black_score: f64,
    pub opening_plies: usize,
    pub moves: Vec<Pos>,
    /// Search score of each searched move for the side that played it (empty: none).
    pub scores: Vec<i32>,
}

/// The games of a pentad-arena `--results` file (games with an unknown rule, result or
/// move are left out).
fn read_results(file: &str) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for g in pentad_arena::read_results(file)? {
        let (Some(rule), Some(black_score), Some(moves)) =
            (Rule::from_name(&g.rule), g.black_score(), g.points())
        else {
            continue;
        };
        out.push(Record {
            rule,
            width: g.width,
            height: g.height,
            black_score,
            opening_plies: g.opening_plies,
            moves,
            scores: Vec::new(),
        });
    }
    Ok(out)
}

/// The games of a `pentad-tools selfplay` games file.
fn read_games_file(file: &str) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for g in games_file::read(file)? {
        let Some(rule) = Rule::from_name(&g.rule) else {
            continue;
        };
        out.push(Record {
            rule,
            width: g.width,
            height: g.height,
            black_score: g.result.for_side(Color::Black) as f64,
            opening_plies: g.opening_plies,
            moves: g.moves,
            scores: g.scores,
        });
    }
    Ok(out)
}

/// The games read from some files, each once.
pub struct Games {
    pub records: Vec<Record>,
    /// Games left out as repeats of one read before them.
    pub repeats: usize,
}

/// The games of `files`: pentad-arena JSON records or selfplay games files (told apart by
/// a first character `{`). A game recorded again (the same rule, board, opening length and
/// moves: an engine playing itself at fixed nodes from a position it met before, or a file
/// named twice) is read once, so that it neither weighs double in a fit nor sits on both
/// sides of the held-out split.
pub fn read_records(files: &[String]) -> Result<Games> {
    let mut all = Vec::new();
    for file in files.iter().filter(|f| !f.is_empty()) {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        if text.trim_start().starts_with('{') {
            all.extend(read_results(file)?);
        } else {
            all.extend(read_games_file(file)?);
        }
    }
    let read = all.len();
    let mut seen = HashSet::new();
    all.retain(|r| seen.insert((r.rule, r.width, r.height, r.opening_plies, r.moves.clone())));
    Ok(Games {
        repeats: read - all.len(),
        records: all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_recorded_twice_is_read_once() {
        let dir = tempfile::Builder::new()
            .prefix("pentad-records-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("games");
        // Two opening stones and three searched moves; the ids and scores do not make a
        // game another.
        let game = |id: usize, result: &str, moves: &str, scores: &str| {
            format!("{id} renju 15x15 {result} 2 {moves} {scores}\n")
        };
        let text = [
            game(1, "1-0", "h8,i9,h9,h7,g8", "10,20,30"),
            game(2, "1-0", "h8,i9,h9,h7,g8", "15,-5,40"),
            game(3, "0-1", "h8,i9,h9,h7,g9", "10,20,30"),
        ]
        .concat();
        std::fs::write(&path, text).unwrap();
        let file = path.to_string_lossy().into_owned();
        let once = read_records(std::slice::from_ref(&file)).unwrap();
        let twice = read_records(&[file.clone(), file]).unwrap();
        assert_eq!((once.records.len(), once.repeats), (2, 1));
        assert_eq!((twice.records.len(), twice.repeats), (2, 4));
        assert_eq!(once.records[1].black_score, 0.0);
    }
}
