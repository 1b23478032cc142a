//! Transposition-table sizes from `max_memory`: the estimate of the whole process stays
//! under the limit, `hash_size` wins but is capped, and the size grows with the memory.

use pentad::search::memory::{
    hash_bytes_for, BASE_OVERHEAD_BYTES, DEFAULT_MAX_MEMORY_BYTES, MEMORY_SLACK, MIN_HASH_BYTES,
    PER_THREAD_OVERHEAD_BYTES,
};

/// The estimate of the whole process: overhead plus the table.
fn estimated_total(max_memory: u64, kib: Option<u64>, threads: usize) -> u64 {
    hash_bytes_for(max_memory, kib, threads) as u64
        + BASE_OVERHEAD_BYTES
        + threads.max(1) as u64 * PER_THREAD_OVERHEAD_BYTES
}

#[test]
fn hash_keeps_estimate_under_limit() {
    for mb in [40u64, 64, 100, 200, 350, 1_000, 4_000] {
        for threads in [1usize, 2, 4, 8] {
            for limit in [mb * 1_000_000, mb << 20] {
                let h = hash_bytes_for(limit, None, threads);
                assert!(h.is_power_of_two() && h >= MIN_HASH_BYTES);
                let overhead = BASE_OVERHEAD_BYTES + threads as u64 * PER_THREAD_OVERHEAD_BYTES;
                if overhead + MIN_HASH_BYTES as u64 > limit {
                    // Cannot fit at all: the smallest table.
                    assert_eq!(h, MIN_HASH_BYTES, "{limit} {threads}");
                    continue;
                }
                assert!(
                    estimated_total(limit, None, threads) <= limit,
                    "{limit} {threads}"
                );
                // Not wasteful: twice the table would not fit in the limit less the slack.
                let usable = (limit as f64 * (1.0 - MEMORY_SLACK)) as u64;
                assert!(2 * h as u64 + overhead > usable, "{limit} {threads}");
            }
        }
    }
    // 0 means the 350 MB default.
    assert_eq!(
        hash_bytes_for(0, None, 2),
        hash_bytes_for(DEFAULT_MAX_MEMORY_BYTES, None, 2)
    );
    assert!(estimated_total(0, None, 2) <= DEFAULT_MAX_MEMORY_BYTES);
}

#[test]
fn hash_size_wins_but_is_capped() {
    assert_eq!(hash_bytes_for(200 << 20, Some(16 * 1024), 2), 16 << 20);
    assert_eq!(hash_bytes_for(0, Some(65_536), 1), 64 << 20);
    // Not a power of two: rounded down.
    assert_eq!(hash_bytes_for(0, Some(100 * 1024), 1), 64 << 20);
    // Larger than max_memory allows: capped.
    assert_eq!(
        hash_bytes_for(64 << 20, Some(1 << 30), 2),
        hash_bytes_for(64 << 20, None, 2)
    );
    assert_eq!(
        hash_bytes_for(0, Some(1 << 40), 1),
        hash_bytes_for(0, None, 1)
    );
    // Tiny requests and limits give the minimum table.
    assert_eq!(hash_bytes_for(0, Some(1), 1), MIN_HASH_BYTES);
    assert_eq!(hash_bytes_for(10 << 20, None, 4), MIN_HASH_BYTES);
}

#[test]
fn hash_monotone_in_memory_and_threads() {
    let mut prev = 0;
    for mb in (8..2_000u64).step_by(7) {
        let h = hash_bytes_for(mb << 20, None, 2);
        assert!(h >= prev, "{mb}");
        prev = h;
    }
    let one = hash_bytes_for(100 << 20, None, 1);
    let many = hash_bytes_for(100 << 20, None, 16);
    assert!(many <= one);
}

/// The real engine behind pipes (Linux: its memory is read from `/proc`).
#[cfg(target_os = "linux")]
mod process {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::mpsc::{channel, Receiver};
    use std::time::Duration;

    pub struct Engine {
        child: Child,
        stdin: ChildStdin,
        lines: Receiver<String>,
    }

