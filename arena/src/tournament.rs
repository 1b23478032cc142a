//! The tournament driver: resolves engine names, runs the schedule on N worker threads,
//! reports each finished game, keeps per-pair statistics, stops early on an SPRT decision,
//! writes SGF / JSON-lines records and prints the final summary.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::engine::{Engine, EngineSpec};
use super::game::{play_game, EngineSlot, GameConfig, GameResult, Reason};
use super::openings::Opening;
use super::records::GameRecord;
use super::schedule::{pairings, schedule, GameSpec};
use super::stats::{
    elo_pentanomial, elo_trinomial, pentanomial_index, Pentanomial, SprtConfig, SprtDecision, Wld,
};
use pentad::core::{Color, Pos};

/// A whole match or tournament.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub game: GameConfig,
    /// Games per engine pair.
    pub games: usize,
    /// Openings (empty: every game starts from an empty board).
    pub openings: Vec<Opening>,
    /// Play each opening twice with colours swapped.
    pub repeat: bool,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Shuffle the openings with this seed (file order without one).
    pub seed: Option<u64>,
    /// First engine against all others instead of round robin.
    pub gauntlet: bool,
    pub sprt: Option<SprtConfig>,
    pub sgf: Option<PathBuf>,
    pub results: Option<PathBuf>,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
    /// Print a line per finished game.
    pub report_games: bool,
    /// Start fresh engine processes for every game.
    pub fresh: bool,
    /// Apply a random (seeded) board symmetry to each opening.
    pub transform: bool,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            game: GameConfig::default(),
            games: 2,
            openings: Vec::new(),
            repeat: false,
            concurrency: 1,
            seed: None,
            gauntlet: false,
            sprt: None,
            sgf: None,
            results: None,
            progress: false,
            report_games: true,
            fresh: false,
            transform: false,
        }
    }
}

/// Statistics of one engine pair, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairSummary {
    pub first: String,
    pub second: String,
    pub wld: Wld,
    /// The first engine's results in the games it played as Black (as White: `wld` less these).
    pub as_black: Wld,
    /// Complete game pairs by the first engine's pair score.
    pub penta: Pentanomial,
    /// Games per ending reason.
    pub reasons: HashMap<Reason, u32>,
    /// Losses by a misbehaving engine: (first's, second's) counts of illegal/time/crash losses.
    pub abnormal: [u32; 2],
    /// Last LLR and decision when an SPRT runs.
    pub sprt: Option<(f64, SprtDecision)>,
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: Vec<String>,
    pub pairs: Vec<PairSummary>,
    /// Records in the order games finished.
    pub records: Vec<GameRecord>,
    /// True when the SPRT stopped the match before the schedule was done.
    pub stopped_early: bool,
}

impl PairSummary {
    /// Counts a finished game of this pair; `pending` holds the first engine's score in game
    /// pairs (both colours of one opening) of which one game has finished, until the other
    /// completes the pair.
    fn add_game(
        &mut self,
        spec: &GameSpec,
        res: &GameResult,
        pending: &mut HashMap<(usize, usize), f64>,
    ) {
        let first_color = if spec.black == spec.first {
            Color::Black
        } else {
            Color::White
        };
        let score = match res.winner {
            None => 0.5,
            Some(c) if c == first_color => 1.0,
            Some(_) => 0.0,
        };
        self.wld.add(score);
        if first_color == Color::Black {
            self.as_black.add(score);
        }
        *self.reasons.entry(res.reason).or_insert(0) += 1;
        if res.reason.is_abnormal() {
            if let Some(w) = res.winner {
                self.abnormal[if w == first_color { 1 } else { 0 }] += 1;
            }
        }
        let key = (spec.pair, spec.game_pair());
        if let Some(other) = pending.remove(&key) {
            self.penta[pentanomial_index(other + score)] += 1;
        } else {
            pending.insert(key, score);
        }
    }

