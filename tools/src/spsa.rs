//! `pentad-tools spsa`: tunes the search's run-time tunables (`pbrain-pentad tunables`) by
//! simultaneous perturbation stochastic approximation, playing pentad-arena games between
//! two copies of a `--features tune` build: each iteration perturbs every chosen parameter by
//! ±c_k at random, plays game pairs between θ+cΔ and θ−cΔ (`INFO tune_<name>` through the
//! arena's `option.` settings), and moves θ along Δ by the score difference. The gains follow
//! the usual schedule (a_k = a / (A + k + 1)^0.602, c_k = c / (k + 1)^0.101) with c chosen so
//! the last perturbation is each parameter's step, and a so that its last move is `r_end`
//! steps² per unit of game result (OpenBench's convention). One JSON line per iteration goes
//! to the state file, which a rerun resumes from.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use pentad::search::{tunables, TunableKind, TunableSpec};
use pentad_arena::engine::EngineSpec;
use pentad_arena::game::{GameConfig, TimeControl};
use pentad_arena::openings::load_openings;
use pentad_arena::tournament::{run_match, MatchConfig};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::games_file;

/// Options of `pentad-tools spsa`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A build of pbrain-pentad with `--features tune` (it must accept INFO tune_<name>).
    #[arg(long)]
    pub engine: String,
    /// Tunables to tune (names from `pbrain-pentad tunables`; default: all).
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Iterations of the whole run (those in the state file count).
    #[arg(long, default_value_t = 200)]
    pub iterations: usize,
    /// Game pairs (both colours of one opening) per iteration. The openings are taken in
    /// file order, wrapping round: iteration k starts at opening k × pairs.
    #[arg(long, default_value_t = 2)]
    pub pairs: usize,
    /// Rule (pentad-arena name).
    #[arg(long, default_value = "renju")]
    pub rule: String,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Nodes per move (`INFO max_node`); 0 plays on the clock of `--tc`.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Time control as pentad-arena's `--tc` (game/move seconds).
    #[arg(long, default_value = "0/5")]
    pub tc: String,
    /// Openings file (default: tests/data/openings/balanced-<rule>.txt).
    #[arg(long)]
    pub openings: Option<String>,
    /// Games at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// The state file: one JSON line per iteration; a rerun goes on from its last line.
    #[arg(long)]
    pub out: String,
    /// Seed of the perturbations (the opening order is the file's, see `--pairs`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The learning rate at the end of the run, as in the tunables listing.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Starting values other than the defaults, `name=value`, comma-separated or repeated
    /// (names among the tuned ones; a resumed run goes on from its state file instead).
    #[arg(long, value_delimiter = ',')]
    pub start: Vec<String>,
}

/// The schedule's exponents and the stability constant's share of the run.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
const STABILITY_SHARE: f64 = 0.1;
/// Transposition table of each engine, MiB (node-limited games need little).
const HASH_MIB: u64 = 64;

/// One line of the state file.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Iteration {
    /// 0-based.
    pub iter: usize,
    /// Wins, losses, draws of θ+cΔ against θ−cΔ.
    pub wld: [u32; 3],
    /// The parameters after this iteration's update.
    pub theta: BTreeMap<String, f64>,
}

/// The gains of iteration `k` of `n`, for a parameter with final step `step`.
fn gains(k: usize, n: usize, step: f64, r_end: f64) -> (f64, f64) {
    let big_a = STABILITY_SHARE * n as f64;
    let c = step * (n as f64).powf(GAMMA);
    let a_end = r_end * step * step;
    let a = a_end * (big_a + n as f64).powf(ALPHA);
    let ck = c / (k as f64 + 1.0).powf(GAMMA);
    let ak = a / (big_a + k as f64 + 1.0).powf(ALPHA);
    (ak, ck)
}

/// A value of `spec` sent to the engine: rounded for whole numbers, within range.
fn engine_value(spec: &TunableSpec, v: f64) -> String {
    let v = v.clamp(spec.min, spec.max);
    match spec.kind {
        TunableKind::Int => format!("{}", v.round() as i64),
        TunableKind::Float => format!("{v}"),
    }
}

