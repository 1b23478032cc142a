//! Recorded games from either kind of file the tools write: pentad-arena `--results`
//! records and `pentad-tools selfplay` games files, read into one form.

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

/// The games of `files`: pentad-arena JSON records or selfplay games files (told apart by
/// a first character `{`).
pub fn read_records(files: &[String]) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for file in files.iter().filter(|f| !f.is_empty()) {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        if text.trim_start().starts_with('{') {
            out.extend(read_results(file)?);
        } else {
            out.extend(read_games_file(file)?);
        }
    }
    Ok(out)
}
