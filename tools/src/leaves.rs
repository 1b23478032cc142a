//! `pentad-tools leaves`: training positions taken where a search uses its evaluation. The
//! positions of a games file are searched again, a sample of the leaves those searches
//! evaluate is kept, and each kept leaf is scored by a search of its own.
//!
//! A network fitted to game positions meets, in play, positions that no game reaches: a
//! search evaluates the ends of lines it is about to refute. These are those positions.
//!
//! The output is a games file (`games_file`) that the trainer and `static-eval` read as
//! they are: one line per kept leaf, the leaf's stones as the "opening" and the scoring
//! search's best move as its one searched move, with that search's score. The result field
//! is a draw: a leaf has no game result, so train with `--lambda 0`. A leaf from game `g`
//! gets the id `g + k × 1,000,000`, so the trainer's held-out games (id modulo 20) hold the
//! leaves of the same games. Leaves whose score is a mate are left out: the threat searches
//! decide those, and their targets (certain win or loss) would teach the evaluation to guess
//! tactics. Everything is a function of the input, the options and the seed: no timing, and
//! the same output on any number of threads. A comment line closes each game's leaves, and a
//! run resumes after the last one (`selfplay --shard` makes the games on many machines).

use std::collections::HashSet;
use std::io::Write;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::eval;
use pentad::search::{LeafSamples, SearchLimits, Searcher, MATE_BOUND};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::games_file::{self, GameLine, GameResult};
use crate::parallel;
use crate::progress::Progress;

/// Leaf `k` of game `g` has the id `g + k × ID_STRIDE` (a multiple of 20: the trainer holds
/// out by id modulo 20).
pub(crate) const ID_STRIDE: usize = 1_000_000;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games file (`selfplay`) whose searched positions are searched again.
    #[arg(long)]
    pub games: String,
    /// Output games file: one line per kept leaf.
    #[arg(long)]
    pub out: String,
    /// Nodes of each search whose leaves are sampled (the node count a network plays at).
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// A leaf is in the sample when its hash is a multiple of this.
    #[arg(long, default_value_t = 64)]
    pub every: u64,
    /// Leaves kept per searched position, drawn from its sample (seeded per game).
    #[arg(long, default_value_t = 4)]
    pub per_position: usize,
    /// Nodes of the search that scores each kept leaf.
    #[arg(long, default_value_t = 1_000)]
    pub score_nodes: u64,
    /// Search every STRIDE-th searched position of each game.
    #[arg(long, default_value_t = 1)]
    pub stride: usize,
    /// Read at most this many games.
    #[arg(long)]
    pub max_games: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A network file (`.pnet`) the searches evaluate with, so that the leaves are those a
    /// search with that network reaches (the next round of a network's data).
    #[arg(long)]
    pub net: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub tune: crate::tune::TuneArgs,
}

/// What one run samples and how it scores the sample.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub nodes: u64,
    pub every: u64,
    pub per_position: usize,
    pub score_nodes: u64,
    pub stride: usize,
    pub seed: u64,
}

impl Plan {
    fn from_args(args: &Args) -> Plan {
        Plan {
            nodes: args.nodes,
            every: args.every,
            per_position: args.per_position,
            score_nodes: args.score_nodes,
            stride: args.stride.max(1),
            seed: args.seed,
        }
    }
}

/// Search table of the sampling and scoring searches: a small one, emptied before each.
const HASH_BYTES: usize = 1 << 16;

fn node_limited(nodes: u64) -> SearchLimits {
    SearchLimits {
        max_nodes: Some(nodes),
        ..Default::default()
    }
}