pub fn run(args: &Args) -> Result<()> {
    let specs = chosen_specs(&args.params)?;
    check_tune_build(&args.engine, specs[0])?;
    let mut theta = start_point(&specs, &args.start)?;
    let done = read_state(&args.out)?;
    if let Some(last) = done.last() {
        theta.extend(last.theta.clone());
    }
    let cfg = base_config(args)?;
    let mut state = games_file::open_append(&args.out)?;
    for k in done.len()..args.iterations {
        let mut rng = StdRng::seed_from_u64(args.seed ^ (k as u64).wrapping_mul(0x9E37_79B9));
        let delta: Vec<f64> = specs
            .iter()
            .map(|_| if rng.gen() { 1.0 } else { -1.0 })
            .collect();
        let side = |sign: f64| -> Vec<(String, String)> {
            specs
                .iter()
                .zip(&delta)
                .map(|(s, d)| {
                    let (_, ck) = gains(k, args.iterations, s.step, args.r_end);
                    tune_option(s, theta[s.name] + sign * ck * d)
                })
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        let wld = play(&cfg, args, k, plus, minus)?;
        let result = f64::from(wld[0]) - f64::from(wld[1]);
        for (s, d) in specs.iter().zip(&delta) {
            let (ak, ck) = gains(k, args.iterations, s.step, args.r_end);
            let t = theta.get_mut(s.name).expect("every chosen name");
            *t = (*t + ak * result / (ck * d)).clamp(s.min, s.max);
        }
        let line = Iteration {
            iter: k,
            wld,
            theta: theta.clone(),
        };
        writeln!(state, "{}", serde_json::to_string(&line)?)?;
        state.flush()?;
        println!("{}", report_line(&line, &specs));
    }
    Ok(())
}

/// The tuned parameters' starting values: their defaults, but for the `name=value` items of
/// `start`, each checked against its tunable's range.
fn start_point(specs: &[&TunableSpec], start: &[String]) -> Result<BTreeMap<String, f64>> {
    let mut theta: BTreeMap<String, f64> = specs
        .iter()
        .map(|s| (s.name.to_string(), s.default))
        .collect();
    for item in start {
        let (name, value) = item
            .split_once('=')
            .with_context(|| format!("--start `{item}`: expected name=value"))?;
        let name = name.trim().to_ascii_lowercase();
        let spec = specs
            .iter()
            .find(|s| s.name == name)
            .with_context(|| format!("--start `{item}`: `{name}` is not among --params"))?;
        let v = spec
            .parse(value.trim())
            .map_err(|e| anyhow::anyhow!("--start `{item}`: {e}"))?;
        theta.insert(name, v);
    }
    Ok(theta)
}

fn tune_option(spec: &TunableSpec, v: f64) -> (String, String) {
    (format!("tune_{}", spec.name), engine_value(spec, v))
}

/// One line per iteration on stdout: its result and the parameters, rounded as sent.
fn report_line(it: &Iteration, specs: &[&TunableSpec]) -> String {
    let params: Vec<String> = specs
        .iter()
        .map(|s| format!("{}={}", s.name, engine_value(s, it.theta[s.name])))
        .collect();
    let [w, l, d] = it.wld;
    format!("iter {} +{w}-{l}={d} {}", it.iter + 1, params.join(" "))
}

/// The specs named by `--params`, or all of them.
fn chosen_specs(names: &[String]) -> Result<Vec<&'static TunableSpec>> {
    let all = tunables();
    if names.is_empty() {
        return Ok(all.iter().collect());
    }
    names
        .iter()
        .map(|n| {
            all.iter()
                .find(|s| s.name == n.to_ascii_lowercase())
                .with_context(|| format!("no tunable named `{n}` (see pbrain-pentad tunables)"))
        })
        .collect()
}

/// Fails unless `engine` sets tunables from `INFO tune_<name>`: a `tune` build refuses a
/// value past the range with ERROR, any other build ignores the key silently.
fn check_tune_build(engine: &str, spec: &TunableSpec) -> Result<()> {
    let mut child = std::process::Command::new(engine)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {engine}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let past_range = spec.max + 1.0;
    writeln!(stdin, "START 15\nINFO tune_{} {past_range}\nEND", spec.name)?;
    drop(stdin);
    let out = child.wait_with_output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.lines().any(|l| l.starts_with("ERROR INFO tune_")) {
        bail!("{engine} does not set tunables: build it with `--features tune`");
    }
    Ok(())
}

