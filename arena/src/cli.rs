//! The `pentad-arena` command line (clap derive) and its translation into a [`MatchConfig`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::{Parser, ValueEnum};

use super::engine::EngineSpec;
use super::game::{GameConfig, TimeControl};
use super::openings::load_openings;
use super::stats::{EloModel, SprtConfig};
use super::tournament::{run_match, MatchConfig, MatchSummary};
use pentad::core::Rule;

/// Gomocup adjudicates a renju game as drawn when this many stones are on the board.
const RENJU_DRAW_AFTER: usize = 200;

/// SPRT Elo model on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SprtModel {
    /// Ordinary (logistic) Elo bounds.
    Logistic,
    /// Normalized Elo bounds (fishtest's nElo).
    Normalized,
}

/// Plays Gomocup engines against each other and referees them.
///
/// Per-game lines and the final summary go to stdout; the progress bar, warnings and
/// errors go to stderr.
#[derive(Parser, Debug, Clone)]
#[command(name = "pentad-arena", version)]
pub struct Args {
    /// Engine command line: `[name=NAME] [threads=N] [option.KEY=VALUE]... PROGRAM [ARGS...]`
    /// (quote it; each option is sent as `INFO KEY VALUE` at game start); give two
    /// or more. Without `name=`, the name comes from ABOUT, else from the file name;
    /// `threads=` sets this engine's INFO thread_num (over --threads).
    #[arg(short = 'e', long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,

    /// Rule: freestyle, standard, renju, caro, caro5, or a protocol number.
    #[arg(short = 'r', long, default_value = "freestyle")]
    pub rule: String,

    /// Board size: N (square) or WxH.
    #[arg(short = 's', long, default_value = "15")]
    pub size: String,

    /// Time control MATCH/TURN in seconds (floats); MATCH 0 = no game limit, TURN 0 = no
    /// move limit. A single number is a move limit.
    #[arg(short = 't', long, default_value = "0/5", value_name = "MATCH/TURN")]
    pub tc: String,

    /// Games per engine pair [default: 2, or 100000 with --sprt (it stops when it decides)].
    #[arg(short = 'g', long)]
    pub games: Option<usize>,

    /// Openings file (offset `x,y, x,y` or pos `h8i9j10` format, one per line).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Play each opening twice, colours swapped.
    #[arg(long)]
    pub repeat: bool,

    /// Games played in parallel.
    #[arg(short = 'j', long, default_value_t = 1)]
    pub concurrency: usize,

    /// Shuffle the openings with this seed (file order without it); same seed, same schedule.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Write all games to this SGF file.
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,

    /// Write one JSON object per game to this file (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,

    /// Sequential probability ratio test ELO0,ELO1[,ALPHA,BETA] (alpha, beta default 0.05);
    /// the match stops when it decides.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<String>,

    /// Elo model of the SPRT bounds.
    #[arg(long, value_enum, default_value = "logistic")]
    pub sprt_model: SprtModel,

    /// Adjudicate a draw when this many stones (opening included) are on the board. Renju
    /// defaults to 200, as Gomocup adjudicates; 0 = never.
    #[arg(long, value_name = "N")]
    pub draw_after: Option<usize>,

    /// Seconds allowed past a time limit before the game is lost on time.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    pub tolerance: f64,

    /// c-gomoku-cli's clock rules: no tolerance on the game clock, and a turn overrun of at
    /// most min(tolerance/2, 1 s).
    #[arg(long)]
    pub strict_clock: bool,

    /// Gauntlet: the first engine plays every other one (default: round robin).
    #[arg(long)]
    pub gauntlet: bool,

    /// Memory limit sent to engines (INFO max_memory), MiB; 0 = none.
    #[arg(long, default_value_t = 350, value_name = "MIB")]
    pub max_memory: u64,

    /// Search threads sent to engines (INFO thread_num).
    #[arg(long)]
    pub threads: Option<u32>,

    /// Seconds an engine may take to answer START.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub startup_timeout: f64,

    /// Apply a random board symmetry (seeded by --seed) to each opening.
    #[arg(long)]
    pub transform: bool,

    /// Start fresh engine processes for every game (default: reuse them).
    #[arg(long)]
    pub fresh: bool,

    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// No per-game lines, only the final summary.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Log all engine I/O to stderr and pass the engines' stderr through.
    #[arg(long)]
    pub debug: bool,
}

/// Parses `N` or `WxH`.
pub fn parse_size(s: &str) -> Result<(usize, usize)> {
    let s = s.trim().to_ascii_lowercase();
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| anyhow!("bad board size {s:?}"))
    };
    match s.split_once('x') {
        Some((w, h)) => Ok((num(w)?, num(h)?)),
        None => {
            let n = num(&s)?;
            Ok((n, n))
        }
    }
}

fn secs_to_ms(v: f64, what: &str) -> Result<u64> {
    if !(0.0..=1e7).contains(&v) {
        bail!("{what} out of range: {v}");
    }
    Ok((v * 1000.0).round() as u64)
}

