//! `pentad-tools time-report`: summarises the answer times of a pentad-arena `--results`
//! file: games, endings, forfeits, and the slowest answer against its limit
//! (`min(timeout_turn, time left)` of that side at that move); with a game clock, how much
//! of it each engine had spent by the end of its games. Fails when a game ended by time,
//! crash or illegal move.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use pentad_arena::{read_results, GameRecord};

/// Abnormal games listed at most.
const LISTED: usize = 20;

/// Options of `pentad-tools time-report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The pentad-arena JSON-lines record.
    pub results: String,
    /// The match's move limit, ms (0: none).
    #[arg(long, default_value_t = 0)]
    pub turn_ms: u64,
    /// The match's game limit, ms (0: none).
    #[arg(long, default_value_t = 0)]
    pub match_ms: u64,
    /// The manager's tolerance past a limit, ms.
    #[arg(long, default_value_t = 1000)]
    pub tolerance_ms: u64,
}

/// One timed answer.
struct Timed {
    ms: f64,
    /// Its limit, ms (infinite without one).
    limit: f64,
    game: usize,
    ply: usize,
}

/// Every timed answer of `records` with its limit under the given time control.
fn timed_answers(records: &[GameRecord], turn_ms: u64, match_ms: u64) -> Vec<Timed> {
    let mut out = Vec::new();
    for g in records {
        let mut left = [match_ms as f64; 2];
        for (i, &t) in g.times_ms.iter().enumerate() {
            let ply = g.opening_plies + i;
            let side = ply % 2;
            let mut limit = f64::INFINITY;
            if turn_ms > 0 {
                limit = turn_ms as f64;
            }
            if match_ms > 0 {
                limit = limit.min(left[side]);
                left[side] -= t as f64;
            }
            out.push(Timed {
                ms: t as f64,
                limit,
                game: g.game,
                ply,
            });
        }
    }
    out
}

/// The summary lines, and whether the match was clean (games, none abnormal).
pub fn summarize(args: &Args) -> Result<(Vec<String>, bool)> {
    let records = read_results(&args.results)?;
    let mut lines = vec![
        format!("results file      : {}", args.results),
        format!(
            "limits            : turn {} ms, match {} ms (0 = none), manager tolerance {} ms",
            args.turn_ms, args.match_ms, args.tolerance_ms
        ),
    ];
    let mut results: BTreeMap<&str, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &records {
        *results.entry(g.result.as_str()).or_default() += 1;
        *reasons.entry(g.reason.name()).or_default() += 1;
    }
    let count = |r: &str| reasons.get(r).copied().unwrap_or(0);
    lines.push(format!(
        "games             : {}  results {results:?}",
        records.len()
    ));
    lines.push(format!("end reasons       : {reasons:?}"));
    lines.push(format!("forfeits by time  : {}", count("time")));
    lines.push(format!(
        "crash / illegal   : {} / {}",
        count("crash"),
        count("illegal")
    ));
    let answers = timed_answers(&records, args.turn_ms, args.match_ms);
    lines.push(format!("timed moves       : {}", answers.len()));
    lines.extend(answer_lines(&answers, args.tolerance_ms as f64));
    if args.match_ms > 0 {
        lines.extend(clock_use_lines(&records, args.match_ms));
    }
    let abnormal: Vec<&GameRecord> = records.iter().filter(|g| g.reason.is_abnormal()).collect();
    for g in abnormal.iter().take(LISTED) {
        lines.push(format!(
            "  abnormal game {}: {} ({} vs {}) {}",
            g.game,
            g.reason.name(),
            g.black,
            g.white,
            g.detail
        ));
    }
    Ok((lines, abnormal.is_empty() && !records.is_empty()))
}

