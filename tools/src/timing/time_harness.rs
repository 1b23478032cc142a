//! `pentad-tools time-harness`: many fast self-play games of the engine in the arena, then a
//! report of forfeits on time and the slowest answer against its limit. Two runs, each with
//! openings played twice with colours swapped: (a) renju 15x15 at 0.2 s a move with no game
//! clock, (b) freestyle 15x15 with 5 s for the whole game. About 15-20 minutes on 2 cores
//! with the default game counts; fails when a game was lost on time, by a crash or by an
//! illegal move.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::arena_run::{openings_file, ArenaRun};
use super::driver::default_engine;
use super::report;

/// Options of `pentad-tools time-harness`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games of run (a), renju at 0.2 s a move (0: skip it).
    #[arg(long, default_value_t = 104)]
    pub games_a: usize,
    /// Games of run (b), freestyle at 5 s a game (0: skip it).
    #[arg(long, default_value_t = 104)]
    pub games_b: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Where the results (`<run>.jsonl`) and arena logs (`<run>.log`) go.
    #[arg(long, default_value = "target/time-harness")]
    pub out_dir: PathBuf,
    /// Openings file (default: the 26 canonical renju openings, written to the output folder).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Engine program (default: pbrain-pentad beside pentad-tools).
    #[arg(long)]
    pub engine: Option<String>,
    /// The manager's tolerance past a limit, ms.
    #[arg(long, default_value_t = 1000)]
    pub tolerance_ms: u64,
}

/// One arena run: name, rule, `--tc`, games, move and game limits in ms.
struct Run {
    name: &'static str,
    rule: &'static str,
    tc: &'static str,
    games: usize,
    turn_ms: u64,
    match_ms: u64,
}

/// Plays one run with the arena library, its output going to `<out_dir>/<name>.log`.
fn play(args: &Args, run: &Run, engine: &str, openings: &Path) -> Result<PathBuf> {
    println!(
        "== {}: rule {}, 15x15, --tc {}, {} games, concurrency {}",
        run.name, run.rule, run.tc, run.games, args.concurrency
    );
    let engine = shlex::try_quote(engine)?;
    ArenaRun {
        name: run.name,
        engines: [
            format!("name=pentad-a {engine}"),
            format!("name=pentad-b {engine}"),
        ],
        rule: run.rule,
        size: 15,
        tc: run.tc,
        games: run.games,
        concurrency: args.concurrency,
        openings,
        tolerance_s: args.tolerance_ms as f64 / 1000.0,
        strict_clock: false,
    }
    .play(&args.out_dir)
}

/// Runs `pentad-tools time-harness`.
pub fn run(args: &Args) -> Result<()> {
    std::fs::create_dir_all(&args.out_dir)?;
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    let openings = openings_file(args.openings.as_deref(), &args.out_dir)?;
    let runs = [
        Run {
            name: "renju-0.2s-move",
            rule: "renju",
            tc: "0/0.2",
            games: args.games_a,
            turn_ms: 200,
            match_ms: 0,
        },
        Run {
            name: "freestyle-5s-game",
            rule: "freestyle",
            tc: "5/0",
            games: args.games_b,
            turn_ms: 0,
            match_ms: 5000,
        },
    ];
    let mut clean = true;
    for run in runs.iter().filter(|r| r.games > 0) {
        let started = std::time::Instant::now();
        let results = play(args, run, &engine, &openings)?;
        println!("   wall time {} s", started.elapsed().as_secs());
        let (lines, ok) = report::summarize(&report::Args {
            results: results.to_string_lossy().into_owned(),
            turn_ms: run.turn_ms,
            match_ms: run.match_ms,
            tolerance_ms: args.tolerance_ms,
        })?;
        for l in lines {
            println!("{l}");
        }
        println!();
        clean &= ok;
    }
    if !clean {
        bail!("time-harness: FAILED (games lost on time, by a crash or an illegal move)");
    }
    println!("time-harness: OK (no time forfeits, crashes or illegal moves)");
    Ok(())
}
