//! `pentad-tools prove`: runs the threat solvers on a file of positions known to be won by
//! threats and reports, per position and in total, what each proves, in how many nodes and
//! how long it takes.
//!
//! Position file: one position a line, `<rule> <label> <mate> <moves...>`: the rule name
//! (`freestyle`, `standard`, `renju`, `caro`), a free label, the length of the known win in
//! plies (`?` when unknown), and the moves from the empty 15x15 board in human coordinates
//! (`h8`). The side to move after the moves is the one that wins. `#` starts a comment.

use std::time::Instant;

use anyhow::{Context, Result};
use pentad::core::Rule;
use pentad::search::bench::board_from_moves;
use pentad::search::budget::Budget;
use pentad::search::pns;

use crate::vct;

/// Options of `pentad-tools prove`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position file (format in the module documentation).
    pub positions: String,
    /// Node budget per position and solver.
    #[arg(long, default_value_t = 200_000)]
    pub nodes: u64,
    /// Solvers to run: `pns` (proof-number threat search), `vct` (depth-first VCT).
    #[arg(long, value_delimiter = ',', default_value = "pns,vct")]
    pub solvers: Vec<String>,
    /// Longest line the depth-first VCT solver looks for (plies).
    #[arg(long, default_value_t = 41)]
    pub vct_plies: u32,
}

/// One line of the position file.
struct Position {
    rule: Rule,
    label: String,
    mate: String,
    moves: String,
}

fn read_positions(path: &str) -> Result<Vec<Position>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut f = line.splitn(4, ' ');
        let (Some(rule), Some(label), Some(mate)) = (f.next(), f.next(), f.next()) else {
            anyhow::bail!("{path}:{}: expected `<rule> <label> <mate> <moves>`", n + 1);
        };
        let rule = Rule::from_name(rule)
            .with_context(|| format!("{path}:{}: unknown rule {rule}", n + 1))?;
        out.push(Position {
            rule,
            label: label.to_string(),
            mate: mate.to_string(),
            moves: f.next().unwrap_or("").to_string(),
        });
    }
    Ok(out)
}

/// Runs `pentad-tools prove`.
pub fn run(args: &Args) -> Result<()> {
    let positions = read_positions(&args.positions)?;
    let mut totals = vec![(0usize, 0u64, 0f64); args.solvers.len()];
    for (i, p) in positions.iter().enumerate() {
        let mut cols = Vec::new();
        for (s, solver) in args.solvers.iter().enumerate() {
            let mut b = board_from_moves(p.rule, 15, &p.moves)?;
            let mut budget = Budget::nodes(args.nodes);
            let t = Instant::now();
            let found = match solver.as_str() {
                "pns" => {
                    let mut table = pns::ProofTable::for_budget(args.nodes);
                    pns::prove(&mut b, &mut table, &mut budget)
                }
                "vct" => vct::vct_root_limited(&mut b, args.vct_plies, &mut budget),
                other => anyhow::bail!("unknown solver {other} (pns, vct)"),
            };
            let secs = t.elapsed().as_secs_f64();
            let used = budget.used;
            totals[s].1 += used;
            totals[s].2 += secs;
            let what = match &found {
                Some((mv, plies, _)) => {
                    totals[s].0 += 1;
                    format!("{} in {plies}", mv.to_human())
                }
                None => "-".to_string(),
            };
            cols.push(format!("{solver} {what:>9} {used:>8} nodes {secs:>6.3} s"));
        }
        println!(
            "{:>3} {:>7} {:>3} | {}",
            i + 1,
            p.label,
            p.mate,
            cols.join(" | ")
        );
    }
    for (s, solver) in args.solvers.iter().enumerate() {
        let (n, nodes, secs) = totals[s];
        println!(
            "{solver}: proved {n} of {}, {nodes} nodes, {secs:.2} s",
            positions.len()
        );
    }
    Ok(())
}