/// The match settings every iteration shares.
fn base_config(args: &Args) -> Result<MatchConfig> {
    let rule = pentad::core::Rule::from_name(&args.rule)
        .with_context(|| format!("unknown rule `{}`", args.rule))?;
    let path = args
        .openings
        .clone()
        .unwrap_or_else(|| format!("tests/data/openings/balanced-{}.txt", args.rule));
    let openings = load_openings(&PathBuf::from(&path), args.size, args.size, rule)
        .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    if openings.is_empty() {
        bail!("{path} holds no opening");
    }
    let tc = TimeControl::parse(&args.tc).map_err(|e| anyhow::anyhow!(e))?;
    Ok(MatchConfig {
        game: GameConfig {
            width: args.size,
            height: args.size,
            rule,
            tc,
            max_memory: HASH_MIB << 20,
            ..GameConfig::default()
        },
        openings,
        repeat: true,
        concurrency: args.concurrency.max(1),
        fresh: true,
        report_games: false,
        ..MatchConfig::default()
    })
}

/// Plays iteration `k`'s game pairs between the two parameter sets; W/L/D of `plus`.
fn play(
    base: &MatchConfig,
    args: &Args,
    k: usize,
    plus: Vec<(String, String)>,
    minus: Vec<(String, String)>,
) -> Result<[u32; 3]> {
    let engine = |name: &str, mut options: Vec<(String, String)>| {
        if args.nodes > 0 {
            options.insert(0, ("max_node".into(), args.nodes.to_string()));
        }
        EngineSpec {
            name: Some(name.into()),
            program: args.engine.clone(),
            options,
            ..Default::default()
        }
    };
    let n = base.openings.len();
    let first = (k * args.pairs) % n;
    let mut cfg = base.clone();
    cfg.engines = vec![engine("plus", plus), engine("minus", minus)];
    cfg.openings = (0..args.pairs)
        .map(|j| base.openings[(first + j) % n].clone())
        .collect();
    cfg.games = 2 * args.pairs;
    let summary = run_match(&cfg, &mut std::io::sink())?;
    let w = &summary.pairs[0].wld;
    Ok([w.wins, w.losses, w.draws])
}

/// The iterations a state file holds (none when it does not exist).
fn read_state(path: &str) -> Result<Vec<Iteration>> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
    };
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let it: Iteration =
            serde_json::from_str(&line).with_context(|| format!("{path}:{}", i + 1))?;
        if it.iter != out.len() {
            bail!("{path}:{}: iteration {} out of order", i + 1, it.iter);
        }
        out.push(it);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_perturbation_is_the_step_and_gains_shrink() {
        let n = 100;
        let (a0, c0) = gains(0, n, 10.0, 0.002);
        let (a_last, c_last) = gains(n - 1, n, 10.0, 0.002);
        assert!((c_last - 10.0).abs() < 1e-9, "{c_last}");
        assert!(c0 > c_last && a0 > a_last);
        // the last step moves r_end * step^2 / step = r_end * step per unit of result
        assert!((a_last / c_last - 0.002 * 10.0).abs() < 1e-3);
    }

    #[test]
    fn values_sent_are_rounded_and_in_range() {
        let s = tunables()
            .iter()
            .find(|s| s.kind == TunableKind::Int)
            .unwrap();
        assert_eq!(engine_value(s, s.max + 100.0), format!("{}", s.max as i64));
        assert_eq!(
            engine_value(s, s.min + 0.6),
            format!("{}", (s.min + 0.6).round() as i64)
        );
    }

    #[test]
    fn a_start_point_replaces_defaults_within_range() {
        let specs = chosen_specs(&["futility_margin".into(), "lmr_min_moves".into()]).unwrap();
        let fm = specs[0];
        let theta = start_point(&specs, &[format!("FUTILITY_MARGIN={}", fm.min)]).unwrap();
        assert_eq!(theta["futility_margin"], fm.min);
        assert_eq!(theta["lmr_min_moves"], specs[1].default);
        for bad in [
            format!("futility_margin={}", fm.max + 1.0),
            "futility_margin".to_string(),
            "futility_margin=abc".to_string(),
            "razor_margin=100".to_string(),
        ] {
            assert!(
                start_point(&specs, std::slice::from_ref(&bad)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn unknown_params_are_refused() {
        assert!(chosen_specs(&["no_such_thing".into()]).is_err());
        assert_eq!(chosen_specs(&[]).unwrap().len(), tunables().len());
    }
}