    impl Engine {
        /// `pbrain-pentad` under `sh -c "<prefix> exec ..."` (e.g. a `ulimit`).
        pub fn spawn(prefix: &str) -> Engine {
            let exe = env!("CARGO_BIN_EXE_pbrain-pentad");
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(format!("{prefix} exec '{exe}'"))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("start the engine");
            let stdin = child.stdin.take().unwrap();
            let stdout = BufReader::new(child.stdout.take().unwrap());
            let (tx, lines) = channel();
            std::thread::spawn(move || {
                for line in stdout.lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            Engine {
                child,
                stdin,
                lines,
            }
        }

        pub fn send(&mut self, line: &str) {
            writeln!(self.stdin, "{line}").expect("engine alive");
        }

        /// Output lines up to and including the first one `last` accepts (panics after 20 s).
        pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
            let mut seen = Vec::new();
            loop {
                let line = self
                    .lines
                    .recv_timeout(Duration::from_secs(20))
                    .unwrap_or_else(|_| panic!("no answer; so far {seen:?}"));
                let done = last(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
        }

        /// Resident memory (`VmRSS`) in bytes.
        pub fn rss_bytes(&self) -> u64 {
            let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
                .expect("engine alive");
            let kib: u64 = status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .expect("VmRSS");
            kib * 1024
        }

        /// Sends END; the engine must exit on its own.
        pub fn end(mut self) {
            self.send("END");
            let status = self.child.wait().expect("exit status");
            assert!(status.success(), "{status}");
        }
    }

    /// A move line `x,y`.
    pub fn is_move(line: &str) -> bool {
        line.split_once(',')
            .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
    }
}

/// `INFO max_memory` of 1 PB: the table is capped at half the machine's memory with a MESSAGE,
/// the idle engine holds no more than the prefaulted part, and it plays.
#[cfg(target_os = "linux")]
#[test]
fn huge_max_memory_is_capped_and_stays_lazy() {
    use pentad::search::memory::{MachineMemory, PREFAULT_MAX_BYTES};
    let mut e = process::Engine::spawn("");
    e.send("INFO max_memory 1000000000000000");
    e.send("START 15");
    let lines = e.read_until(|l| l == "OK");
    let cap = MachineMemory::read().table_cap();
    let message = lines
        .iter()
        .find(|l| l.starts_with("MESSAGE hash table"))
        .expect("a MESSAGE about the cap");
    let mib: u64 = message["MESSAGE hash table ".len()..]
        .split(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .expect("the size");
    assert!(
        mib << 20 <= cap && mib << 20 > cap / 2,
        "{message}, cap {cap}"
    );
    assert!(
        message.ends_with("at most half the machine's memory"),
        "{message}"
    );
    // Give the prefault thread time to finish: the resident set stays near its bound.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let rss = e.rss_bytes();
    assert!(
        rss < PREFAULT_MAX_BYTES as u64 + (128 << 20),
        "idle engine resident {} MiB",
        rss >> 20
    );
    e.send("INFO timeout_turn 100");
    e.send("BEGIN");
    e.read_until(process::is_move);
    e.end();
}

/// Under an address-space limit the table allocation fails: the engine falls back to a smaller
/// table, says so, and plays (no abort).
#[cfg(target_os = "linux")]
#[test]
fn failed_table_allocation_falls_back() {
    let mut e = process::Engine::spawn("ulimit -v 900000 &&");
    e.send("START 15");
    e.read_until(|l| l == "OK");
    // Half of a machine with 2 GiB or more: at least a 1 GiB table, which the limit refuses.
    e.send("INFO hash_size 1000000000000");
    e.send("INFO max_memory 1000000000000000");
    e.send("INFO timeout_turn 100");
    e.send("BEGIN");
    let lines = e.read_until(process::is_move);
    let failed = lines
        .iter()
        .find(|l| l.contains("failed"))
        .unwrap_or_else(|| panic!("no MESSAGE about the failed allocation: {lines:?}"));
    assert!(
        failed.starts_with("MESSAGE hash table ") && failed.ends_with(" MiB failed"),
        "{failed}"
    );
    e.end();
}
