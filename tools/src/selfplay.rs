//! `pentad-tools selfplay`: training games played inside this process, several at once, at a
//! fixed node count (or move time) per move, from balanced opening files and random openings,
//! for every rule and board size asked for. Each finished game is one line of a games file
//! (`games_file.rs`: the moves, the search score of every searched move and the result), so
//! a killed run loses only the games in play, and the same command resumes it: game `k` is a
//! pure function of the seed and `k`, and the games already in the file are not replayed.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};
use pentad::search::time::TimeManager;
use pentad::search::{SearchLimits, Searcher, MATE_BOUND};
use pentad_arena::openings::Opening;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::games_file::{self, GameLine, GameResult};
use crate::progress::Progress;

/// Options of `pentad-tools selfplay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The games file to write; appended to, and read first to resume an earlier run.
    #[arg(long)]
    pub out: String,
    /// Games the file should hold when the run ends (those already in it count).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 12_000)]
    pub nodes: u64,
    /// Milliseconds per move instead of a node count (games are then not reproducible).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Rules, taken in turn by game number (pentad-arena names; `game_kind`).
    #[arg(long, value_delimiter = ',', default_value = "renju,freestyle")]
    pub rules: Vec<String>,
    /// Board sizes (square), taken in turn after the rules.
    #[arg(long, value_delimiter = ',', default_value = "15")]
    pub sizes: Vec<usize>,
    /// Opening files (offset lines), one per rule, as `rule=path`; games of a rule without
    /// one (and a share of the others, `--random-share`) start from random openings.
    #[arg(long, value_delimiter = ',')]
    pub openings: Vec<String>,
    /// Share of the games that start from a random opening even when a file is given.
    #[arg(long, default_value_t = 0.5)]
    pub random_share: f64,
    /// Plies after the opening chosen at random among near-best moves (variety). They are
    /// written as part of the game's opening, without scores: they are not searched choices.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// How far below the best (evaluation units) a random ply's move may score. The default,
    /// the engine's own margin for a game against a person, gives few distinct games from a
    /// short opening list: from the 26 standard renju openings, 188 distinct games in 12,000.
    #[arg(long, default_value_t = pentad::search::params::RANDOM_CHOICE_MARGIN)]
    pub random_margin: i32,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Transposition table per game, in MiB (cleared before every game).
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Seed of the openings and of the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 200)]
    pub max_plies: usize,
    /// Play only shard I of N (`I/N`, I from 0): the games whose number is I modulo N. A
    /// game depends only on the seed and its number, so N shards (each in its own file, on
    /// any machines, e.g. one per Slurm array task or Kubernetes Job index) together hold
    /// exactly the games of one unsharded run; `merge-games` joins them.
    #[arg(long, value_parser = parse_shard, default_value = "0/1")]
    pub shard: Shard,
    #[command(flatten)]
    pub tune: crate::tune::TuneArgs,
}

/// One part of a sharded run: the games `g` with `g % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether game number `g` belongs to this shard.
    pub fn has(self, g: usize) -> bool {
        g % self.count == self.index
    }
}

/// Parses `I/N` with N ≥ 1 and I < N.
pub(crate) fn parse_shard(s: &str) -> Result<Shard, String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, such as 3/16")?;
    let index: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index `{i}`"))?;
    let count: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count `{n}`"))?;
    if count == 0 || index >= count {
        return Err(format!("shard {index}/{count}: need 0 <= I < N"));
    }
    Ok(Shard { index, count })
}

/// Random openings: stone count range and the distance from the centre they stay within.
const RANDOM_STONES: std::ops::RangeInclusive<usize> = 2..=6;
const RANDOM_RADIUS: i32 = 3;
/// Tries at a random stone before the opening is drawn again.
const STONE_TRIES: usize = 50;

/// Everything a game needs, shared by the worker threads.
struct Plan {
    rules: Vec<(String, Rule)>,
    sizes: Vec<usize>,
    openings: Vec<Option<Vec<Opening>>>,
    args_seed: u64,
    random_share: f64,
}

pub fn run(args: &Args) -> Result<()> {
    args.tune.apply()?;
    let plan = plan(args)?;
    let done = games_file::prepare_for_append(&args.out)?;
    let pending: Vec<usize> = (0..args.games)
        .filter(|&g| args.shard.has(g) && !done.contains(&g))
        .collect();
    let out = games_file::open_append(&args.out)?;
    let out = Mutex::new(out);
    let next = AtomicUsize::new(0);
    let progress = Progress::new(pending.len() as u64, "selfplay");
    progress.note(&format!(
        "{} games in {}, {} to play (shard {}/{})",
        done.len(),
        args.out,
        pending.len(),
        args.shard.index,
        args.shard.count
    ));
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(args.hash_mb << 20);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&game) = pending.get(k) else { break };
                    let line = play_game(&plan, args, game, &mut searcher);
                    let written = line.and_then(|l| write_line(&out, &l));
                    if let Err(e) = written {
                        *failed.lock().unwrap() = Some(e);
                        break;
                    }
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish();
    match failed.into_inner().unwrap() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The rules, sizes and opening books of a run, checked.
