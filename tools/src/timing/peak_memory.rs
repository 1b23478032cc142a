//! `pentad-tools peak-memory`: measures the engine from outside (Linux `/proc`): its peak
//! resident memory (VmHWM) while searching under `INFO max_memory` limits, and its START
//! latency (process start to `OK`). Fails when a peak reaches its limit, an answer comes
//! after its turn limit, END does not end the process, or START takes 100 ms or more.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use pentad::core::Pos;

use super::driver::{default_engine, parse_move, Driver};
use crate::progress::Progress;

/// The engine's default memory limit (no `INFO max_memory` sent), bytes.
const DEFAULT_LIMIT: u64 = 350_000_000;
/// Sampling period of the resident memory.
const SAMPLE_PERIOD: Duration = Duration::from_millis(20);
/// START must answer faster than this.
const START_LIMIT_MS: f64 = 100.0;
/// Extra time an answer may take before the run is abandoned.
const ANSWER_GRACE: Duration = Duration::from_secs(5);
/// Hash of the overhead run: the smallest table, so the peak is nearly all overhead.
const TINY_HASH_KIB: u64 = 1024;
/// Hash of the oversized-hash run, KiB (1 GiB).
const HUGE_HASH_KIB: u64 = 1 << 20;

/// Options of `pentad-tools peak-memory`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Engine program (default: pbrain-pentad beside pentad-tools).
    #[arg(long)]
    pub engine: Option<String>,
    /// Memory limits to test, MB (10^6 bytes, the stricter reading), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "64,200")]
    pub limits_mb: Vec<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 2)]
    pub threads: u32,
    /// Board size.
    #[arg(long, default_value_t = 20)]
    pub board: usize,
    /// INFO timeout_turn, ms.
    #[arg(long, default_value_t = 3000)]
    pub turn_ms: u64,
    /// Engine moves per run.
    #[arg(long, default_value_t = 6)]
    pub moves: usize,
    /// START latency runs.
    #[arg(long, default_value_t = 20)]
    pub latency_runs: usize,
    /// Skip the run that estimates the fixed overhead (1 MiB hash).
    #[arg(long)]
    pub no_overhead: bool,
    /// Skip the extra runs (4 threads, a 1 GiB hash_size, no max_memory at all).
    #[arg(long)]
    pub no_extra: bool,
}

/// The `/proc/<pid>/status` fields we read, in KiB (`Threads`: a count).
fn status(pid: u32) -> Option<[u64; 4]> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let mut out = [0; 4];
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let i = match key {
            "VmHWM" => 0,
            "VmRSS" => 1,
            "VmPeak" => 2,
            "Threads" => 3,
            _ => continue,
        };
        out[i] = value.split_whitespace().next()?.parse().ok()?;
    }
    Some(out)
}

/// One memory run's settings.
struct MemoryRun {
    label: String,
    /// The limit the peak is checked against, bytes.
    limit: u64,
    /// Whether `INFO max_memory` is sent.
    send_limit: bool,
    threads: u32,
    extra: Vec<(&'static str, String)>,
}

/// A free point next to `last`, else the free point nearest the centre.
fn pick_reply(occupied: &[Pos], last: Pos, size: usize) -> Option<Pos> {
    const STEPS: [(i32, i32); 14] = [
        (1, 1),
        (-1, 1),
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
        (-1, -1),
        (2, 0),
        (0, 2),
        (-2, 0),
        (0, -2),
        (2, 2),
        (-2, -2),
    ];
    let n = size as i32;
    let free = |x: i32, y: i32| {
        (0..n).contains(&x)
            && (0..n).contains(&y)
            && !occupied.contains(&Pos::new(x as usize, y as usize))
    };
    let (x, y) = (last.x() as i32, last.y() as i32);
    if let Some(&(dx, dy)) = STEPS.iter().find(|&&(dx, dy)| free(x + dx, y + dy)) {
        return Some(Pos::new((x + dx) as usize, (y + dy) as usize));
    }
    let c = n / 2;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .filter(|&(x, y)| free(x, y))
        .min_by_key(|&(x, y)| (x - c).pow(2) + (y - c).pow(2))
        .map(|(x, y)| Pos::new(x as usize, y as usize))
}

/// Samples a process's resident memory and thread count on a thread of its own.
struct Sampler {
    stop: Arc<AtomicBool>,
    max_rss_kib: Arc<AtomicU64>,
    max_threads: Arc<AtomicU64>,
    thread: std::thread::JoinHandle<()>,
}

impl Sampler {
    fn start(pid: u32) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let max_rss_kib = Arc::new(AtomicU64::new(0));
        let max_threads = Arc::new(AtomicU64::new(0));
        let (s, r, t) = (stop.clone(), max_rss_kib.clone(), max_threads.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Relaxed) {
                if let Some(st) = status(pid) {
                    r.fetch_max(st[1], Relaxed);
                    t.fetch_max(st[3], Relaxed);
                }
                std::thread::sleep(SAMPLE_PERIOD);
            }
        });
        Sampler {
            stop,
            max_rss_kib,
            max_threads,
            thread,
        }
    }

    /// Stops sampling: (largest VmRSS in KiB, most threads).
    fn finish(self) -> (u64, u64) {
        self.stop.store(true, Relaxed);
        let _ = self.thread.join();
        (
            self.max_rss_kib.load(Relaxed),
            self.max_threads.load(Relaxed),
        )
    }
}

