//! `pentad-tools stress`: matches of the engine under deliberate CPU load (more games at once
//! than cores) with c-gomoku-cli's clock rules (no tolerance on the game clock, a turn overrun
//! of at most min(tolerance/2, 1 s)), then the distribution of answer time minus limit, of the
//! game-clock reserve at each game's end, the forfeits, and the engine processes' memory from
//! game to game (Linux). Fails when the engine lost a game on time, by a crash or an illegal
//! move.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use pentad_arena::game::TimeControl;
use pentad_arena::{read_results, GameRecord};

use super::arena_run::{openings_file, ArenaRun};
use super::driver::default_engine;
use super::rss_sampler::{memory_lines, write_csv, RssSampler};

/// The engine's name in the arena (the side whose times are measured).
const OURS: &str = "pentad";
/// The opponent's name in the arena.
const THEIRS: &str = "opponent";
/// Games every worker plays before its memory counts as warmed up.
const WARM_GAMES_PER_WORKER: usize = 1;
/// The default opponent's program name (a link to the engine).
const OPPONENT_PROGRAM: &str = "pbrain-opponent";

/// Options of `pentad-tools stress`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Time controls `MATCH/TURN` in seconds (c-gomoku-cli's `tc=`), comma-separated.
    #[arg(long, default_value = "60/0.2,5/5,60/0.5", value_delimiter = ',')]
    pub tc: Vec<String>,
    /// Games of each time control, split evenly over the concurrencies.
    #[arg(long, default_value_t = 104)]
    pub games: usize,
    /// Games played at once, comma-separated: each time control runs at each of them.
    #[arg(long, default_value = "2,4", value_delimiter = ',')]
    pub concurrency: Vec<usize>,
    /// Rule: freestyle, standard, renju, caro.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// The manager's tolerance (s): c-gomoku-cli's default 3 gives a 1 s turn overrun.
    #[arg(long, default_value_t = 3.0)]
    pub tolerance: f64,
    /// Engine under test (default: pbrain-pentad beside pentad-tools).
    #[arg(long)]
    pub engine: Option<String>,
    /// Opponent, as an arena `--engine` word list (default: the engine itself with
    /// `option.max_node=20000`, a fast opponent).
    #[arg(long)]
    pub opponent: Option<String>,
    /// Openings file (default: the 26 canonical renju openings).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Where the results (`<run>.jsonl`), logs and `stress-report.txt` go.
    #[arg(long, default_value = "target/stress")]
    pub out_dir: PathBuf,
}

/// One match: a time control at a concurrency.
struct Run {
    name: String,
    tc: String,
    games: usize,
    concurrency: usize,
}

/// Plays one run with the arena library (output to `<out_dir>/<name>.log`); the results file.
fn play(args: &Args, run: &Run, engine: &str, opponent: &str, openings: &Path) -> Result<PathBuf> {
    ArenaRun {
        name: &run.name,
        engines: [
            format!("name={OURS} {}", shlex::try_quote(engine)?),
            format!("name={THEIRS} {opponent}"),
        ],
        rule: &args.rule,
        size: args.size,
        tc: &run.tc,
        games: run.games,
        concurrency: run.concurrency,
        openings,
        tolerance_s: args.tolerance,
        strict_clock: true,
    }
    .play(&args.out_dir)
}

/// Our moves' (answer ms − limit ms) and our clock left at each game's end (ms; games with a
/// game clock only).
fn our_times(records: &[GameRecord], tc: TimeControl) -> (Vec<i64>, Vec<i64>) {
    let (mut over, mut reserve) = (Vec::new(), Vec::new());
    for g in records {
        let Some(our_side) = [&g.black, &g.white].iter().position(|n| *n == OURS) else {
            continue;
        };
        let mut left = tc.match_ms as i64;
        for (i, &t) in g.times_ms.iter().enumerate() {
            if (g.opening_plies + i) % 2 != our_side {
                continue;
            }
            let mut limit = i64::MAX;
            if tc.turn_ms > 0 {
                limit = tc.turn_ms as i64;
            }
            if tc.match_ms > 0 {
                limit = limit.min(left);
                left -= t as i64;
            }
            over.push(t as i64 - limit);
        }
        if tc.match_ms > 0 {
            reserve.push(left);
        }
    }
    (over, reserve)
}

/// `name min .. p50 .. max` with the given quantiles of `v` (sorted here).
fn distribution(name: &str, v: &mut [i64], quantiles: &[f64]) -> String {
    if v.is_empty() {
        return format!("{name}: none");
    }
    v.sort_unstable();
    let q = |p: f64| v[((p * v.len() as f64) as usize).min(v.len() - 1)];
    let mut s = format!("{name} (n {}): min {}", v.len(), v[0]);
    for &p in quantiles {
        s.push_str(&format!("  p{} {}", p * 100.0, q(p)));
    }
    s.push_str(&format!("  max {}", v[v.len() - 1]));
    s
}

