//! `pentad-tools openings`: the balanced opening files under `tests/data/openings/`, random
//! 4-to-6-stone openings near the centre that a depth-8 search scores close to even.
//!
//! Self-play between two builds measures little when most openings decide the game by colour
//! (with the 26 renju openings about 60 of 100 game pairs split one win each). Openings the
//! engine itself scores as even give both colours a game. It prints `<rule> <offset line>`
//! per kept opening, family by family in `--rules` order (deterministic: fixed seed, one
//! thread, fixed depth); the files hold the offset lines of one rule each.

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use clap::ValueEnum;
use pentad::board::{Board, Pattern4};
use pentad::core::{Pos, Rule};
use pentad::search::{SearchLimits, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::progress::Progress;

/// Openings kept per rule in the committed files.
const KEEP: usize = 200;
/// Seed of the committed renju file; freestyle uses the next one.
const SEED: u64 = 11;
/// Score margins of an even opening: about a 55 % expected score under each rule family's
/// logistic scale.
const RENJU_MARGIN: i32 = 80;
const FREESTYLE_MARGIN: i32 = 40;
/// Depth of the search that scores an opening.
const DEPTH: u32 = 8;
/// Hash table of that search.
const HASH_BYTES: usize = 16 << 20;

/// Options of `pentad-tools openings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Openings to keep per rule.
    #[arg(long, default_value_t = KEEP)]
    pub count: usize,
    /// Seed of the renju openings; freestyle uses the next one (default: the committed files').
    #[arg(long, default_value_t = SEED)]
    pub seed: u64,
    /// Rule families to generate, in this order. Each keeps its seed, so one family alone
    /// prints what the run of both prints for it.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "renju,freestyle"
    )]
    pub rules: Vec<Family>,
}

/// A rule family with an opening file of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Family {
    Renju,
    Freestyle,
}

impl Family {
    /// The family's rule, even-score margin and seed (renju takes `seed`, freestyle the next).
    fn settings(self, seed: u64) -> (Rule, i32, u64) {
        match self {
            Family::Renju => (Rule::RENJU, RENJU_MARGIN, seed),
            Family::Freestyle => (Rule::FREESTYLE, FREESTYLE_MARGIN, seed + 1),
        }
    }
}

/// Runs `pentad-tools openings`.
pub fn run(args: &Args) -> Result<()> {
    for family in &args.rules {
        let (rule, margin, seed) = family.settings(args.seed);
        for line in balanced(rule, margin, seed, args.count) {
            println!("{} {line}", rule.name());
        }
    }
    Ok(())
}

/// A random opening of `stones` stones within `radius` of the centre (offset coordinates),
/// Black first, with no four or open three on the board, and its board; or None.
fn random_opening(
    rng: &mut StdRng,
    rule: Rule,
    stones: usize,
    radius: i32,
) -> Option<(Vec<(i32, i32)>, Board)> {
    let mut b = Board::new(15, 15, rule).ok()?;
    let mut offs = vec![(0, 0)];
    b.make_move(Pos::new(7, 7));
    while offs.len() < stones {
        let (dx, dy) = (
            rng.gen_range(-radius..=radius),
            rng.gen_range(-radius..=radius),
        );
        let p = Pos::new((7 + dx) as usize, (7 + dy) as usize);
        if !b.is_empty(p) || !b.is_legal(p) {
            continue;
        }
        b.make_move(p);
        offs.push((dx, dy));
    }
    // No open threes or fours to answer at once: the first moves are a real choice.
    let quiet = [b.side_to_move(), b.side_to_move().opp()].iter().all(|&c| {
        b.pattern4_count(c, Pattern4::Flex4) == 0 && b.pattern4_count(c, Pattern4::Five) == 0
    });
    quiet.then_some((offs, b))
}

/// `count` openings of `rule` whose depth-8 score is within `margin` of even, as offset lines.
fn balanced(rule: Rule, margin: i32, seed: u64, count: usize) -> Vec<String> {
    let progress = Progress::new(count as u64, &format!("{} openings", rule.name()));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut searcher = Searcher::new(HASH_BYTES);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        max_depth: Some(DEPTH),
        ..Default::default()
    };
    let mut kept = Vec::new();
    let mut tried = 0;
    while kept.len() < count {
        let stones = rng.gen_range(4..=6);
        let Some((offs, b)) = random_opening(&mut rng, rule, stones, 3) else {
            continue;
        };
        tried += 1;
        progress.message(format!("{tried} tried"));
        searcher.clear_hash();
        let r = searcher.search(&b, &limits, &stop, &mut |_| {});
        if r.score.abs() <= margin {
            let line: Vec<String> = offs.iter().map(|(x, y)| format!("{x},{y}")).collect();
            kept.push(line.join(", "));
            progress.inc(1);
        }
    }
    progress.finish();
    eprintln!("{}: kept {} of {tried}", rule.name(), kept.len());
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_keeps_its_seed() {
        assert_eq!(Family::Renju.settings(41), (Rule::RENJU, RENJU_MARGIN, 41));
        assert_eq!(
            Family::Freestyle.settings(41),
            (Rule::FREESTYLE, FREESTYLE_MARGIN, 42)
        );
    }

    /// The committed files are what the generator printed: every line a legal opening under its
    /// rule on 15x15, no repeats, quiet for both sides.
    #[test]
    fn balanced_opening_files_are_legal_and_quiet() {
        for (rule, file) in [
            (Rule::RENJU, "balanced-renju.txt"),
            (Rule::FREESTYLE, "balanced-freestyle.txt"),
        ] {
            let path = format!(
                "{}/../tests/data/openings/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let openings = pentad_arena::openings::parse_openings(&text).unwrap();
            assert_eq!(openings.len(), KEEP, "{file}");
            let mut seen = std::collections::HashSet::new();
            for o in &openings {
                let mut b = Board::new(15, 15, rule).unwrap();
                for p in o.points(15, 15).unwrap() {
                    assert!(
                        b.is_legal(p),
                        "{file}: {} is illegal",
                        o.to_pos_text(15, 15)
                    );
                    b.make_move(p);
                }
                assert!(
                    seen.insert(b.hash()),
                    "{file}: repeated opening {}",
                    o.to_pos_text(15, 15)
                );
                for c in [b.side_to_move(), b.side_to_move().opp()] {
                    assert_eq!(b.pattern4_count(c, Pattern4::Flex4), 0);
                    assert_eq!(b.pattern4_count(c, Pattern4::Five), 0);
                }
            }
        }
    }
}
