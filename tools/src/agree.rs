//! `pentad-tools agree`: how often Pentad's move is the move a reference engine chooses, on
//! positions drawn from a games file. It is the screen for an evaluation before a match: a
//! network that predicts values better can still choose worse between sibling moves, and
//! only its choices decide games.
//!
//! The reference engine (any Gomocup engine, driven over the protocol with `INFO max_node`)
//! is slow and its answers do not change, so they are kept in a moves file that later runs
//! read first and only extend. That file is a games file (`games_file`): one line per
//! position, its stones as the opening and the reference's move as the one searched move,
//! scored with the score the games file recorded there. So it is also training data for a
//! loss on choices (`static-eval --best-siblings`, the trainer's `--rank-weight`). Position
//! `ply` of game `g` has the id `g + ply × S`, held out with its game: S is 1,000,000, or
//! the first ten-fold of it above every game id (a `leaves` file's ids are larger).

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use pentad::core::{Pos, Rule};
use pentad::search::{SearchLimits, Searcher};
use pentad_arena::EngineSpec;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::games_file::{self, GameLine, GameResult};
use crate::leaves::{replay, ID_STRIDE};
use crate::parallel;
use crate::progress::Progress;
use crate::timing::driver::{parse_move, Driver};

/// The id stride of a file's positions: `ID_STRIDE` times the first power of ten that puts
/// it above every game id (a multiple of 20, so ids keep their game's residue).
fn id_stride(games: &[GameLine]) -> usize {
    let top = games.iter().map(|g| g.id).max().unwrap_or(0);
    let mut stride = ID_STRIDE;
    while stride <= top {
        stride *= 10;
    }
    stride
}

/// Options of `pentad-tools agree`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games file (`selfplay`) whose searched positions are drawn.
    #[arg(long)]
    pub games: String,
    /// Draw only from the games the trainer holds out (id modulo 20 is 0), for a screen.
    /// Without it every game is used, for training data.
    #[arg(long)]
    pub held_out: bool,
    /// Positions drawn (a larger count draws a superset of a smaller one).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Leave out positions whose recorded score is at least this far from even: a decided
    /// position has one right move, which any engine finds.
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The reference moves file: read first, and extended with the positions it lacks.
    #[arg(long)]
    pub moves: String,
    /// The reference engine's command line (`[option.KEY=VALUE]... PROGRAM [ARGS...]`, as
    /// pentad-arena's `--engine`). Needed only for positions the moves file lacks.
    #[arg(long)]
    pub reference: Option<String>,
    /// Nodes the reference searches per position (`INFO max_node`).
    #[arg(long, default_value_t = 50_000)]
    pub reference_nodes: u64,
    /// Nodes of Pentad's search per position; 0 only makes the moves file.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// A network file (`.pnet`) Pentad's searches evaluate with.
    #[arg(long)]
    pub net: Option<PathBuf>,
    /// Pentad's searches at once, and reference processes at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Writes `<id> <reference move> <Pentad's move>` per position, so that two runs can be
    /// compared position by position (their difference is far surer than either figure).
    #[arg(long)]
    pub record: Option<String>,
    #[command(flatten)]
    pub tune: crate::tune::TuneArgs,
}

/// One drawn position: the stones of game `game` before its move `ply`.
#[derive(Clone, Debug)]
struct Drawn {
    id: usize,
    rule: String,
    width: usize,
    height: usize,
    stones: Vec<Pos>,
    /// The score the games file recorded for this position's move.
    score: i32,
}

/// The searched positions of `games` within `max_score` of even, shuffled with `seed`,
/// the first `count` of them.
fn draw(games: &[GameLine], held_out: bool, max_score: i32, count: usize, seed: u64) -> Vec<Drawn> {
    let stride = id_stride(games);
    let mut all = Vec::new();
    for g in games.iter().filter(|g| !held_out || g.id % 20 == 0) {
        for (k, &score) in g.scores.iter().enumerate() {
            if score.abs() >= max_score {
                continue;
            }
            let ply = g.opening_plies + k;
            all.push(Drawn {
                id: g.id + ply * stride,
                rule: g.rule.clone(),
                width: g.width,
                height: g.height,
                stones: g.moves[..ply].to_vec(),
                score,
            });
        }
    }
    all.shuffle(&mut StdRng::seed_from_u64(seed));
    all.truncate(count);
    all
}