/// The INFO lines of a memory run.
fn run_infos(args: &Args, run: &MemoryRun) -> Vec<(&'static str, String)> {
    let mut infos = Vec::new();
    if run.send_limit {
        infos.push(("max_memory", run.limit.to_string()));
    }
    infos.extend([
        ("thread_num", run.threads.to_string()),
        ("timeout_turn", args.turn_ms.to_string()),
        ("timeout_match", "0".to_string()),
        ("time_left", "2147483647".to_string()),
        ("rule", "0".to_string()),
    ]);
    infos.extend(run.extra.iter().cloned());
    infos
}

/// Plays `args.moves` engine moves under `run`, sampling memory; prints the figures and
/// returns (within its limits, peak VmHWM in bytes).
fn memory_run(
    args: &Args,
    program: &str,
    run: &MemoryRun,
    progress: &Progress,
) -> Result<(bool, u64)> {
    let mut d = Driver::start(program, args.board, args.board, false)?;
    let pid = d.pid();
    let sampler = Sampler::start(pid);
    let played = d
        .infos(&run_infos(args, run))
        .and_then(|_| play_moves(args, &mut d));
    let last = status(pid).unwrap_or_default();
    let (max_rss_kib, max_threads) = sampler.finish();
    let end = d.end();
    let hwm = last[0] * 1024;
    let (slowest, over) = match &played {
        Ok(v) => *v,
        Err(e) => {
            progress.println(&format!("  run failed: {e:#}"));
            (0.0, 0)
        }
    };
    let verdict = match (&played, hwm < run.limit) {
        (Err(_), _) => "FAILED",
        (Ok(_), true) => "OK",
        (Ok(_), false) => "OVER LIMIT",
    };
    progress.println(&format!(
        "  {}: peak VmHWM {:.1} MB = {:.1} % of limit [{verdict}]; max sampled VmRSS {:.1} MB, VmPeak (virtual) {:.1} MB, threads {max_threads}",
        run.label,
        hwm as f64 / 1e6,
        100.0 * hwm as f64 / run.limit as f64,
        (max_rss_kib * 1024) as f64 / 1e6,
        (last[2] * 1024) as f64 / 1e6,
    ));
    let end_text = end.map_or("killed (no exit within 2 s)".to_string(), |t| {
        format!("{:.0} ms", t.as_secs_f64() * 1e3)
    });
    progress.println(&format!(
        "    {} moves at timeout_turn {} ms: slowest answer {slowest:.0} ms, over the limit: {over}; END -> exit {end_text}",
        args.moves, args.turn_ms
    ));
    let ok = played.is_ok() && hwm < run.limit && over == 0 && end.is_some();
    Ok((ok, hwm))
}

/// The engine plays `args.moves` moves from an empty board against replies next to its
/// last move; returns (slowest answer in ms, answers over the turn limit).
fn play_moves(args: &Args, d: &mut Driver) -> Result<(f64, usize)> {
    let timeout = Duration::from_millis(args.turn_ms) + ANSWER_GRACE;
    let mut occupied = Vec::new();
    let mut command = "BEGIN".to_string();
    let (mut slowest, mut over) = (0.0f64, 0);
    for _ in 0..args.moves {
        let a = d.request(&command, timeout)?;
        slowest = slowest.max(a.wall_ms);
        if a.wall_ms > args.turn_ms as f64 {
            over += 1;
        }
        let Some(p) = parse_move(&a.mv).filter(|p| !occupied.contains(p)) else {
            bail!("illegal engine move {}", a.mv);
        };
        occupied.push(p);
        let Some(r) = pick_reply(&occupied, p, args.board) else {
            break;
        };
        occupied.push(r);
        command = format!("TURN {},{}", r.x(), r.y());
    }
    Ok((slowest, over))
}