impl Args {
    /// Validates the arguments and builds the match configuration (reads the openings file).
    pub fn to_config(&self) -> Result<MatchConfig> {
        let engines = self
            .engines
            .iter()
            .map(|e| EngineSpec::parse(e).map_err(|m| anyhow!("--engine {e:?}: {m}")))
            .collect::<Result<Vec<_>>>()?;
        let rule =
            Rule::from_name(&self.rule).ok_or_else(|| anyhow!("unknown rule {:?}", self.rule))?;
        let (width, height) = parse_size(&self.size)?;
        pentad::board::Board::new(width, height, rule).map_err(|e| anyhow!("{e}"))?;
        let sprt = self.sprt_config()?;
        let openings = match &self.openings {
            Some(p) => load_openings(p, width, height, rule).map_err(|e| anyhow!(e))?,
            None => Vec::new(),
        };
        let games = self
            .games
            .unwrap_or(if sprt.is_some() { 100_000 } else { 2 });
        if games == 0 {
            bail!("--games must be at least 1");
        }
        if self.concurrency == 0 {
            bail!("--concurrency must be at least 1");
        }
        let game = self.game_config(width, height, rule)?;
        Ok(MatchConfig {
            engines,
            game,
            games,
            openings,
            repeat: self.repeat,
            concurrency: self.concurrency,
            seed: self.seed,
            gauntlet: self.gauntlet,
            sprt,
            sgf: self.sgf.clone(),
            results: self.results.clone(),
            progress: !self.no_progress,
            report_games: !self.quiet,
            fresh: self.fresh,
            transform: self.transform,
        })
    }

    /// The SPRT's settings, if `--sprt` asks for one.
    fn sprt_config(&self) -> Result<Option<SprtConfig>> {
        let model = match self.sprt_model {
            SprtModel::Logistic => EloModel::Logistic,
            SprtModel::Normalized => EloModel::Normalized,
        };
        self.sprt
            .as_deref()
            .map(|s| SprtConfig::parse(s, model).map_err(|e| anyhow!(e)))
            .transpose()
    }

    /// The settings of every game: board, rule, clock and what the engines are told.
    fn game_config(&self, width: usize, height: usize, rule: Rule) -> Result<GameConfig> {
        Ok(GameConfig {
            width,
            height,
            rule,
            tc: TimeControl::parse(&self.tc).map_err(|e| anyhow!(e))?,
            tolerance_ms: secs_to_ms(self.tolerance, "--tolerance")?,
            strict_clock: self.strict_clock,
            draw_after: match self.draw_after {
                Some(0) => None,
                Some(n) => Some(n),
                None => rule.is_renju().then_some(RENJU_DRAW_AFTER),
            },
            max_memory: self.max_memory.saturating_mul(1024 * 1024),
            threads: self.threads,
            startup_ms: secs_to_ms(self.startup_timeout, "--startup-timeout")?,
            debug: self.debug,
        })
    }
}

/// Runs the arena with parsed arguments, printing to stdout.
pub fn run(args: &Args) -> Result<MatchSummary> {
    let cfg = args.to_config()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_match(&cfg, &mut out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("15").unwrap(), (15, 15));
        assert_eq!(parse_size("20x15").unwrap(), (20, 15));
        assert_eq!(parse_size("20X15").unwrap(), (20, 15));
        assert!(parse_size("x").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn args_to_config() {
        let a = Args::parse_from([
            "pentad-arena",
            "--engine",
            "name=a prog1",
            "-e",
            "prog2 --x",
            "--rule",
            "renju",
            "--size",
            "15",
            "--tc",
            "10/0.5",
            "--games",
            "4",
            "--sprt",
            "0,10",
            "--draw-after",
            "180",
            "--tolerance",
            "0.25",
        ]);
        let c = a.to_config().unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name.as_deref(), Some("a"));
        assert_eq!(c.engines[1].args, vec!["--x"]);
        assert!(c.game.rule.is_renju());
        assert_eq!(c.game.tc.match_ms, 10_000);
        assert_eq!(c.game.tc.turn_ms, 500);
        assert_eq!(c.game.tolerance_ms, 250);
        assert_eq!(c.game.draw_after, Some(180));
        assert!(c.sprt.is_some());
        let bad = Args::parse_from(["pentad-arena", "-e", "a", "-e", "b", "--rule", "chess"]);
        assert!(bad.to_config().is_err());
        let bad = Args::parse_from(["pentad-arena", "-e", "a", "-e", "b", "--size", "40"]);
        assert!(bad.to_config().is_err());
    }

    #[test]
    fn renju_games_are_drawn_after_200_stones_unless_told_otherwise() {
        let draw_after = |extra: &[&str]| {
            let mut v = vec!["pentad-arena", "-e", "a", "-e", "b"];
            v.extend_from_slice(extra);
            Args::parse_from(v).to_config().unwrap().game.draw_after
        };
        assert_eq!(draw_after(&["-r", "renju"]), Some(200));
        assert_eq!(draw_after(&["-r", "renju", "--draw-after", "0"]), None);
        assert_eq!(
            draw_after(&["-r", "renju", "--draw-after", "150"]),
            Some(150)
        );
        assert_eq!(draw_after(&["-r", "freestyle"]), None);
        assert_eq!(
            draw_after(&["-r", "freestyle", "--draw-after", "100"]),
            Some(100)
        );
    }
}