/// The report lines of one run, and how many games our engine lost abnormally.
fn report(run: &Run, records: &[GameRecord], memory: Vec<String>) -> Result<(Vec<String>, usize)> {
    let tc = TimeControl::parse(&run.tc).map_err(|e| anyhow::anyhow!(e))?;
    let lost_abnormally = |name: &str| {
        records
            .iter()
            .filter(|g| g.reason.is_abnormal())
            .filter(|g| match g.result.as_str() {
                "1-0" => g.white == name,
                "0-1" => g.black == name,
                _ => false,
            })
            .count()
    };
    let ours = lost_abnormally(OURS);
    let (mut over, mut reserve) = our_times(records, tc);
    let mut lines = vec![
        format!(
            "== {}: tc {} (strict clock), concurrency {}, {} games; abnormal losses: {OURS} {ours}, {THEIRS} {}",
            run.name,
            run.tc,
            run.concurrency,
            records.len(),
            lost_abnormally(THEIRS)
        ),
        distribution(
            "  answer - limit, ms",
            &mut over,
            &[0.5, 0.9, 0.99, 0.999],
        ),
        distribution(
            "  clock left at game end, ms",
            &mut reserve,
            &[0.001, 0.01, 0.1, 0.5],
        ),
    ];
    for g in records.iter().filter(|g| g.reason.is_abnormal()) {
        lines.push(format!("  abnormal game {}: {}", g.game, g.detail));
    }
    lines.push("  memory of the engine processes (USS = private pages):".into());
    lines.extend(memory);
    Ok((lines, ours))
}

/// The engine under another name (a symbolic link in `out_dir`, Unix), so that the memory
/// sampler tells the default opponent's processes from the engine's by their command name.
fn opponent_link(engine: &str, out_dir: &Path) -> Result<String> {
    #[cfg(unix)]
    {
        let link = out_dir.join(OPPONENT_PROGRAM);
        let _ = std::fs::remove_file(&link);
        let target = std::fs::canonicalize(engine).with_context(|| engine.to_string())?;
        std::os::unix::fs::symlink(target, &link)?;
        Ok(link.to_string_lossy().into_owned())
    }
    #[cfg(not(unix))]
    {
        let _ = out_dir;
        Ok(engine.to_string())
    }
}

/// Plays `run` while sampling the memory of the engine's processes (named `comm`), writes
/// the samples beside the results and returns the run's report lines and our abnormal losses.
fn play_sampled(
    args: &Args,
    run: &Run,
    (engine, comm): (&str, &str),
    opponent: &str,
    openings: &Path,
) -> Result<(Vec<String>, usize)> {
    let results = args.out_dir.join(format!("{}.jsonl", run.name));
    let sampler = RssSampler::start(comm, results);
    let started = std::time::Instant::now();
    let played = play(args, run, engine, opponent, openings);
    let samples = sampler.finish();
    let csv = args.out_dir.join(format!("{}-memory.csv", run.name));
    write_csv(&samples, &csv).with_context(|| csv.display().to_string())?;
    let records = read_results(played?)?;
    let warm = WARM_GAMES_PER_WORKER * run.concurrency;
    let memory = memory_lines(&samples, run.concurrency, warm);
    let (mut lines, ours) = report(run, &records, memory)?;
    lines.push(format!("  wall time {} s", started.elapsed().as_secs()));
    Ok((lines, ours))
}

/// Runs `pentad-tools stress`.
pub fn run(args: &Args) -> Result<()> {
    std::fs::create_dir_all(&args.out_dir)?;
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    let opponent = match &args.opponent {
        Some(o) => o.clone(),
        None => format!(
            "option.max_node=20000 {}",
            shlex::try_quote(&opponent_link(&engine, &args.out_dir)?)?
        ),
    };
    let openings = openings_file(args.openings.as_deref(), &args.out_dir)?;
    let engine_comm: String = Path::new(&engine)
        .file_name()
        .map(|n| n.to_string_lossy().chars().take(15).collect())
        .unwrap_or_default();
    let mut report_file = File::create(args.out_dir.join("stress-report.txt"))?;
    let mut lost = 0;
    for tc in &args.tc {
        for &concurrency in &args.concurrency {
            let run = Run {
                name: format!("{}-tc{}-c{concurrency}", args.rule, tc.replace('/', "_")),
                tc: tc.clone(),
                games: args.games / args.concurrency.len().max(1),
                concurrency,
            };
            if run.games == 0 {
                continue;
            }
            let (lines, ours) =
                play_sampled(args, &run, (&engine, &engine_comm), &opponent, &openings)?;
            for l in &lines {
                println!("{l}");
                writeln!(report_file, "{l}")?;
            }
            report_file.flush()?;
            lost += ours;
        }
    }
    if lost > 0 {
        bail!("stress: {OURS} lost {lost} games on time, by a crash or an illegal move");
    }
    println!("stress: OK ({OURS} lost no game abnormally)");
    Ok(())
}