/// The moves file's line of a position and its reference move.
fn moves_line(d: &Drawn, reference: Pos) -> String {
    let mut moves = d.stones.clone();
    moves.push(reference);
    GameLine {
        id: d.id,
        rule: d.rule.clone(),
        width: d.width,
        height: d.height,
        result: GameResult::Draw,
        opening_plies: d.stones.len(),
        moves,
        scores: vec![d.score],
    }
    .to_line()
}

/// The reference moves the file holds, by position id. A line whose stones are not the
/// drawn position's (a file made from another games file) is an error.
fn known_moves(path: &str, drawn: &[Drawn]) -> Result<HashMap<usize, Pos>> {
    let lines = match games_file::prepare_for_append(path)?.is_empty() {
        true => Vec::new(),
        false => games_file::read(path)?,
    };
    let by_id: HashMap<usize, &Drawn> = drawn.iter().map(|d| (d.id, d)).collect();
    let mut known = HashMap::new();
    for line in lines {
        let Some(d) = by_id.get(&line.id) else {
            continue;
        };
        if line.moves.len() != d.stones.len() + 1 || line.moves[..d.stones.len()] != d.stones[..] {
            bail!("{path}: position {} is not the games file's", line.id);
        }
        known.insert(line.id, line.moves[d.stones.len()]);
    }
    Ok(known)
}

/// How long the reference may take to answer one position.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// The reference engine, started for one board size and rule at a time.
struct Reference {
    driver: Driver,
    size: (usize, usize),
    rule: Rule,
}

impl Reference {
    fn start(spec: &EngineSpec, nodes: u64, size: (usize, usize), rule: Rule) -> Result<Reference> {
        let mut driver = Driver::start_spec(spec, size.0, size.1, false)
            .map_err(|e| anyhow!("reference: {e}"))?;
        let mut infos = vec![
            ("rule", rule.to_info().to_string()),
            ("max_node", nodes.to_string()),
            ("timeout_turn", "1000000".to_string()),
            ("timeout_match", "0".to_string()),
            ("time_left", "2147483647".to_string()),
            ("thread_num", spec.threads.unwrap_or(1).to_string()),
        ];
        infos.extend(spec.options.iter().map(|(k, v)| (k.as_str(), v.clone())));
        driver.infos(&infos)?;
        driver.await_ready()?;
        Ok(Reference { driver, size, rule })
    }

    /// The reference's move in the position after `stones`.
    fn choose(&mut self, stones: &[Pos]) -> Result<Pos> {
        self.driver.send("BOARD")?;
        let to_move = stones.len() % 2;
        for (i, p) in stones.iter().enumerate() {
            let owner = if i % 2 == to_move { 1 } else { 2 };
            self.driver.send(&format!("{},{},{owner}", p.x(), p.y()))?;
        }
        let answer = self.driver.request("DONE", ANSWER_TIMEOUT)?;
        let mv = parse_move(&answer.mv)
            .ok_or_else(|| anyhow!("the reference answered {:?}, off the board", answer.mv))?;
        self.driver.await_ready()?;
        Ok(mv)
    }
}

