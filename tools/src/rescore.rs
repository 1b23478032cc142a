//! `pentad-tools rescore`: the searched positions of a games file (self-play games, or the
//! leaves of `pentad-tools leaves`) scored again by searches of another size, each line
//! written back with its new scores and everything else unchanged.
//!
//! Its use is a common yardstick for networks trained on different labels: a loss measured
//! on each run's own held-out targets cannot compare label sources, but the held-out games
//! (`--part held-out`: ids that are multiples of 20, the trainer's split) rescored once by a
//! deeper search can judge every network. It also makes deeper training labels
//! (`--part training --every K`: one game in K of the rest).
//!
//! A mate found here is kept, as the search's mate score (the trainer reads a score beyond
//! 20,000 as a proven win or loss), unless `--drop-mates` leaves its line out: a held-out set
//! keeps them (filter them out to measure quiet positions alone), while training labels
//! should not have them, as `leaves` does (a network taught them lost clearly in play,
//! `docs/experiments.md`). A position with no legal move keeps its old score.
//!
//! The output is in input order on any number of threads; a run resumes after the games
//! already in `--out`, and `--shard I/N` takes every N-th selected game, for N machines
//! (join the outputs with `merge-games`).

use std::io::Write;

use anyhow::{Context, Result};
use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::eval;
use pentad::search::{SearchLimits, Searcher, MATE_BOUND};

use crate::games_file::{self, GameLine};
use crate::parallel;
use crate::progress::Progress;
use crate::selfplay::{parse_shard, Shard};

/// Which games of the input are rescored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// The trainer's held-out games (id a multiple of 20).
    HeldOut,
    /// The games the trainer learns from.
    Training,
    /// Every game.
    All,
}

impl Part {
    fn has(self, id: usize) -> bool {
        match self {
            Part::HeldOut => id.is_multiple_of(20),
            Part::Training => !id.is_multiple_of(20),
            Part::All => true,
        }
    }
}

/// Options of `pentad-tools rescore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input games file (`selfplay` or `leaves` output).
    #[arg(long)]
    pub games: String,
    /// Output games file (appended to: a run resumes after the games it holds).
    #[arg(long)]
    pub out: String,
    /// Nodes of each scoring search.
    #[arg(long, default_value_t = 12_000)]
    pub nodes: u64,
    /// Which games to rescore.
    #[arg(long, value_enum, default_value_t = Part::HeldOut)]
    pub part: Part,
    /// Keep one game in this many of the selected part (the 1st, the (K+1)-th, ...).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Rescore only shard I of N (`I/N`) of the games kept.
    #[arg(long, value_parser = parse_shard, default_value = "0/1")]
    pub shard: Shard,
    /// Leave out a line with a position scored as a mate (for a `leaves` file: exactly the
    /// leaves a mate was found in).
    #[arg(long)]
    pub drop_mates: bool,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Main-table bytes of each thread's searcher (the scoring searches use its scratch table,
/// emptied before each: a score depends on the position and the node count only).
const HASH_BYTES: usize = 1 << 20;

thread_local! {
    static SEARCHER: std::cell::RefCell<Option<Searcher>> = const { std::cell::RefCell::new(None) };
}

/// Games scored per chunk and thread: the output is appended a chunk at a time.
const CHUNK_GAMES: usize = 64;

/// The games of `games` that `args` selects, in input order.
fn selected(games: Vec<GameLine>, args: &Args) -> Vec<GameLine> {
    games
        .into_iter()
        .filter(|g| args.part.has(g.id))
        .enumerate()
        .filter(|(k, _)| (*k as u64).is_multiple_of(args.every))
        .map(|(_, g)| g)
        .enumerate()
        .filter(|(k, _)| args.shard.has(*k))
        .map(|(_, g)| g)
        .collect()
}

/// `game` with every searched position scored by a `nodes`-node search, and how many
/// positions kept their old score (no legal move).
fn rescored(searcher: &mut Searcher, game: &GameLine, nodes: u64) -> Result<(GameLine, usize)> {
    let rule = Rule::from_name(&game.rule).context("rule checked by parse")?;
    let mut board = Board::new(game.width, game.height, rule)?;
    eval::prepare(&mut board);
    let limits = SearchLimits {
        max_nodes: Some(nodes),
        ..Default::default()
    };
    let mut out = game.clone();
    let mut kept = 0;
    for (ply, &m) in game.moves.iter().enumerate() {
        if let Some(score) = ply
            .checked_sub(game.opening_plies)
            .and_then(|i| out.scores.get_mut(i))
        {
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = searcher.search_from_scratch(&board, &limits, &stop);
            if r.best == Pos::NONE {
                kept += 1;
            } else {
                *score = r.score;
            }
        }
        if !board.is_empty(m) {
            anyhow::bail!("game {}: move {m} is off the board or occupied", game.id);
        }
        board.make_move(m);
    }
    Ok((out, kept))
}