    /// Brings the SPRT's log-likelihood ratio up to date (by game pairs when the match plays
    /// each opening with both colours and a pair has completed); true once it has decided.
    /// The first decision sticks (games still running when it came are counted).
    fn update_sprt(&mut self, sp: &SprtConfig, pairs_mode: bool) -> bool {
        let llr = if pairs_mode && self.penta.iter().sum::<u32>() > 0 {
            sp.llr_pentanomial(&self.penta)
        } else {
            sp.llr_trinomial(&self.wld)
        };
        let dec = match self.sprt {
            Some((_, d)) if d != SprtDecision::Continue => d,
            // The normal approximation is meaningless on a handful of games.
            _ if self.wld.games() < SPRT_MIN_GAMES => SprtDecision::Continue,
            _ => sp.decide(llr),
        };
        self.sprt = Some((llr, dec));
        dec != SprtDecision::Continue
    }

    /// The progress bar's message: the pair and its score so far.
    fn progress_line(&self) -> String {
        format!(
            "{} vs {}: {}-{}-{} [{:.3}]",
            self.first,
            self.second,
            self.wld.wins,
            self.wld.losses,
            self.wld.draws,
            self.wld.score()
        )
    }
}

impl MatchSummary {
    /// An empty summary of a match between `names` played in `pairs` (indices into `names`).
    fn new(names: &[String], pairs: &[(usize, usize)]) -> MatchSummary {
        MatchSummary {
            names: names.to_vec(),
            pairs: pairs
                .iter()
                .map(|&(a, b)| PairSummary {
                    first: names[a].clone(),
                    second: names[b].clone(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }
}

/// The SPRT decides nothing before this many games of the pair.
pub const SPRT_MIN_GAMES: u32 = 10;

/// Engine display names: `name=` if given, else ABOUT's `name="..."`, else the file name.
/// Duplicates get `-2`, `-3`, ... appended so every engine is distinguishable.
pub fn resolve_names(specs: &[EngineSpec], debug: bool) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let name = match &spec.name {
            Some(n) => n.clone(),
            None => {
                let mut eng = Engine::spawn(spec, &format!("engine{}", i + 1), debug)
                    .map_err(|e| anyhow::anyhow!("engine {}: {e}", i + 1))?;
                let n = eng.about_name(Duration::from_secs(5));
                eng.quit(Duration::from_millis(500));
                n.unwrap_or_else(|| spec.file_name())
            }
        };
        names.push(name);
    }
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let mut cand = n.clone();
        let mut k = 2;
        while out.contains(&cand) {
            cand = format!("{n}-{k}");
            k += 1;
        }
        out.push(cand);
    }
    Ok(out)
}

fn two_slots(slots: &mut [EngineSlot], a: usize, b: usize) -> [&mut EngineSlot; 2] {
    assert_ne!(a, b);
    if a < b {
        let (lo, hi) = slots.split_at_mut(b);
        [&mut lo[a], &mut hi[0]]
    } else {
        let (lo, hi) = slots.split_at_mut(a);
        [&mut hi[0], &mut lo[b]]
    }
}

fn fmt_elo(v: f64) -> String {
    if v.is_finite() {
        // Never print "-0.0".
        let v = if v.abs() < 0.05 { 0.0 } else { v };
        format!("{v:.1}")
    } else if v > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// The first engine's score by colour: `NAME as Black: W - L - D [score]; as White: …`. In
/// gomoku the colour often decides more than the engines do.
fn colour_line(p: &PairSummary) -> String {
    let b = &p.as_black;
    let w = Wld {
        wins: p.wld.wins - b.wins,
        losses: p.wld.losses - b.losses,
        draws: p.wld.draws - b.draws,
    };
    let part = |x: &Wld| format!("{} - {} - {} [{:.3}]", x.wins, x.losses, x.draws, x.score());
    format!(
        "{} as Black: {}; as White: {}\n",
        p.first,
        part(b),
        part(&w)
    )
}

/// The summary lines of one pair, as printed at the end.
pub fn pair_report(p: &PairSummary, sprt: Option<&SprtConfig>, pairs_mode: bool) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}\n",
        p.first,
        p.second,
        p.wld.wins,
        p.wld.losses,
        p.wld.draws,
        p.wld.score(),
        p.wld.games()
    ));
    s.push_str(&elo_line(p, pairs_mode).unwrap_or_default());
    s.push_str(&colour_line(p));
    s.push_str(&format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}] ({} game pairs)\n",
        p.penta[0],
        p.penta[1],
        p.penta[2],
        p.penta[3],
        p.penta[4],
        p.penta.iter().sum::<u32>()
    ));
    s.push_str(&endings_line(p));
    if let (Some(cfg), Some((llr, dec))) = (sprt, p.sprt) {
        s.push_str(&sprt_line(cfg, llr, dec));
    }
    s
}

