//! `pentad-tools vct-check`: soundness check of the engine's VCT solver. Every win it claims
//! on the positions of recorded games is re-proved by a brute-force verifier in which the
//! defender tries every legal point; `--cost-budget` instead measures what one root VCT call
//! costs. A unit test runs the soundness check on a few built-in positions.

use anyhow::{bail, Context, Result};
use pentad::board::{Board, Pattern4};
use pentad::core::{Color, Pos, Rule, RuleKind};
use pentad::search::budget::Budget;
use pentad::search::vcf;
use pentad::search::{pns, vct};

use crate::progress::Progress;

/// Options of `pentad-tools vct-check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A pentad-arena JSON-lines record (`--results` file).
    #[arg(long)]
    pub games: String,
    /// Longest VCT (in plies) the solver is asked for.
    #[arg(long, default_value_t = 9)]
    pub plies: u32,
    /// Measure time and nodes per root VCT call with this node budget instead.
    #[arg(long)]
    pub cost_budget: Option<u64>,
    /// The solver whose claims are checked: `vct` (depth-first, `--plies` long) or `pns`
    /// (proof-number threat search, no length bound).
    #[arg(long, default_value = "vct")]
    pub solver: String,
}

/// Runs `pentad-tools vct-check`.
pub fn run(args: &Args) -> Result<()> {
    let games = recorded_games(&args.games)?;
    match args.cost_budget {
        Some(budget) => cost_per_call(&games, budget),
        None => check_recorded_games(&games, &args.solver, args.plies),
    }
}

fn legal_for(b: &Board, p: Pos, c: Color) -> bool {
    b.is_empty(p) && !(c == Color::Black && b.rule().kind == RuleKind::Renju && b.is_forbidden(p))
}

fn has_cell(b: &Board, c: Color, p4: Pattern4) -> bool {
    b.pattern4_count(c, p4) > 0
}

/// Attacker `att` to move: is there a win within `plies` plies against every defence?
/// Uses fives, open fours and the (separately tested) VCF solver as the leaves, and threes
/// and fours as the attacking moves.
fn attacker_wins(b: &mut Board, att: Color, plies: i32, work: &mut u64) -> Option<bool> {
    *work = work.checked_sub(1)?;
    let def = att.opp();
    if has_cell(b, att, Pattern4::Five) {
        return Some(true);
    }
    if plies < 3 {
        return Some(false);
    }
    if has_cell(b, def, Pattern4::Five) {
        // The defender's four: the only move is its block, if there is one.
        if b.pattern4_count(def, Pattern4::Five) > 1 {
            return Some(false);
        }
        let q = b
            .empty_points()
            .find(|&p| b.pattern4(p, def) == Pattern4::Five)?;
        if !legal_for(b, q, att) {
            return Some(false);
        }
        b.make_move(q);
        let r = defender_loses(b, att, plies - 1, work);
        b.undo();
        return r;
    }
    if has_cell(b, att, Pattern4::Flex4) {
        return Some(true);
    }
    let mut budget = 20_000;
    if vcf::vcf(b, att, (plies + 1) / 2, &mut budget).is_some() {
        return Some(true);
    }
    if plies < 5 {
        return Some(false);
    }
    let moves: Vec<Pos> = b
        .candidates()
        .filter(|&p| {
            let a = b.pattern4(p, att);
            a >= Pattern4::Flex3 && a != Pattern4::Forbid
        })
        .collect();
    for m in moves {
        b.make_move(m);
        let r = defender_loses(b, att, plies - 1, work);
        b.undo();
        if r? {
            return Some(true);
        }
    }
    Some(false)
}

/// Defender to move: does every legal reply lose within `plies` plies?
fn defender_loses(b: &mut Board, att: Color, plies: i32, work: &mut u64) -> Option<bool> {
    let def = att.opp();
    if has_cell(b, def, Pattern4::Five) {
        return Some(false);
    }
    let replies: Vec<Pos> = b.empty_points().filter(|&p| legal_for(b, p, def)).collect();
    if replies.is_empty() {
        return Some(false);
    }
    for r in replies {
        b.make_move(r);
        let w = attacker_wins(b, att, plies - 1, work);
        b.undo();
        if !w? {
            return Some(false);
        }
    }
    Some(true)
}

/// Verdict on a claimed VCT win `mv` in `plies` plies: Some(true) proved, Some(false)
/// refuted (a defence survives), None: too much work to decide.
fn verify_claim(b: &mut Board, mv: Pos, plies: u32) -> Option<bool> {
    let att = b.side_to_move();
    let mut work = 400_000u64;
    b.make_move(mv);
    let r = defender_loses(b, att, plies as i32 - 1, &mut work);
    b.undo();
    r
}

/// One recorded game of a pentad-arena JSON-lines file: an empty board of its rule and
/// size, and its moves.
struct Recorded {
    board: Board,
    moves: Vec<Pos>,
}

/// The games of the JSON-lines file `path`.
fn recorded_games(path: &str) -> Result<Vec<Recorded>> {
    let text = std::fs::read_to_string(path).with_context(|| path.to_string())?;
    let mut games = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let game = recorded_game(line).with_context(|| format!("{path}:{}", i + 1))?;
        games.push(game);
    }
    Ok(games)
}

