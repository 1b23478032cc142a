//! `pentad-tools answer-latency`: replays positions of a pentad-arena `--results` file to the
//! engine and splits each answer's wall time (request written to move read, as a manager
//! measures it) into the search's own time (the last MESSAGE `tm`) and the rest (process
//! wake-up, thread start, unwinding, pipes): finds where an answer over its limit comes from.
//! With `--engine-stderr` and `RUST_LOG=pentad::engine=debug` in the environment, the engine
//! logs on stderr when the search returned and when the watchdog acted.

use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use pentad::core::{Pos, Rule};
use pentad_arena::GameRecord;

use super::driver::{default_engine, Driver};
use super::report::read_records;
use crate::progress::Progress;

/// Answers replayed when no `--at` is given: the slowest ones.
const SLOWEST: usize = 10;
/// `time_left` meaning "no game clock".
const UNLIMITED_MS: i64 = 2_147_483_647;
/// How long an answer may take before the replay is abandoned.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// Options of `pentad-tools answer-latency`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The pentad-arena JSON-lines record.
    pub results: String,
    /// Positions to replay as GAME:PLY (the position before move PLY, 0-based, of game GAME);
    /// default: the 10 slowest answers of the file.
    #[arg(long, value_delimiter = ',')]
    pub at: Vec<String>,
    /// Engine program (default: pbrain-pentad beside pentad-tools).
    #[arg(long)]
    pub engine: Option<String>,
    /// INFO timeout_turn, ms (0: not sent).
    #[arg(long, default_value_t = 200)]
    pub turn_ms: u64,
    /// INFO timeout_match, ms.
    #[arg(long, default_value_t = 0)]
    pub match_ms: u64,
    /// INFO time_left, ms (default: unlimited, or the match time when there is one).
    #[arg(long)]
    pub left_ms: Option<i64>,
    /// Rule to replay under (default: each record's).
    #[arg(long)]
    pub rule: Option<String>,
    /// Replays of each position.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Pass the engine's stderr through (its log, with RUST_LOG set).
    #[arg(long)]
    pub engine_stderr: bool,
}

/// The (game, ply) positions to replay.
fn targets(args: &Args, records: &[GameRecord]) -> Result<Vec<(usize, usize)>> {
    if args.at.is_empty() {
        let mut rows: Vec<(u64, usize, usize)> = records
            .iter()
            .flat_map(|g| {
                let timed = g.times_ms.iter().enumerate();
                timed.map(|(i, &t)| (t, g.game, g.opening_plies + i))
            })
            .collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        return Ok(rows.iter().take(SLOWEST).map(|&(_, g, p)| (g, p)).collect());
    }
    args.at
        .iter()
        .map(|t| {
            let (g, p) = t
                .split_once(':')
                .ok_or_else(|| anyhow!("--at wants GAME:PLY"))?;
            Ok((g.trim().parse()?, p.trim().parse()?))
        })
        .collect()
}

/// Runs `pentad-tools answer-latency`.
pub fn run(args: &Args) -> Result<()> {
    let records = read_records(&args.results)?;
    let program = args.engine.clone().unwrap_or_else(default_engine);
    let targets = targets(args, &records)?;
    let progress = Progress::new((targets.len() * args.repeat) as u64, "replays");
    progress.line(&format!(
        "{:>5} {:>4} {:>8} {:>6} {:>5} {:>5}  last MESSAGE",
        "game", "ply", "recorded", "wall", "tm", "rest"
    ));
    let mut worst_rest: f64 = 0.0;
    for (game, ply) in targets {
        let Some(g) = records.iter().find(|g| g.game == game) else {
            bail!("no game {game} in {}", args.results);
        };
        let moves = g
            .moves
            .get(..ply)
            .ok_or_else(|| anyhow!("game {game} has no ply {ply}"))?;
        let stones: Vec<Pos> = moves.iter().filter_map(|m| Pos::from_human(m)).collect();
        let recorded = ply
            .checked_sub(g.opening_plies)
            .and_then(|i| g.times_ms.get(i))
            .map_or("-".to_string(), |t| t.to_string());
        let rule_name = args.rule.as_deref().unwrap_or(&g.rule);
        let rule = Rule::from_name(rule_name).ok_or_else(|| anyhow!("unknown rule {rule_name}"))?;
        for _ in 0..args.repeat {
            let mut d = Driver::start(&program, g.width, g.height, args.engine_stderr)?;
            d.infos(&infos(args, rule))?;
            let a = d.board(&stones, ANSWER_TIMEOUT)?;
            d.end();
            let (tm, rest) = match a.reported_ms() {
                Some(tm) => (tm.to_string(), a.wall_ms - tm as f64),
                None => ("-".to_string(), f64::NAN),
            };
            if rest.is_finite() {
                worst_rest = worst_rest.max(rest);
            }
            let last = a.last_message.as_deref().unwrap_or("");
            let last = last.strip_prefix("MESSAGE ").unwrap_or(last);
            progress.line(&format!(
                "{game:>5} {ply:>4} {recorded:>8} {:>6.0} {tm:>5} {rest:>5.0}  {}",
                a.wall_ms,
                last.chars().take(62).collect::<String>()
            ));
        }
    }
    progress.line(&format!(
        "largest wall - tm: {worst_rest:.0} ms (tm is the last completed iteration, not the return)"
    ));
    Ok(())
}

/// The INFO lines of a replay.
fn infos(args: &Args, rule: Rule) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("rule", rule.to_info().to_string()),
        ("timeout_match", args.match_ms.to_string()),
    ];
    if args.turn_ms > 0 {
        v.push(("timeout_turn", args.turn_ms.to_string()));
    }
    let left = args.left_ms.unwrap_or(if args.match_ms == 0 {
        UNLIMITED_MS
    } else {
        args.match_ms as i64
    });
    v.push(("time_left", left.to_string()));
    v
}