/// The Elo estimate with its interval, the likelihood of superiority and the draw ratio; the
/// pentanomial model over game pairs in pairs mode, else the trinomial one over games. `None`
/// when there is no estimate.
fn elo_line(p: &PairSummary, pairs_mode: bool) -> Option<String> {
    let pentanomial = pairs_mode && p.penta.iter().sum::<u32>() > 0;
    let e = if pentanomial {
        elo_pentanomial(&p.penta, &p.wld)
    } else {
        elo_trinomial(&p.wld)
    }?;
    let margin = e.margin();
    let model = if pentanomial {
        "pentanomial"
    } else {
        "trinomial"
    };
    let elo = if !e.elo.is_finite() {
        format!("{} (no finite estimate at this score)", fmt_elo(e.elo))
    } else if margin.is_finite() {
        format!(
            "{} +/- {margin:.1} [{}, {}] (95%, {model})",
            fmt_elo(e.elo),
            fmt_elo(e.lo),
            fmt_elo(e.hi)
        )
    } else {
        format!(
            "{} [{}, {}] (95%, {model})",
            fmt_elo(e.elo),
            fmt_elo(e.lo),
            fmt_elo(e.hi)
        )
    };
    let n = p.wld.games();
    let draw_ratio = if n > 0 {
        100.0 * p.wld.draws as f64 / n as f64
    } else {
        0.0
    };
    Some(format!(
        "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %\n",
        e.los * 100.0
    ))
}

/// How the games ended, by reason, and the abnormal losses of each engine.
fn endings_line(p: &PairSummary) -> String {
    let endings: Vec<String> = Reason::ALL
        .iter()
        .map(|r| format!("{} {}", r.name(), p.reasons.get(r).copied().unwrap_or(0)))
        .collect();
    format!(
        "Endings: {}; abnormal losses: {} {}, {} {}\n",
        endings.join(", "),
        p.first,
        p.abnormal[0],
        p.second,
        p.abnormal[1]
    )
}

/// The SPRT's settings, its log-likelihood ratio and bounds, and its decision.
fn sprt_line(cfg: &SprtConfig, llr: f64, dec: SprtDecision) -> String {
    let (lo, hi) = cfg.bounds();
    let state = match dec {
        SprtDecision::AcceptH1 => "H1 was accepted",
        SprtDecision::AcceptH0 => "H0 was accepted",
        SprtDecision::Continue => "no decision yet",
    };
    let model = match cfg.model {
        super::stats::EloModel::Logistic => "logistic",
        super::stats::EloModel::Normalized => "normalized",
    };
    format!(
        "SPRT ({model}, elo0 {}, elo1 {}, alpha {}, beta {}): llr {llr:.3} ({:.1}%), lbound {lo:.3}, ubound {hi:.3} - {state}\n",
        cfg.elo0,
        cfg.elo1,
        cfg.alpha,
        cfg.beta,
        100.0 * llr / hi,
    )
}

/// A standings table over all pairs (for three or more engines): points, games, score.
pub fn standings(summary: &MatchSummary) -> String {
    let mut rows: Vec<(String, f64, u32)> =
        summary.names.iter().map(|n| (n.clone(), 0.0, 0)).collect();
    for p in &summary.pairs {
        let pts = p.wld.wins as f64 + 0.5 * p.wld.draws as f64;
        let n = p.wld.games();
        for (name, got) in [(&p.first, pts), (&p.second, n as f64 - pts)] {
            if let Some(r) = rows.iter_mut().find(|r| &r.0 == name) {
                r.1 += got;
                r.2 += n;
            }
        }
    }
    rows.sort_by(|a, b| {
        let sa = a.1 / a.2.max(1) as f64;
        let sb = b.1 / b.2.max(1) as f64;
        sb.partial_cmp(&sa).unwrap_or(std::cmp::Ordering::Equal)
    });
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let mut s = format!(
        "{:>4} {:<width$} {:>7} {:>6} {:>6}\n",
        "Rank", "Name", "Points", "Games", "Score"
    );
    for (i, (name, pts, n)) in rows.iter().enumerate() {
        s.push_str(&format!(
            "{:>4} {:<width$} {:>7.1} {:>6} {:>5.1}%\n",
            i + 1,
            name,
            pts,
            n,
            100.0 * pts / (*n).max(1) as f64
        ));
    }
    s
}