/// One JSON record: its rule, width and moves.
fn recorded_game(line: &str) -> Result<Recorded> {
    let v: serde_json::Value = serde_json::from_str(line)?;
    let Some(rule) = v["rule"].as_str().and_then(Rule::from_name) else {
        bail!("no known rule");
    };
    let size = v["width"].as_u64().context("no width")? as usize;
    let mut moves = Vec::new();
    for m in v["moves"].as_array().context("no moves")? {
        let p = m.as_str().and_then(Pos::from_human);
        moves.push(p.with_context(|| format!("bad move {m}"))?);
    }
    let board = Board::new(size, size, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Recorded { board, moves })
}

/// Checks every claim of the root VCT solver on the positions of `games` (where neither side
/// has a five to play and the side to move has no VCF); fails if one is refuted.
fn check_recorded_games(games: &[Recorded], solver: &str, max_plies: u32) -> Result<()> {
    if solver != "vct" && solver != "pns" {
        bail!("unknown solver {solver} (vct, pns)");
    }
    let progress = Progress::new(games.len() as u64, "games");
    let (mut positions, mut claims, mut proved, mut refuted, mut unknown) = (0, 0, 0, 0, 0);
    for game in games {
        progress.inc(1);
        let mut b = game.board.clone();
        let rule = b.rule();
        for &p in &game.moves {
            if !b.is_empty(p) {
                break;
            }
            positions += 1;
            let me = b.side_to_move();
            if !has_cell(&b, me, Pattern4::Five) && !has_cell(&b, me.opp(), Pattern4::Five) {
                let mut budget = 1_000_000;
                let no_vcf = vcf::vcf(&mut b, me, 30, &mut budget).is_none();
                let mut budget = 150_000;
                if let Some((mv, plies, line)) = no_vcf
                    .then(|| claim(&mut b, solver, max_plies, &mut budget))
                    .flatten()
                {
                    claims += 1;
                    match verify_claim(&mut b, mv, plies) {
                        Some(true) => proved += 1,
                        Some(false) => {
                            refuted += 1;
                            let hist: Vec<String> =
                                b.history().map(|(p, _)| p.to_human()).collect();
                            progress.line(&format!(
                                "REFUTED {} moves={} claim={} plies={} line={:?}",
                                rule.name(),
                                hist.join(" "),
                                mv.to_human(),
                                plies,
                                line.iter().map(|p| p.to_human()).collect::<Vec<_>>()
                            ));
                        }
                        None => unknown += 1,
                    }
                }
            }
            b.make_move(p);
        }
    }
    progress.finish();
    println!(
        "positions {positions} claims {claims} proved {proved} refuted {refuted} undecided {unknown}"
    );
    if refuted > 0 {
        bail!("{refuted} claimed VCT wins refuted");
    }
    Ok(())
}

/// The win `solver` claims for the side to move on `b` within `budget` nodes.
fn claim(b: &mut Board, solver: &str, max_plies: u32, budget: &mut u64) -> Option<vct::VctWin> {
    if solver == "pns" {
        let mut table = pns::ProofTable::for_budget(*budget);
        let mut limit = Budget::nodes(*budget);
        let found = pns::prove(b, &mut table, &mut limit);
        *budget = limit.nodes;
        found
    } else {
        vct::vct_root(b, max_plies, budget)
    }
}

/// What the root VCT costs per call (time and nodes) with the node budget `budget0` on the
/// positions of `games`.
fn cost_per_call(games: &[Recorded], budget0: u64) -> Result<()> {
    let progress = Progress::new(games.len() as u64, "games");
    let (mut calls, mut nodes, mut found) = (0u64, 0u64, 0u64);
    let t = std::time::Instant::now();
    for game in games {
        progress.inc(1);
        let mut b = game.board.clone();
        for &p in &game.moves {
            let mut budget = budget0;
            calls += 1;
            if vct::vct_root(&mut b, 15, &mut budget).is_some() {
                found += 1;
            }
            nodes += budget0 - budget;
            b.make_move(p);
        }
    }
    progress.finish();
    let us = t.elapsed().as_micros() as u64;
    let calls_or_1 = calls.max(1);
    println!(
        "calls {calls} found {found} avg nodes {} avg us {} ns/node {}",
        nodes / calls_or_1,
        us / calls_or_1,
        us * 1000 / nodes.max(1)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_of(rule: Rule, size: usize, moves: &[&str]) -> Board {
        let mut b = Board::new(size, size, rule).unwrap();
        for m in moves {
            b.make_move(Pos::from_human(m).unwrap());
        }
        b
    }

    #[test]
    fn claimed_wins_on_built_in_positions_are_sound() {
        let cases: &[(Rule, &str)] = &[
            (Rule::FREESTYLE, "h8 a1 i8 a15 j10 o1 j11 o15"),
            (Rule::STANDARD, "h8 a1 i8 a15 j10 o1 j11 o15"),
            (Rule::RENJU, "h8 i9 h9 h10 i8 g8 j7 j8 g9 f10"),
        ];
        let mut claims = 0;
        for &(rule, moves) in cases {
            let ms: Vec<&str> = moves.split_whitespace().collect();
            let mut b = board_of(rule, 15, &ms);
            for solver in ["vct", "pns"] {
                let mut budget = 100_000;
                if let Some((mv, plies, _)) = claim(&mut b, solver, 9, &mut budget) {
                    claims += 1;
                    assert_ne!(
                        verify_claim(&mut b, mv, plies),
                        Some(false),
                        "{moves}: false {solver} claim {mv:?} in {plies}"
                    );
                }
            }
        }
        assert!(claims >= 2);
    }
}
