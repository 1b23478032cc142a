//! One match played through the arena library for the timing subcommands: the engines'
//! command lines and the match settings in, the results file out, the arena's output in a
//! log beside it.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Parser;
use pentad_arena::cli::Args as ArenaArgs;
use pentad_arena::openings::CANONICAL_RENJU_OPENINGS;
use pentad_arena::run_match;

/// The openings file a run uses: `given`, or else the 26 canonical renju openings written
/// to `out_dir`.
pub fn openings_file(given: Option<&Path>, out_dir: &Path) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_path_buf());
    }
    let file = out_dir.join("openings-26.txt");
    std::fs::write(&file, CANONICAL_RENJU_OPENINGS).with_context(|| file.display().to_string())?;
    Ok(file)
}

/// A match of two engines from a file of openings, each played with both colours.
pub struct ArenaRun<'a> {
    /// Names the results (`<name>.jsonl`) and the log (`<name>.log`).
    pub name: &'a str,
    /// The two arena `--engine` word lists (`name=... program ...`).
    pub engines: [String; 2],
    pub rule: &'a str,
    pub size: usize,
    /// `MATCH/TURN` in seconds.
    pub tc: &'a str,
    pub games: usize,
    pub concurrency: usize,
    pub openings: &'a Path,
    /// The manager's tolerance past a limit, seconds.
    pub tolerance_s: f64,
    /// No tolerance on the game clock (c-gomoku-cli's rule).
    pub strict_clock: bool,
}

impl ArenaRun<'_> {
    /// Plays the match into `out_dir` (a results file there from before is removed first) and
    /// names its log; the results file. The callers report the wall time with their results.
    pub fn play(&self, out_dir: &Path) -> Result<PathBuf> {
        let results = out_dir.join(format!("{}.jsonl", self.name));
        let log = out_dir.join(format!("{}.log", self.name));
        let _ = std::fs::remove_file(&results);
        let arena = ArenaArgs::try_parse_from(self.arena_words(&results))?;
        let cfg = arena.to_config()?;
        println!("   arena log {}", log.display());
        let mut out =
            BufWriter::new(File::create(&log).with_context(|| log.display().to_string())?);
        let summary = run_match(&cfg, &mut out);
        drop(out);
        summary?;
        Ok(results)
    }

    /// The `pentad-arena` command line of the match.
    fn arena_words(&self, results: &Path) -> Vec<String> {
        let mut words = vec!["pentad-arena".to_string()];
        for engine in &self.engines {
            words.extend(["--engine".to_string(), engine.clone()]);
        }
        let settings = [
            ("--rule", self.rule.to_string()),
            ("--size", self.size.to_string()),
            ("--tc", self.tc.to_string()),
            ("--games", self.games.to_string()),
            ("--concurrency", self.concurrency.to_string()),
            ("--openings", self.openings.to_string_lossy().into_owned()),
        ];
        for (flag, value) in settings {
            words.extend([flag.to_string(), value]);
        }
        words.push("--repeat".into());
        if self.strict_clock {
            words.push("--strict-clock".into());
        }
        words.extend([
            "--tolerance".to_string(),
            self.tolerance_s.to_string(),
            "--results".to_string(),
            results.to_string_lossy().into_owned(),
        ]);
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_names_every_setting() {
        let run = ArenaRun {
            name: "a",
            engines: ["name=x prog-x".into(), "name=y prog-y".into()],
            rule: "renju",
            size: 15,
            tc: "60/0.2",
            games: 4,
            concurrency: 2,
            openings: Path::new("open.txt"),
            tolerance_s: 1.5,
            strict_clock: true,
        };
        let words = run.arena_words(Path::new("out/a.jsonl")).join(" ");
        assert_eq!(
            words,
            "pentad-arena --engine name=x prog-x --engine name=y prog-y --rule renju --size 15 \
             --tc 60/0.2 --games 4 --concurrency 2 --openings open.txt --repeat --strict-clock \
             --tolerance 1.5 --results out/a.jsonl"
        );
        // The arena takes every flag.
        let args = ArenaArgs::try_parse_from(run.arena_words(Path::new("out/a.jsonl"))).unwrap();
        assert_eq!(args.games, Some(4));
    }
}