pub fn run(args: &Args) -> Result<()> {
    let done = games_file::prepare_for_append(&args.out)?;
    let mut games = selected(games_file::read(&args.games)?, args);
    let before = games.len();
    games.retain(|g| !done.contains(&g.id));
    let threads = args.threads.max(1);
    let mut out = games_file::open_append(&args.out)?;
    let progress = Progress::new(games.len() as u64, "rescore");
    let (mut kept, mut dropped) = (0, 0);
    for chunk in games.chunks(CHUNK_GAMES * threads) {
        let lines = parallel::map_in_order(chunk, threads, &progress, |g| {
            SEARCHER.with_borrow_mut(|s| {
                rescored(
                    s.get_or_insert_with(|| Searcher::new(HASH_BYTES)),
                    g,
                    args.nodes,
                )
            })
        });
        let mut text = String::new();
        for line in lines {
            let (game, k) = line?;
            kept += k;
            if args.drop_mates && game.scores.iter().any(|s| s.abs() >= MATE_BOUND) {
                dropped += 1;
                continue;
            }
            text += &game.to_line();
        }
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    progress.finish();
    eprintln!(
        "{} games done before, {} now, {dropped} of them left out for a mate, written to {}; \
         {kept} positions without a move kept their old score",
        before - games.len(),
        games.len(),
        args.out
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::search::MATE_BOUND;

    /// A short renju game with five searched positions, none a mate, and a leaf line where
    /// Black to move makes an open four beside White's three (a mate at any node count).
    const GAME: &str = "20 renju 15x15 1-0 2 h8,i9,i8,j9,j8,g8,k8 35,-20,40,-60,900";
    const MATE_LEAF: &str = "40 renju 15x15 1/2-1/2 6 h8,h9,i8,i9,j8,j9,k8 120";

    fn args(games: &str, out: &str) -> Args {
        Args {
            games: games.to_string(),
            out: out.to_string(),
            nodes: 400,
            part: Part::All,
            every: 1,
            shard: Shard { index: 0, count: 1 },
            drop_mates: false,
            threads: 2,
        }
    }

    /// A temporary folder, removed when dropped, and the paths of files in it.
    struct TempFiles(tempfile::TempDir);

    impl TempFiles {
        fn new() -> TempFiles {
            TempFiles(
                tempfile::Builder::new()
                    .prefix("pentad-rescore-")
                    .tempdir()
                    .unwrap(),
            )
        }

        fn path(&self, name: &str) -> String {
            self.0.path().join(name).to_str().unwrap().to_string()
        }
    }

    #[test]
    fn selection_takes_the_part_then_every_kth_then_the_shard() {
        let game = GameLine::parse(GAME).unwrap();
        let games: Vec<GameLine> = (0..200).map(|id| GameLine { id, ..game.clone() }).collect();
        let ids =
            |a: &Args| -> Vec<usize> { selected(games.clone(), a).iter().map(|g| g.id).collect() };
        let mut a = args("", "");
        assert_eq!(ids(&a).len(), 200);
        a.part = Part::HeldOut;
        assert_eq!(ids(&a), (0..200).step_by(20).collect::<Vec<_>>());
        a.part = Part::Training;
        a.every = 3;
        let training = ids(&a);
        assert_eq!(training[..4], [1, 4, 7, 10]);
        assert!(training.iter().all(|id| id % 20 != 0));
        a.shard = Shard { index: 1, count: 2 };
        assert_eq!(
            ids(&a),
            training
                .iter()
                .skip(1)
                .step_by(2)
                .copied()
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn rescoring_changes_only_the_scores_and_keeps_a_mate() {
        let mut searcher = Searcher::new(HASH_BYTES);
        let game = GameLine::parse(GAME).unwrap();
        let (new, kept) = rescored(&mut searcher, &game, 400).unwrap();
        assert_eq!(kept, 0);
        assert_eq!(new.scores.len(), game.scores.len());
        assert_ne!(new.scores, game.scores);
        assert_eq!(
            GameLine {
                scores: game.scores.clone(),
                ..new.clone()
            },
            game
        );
        // A score depends on the position and the node count only.
        let (again, _) = rescored(&mut Searcher::new(HASH_BYTES), &game, 400).unwrap();
        assert_eq!(again, new);
        let (deeper, _) = rescored(&mut searcher, &game, 3_000).unwrap();
        assert_ne!(deeper.scores, new.scores);
        let leaf = GameLine::parse(MATE_LEAF).unwrap();
        let (mate, _) = rescored(&mut searcher, &leaf, 400).unwrap();
        assert!(mate.scores[0] >= MATE_BOUND, "score {}", mate.scores[0]);
    }

    #[test]
    fn a_resumed_run_writes_what_one_run_writes() {
        let tmp = TempFiles::new();
        let path = |name: &str| tmp.path(name);
        let lines: Vec<String> = (0..5)
            .map(|k| GAME.replacen("20 ", &format!("{} ", 20 + k), 1))
            .collect();
        std::fs::write(path("in.games"), lines.join("\n") + "\n").unwrap();
        run(&args(&path("in.games"), &path("whole.games"))).unwrap();
        let whole = std::fs::read_to_string(path("whole.games")).unwrap();
        assert_eq!(whole.lines().count(), 5);
        // A kill in the middle of the third line, then a resumed run.
        let cut = whole.match_indices('\n').nth(1).unwrap().0 + 10;
        std::fs::write(path("cut.games"), &whole[..cut]).unwrap();
        run(&args(&path("in.games"), &path("cut.games"))).unwrap();
        assert_eq!(std::fs::read_to_string(path("cut.games")).unwrap(), whole);
    }

    #[test]
    fn a_mate_stays_unless_dropped() {
        let tmp = TempFiles::new();
        let path = |name: &str| tmp.path(name);
        std::fs::write(path("in.games"), format!("{GAME}\n{MATE_LEAF}\n")).unwrap();
        run(&args(&path("in.games"), &path("all.games"))).unwrap();
        let all = std::fs::read_to_string(path("all.games")).unwrap();
        assert_eq!(all.lines().count(), 2);
        let quiet = Args {
            drop_mates: true,
            ..args(&path("in.games"), &path("quiet.games"))
        };
        run(&quiet).unwrap();
        let kept = std::fs::read_to_string(path("quiet.games")).unwrap();
        assert_eq!(kept, all.lines().next().unwrap().to_string() + "\n");
    }
}
