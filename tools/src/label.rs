//! `pentad-tools label`: turns recorded games (pentad-arena `--results` files) into training
//! positions (see `positions.rs`): every position after the opening is searched to a node
//! limit with the built-in evaluation, and written with that score and the game's result.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use pentad::board::Board;
use pentad::core::{Color, Rule};
use pentad::search::{SearchLimits, Searcher, MATE_BOUND};
use pentad_arena::{read_results, GameRecord};

use crate::games_file;
use crate::positions::Position;
use crate::progress::Progress;

/// Options of `pentad-tools label`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// pentad-arena JSON-lines records, comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 8000)]
    pub nodes: u64,
    /// The positions file to write (appended to, so a run can go on where one stopped:
    /// see `--skip`).
    #[arg(long)]
    pub out: String,
    /// Games to skip at the start (those an earlier run labelled).
    #[arg(long, default_value_t = 0)]
    pub skip: usize,
}

/// Transposition-table bytes of the labelling searcher.
const HASH_BYTES: usize = 16 << 20;

/// The game's result for `side`: 1 won, 0 lost, 0.5 drawn (or unknown).
fn result_for(game: &GameRecord, side: Color) -> f32 {
    let black = game.black_score().unwrap_or(0.5) as f32;
    match side {
        Color::Black => black,
        Color::White => 1.0 - black,
    }
}

pub fn run(args: &Args) -> Result<()> {
    let mut games = Vec::new();
    for f in &args.games {
        games.extend(read_results(f)?);
    }
    let games: Vec<_> = games.into_iter().skip(args.skip).collect();
    let mut out = games_file::open_append(&args.out)?;
    let progress = Progress::new(games.len() as u64, "label");
    let mut searcher = Searcher::new(HASH_BYTES);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        max_nodes: Some(args.nodes),
        ..Default::default()
    };
    for g in &games {
        progress.inc(1);
        let Some(rule) = Rule::from_name(&g.rule) else {
            progress.note(&format!("game {}: unknown rule {}", g.game, g.rule));
            continue;
        };
        let Some(moves) = g.points() else {
            progress.note(&format!("game {}: a malformed move", g.game));
            continue;
        };
        let mut b = Board::new(g.width, g.height, rule)?;
        let mut lines = String::new();
        for (k, &m) in moves.iter().enumerate() {
            if k >= g.opening_plies {
                let r = searcher.search(&b, &limits, &stop, &mut |_| {});
                let pos = Position {
                    rule,
                    width: g.width,
                    height: g.height,
                    result: result_for(g, b.side_to_move()),
                    score: r.score.clamp(-MATE_BOUND, MATE_BOUND),
                    moves: moves[..k].to_vec(),
                };
                lines += &pos.to_line();
                lines.push('\n');
            }
            if !b.is_empty(m) {
                break;
            }
            b.make_move(m);
        }
        out.write_all(lines.as_bytes())?;
    }
    progress.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad_arena::Reason;

    fn game(result: &str) -> GameRecord {
        GameRecord {
            game: 1,
            black: "a".into(),
            white: "b".into(),
            rule: "renju".into(),
            width: 15,
            height: 15,
            opening: String::new(),
            moves: Vec::new(),
            opening_plies: 0,
            result: result.into(),
            reason: Reason::Five,
            detail: String::new(),
            plies: 0,
            times_ms: Vec::new(),
        }
    }

    #[test]
    fn results_are_for_the_side_to_move() {
        assert_eq!(result_for(&game("1-0"), Color::Black), 1.0);
        assert_eq!(result_for(&game("1-0"), Color::White), 0.0);
        assert_eq!(result_for(&game("0-1"), Color::White), 1.0);
        assert_eq!(result_for(&game("1/2-1/2"), Color::Black), 0.5);
    }
}