fn open_out(path: &Option<PathBuf>) -> Result<Option<BufWriter<File>>> {
    match path {
        None => Ok(None),
        Some(p) => Ok(Some(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        ))),
    }
}

/// Runs the match, writing per-game lines and the final summary to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary> {
    check_match(cfg)?;
    let g = &cfg.game;
    let names = resolve_names(&cfg.engines, g.debug)?;
    let games: Arc<Vec<GameSpec>> = Arc::new(schedule(
        cfg.engines.len(),
        cfg.gauntlet,
        cfg.games,
        cfg.openings.len(),
        cfg.repeat,
        cfg.seed,
        cfg.transform,
    ));
    let mut summary = MatchSummary::new(&names, &pairings(cfg.engines.len(), cfg.gauntlet));
    let mut sgf = open_out(&cfg.sgf)?;
    let mut results = open_out(&cfg.results)?;
    let bar = progress_bar(cfg.progress, games.len());
    let queue = Queue::default();
    let (tx, rx) = channel::<(usize, GameResult)>();
    let handles = spawn_workers(cfg, &names, &games, &queue, tx)?;
    let mut pending: HashMap<(usize, usize), f64> = HashMap::new();
    for (i, res) in rx {
        let spec = &games[i];
        let (bname, wname) = (&names[spec.black], &names[spec.white]);
        let rec = GameRecord::new(spec.id, bname, wname, g.rule, g.width, g.height, &res);
        if cfg.report_games {
            let line = format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                spec.id, bname, wname, rec.result, rec.detail
            );
            bar.suspend(|| writeln!(out, "{line}"))?;
        }
        write_record(&rec, &mut sgf, &mut results)?;
        let ps = &mut summary.pairs[spec.pair];
        ps.add_game(spec, &res, &mut pending);
        if let Some(sp) = &cfg.sprt {
            let decided = ps.update_sprt(sp, cfg.repeat);
            if decided && !queue.stop.swap(true, Ordering::SeqCst) {
                summary.stopped_early = queue.next.load(Ordering::SeqCst) < games.len();
            }
        }
        bar.set_message(ps.progress_line());
        bar.inc(1);
        summary.records.push(rec);
    }
    for h in handles {
        let _ = h.join();
    }
    bar.finish_and_clear();
    write_summary(&summary, cfg, out)?;
    Ok(summary)
}

/// Refuses a match that cannot be played: too few engines for it, a board the rule does not
/// allow, or an opening that does not fit the board.
fn check_match(cfg: &MatchConfig) -> Result<()> {
    if cfg.engines.len() < 2 {
        bail!("need at least two engines (--engine CMD, twice or more)");
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    let g = &cfg.game;
    pentad::board::Board::new(g.width, g.height, g.rule).map_err(|e| anyhow::anyhow!("{e}"))?;
    // Validate every opening up front so a bad one is a clear error.
    for o in &cfg.openings {
        o.board(g.width, g.height, g.rule)
            .map_err(|e| anyhow::anyhow!("opening {:?}: {e}", o.text))?;
    }
    Ok(())
}

/// The progress bar on stderr (hidden unless `shown`) over `games` games.
fn progress_bar(shown: bool, games: usize) -> ProgressBar {
    let target = if shown {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(games as u64), target);
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:20.cyan/blue} {pos}/{len} ETA {eta} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The schedule's shared position: the next game a worker takes, and whether to stop taking.
#[derive(Default)]
struct Queue {
    next: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

/// Starts `cfg.concurrency` worker threads (at most one per game), each with its own engine
/// processes, taking games from `queue` in schedule order and sending each result to `tx`
/// with its index in `games`.
fn spawn_workers(
    cfg: &MatchConfig,
    names: &[String],
    games: &Arc<Vec<GameSpec>>,
    queue: &Queue,
    tx: Sender<(usize, GameResult)>,
) -> Result<Vec<JoinHandle<()>>> {
    let workers = cfg.concurrency.max(1).min(games.len().max(1));
    let mut handles = Vec::new();
    for w in 0..workers {
        let tx = tx.clone();
        let next = Arc::clone(&queue.next);
        let stop = Arc::clone(&queue.stop);
        let games = Arc::clone(games);
        let mut slots: Vec<EngineSlot> = cfg
            .engines
            .iter()
            .zip(names)
            .map(|(s, n)| EngineSlot::new(s.clone(), &format!("{n}@{w}")))
            .collect();
        let gcfg = cfg.game.clone();
        let openings = cfg.openings.clone();
        let fresh = cfg.fresh;
        let h = thread::Builder::new()
            .name(format!("worker{w}"))
            .spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(spec) = games.get(i) else { break };
                    let opening: Vec<Pos> = spec
                        .opening
                        .and_then(|o| {
                            openings[o]
                                .points_transformed(gcfg.width, gcfg.height, spec.transform)
                                .ok()
                        })
                        .unwrap_or_default();
                    let pair = two_slots(&mut slots, spec.black, spec.white);
                    let res = play_game(pair, &opening, &gcfg);
                    if fresh {
                        slots[spec.black].close();
                        slots[spec.white].close();
                    }
                    if tx.send((i, res)).is_err() {
                        break;
                    }
                }
                for s in &mut slots {
                    s.close();
                }
            })
            .context("cannot start a worker thread")?;
        handles.push(h);
    }
    Ok(handles)
}