fn plan(args: &Args) -> Result<Plan> {
    let mut rules = Vec::new();
    for name in &args.rules {
        let rule = Rule::from_name(name).with_context(|| format!("unknown rule `{name}`"))?;
        rules.push((name.clone(), rule));
    }
    if rules.is_empty() || args.sizes.is_empty() {
        bail!("--rules and --sizes need at least one value each");
    }
    if let Some(&s) = args.sizes.iter().find(|&&s| !(9..=32).contains(&s)) {
        bail!("board size {s} is outside 9..=32");
    }
    let mut openings = vec![None; rules.len()];
    for spec in &args.openings {
        let (rule, path) = spec
            .split_once('=')
            .with_context(|| format!("--openings takes rule=path, not `{spec}`"))?;
        let Some(i) = rules.iter().position(|(n, _)| n == rule) else {
            bail!("--openings names rule `{rule}`, which is not in --rules");
        };
        openings[i] = Some(read_openings(path)?);
    }
    Ok(Plan {
        rules,
        sizes: args.sizes.clone(),
        openings,
        args_seed: args.seed,
        random_share: args.random_share,
    })
}

fn read_openings(path: &str) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let list: Vec<Opening> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Opening::parse(l).map_err(|e| anyhow::anyhow!("{path}: {e}")))
        .collect::<Result<_>>()?;
    if list.is_empty() {
        bail!("{path} holds no opening");
    }
    Ok(list)
}

fn write_line(out: &Mutex<std::fs::File>, line: &GameLine) -> Result<()> {
    let mut f = out.lock().unwrap();
    f.write_all(line.to_line().as_bytes())?;
    f.flush()?;
    Ok(())
}