/// START latency over `args.latency_runs` fresh processes, and END to exit; true when every
/// START answered within [`START_LIMIT_MS`] and every process ended.
fn latency(args: &Args, program: &str) -> bool {
    let progress = Progress::new(args.latency_runs as u64, "START latency");
    let (mut starts, mut ends) = (Vec::new(), Vec::new());
    for _ in 0..args.latency_runs {
        progress.inc(1);
        match Driver::start(program, args.board, args.board, false) {
            Ok(d) => {
                starts.push(d.since_start().as_secs_f64() * 1e3);
                if let Some(t) = d.end() {
                    ends.push(t.as_secs_f64() * 1e3);
                }
            }
            Err(e) => progress.note(&format!("  START failed: {e:#}")),
        }
    }
    progress.finish();
    starts.sort_by(f64::total_cmp);
    ends.sort_by(f64::total_cmp);
    if let (Some(min), Some(max)) = (starts.first(), starts.last()) {
        println!(
            "  process start -> OK after START {}, {} runs: min {min:.1} ms, median {:.1} ms, max {max:.1} ms",
            args.board,
            starts.len(),
            starts[starts.len() / 2]
        );
    }
    if let Some(max) = ends.last() {
        println!(
            "  END -> exit (idle): median {:.1} ms, max {max:.1} ms",
            ends[ends.len() / 2]
        );
    }
    let slowest = starts.last().copied().unwrap_or(f64::INFINITY);
    slowest < START_LIMIT_MS && ends.len() == args.latency_runs
}

/// The memory runs: the overhead estimate, one per limit, and the extra ones.
fn memory_runs(args: &Args) -> Vec<MemoryRun> {
    let run = |label: String, limit: u64, threads: u32, extra| MemoryRun {
        label,
        limit,
        send_limit: true,
        threads,
        extra,
    };
    let mut runs = Vec::new();
    if !args.no_overhead {
        let extra = vec![("hash_size", TINY_HASH_KIB.to_string())];
        let label = "overhead (hash_size 1024 KiB, max_memory 1 GB)".to_string();
        runs.push(run(label, 1_000_000_000, args.threads, extra));
    }
    for &mb in &args.limits_mb {
        let limit = (mb * 1e6) as u64;
        let label = format!("max_memory {mb:.0} MB ({limit} B)");
        runs.push(run(label, limit, args.threads, vec![]));
    }
    if let (false, Some(&mb)) = (args.no_extra, args.limits_mb.first()) {
        let first = (mb * 1e6) as u64;
        let label = format!("max_memory {mb:.0} MB, thread_num 4");
        runs.push(run(label, first, 4, vec![]));
        let extra = vec![("hash_size", HUGE_HASH_KIB.to_string())];
        let label = format!("max_memory {mb:.0} MB, hash_size {HUGE_HASH_KIB} KiB (1 GiB)");
        runs.push(run(label, first, args.threads, extra));
        let mut default = run(
            "no max_memory sent (default 350 MB)".to_string(),
            DEFAULT_LIMIT,
            args.threads,
            vec![],
        );
        default.send_limit = false;
        runs.push(default);
    }
    runs
}

/// Runs `pentad-tools peak-memory`.
pub fn run(args: &Args) -> Result<()> {
    if status(std::process::id()).is_none() {
        bail!("needs Linux /proc/<pid>/status");
    }
    let program = args.engine.clone().unwrap_or_else(default_engine);
    println!(
        "engine {program}: {0}x{0}, thread_num {1}, timeout_turn {2} ms",
        args.board, args.threads, args.turn_ms
    );
    let runs = memory_runs(args);
    let progress = Progress::new(runs.len() as u64, "memory runs");
    let mut all_ok = true;
    for run in &runs {
        let (ok, hwm) = memory_run(args, &program, run, &progress)?;
        progress.inc(1);
        if run
            .extra
            .iter()
            .any(|(k, v)| *k == "hash_size" && *v == TINY_HASH_KIB.to_string())
        {
            let overhead = hwm.saturating_sub(TINY_HASH_KIB * 1024) as f64 / (1 << 20) as f64;
            progress.println(&format!(
                "    => fixed overhead with {} threads and a 1 MiB hash: about {overhead:.1} MiB",
                args.threads
            ));
        } else {
            all_ok &= ok;
        }
    }
    progress.finish();
    println!("START latency:");
    all_ok &= latency(args, &program);
    if !all_ok {
        bail!("peak-memory: FAILED");
    }
    println!("peak-memory: OK");
    Ok(())
}
