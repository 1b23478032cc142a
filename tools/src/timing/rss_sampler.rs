//! Resident memory of a process's engine children, sampled once a second with the number of
//! games finished so far (Linux `/proc`): RSS, and USS (private pages, what GomocupJudge
//! checks), per engine process, to see whether memory grows from game to game.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A sample counts as settled when its USS is within 1/SETTLED_DIVISOR of the peak.
const SETTLED_DIVISOR: u64 = 10;
/// Time between samples.
const SAMPLE_PERIOD: Duration = Duration::from_secs(1);

/// One sample of one process.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Games finished in the whole run when sampled.
    pub games: usize,
    pub rss_kib: u64,
    pub uss_kib: u64,
}

/// Samples by process id.
pub type Samples = BTreeMap<u32, Vec<Sample>>;

/// The sampling thread.
pub struct RssSampler {
    stop: Arc<AtomicBool>,
    samples: Arc<Mutex<Samples>>,
    thread: std::thread::JoinHandle<()>,
}

/// Children of this process whose command name is `comm`.
fn children_named(comm: &str) -> Vec<u32> {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // `pid (comm) state ppid ...`; comm may hold spaces, so split at the last ')'.
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                return false;
            };
            let ppid = stat[close + 1..].split_whitespace().nth(1);
            &stat[open + 1..close] == comm && ppid == Some(&me.to_string())
        })
        .collect()
}

/// (RSS, USS) of a process in KiB from `smaps_rollup`.
fn rss_uss_kib(pid: u32) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let field = |name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    Some((
        field("Rss:"),
        field("Private_Clean:") + field("Private_Dirty:"),
    ))
}

/// Non-empty lines of a results file: the games finished so far.
fn games_done(results: &PathBuf) -> usize {
    std::fs::read_to_string(results)
        .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count())
        .unwrap_or(0)
}

impl RssSampler {
    /// Samples the children named `comm` while `results` (a JSON-lines file) fills up.
    pub fn start(comm: &str, results: PathBuf) -> RssSampler {
        let stop = Arc::new(AtomicBool::new(false));
        let samples = Arc::new(Mutex::new(Samples::new()));
        let (s, out, comm) = (stop.clone(), samples.clone(), comm.to_string());
        let thread = std::thread::spawn(move || {
            while !s.load(Relaxed) {
                let games = games_done(&results);
                for pid in children_named(&comm) {
                    if let Some((rss_kib, uss_kib)) = rss_uss_kib(pid) {
                        let sample = Sample {
                            games,
                            rss_kib,
                            uss_kib,
                        };
                        if let Ok(mut m) = out.lock() {
                            m.entry(pid).or_default().push(sample);
                        }
                    }
                }
                std::thread::sleep(SAMPLE_PERIOD);
            }
        });
        RssSampler {
            stop,
            samples,
            thread,
        }
    }

    /// Stops and returns the samples.
    pub fn finish(self) -> Samples {
        self.stop.store(true, Relaxed);
        let _ = self.thread.join();
        std::mem::take(&mut *self.samples.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// Writes every sample as CSV (`pid,games,rss_kib,uss_kib`) for a closer look at the trend.
pub fn write_csv(samples: &Samples, path: &std::path::Path) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "pid,games,rss_kib,uss_kib")?;
    for (pid, s) in samples {
        for x in s {
            writeln!(f, "{pid},{},{},{}", x.games, x.rss_kib, x.uss_kib)?;
        }
    }
    f.flush()
}

/// Report lines: per process, USS and RSS once warmed up (after its `warm_games`-th game of
/// the run) and at the end, the peak, and the growth per game that process played
/// (`concurrency` workers share the run's games).
pub fn memory_lines(samples: &Samples, concurrency: usize, warm_games: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (pid, all) in samples {
        // Settled samples only: not while the table is still being faulted in after START,
        // nor while the process exits.
        let peak = all.iter().map(|x| x.uss_kib).max().unwrap_or(0);
        let s: Vec<&Sample> = all
            .iter()
            .filter(|x| {
                x.games >= warm_games && x.uss_kib * SETTLED_DIVISOR >= peak * (SETTLED_DIVISOR - 1)
            })
            .collect();
        let (Some(first), Some(last)) = (s.first(), s.last()) else {
            continue;
        };
        let own_games = (last.games - first.games) as f64 / concurrency.max(1) as f64;
        let growth = if own_games >= 1.0 {
            format!(
                "{:+.1} KiB/game",
                (last.uss_kib as f64 - first.uss_kib as f64) / own_games
            )
        } else {
            "n/a".into()
        };
        lines.push(format!(
            "  pid {pid}: USS {} -> {} KiB (peak {peak}), RSS {} -> {} KiB, over ~{own_games:.0} \
             of its games (run games {}..{}): USS growth {growth}",
            first.uss_kib, last.uss_kib, first.rss_kib, last.rss_kib, first.games, last.games
        ));
    }
    lines
}