/// Asks the reference for every drawn position the moves file lacks, appending each answer.
/// `--threads` reference processes share the work. The positions are grouped by rule and
/// board size, and each process takes a contiguous run of them, so that it restarts only
/// where the kind of board changes.
fn complete_moves(args: &Args, drawn: &[Drawn], known: &mut HashMap<usize, Pos>) -> Result<()> {
    let mut missing: Vec<&Drawn> = drawn
        .iter()
        .filter(|d| !known.contains_key(&d.id))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    missing.sort_by(|a, b| (&a.rule, a.width, a.height).cmp(&(&b.rule, b.width, b.height)));
    let command = args.reference.as_deref().with_context(|| {
        format!(
            "{} lacks {} of the positions: give --reference",
            args.moves,
            missing.len()
        )
    })?;
    let spec = EngineSpec::parse(command).map_err(|e| anyhow!("--reference: {e}"))?;
    let out = Mutex::new(games_file::open_append(&args.moves)?);
    let answers = Mutex::new(Vec::new());
    let progress = Progress::new(missing.len() as u64, "reference");
    let part = missing.len().div_ceil(args.threads.max(1));
    std::thread::scope(|scope| {
        let workers: Vec<_> = missing
            .chunks(part)
            .map(|positions| {
                let (spec, out, answers, progress) = (&spec, &out, &answers, &progress);
                scope.spawn(move || {
                    ask_reference(
                        spec,
                        args.reference_nodes,
                        positions,
                        out,
                        answers,
                        progress,
                    )
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .map_err(|_| anyhow!("a reference worker panicked"))?
        })
    })?;
    progress.finish();
    known.extend(lock(&answers).drain(..));
    Ok(())
}

/// The value behind `m`, also after another thread panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One reference process's share of [`complete_moves`]: asks for each of `positions`,
/// restarting the reference where the rule or board size changes, and appends each answer
/// to `out` (one line, written whole) and to `answers`.
fn ask_reference(
    spec: &EngineSpec,
    nodes: u64,
    positions: &[&Drawn],
    out: &Mutex<std::fs::File>,
    answers: &Mutex<Vec<(usize, Pos)>>,
    progress: &Progress,
) -> Result<()> {
    let mut reference: Option<Reference> = None;
    for d in positions {
        let rule = Rule::from_name(&d.rule).context("rule checked by parse")?;
        let size = (d.width, d.height);
        if reference
            .as_ref()
            .is_none_or(|r| r.size != size || r.rule != rule)
        {
            if let Some(r) = reference.take() {
                r.driver.end();
            }
            reference = Some(Reference::start(spec, nodes, size, rule)?);
        }
        let r = reference.as_mut().context("started above")?;
        let mv = r.choose(&d.stones)?;
        if mv.x() >= d.width || mv.y() >= d.height || d.stones.contains(&mv) {
            bail!(
                "the reference played {} in position {}: not an empty cell",
                mv.to_human(),
                d.id
            );
        }
        {
            let mut out = lock(out);
            out.write_all(moves_line(d, mv).as_bytes())?;
            out.flush()?;
        }
        lock(answers).push((d.id, mv));
        progress.inc(1);
    }
    if let Some(r) = reference {
        r.driver.end();
    }
    Ok(())
}

/// Transposition-table bytes of each of Pentad's searches.
const HASH_BYTES: usize = 16 << 20;

/// Pentad's move in the drawn position, from an empty table.
fn pentad_move(d: &Drawn, nodes: u64) -> Result<Pos> {
    let rule = Rule::from_name(&d.rule).context("rule checked by parse")?;
    let board = replay(rule, d.width, d.height, &d.stones)
        .with_context(|| format!("position {} is not a legal game", d.id))?;
    let limits = SearchLimits {
        max_nodes: Some(nodes),
        ..Default::default()
    };
    let stop = AtomicBool::new(false);
    Ok(Searcher::new(HASH_BYTES)
        .search_from_scratch(&board, &limits, &stop)
        .best)
}

/// Agreements out of positions, with the half-width of a 95 % interval in percent.
pub fn agreement_line(hits: usize, total: usize) -> String {
    let p = hits as f64 / total.max(1) as f64;
    let half = 1.96 * (p * (1.0 - p) / total.max(1) as f64).sqrt();
    format!(
        "agree {hits}/{total} = {:.1} % ± {:.1}",
        100.0 * p,
        100.0 * half
    )
}

pub fn run(args: &Args) -> Result<()> {
    args.tune.apply()?;
    let games = games_file::read(&args.games)?;
    let drawn = draw(
        &games,
        args.held_out,
        args.max_score,
        args.positions,
        args.seed,
    );
    if drawn.is_empty() {
        bail!(
            "{} has no searched position within {} of even",
            args.games,
            args.max_score
        );
    }
    let mut known = known_moves(&args.moves, &drawn)?;
    complete_moves(args, &drawn, &mut known)?;
    if args.nodes == 0 {
        eprintln!("{} reference moves in {}", drawn.len(), args.moves);
        return Ok(());
    }
    if let Some(path) = &args.net {
        pentad::net::load_file(path)?;
    }
    let progress = Progress::new(drawn.len() as u64, "pentad");
    let ours = parallel::map_in_order(&drawn, args.threads, &progress, |d| {
        pentad_move(d, args.nodes)
    });
    progress.finish();
    let mut hits = 0;
    let mut record = String::new();
    for (d, mv) in drawn.iter().zip(ours) {
        let (theirs, mv) = (known[&d.id], mv?);
        hits += usize::from(mv == theirs);
        record += &format!("{} {} {}\n", d.id, theirs.to_human(), mv.to_human());
    }
    if let Some(path) = &args.record {
        std::fs::write(path, record).with_context(|| format!("cannot write {path}"))?;
    }
    println!("{}", agreement_line(hits, drawn.len()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "0 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10,h7 35,-2500,40\n\
                         1 renju 15x15 0-1 4 h8,i9,j10,k11,g8,g9 10,-10\n\
                         20 renju 15x15 0-1 4 h8,i9,j10,k11,j9 0\n";

    fn games() -> Vec<GameLine> {
        GAMES.lines().map(|l| GameLine::parse(l).unwrap()).collect()
    }

    #[test]
    fn draws_undecided_positions_with_ids_held_out_with_their_game() {
        let all = draw(&games(), false, 2000, 100, 1);
        assert_eq!(all.len(), 5, "the -2500 position is decided");
        for d in &all {
            assert_eq!(d.id % ID_STRIDE % 20, d.id % 20);
            let ply = d.id / ID_STRIDE;
            assert_eq!(d.stones.len(), ply);
        }
        let held = draw(&games(), true, 2000, 100, 1);
        assert_eq!(held.len(), 3);
        assert!(held.iter().all(|d| d.id % 20 == 0));
        // A smaller draw is a prefix of a larger one.
        let two = draw(&games(), false, 2000, 2, 1);
        assert_eq!(
            two.iter().map(|d| d.id).collect::<Vec<_>>(),
            all[..2].iter().map(|d| d.id).collect::<Vec<_>>()
        );
    }

    #[test]
    fn large_game_ids_get_a_larger_stride_and_keep_their_residue() {
        let mut games = games();
        games[1].id = 41_000_020;
        assert_eq!(id_stride(&games), 100_000_000);
        let all = draw(&games, false, 2000, 100, 1);
        let ids: std::collections::HashSet<usize> = all.iter().map(|d| d.id).collect();
        assert_eq!(ids.len(), all.len());
        for d in &all {
            assert_eq!(d.id % 100_000_000 % 20, d.id % 20);
            assert_eq!(d.id / 100_000_000, d.stones.len());
        }
    }

    #[test]
    fn a_moves_line_reads_back_as_the_position_and_its_reference_move() {
        let all = draw(&games(), false, 2000, 100, 1);
        let d = &all[0];
        let line = GameLine::parse(moves_line(d, Pos::new(0, 0)).trim()).unwrap();
        assert_eq!(line.id, d.id);
        assert_eq!(line.opening_plies, d.stones.len());
        assert_eq!(line.moves[..d.stones.len()], d.stones[..]);
        assert_eq!(line.moves[d.stones.len()], Pos::new(0, 0));
        assert_eq!(line.scores, vec![d.score]);
    }

    #[test]
    fn the_interval_narrows_with_more_positions() {
        assert_eq!(agreement_line(50, 100), "agree 50/100 = 50.0 % ± 9.8");
        assert_eq!(agreement_line(500, 1000), "agree 500/1000 = 50.0 % ± 3.1");
    }
}
