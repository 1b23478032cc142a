//! `pentad-tools cuts`: positions cut from recorded games at random plies, written as an
//! openings file, so that a stronger engine can play each on against itself
//! (`pentad-arena` without `--repeat`) and its results label the positions the recorded
//! games reached (`eval-tune` reads those records; docs/eval-tuning.md).

use std::collections::HashSet;

use anyhow::{bail, Context, Result};
use pentad::core::{Pos, Rule};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::records::{read_records, Record};

/// Options of `pentad-tools cuts`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// pentad-arena JSON-lines records or `pentad-tools selfplay` games files,
    /// comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub games: Vec<String>,
    /// The openings file to write: one position a line, its moves in `h8h7f6` notation.
    #[arg(long)]
    pub out: String,
    /// Rule of the games to cut (pentad-arena names; other rules are skipped).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size of the games to cut (square; other sizes are skipped).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Fewest stones a cut position holds (never fewer than the game's opening).
    #[arg(long, default_value_t = 8)]
    pub min_ply: usize,
    /// Most stones a cut position holds.
    #[arg(long, default_value_t = 36)]
    pub max_ply: usize,
    /// Plies a game must still have had to play after a cut (a position near a game's end
    /// is usually decided).
    #[arg(long, default_value_t = 8)]
    pub tail: usize,
    /// Cuts per game (at distinct plies; fewer where the game has fewer candidates).
    #[arg(long, default_value_t = 1)]
    pub per_game: usize,
    /// Where the record has search scores, cut only where the move's score is nearer even
    /// than this (a decided position teaches the evaluation nothing).
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
    /// Seed of the plies drawn and of the order of the output.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The plies of `r` a cut may stop at.
fn candidate_plies(r: &Record, args: &Args) -> Vec<usize> {
    let lo = args.min_ply.max(r.opening_plies);
    let hi = args.max_ply.min(r.moves.len().saturating_sub(args.tail));
    (lo..=hi)
        .filter(|&ply| {
            // The move played at `ply` was searched when `ply` is past the opening.
            r.scores.is_empty()
                || r.scores
                    .get(ply - r.opening_plies)
                    .is_some_and(|s| s.abs() < args.max_score)
        })
        .collect()
}

/// A position by its stones, whatever the order they came in: each colour's, sorted.
fn position_key(moves: &[Pos]) -> [Vec<Pos>; 2] {
    let mut sides = [Vec::new(), Vec::new()];
    for (ply, &m) in moves.iter().enumerate() {
        sides[ply % 2].push(m);
    }
    for side in &mut sides {
        side.sort_unstable();
    }
    sides
}

/// The cut positions of `records`, as openings lines, shuffled. Each position comes once:
/// games that share their first moves (self-play from one opening list) would otherwise
/// give the same cut many times, and the labelling engine would play it again each time.
fn cuts(records: &[Record], args: &Args, rule: Rule) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for r in records
        .iter()
        .filter(|r| r.rule == rule && r.width == args.size && r.height == args.size)
    {
        let plies = candidate_plies(r, args);
        for &ply in plies.choose_multiple(&mut rng, args.per_game) {
            if seen.insert(position_key(&r.moves[..ply])) {
                out.push(r.moves[..ply].iter().map(|m| m.to_human()).collect());
            }
        }
    }
    out.shuffle(&mut rng);
    out
}

/// Runs `pentad-tools cuts`.
pub fn run(args: &Args) -> Result<()> {
    let Some(rule) = Rule::from_name(&args.rule) else {
        bail!("--rule {}: not a rule name", args.rule);
    };
    if args.min_ply > args.max_ply {
        bail!("--min-ply must not exceed --max-ply");
    }
    let games = read_records(&args.games)?;
    let lines = cuts(&games.records, args, rule);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&args.out, text).with_context(|| format!("cannot write {}", args.out))?;
    println!(
        "{} positions from {} games in {} ({} repeated games left out)",
        lines.len(),
        games.records.len(),
        args.out,
        games.repeats
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(extra: &[&str]) -> Args {
        let mut argv = vec!["cuts", "--games", "x", "--out", "y", "--rule", "renju"];
        argv.extend_from_slice(extra);
        Cli::parse_from(argv).args
    }

    /// A renju game of 20 stones, 2 of opening; the searched move at ply 12 scores a mate.
    fn record() -> Record {
        let moves = "h8,i9,h9,h7,g8,i10,g7,g9,f8,j8,i8,j10,e8,k9,d8,l10,c8,j9,m11,e9";
        let mut scores = vec![10; 18];
        scores[10] = 29000;
        Record {
            rule: Rule::RENJU,
            width: 15,
            height: 15,
            black_score: 1.0,
            opening_plies: 2,
            moves: moves
                .split(',')
                .map(|m| pentad::core::Pos::from_human(m).unwrap())
                .collect(),
            scores,
        }
    }

    #[test]
    fn cuts_stay_in_range_and_skip_decided_moves() {
        let a = args(&["--min-ply", "4", "--max-ply", "30", "--tail", "6"]);
        // Plies 4..=14 (20 stones less a tail of 6), without 12 (a mate score).
        let want: Vec<usize> = (4..=14).filter(|&p| p != 12).collect();
        assert_eq!(candidate_plies(&record(), &a), want);
        let a = args(&["--per-game", "50"]);
        let lines = cuts(&[record()], &a, Rule::RENJU);
        // Plies 8..=12 less the mate: four distinct cuts, each a prefix of the game.
        assert_eq!(lines.len(), 4);
        let whole: String = record().moves.iter().map(|m| m.to_human()).collect();
        for l in &lines {
            assert!(whole.starts_with(l.as_str()), "{l}");
        }
    }

    #[test]
    fn a_position_is_cut_once_however_its_stones_came() {
        let a = args(&["--per-game", "50"]);
        // The same game twice, and once with Black's first two stones in the other order.
        let mut swapped = record();
        swapped.moves.swap(0, 2);
        let games = vec![record(), record(), swapped];
        let mut lines = cuts(&games, &a, Rule::RENJU);
        let mut once = cuts(&[record()], &a, Rule::RENJU);
        lines.sort();
        once.sort();
        assert_eq!(lines, once);
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn the_seed_fixes_the_cuts_and_other_rules_are_skipped() {
        let games = vec![record(), record(), record()];
        let a = args(&[]);
        assert_eq!(cuts(&games, &a, Rule::RENJU), cuts(&games, &a, Rule::RENJU));
        assert!(cuts(&games, &a, Rule::FREESTYLE).is_empty());
        let sized = args(&["--size", "20"]);
        assert!(cuts(&games, &sized, Rule::RENJU).is_empty());
    }
}
