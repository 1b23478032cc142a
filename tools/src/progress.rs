//! Progress bars for the long-running subcommands: drawn on stderr, only on a terminal, and
//! kept intact while result lines go to stdout and notes to stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bar layout: what runs, elapsed time, the bar, done/total, a short message.
const TEMPLATE: &str = "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}";

/// A progress bar over `total` steps of `what`, plus the output helpers that go with it.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `total` steps labelled `what`.
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style);
        }
        bar.set_prefix(what.to_string());
        Progress { bar }
    }

    /// Prints a result line on stdout and counts it as one step.
    pub fn line(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
        self.bar.inc(1);
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
    }

    /// Sets the short message after the counter (what the current step is doing).
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
