//! Progress for the long-running subcommands on stderr: a bar on a terminal, and a plain
//! line at most once a minute elsewhere (a log file, a batch scheduler's output), kept apart
//! from the result lines on stdout.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bar layout: what runs, elapsed time, the bar, done/total, a short message.
const TEMPLATE: &str = "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}";

/// How often a run whose stderr is not a terminal reports, at most.
const PLAIN_INTERVAL: Duration = Duration::from_secs(60);

/// A progress bar over `total` steps of `what`, plus the output helpers that go with it.
pub struct Progress {
    bar: ProgressBar,
    /// The plain reports, where stderr is not a terminal (the bar then draws nothing).
    plain: Option<Mutex<PlainReport>>,
}

impl Progress {
    /// A bar of `total` steps labelled `what`.
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style);
        }
        bar.set_prefix(what.to_string());
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            Mutex::new(PlainReport::new(
                what,
                total,
                Instant::now(),
                PLAIN_INTERVAL,
            ))
        });
        Progress { bar, plain }
    }

    /// Prints a result line on stdout and counts it as one step.
    pub fn line(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
        self.inc(1);
    }

    /// Prints a line on stdout without counting a step.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
    }

    /// Prints a note on stderr without counting a step.
    pub fn note(&self, note: &str) {
        self.bar.suspend(|| eprintln!("{note}"));
    }

    /// Counts `n` steps done without printing.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if let Some(plain) = &self.plain {
            let mut plain = plain.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(report) = plain.advance(n, Instant::now()) {
                eprintln!("{report}");
            }
        }
    }

    /// Sets the short message after the counter (what the current step is doing).
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Removes the bar; a plain report gets its last line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if let Some(plain) = &self.plain {
            let mut plain = plain.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(report) = plain.finish(Instant::now()) {
                eprintln!("{report}");
            }
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The plain progress lines of a run without a terminal: steps done, the rate so far and
/// the time left at that rate, at most once per interval, and once more at the end.
struct PlainReport {
    what: String,
    total: u64,
    done: u64,
    started: Instant,
    last: Instant,
    interval: Duration,
    finished: bool,
}

impl PlainReport {
    fn new(what: &str, total: u64, now: Instant, interval: Duration) -> PlainReport {
        PlainReport {
            what: what.to_string(),
            total,
            done: 0,
            started: now,
            last: now,
            interval,
            finished: false,
        }
    }

    /// Counts `n` more steps at `now`: the line to print when an interval has passed since
    /// the last one.
    fn advance(&mut self, n: u64, now: Instant) -> Option<String> {
        self.done += n;
        if now.duration_since(self.last) < self.interval {
            return None;
        }
        self.last = now;
        Some(self.line(now, false))
    }

    /// The closing line, once, for a run that did any step.
    fn finish(&mut self, now: Instant) -> Option<String> {
        if self.finished || self.done == 0 {
            return None;
        }
        self.finished = true;
        Some(self.line(now, true))
    }

    /// `what done/total (percent), elapsed, rate`, and the time left at that rate unless
    /// the line is the `closing` one.
    fn line(&self, now: Instant, closing: bool) -> String {
        let elapsed = now.duration_since(self.started);
        let percent = 100.0 * self.done as f64 / self.total.max(1) as f64;
        let mut line = format!(
            "{} {}/{} ({percent:.1} %), {} elapsed",
            self.what,
            self.done,
            self.total,
            clock(elapsed)
        );
        let secs = elapsed.as_secs_f64();
        if self.done > 0 && secs > 0.0 {
            let rate = self.done as f64 / secs;
            line += &format!(", {}", per_time(rate));
            if !closing {
                let left = self.total.saturating_sub(self.done) as f64 / rate;
                line += &format!(", about {} left", clock(Duration::from_secs_f64(left)));
            }
        }
        line
    }
}

/// A rate in steps a second, as steps a minute when under one a second.
fn per_time(per_second: f64) -> String {
    if per_second >= 1.0 {
        format!("{per_second:.1}/s")
    } else {
        format!("{:.1}/min", per_second * 60.0)
    }
}

/// A duration as `h:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_report_speaks_once_an_interval_and_once_at_the_end() {
        let t0 = Instant::now();
        let minute = Duration::from_secs(60);
        let mut report = PlainReport::new("selfplay", 1000, t0, minute);
        assert_eq!(report.advance(10, t0 + Duration::from_secs(30)), None);
        let first = report.advance(10, t0 + minute);
        assert_eq!(
            first.as_deref(),
            Some("selfplay 20/1000 (2.0 %), 0:01:00 elapsed, 20.0/min, about 0:49:00 left")
        );
        assert_eq!(
            report.advance(5, t0 + minute + Duration::from_secs(59)),
            None
        );
        assert!(report.advance(5, t0 + 2 * minute).is_some());
        let last = report.finish(t0 + Duration::from_secs(3723));
        assert_eq!(
            last.as_deref(),
            Some("selfplay 30/1000 (3.0 %), 1:02:03 elapsed, 0.5/min")
        );
        assert_eq!(report.finish(t0 + Duration::from_secs(4000)), None);
    }

    #[test]
    fn plain_report_of_a_run_that_did_nothing_stays_silent() {
        let t0 = Instant::now();
        let mut report = PlainReport::new("leaves", 5, t0, Duration::from_secs(60));
        assert_eq!(report.finish(t0 + Duration::from_secs(600)), None);
    }
}