/// Slowest answer, worst time/limit, its distribution, answers over the limit.
fn answer_lines(answers: &[Timed], tolerance_ms: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let slowest = answers.iter().max_by(|a, b| a.ms.total_cmp(&b.ms));
    if let Some(s) = slowest {
        let limit = if s.limit.is_finite() {
            format!("{:.0} ms", s.limit)
        } else {
            "none".to_string()
        };
        lines.push(format!(
            "slowest answer    : {:.0} ms (its limit {limit}; game {}, ply {})",
            s.ms, s.game, s.ply
        ));
    }
    let limited: Vec<&Timed> = answers.iter().filter(|a| a.limit.is_finite()).collect();
    let ratio = |a: &Timed| {
        if a.limit > 0.0 {
            a.ms / a.limit
        } else {
            f64::INFINITY
        }
    };
    if let Some(w) = limited.iter().max_by(|a, b| ratio(a).total_cmp(&ratio(b))) {
        lines.push(format!(
            "worst time/limit  : {:.0} ms of {:.0} ms = {:.1} % (game {}, ply {})",
            w.ms,
            w.limit,
            100.0 * ratio(w),
            w.game,
            w.ply
        ));
        let mut ratios: Vec<f64> = limited.iter().map(|a| ratio(a)).collect();
        ratios.sort_by(f64::total_cmp);
        let q = |p: f64| ratios[((p * ratios.len() as f64) as usize).min(ratios.len() - 1)];
        lines.push(format!(
            "time/limit median : {:.1} %   p99 {:.1} %   max {:.1} %",
            100.0 * q(0.5),
            100.0 * q(0.99),
            100.0 * ratios[ratios.len() - 1]
        ));
    }
    let over = limited.iter().filter(|a| a.ms > a.limit).count();
    let over_tol = limited
        .iter()
        .filter(|a| a.ms > a.limit.max(0.0) + tolerance_ms)
        .count();
    lines.push(format!(
        "answers over limit: {over} (over limit + tolerance: {over_tol})"
    ));
    lines
}

/// Moves from the first ply of each phase on, in the clock-use lines: the opening, the early
/// middle game, the middle game, the late game.
const PHASE_STARTS: [usize; 4] = [0, 20, 40, 80];

/// One engine's use of its game clock.
#[derive(Default)]
struct ClockUse {
    /// The share of the clock spent by the end of each game.
    shares: Vec<f64>,
    /// Time (ms) and moves in each phase of [`PHASE_STARTS`].
    phases: [(u64, u64); 4],
}

/// Per engine, the share of the game clock it had spent when each of its games ended (mean,
/// median, largest) and its mean time a move in each phase ([`PHASE_STARTS`]): a game clock
/// left mostly unspent is thinking time thrown away.
fn clock_use_lines(records: &[GameRecord], match_ms: u64) -> Vec<String> {
    let mut engines: BTreeMap<&str, ClockUse> = BTreeMap::new();
    for g in records {
        let mut spent = [0u64; 2];
        for (i, &t) in g.times_ms.iter().enumerate() {
            let ply = g.opening_plies + i;
            let side = ply % 2;
            spent[side] += t;
            let name = if side == 0 { &g.black } else { &g.white };
            let phase = PHASE_STARTS.iter().rposition(|&p| ply >= p).unwrap_or(0);
            let entry = engines.entry(name).or_default();
            entry.phases[phase].0 += t;
            entry.phases[phase].1 += 1;
        }
        for (side, name) in [&g.black, &g.white].into_iter().enumerate() {
            let entry = engines.entry(name).or_default();
            entry.shares.push(spent[side] as f64 / match_ms as f64);
        }
    }
    let mut lines =
        vec!["game clock spent by the end of each game, and ms a move by ply:".to_string()];
    for (name, ClockUse { mut shares, phases }) in engines {
        shares.sort_by(f64::total_cmp);
        let mean = shares.iter().sum::<f64>() / shares.len().max(1) as f64;
        let median = shares.get(shares.len() / 2).copied().unwrap_or(0.0);
        let largest = shares.last().copied().unwrap_or(0.0);
        let by_phase: Vec<String> = PHASE_STARTS
            .iter()
            .zip(phases)
            .filter(|(_, (_, n))| *n > 0)
            .map(|(p, (t, n))| format!("{p}+ {:.0}", t as f64 / n as f64))
            .collect();
        lines.push(format!(
            "  {name}: mean {:.1} %, median {:.1} %, largest {:.1} %; {}",
            100.0 * mean,
            100.0 * median,
            100.0 * largest,
            by_phase.join(", ")
        ));
    }
    lines
}

/// Runs `pentad-tools time-report`.
pub fn run(args: &Args) -> Result<()> {
    let (lines, clean) = summarize(args)?;
    for l in lines {
        println!("{l}");
    }
    if !clean {
        bail!("games lost by time, crash or illegal move (or no games)");
    }
    Ok(())
}