/// The leaves of a `plan.nodes` search from `board`, in the order the search met them.
fn sampled_leaves(searcher: &mut Searcher, board: &Board, plan: Plan) -> Vec<Vec<Pos>> {
    let samples = Arc::new(LeafSamples::new(plan.every));
    let limits = SearchLimits {
        leaf_samples: Some(Arc::clone(&samples)),
        ..node_limited(plan.nodes)
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    searcher.search_from_scratch(board, &limits, &stop);
    samples.take()
}

/// The board after `stones` (alternate colours from Black), or `None` if they are not a
/// legal sequence of moves of `rule`.
pub(crate) fn replay(rule: Rule, width: usize, height: usize, stones: &[Pos]) -> Option<Board> {
    let mut board = Board::new(width, height, rule).ok()?;
    eval::prepare(&mut board);
    for &p in stones {
        if !board.can_play(p, board.side_to_move()) {
            return None;
        }
        board.make_move(p);
    }
    Some(board)
}

/// The kept leaves of one game as games-file lines.
pub fn game_leaves(game: &GameLine, plan: Plan) -> Result<Vec<String>> {
    if game.id >= ID_STRIDE {
        bail!("game id {} is beyond {ID_STRIDE}", game.id);
    }
    let rule = Rule::from_name(&game.rule).context("rule checked by parse")?;
    let mut board = Board::new(game.width, game.height, rule)?;
    eval::prepare(&mut board);
    let mut rng =
        StdRng::seed_from_u64(plan.seed ^ (game.id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut searcher = Searcher::new(HASH_BYTES);
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    for (ply, &m) in game.moves.iter().enumerate() {
        let searched =
            ply >= game.opening_plies && (ply - game.opening_plies).is_multiple_of(plan.stride);
        if searched {
            let mut leaves = sampled_leaves(&mut searcher, &board, plan);
            leaves.shuffle(&mut rng);
            let mut kept = 0;
            for stones in leaves {
                if kept == plan.per_position {
                    break;
                }
                let Some(leaf) = replay(rule, game.width, game.height, &stones) else {
                    continue;
                };
                if !seen.insert(leaf.hash()) {
                    continue;
                }
                kept += 1;
                let stop = std::sync::atomic::AtomicBool::new(false);
                let r = searcher.search_from_scratch(&leaf, &node_limited(plan.score_nodes), &stop);
                if r.best == Pos::NONE || r.score.abs() >= MATE_BOUND {
                    continue;
                }
                let mut moves = stones;
                moves.push(r.best);
                let line = GameLine {
                    id: game.id + ID_STRIDE * lines.len(),
                    rule: game.rule.clone(),
                    width: game.width,
                    height: game.height,
                    result: GameResult::Draw,
                    opening_plies: moves.len() - 1,
                    moves,
                    scores: vec![r.score],
                };
                lines.push(line.to_line());
            }
        }
        board.make_move(m);
    }
    Ok(lines)
}

/// Games searched per chunk and thread: the output is appended a chunk at a time.
const CHUNK_GAMES: usize = 16;

/// The comment line that closes a game's leaves; a resumed run skips the games it marks.
const DONE_MARK: &str = "# leaves done for game ";

pub fn run(args: &Args) -> Result<()> {
    args.tune.apply()?;
    if let Some(path) = &args.net {
        pentad::net::load_file(path)?;
    }
    let mut games = games_file::read(&args.games)?;
    if let Some(n) = args.max_games {
        games.truncate(n);
    }
    let done = prepare_for_resume(&args.out)?;
    games.retain(|g| !done.contains(&g.id));
    let plan = Plan::from_args(args);
    let threads = args.threads.max(1);
    let mut out = games_file::open_append(&args.out)?;
    let progress = Progress::new(games.len() as u64, "leaves");
    let mut count = 0;
    for chunk in games.chunks(CHUNK_GAMES * threads) {
        let per_game = parallel::map_in_order(chunk, threads, &progress, |g| game_leaves(g, plan));
        let mut text = String::new();
        for (game, lines) in chunk.iter().zip(per_game) {
            for line in lines? {
                text += &line;
                count += 1;
            }
            text += &format!("{DONE_MARK}{}\n", game.id);
        }
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    progress.finish();
    eprintln!(
        "{} games done before, {} now: {count} scored leaves added to {}",
        done.len(),
        games.len(),
        args.out
    );
    Ok(())
}

/// Makes `path` ready for a resumed run: keeps it up to its last complete game mark (what
/// follows is a game a kill cut short) and returns the ids of the games marked. A missing
/// file is an empty run.
fn prepare_for_resume(path: &str) -> Result<HashSet<usize>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
    };
    let mut done = HashSet::new();
    let (mut offset, mut keep) = (0, 0);
    for line in text.split_inclusive('\n') {
        offset += line.len();
        let id = line
            .strip_prefix(DONE_MARK)
            .filter(|_| line.ends_with('\n'));
        if let Some(id) = id {
            let id = id
                .trim()
                .parse()
                .with_context(|| format!("{path}: bad mark `{line}`"))?;
            done.insert(id);
            keep = offset;
        }
    }
    if keep < text.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.set_len(keep as u64)?;
        f.sync_all()?;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::core::Color;

    /// True when the stones of `board` alternate colours from Black.
    fn alternates(board: &Board) -> bool {
        board.history().enumerate().all(|(i, (_, c))| {
            c == if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        })
    }

    const GAME: &str = "3 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10,h7 35,-20,40";

    fn plan() -> Plan {
        Plan {
            nodes: 3_000,
            every: 8,
            per_position: 3,
            score_nodes: 300,
            stride: 1,
            seed: 5,
        }
    }

    #[test]
    fn a_search_samples_positions_beyond_its_root() {
        let game = GameLine::parse(GAME).unwrap();
        let root = replay(Rule::RENJU, 15, 15, &game.moves[..4]).unwrap();
        let mut searcher = Searcher::new(HASH_BYTES);
        let leaves = sampled_leaves(&mut searcher, &root, plan());
        assert!(leaves.len() > 10, "{} leaves", leaves.len());
        for stones in &leaves {
            assert!(stones.len() > 4 && stones[..4] == game.moves[..4]);
            let leaf = replay(Rule::RENJU, 15, 15, stones).expect("legal");
            assert!(alternates(&leaf));
            assert_eq!(leaf.hash() % 8, 0, "only sampled hashes");
        }
        // Every leaf at rate 1 is a superset of the sample at rate 8.
        let all = sampled_leaves(&mut searcher, &root, Plan { every: 1, ..plan() });
        assert!(all.len() > leaves.len());
    }

    #[test]
    fn kept_leaves_are_distinct_scored_lines_held_out_with_their_game() {
        let game = GameLine::parse(GAME).unwrap();
        let lines = game_leaves(&game, plan()).unwrap();
        assert!(!lines.is_empty() && lines.len() <= 3 * 3);
        assert_eq!(lines, game_leaves(&game, plan()).unwrap(), "deterministic");
        let mut hashes = HashSet::new();
        for (k, text) in lines.iter().enumerate() {
            let leaf = GameLine::parse(text).unwrap();
            assert_eq!(leaf.id, 3 + k * ID_STRIDE);
            assert_eq!(leaf.id % 20, game.id % 20);
            assert_eq!(leaf.scores.len(), 1);
            assert!(leaf.scores[0].abs() < MATE_BOUND);
            assert_eq!(leaf.result, GameResult::Draw);
            let board = replay(Rule::RENJU, 15, 15, &leaf.moves).expect("legal, best move too");
            assert!(hashes.insert(board.hash()));
        }
        let other_seed = game_leaves(&game, Plan { seed: 6, ..plan() }).unwrap();
        assert_ne!(lines, other_seed);
    }

    #[test]
    fn a_resumed_run_redoes_the_game_a_kill_cut_short_and_nothing_else() {
        let tmp = tempfile::Builder::new()
            .prefix("pentad-leaves-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        let games = dir.join("in.games");
        let second = GAME.replacen("3 ", "4 ", 1);
        std::fs::write(&games, format!("{GAME}\n{second}\n")).unwrap();
        let out = dir.join("out.games");
        let args = |max_games| Args {
            games: games.to_str().unwrap().to_string(),
            out: out.to_str().unwrap().to_string(),
            nodes: 3_000,
            every: 8,
            per_position: 2,
            score_nodes: 300,
            stride: 2,
            max_games,
            threads: 2,
            seed: 5,
            net: None,
            tune: Default::default(),
        };
        run(&args(None)).unwrap();
        let whole = std::fs::read_to_string(&out).unwrap();
        assert_eq!(whole.matches(DONE_MARK).count(), 2);
        // A kill in the middle of the second game's lines, then a resumed run.
        let first_mark = whole.find(DONE_MARK).unwrap();
        let first_end = first_mark + whole[first_mark..].find('\n').unwrap() + 1;
        let cut = first_end + (whole.len() - first_end) / 2;
        std::fs::write(&out, &whole[..cut]).unwrap();
        run(&args(None)).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), whole);
        // A finished run resumed does nothing; so does one asked for fewer games.
        run(&args(Some(1))).unwrap();
        run(&args(None)).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), whole);
    }

    #[test]
    fn ids_beyond_the_stride_are_refused() {
        let mut game = GameLine::parse(GAME).unwrap();
        game.id = ID_STRIDE;
        assert!(game_leaves(&game, plan()).is_err());
    }
}