/// The seed of game `game`'s random choices.
fn game_seed(seed: u64, game: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// The trainer holds out the games whose number is a multiple of this.
const HELD_OUT_EVERY: usize = 20;

/// The rule and size (indices into the plan's lists) of game number `game`: the rules in
/// turn, then the sizes. The turn advances by one more every [`HELD_OUT_EVERY`] games, so
/// that the held-out games take every rule and size in turn as well.
fn game_kind(game: usize, rules: usize, sizes: usize) -> (usize, usize) {
    let turn = game % HELD_OUT_EVERY + game / HELD_OUT_EVERY;
    (turn % rules, (turn / rules) % sizes)
}

/// Plays game number `game` of the plan to its end.
fn play_game(plan: &Plan, args: &Args, game: usize, searcher: &mut Searcher) -> Result<GameLine> {
    let (rule_index, size_index) = game_kind(game, plan.rules.len(), plan.sizes.len());
    let (rule_name, rule) = plan.rules[rule_index].clone();
    let size = plan.sizes[size_index];
    let mut rng = StdRng::seed_from_u64(game_seed(plan.args_seed, game));
    let book = plan.openings[rule_index].as_ref();
    let mut board = match book {
        Some(list) if !rng.gen_bool(plan.random_share.clamp(0.0, 1.0)) => {
            let o = &list[rng.gen_range(0..list.len())];
            o.board(size, size, rule)
                .map_err(|e| anyhow::anyhow!("opening {}: {e}", o.text))?
        }
        _ => random_opening(size, rule, &mut rng)?,
    };
    let mut moves: Vec<Pos> = board.history().map(|(p, _)| p).collect();
    searcher.clear_hash();
    let stop = AtomicBool::new(false);
    // The random plies are written as part of the opening: a move drawn at random is not a
    // searched choice, and the trainer takes every move after the opening as one.
    let mut random_left = args.random_plies;
    let mut scores = Vec::new();
    let mut result = GameResult::Draw;
    while moves.len() < args.max_plies && !board.legal_moves().is_empty() {
        let randomize = random_left > 0;
        let limits = move_limits(args, randomize.then(|| rng.gen()));
        let r = searcher.search(&board, &limits, &stop, &mut |_| {});
        if !board.is_legal(r.best) {
            bail!("game {game}: the search chose an illegal move {}", r.best);
        }
        if randomize {
            random_left -= 1;
        } else {
            scores.push(r.score.clamp(-MATE_BOUND, MATE_BOUND));
        }
        moves.push(r.best);
        board.make_move(r.best);
        if let Some(winner) = board.last_move_won() {
            result = GameResult::Win(winner);
            break;
        }
        if let Some(winner) = agreed_mate(&scores, board.side_to_move()) {
            result = GameResult::Win(winner);
            break;
        }
    }
    Ok(GameLine {
        id: game,
        rule: rule_name,
        width: size,
        height: size,
        result,
        opening_plies: moves.len() - scores.len(),
        moves,
        scores,
    })
}

/// The winner when both sides' last searches agree that one of them mates (the game would
/// only play the proof out): the one who just moved claims a mate and the one before was
/// mated, or the reverse. `to_move` is the side to move now.
fn agreed_mate(scores: &[i32], to_move: Color) -> Option<Color> {
    let [.., before, last] = scores else {
        return None;
    };
    let mover = to_move.opp();
    if *last >= MATE_BOUND && *before <= -MATE_BOUND {
        Some(mover)
    } else if *last <= -MATE_BOUND && *before >= MATE_BOUND {
        Some(to_move)
    } else {
        None
    }
}

/// The limits of one move: the node count, or the move time.
fn move_limits(args: &Args, randomize_seed: Option<u64>) -> SearchLimits {
    let mut limits = SearchLimits {
        randomize_seed,
        random_margin: args.random_margin,
        ..Default::default()
    };
    match args.movetime {
        Some(ms) => limits.time = TimeManager::fixed_maximum(ms),
        None => limits.max_nodes = Some(args.nodes),
    }
    limits
}

/// A random opening of 2 to 6 stones within `RANDOM_RADIUS` of the centre, in which every
/// stone was legal and nobody has five.
fn random_opening(size: usize, rule: Rule, rng: &mut StdRng) -> Result<Board> {
    let c = (size / 2) as i32;
    'again: loop {
        let mut b = Board::new(size, size, rule)?;
        for _ in 0..rng.gen_range(RANDOM_STONES) {
            let placed = (0..STONE_TRIES).find_map(|_| {
                let x = c + rng.gen_range(-RANDOM_RADIUS..=RANDOM_RADIUS);
                let y = c + rng.gen_range(-RANDOM_RADIUS..=RANDOM_RADIUS);
                b.pos(x, y).filter(|&p| b.is_legal(p))
            });
            let Some(p) = placed else { continue 'again };
            b.make_move(p);
            if b.last_move_won().is_some() {
                continue 'again;
            }
        }
        return Ok(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_and_size_is_played_evenly_and_held_out_too() {
        for (rules, sizes) in [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (5, 3)] {
            let kinds = rules * sizes;
            let mut all = vec![0; kinds];
            let mut held_out = vec![0; kinds];
            let games = HELD_OUT_EVERY * kinds * 50;
            for g in 0..games {
                let (r, s) = game_kind(g, rules, sizes);
                assert!(r < rules && s < sizes);
                all[r * sizes + s] += 1;
                if g % HELD_OUT_EVERY == 0 {
                    held_out[r * sizes + s] += 1;
                }
            }
            assert!(
                all.iter().all(|&n| n == games / kinds),
                "{rules}x{sizes}: {all:?}"
            );
            let per_kind = games / HELD_OUT_EVERY / kinds;
            assert!(held_out.iter().all(|&n| n == per_kind), "{held_out:?}");
            // Games in a row take the kinds in turn.
            if kinds > 1 {
                assert_ne!(game_kind(1, rules, sizes), game_kind(0, rules, sizes));
            }
        }
        assert_eq!(game_kind(1, 2, 1), (1, 0));
        assert_eq!(game_kind(20, 2, 2), (1, 0));
        assert_eq!(game_kind(40, 2, 2), (0, 1));
    }

    #[test]
    fn only_a_mate_both_sides_see_ends_the_game() {
        let m = MATE_BOUND;
        assert_eq!(agreed_mate(&[-m, m], Color::White), Some(Color::Black));
        assert_eq!(agreed_mate(&[m, -m], Color::White), Some(Color::White));
        assert_eq!(agreed_mate(&[40, m], Color::White), None);
        assert_eq!(agreed_mate(&[m], Color::White), None);
    }

    #[test]
    fn random_openings_are_legal_near_the_centre_and_reproducible() {
        let mut a = StdRng::seed_from_u64(game_seed(3, 17));
        let mut b = StdRng::seed_from_u64(game_seed(3, 17));
        for _ in 0..50 {
            let x = random_opening(15, Rule::RENJU, &mut a).unwrap();
            let y = random_opening(15, Rule::RENJU, &mut b).unwrap();
            let xs: Vec<Pos> = x.history().map(|(p, _)| p).collect();
            let ys: Vec<Pos> = y.history().map(|(p, _)| p).collect();
            assert_eq!(xs, ys);
            assert!(RANDOM_STONES.contains(&xs.len()));
            for p in xs {
                assert!((p.x() as i32 - 7).abs() <= RANDOM_RADIUS);
                assert!((p.y() as i32 - 7).abs() <= RANDOM_RADIUS);
            }
            assert!(x.last_move_won().is_none());
        }
    }
}