/// Appends a finished game to the SGF and JSON-lines files that are open.
fn write_record(
    rec: &GameRecord,
    sgf: &mut Option<BufWriter<File>>,
    results: &mut Option<BufWriter<File>>,
) -> Result<()> {
    if let Some(f) = sgf.as_mut() {
        f.write_all(rec.to_sgf().as_bytes())?;
        f.flush()?;
    }
    if let Some(f) = results.as_mut() {
        writeln!(f, "{}", rec.to_json_line())?;
        f.flush()?;
    }
    Ok(())
}

/// The final report: the SPRT's early stop, each pair's figures, and the standings of a
/// tournament of more than two engines.
fn write_summary(summary: &MatchSummary, cfg: &MatchConfig, out: &mut dyn Write) -> Result<()> {
    if summary.stopped_early {
        writeln!(out, "SPRT decided: stopping early")?;
    }
    for p in &summary.pairs {
        write!(out, "{}", pair_report(p, cfg.sprt.as_ref(), cfg.repeat))?;
    }
    if summary.names.len() > 2 {
        write!(out, "{}", standings(summary))?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_format() {
        let mut p = PairSummary {
            first: "A".into(),
            second: "B".into(),
            wld: Wld {
                wins: 5,
                losses: 3,
                draws: 0,
            },
            as_black: Wld {
                wins: 4,
                losses: 0,
                draws: 0,
            },
            penta: [0, 1, 0, 3, 0],
            ..Default::default()
        };
        p.reasons.insert(Reason::Five, 8);
        let cfg = SprtConfig::parse("0,10", super::super::stats::EloModel::Logistic).unwrap();
        p.sprt = Some((1.0, SprtDecision::Continue));
        let r = pair_report(&p, Some(&cfg), true);
        assert!(
            r.starts_with("Score of A vs B: 5 - 3 - 0 [0.625] 8\n"),
            "{r}"
        );
        assert!(r.contains("Elo difference: 88.7 +/- "), "{r}");
        assert!(
            r.contains("Ptnml(0-2): [0, 1, 0, 3, 0] (4 game pairs)"),
            "{r}"
        );
        assert!(r.contains("Endings: five 8, foul 0"), "{r}");
        assert!(
            r.contains("A as Black: 4 - 0 - 0 [1.000]; as White: 1 - 3 - 0 [0.250]\n"),
            "{r}"
        );
        assert!(
            r.contains("llr 1.000 (34.0%), lbound -2.944, ubound 2.944 - no decision yet"),
            "{r}"
        );
    }

    #[test]
    fn duplicate_names_are_numbered() {
        let spec = |n: &str| EngineSpec {
            name: Some(n.into()),
            threads: None,
            program: "x".into(),
            args: vec![],
            ..Default::default()
        };
        let names = resolve_names(&[spec("P"), spec("P"), spec("Q"), spec("P")], false).unwrap();
        assert_eq!(names, vec!["P", "P-2", "Q", "P-3"]);
    }
}
