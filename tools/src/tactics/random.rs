//! The tactics that come from random games: wins in one, must-blocks, VCFs, forbidden-point
//! cases and defences (`--part random`), long VCFs (`--part long-vcf`) and VCTs
//! (`--part vct`), each proved with the naive solver of [`super::naive`].

use std::collections::HashMap;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::naive::*;
use crate::progress::Progress;

/// The rules the random games cycle through.
const RULES: [Rule; 3] = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU];
/// Seed of the committed `--part random` lines.
pub const RANDOM_SEED: u64 = 20240611;
/// Seed of the committed `--part long-vcf` lines.
pub const LONG_VCF_SEED: u64 = 777_015;
/// Seed of the committed `--part vct` lines.
pub const VCT_SEED: u64 = 4_242_017;
/// Kinds of `--part random`, with the number of lines wanted of each (`noforbid` cases are
/// recognised, so they are not counted as anything else, but none is wanted: the hand-built
/// ones of `--part forbidden` cover them).
const WANTED: [(&str, u32); 5] = [
    ("win1", 8),
    ("block5", 8),
    ("vcf", 26),
    ("noforbid", 0),
    ("defend", 10),
];
/// Random games tried by `--part random` at most.
const RANDOM_GAMES: usize = 200_000;
/// Random games tried by `--part long-vcf` and `--part vct` at most.
const THREAT_GAMES: usize = 40_000;
/// Long VCFs kept at most (and at most [`LONG_VCF_PER_LENGTH`] of each length).
const LONG_VCFS: usize = 14;
const LONG_VCF_PER_LENGTH: u32 = 5;
/// VCT positions kept at most.
const VCTS: usize = 8;

fn wanted(kind: &str) -> u32 {
    WANTED
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(0, |&(_, n)| n)
}

/// Lines printed per kind, capped by [`WANTED`].
struct Quota<'a> {
    counts: HashMap<String, u32>,
    /// VCF lines kept per length (`vcf2`, `vcf3`, `vcf4` for four fours and more).
    by_length: HashMap<String, u32>,
    progress: &'a Progress,
}

impl Quota<'_> {
    fn count(&self, kind: &str) -> u32 {
        self.counts.get(kind).copied().unwrap_or(0)
    }

    fn all_met(&self) -> bool {
        WANTED.iter().all(|&(k, n)| self.count(k) >= n)
    }

    /// Prints `line` if `kind` still has room.
    fn emit(&mut self, kind: &str, line: String) {
        let n = self.counts.entry(kind.to_string()).or_insert(0);
        if *n < wanted(kind) {
            *n += 1;
            self.progress.line(&line);
        }
    }
}

/// The tactics line of a position.
fn case_line(rule: Rule, moves: &[Pos], kind: &str, expect: &[Pos], info: &str) -> String {
    format!(
        "rule={}; size=15; moves={}; kind={}; expect={}; # {}",
        rule_name(rule),
        human(moves),
        kind,
        human(expect),
        info
    )
}

/// Wins in one, must-blocks, VCFs (spread over their lengths) and defences against a VCF,
/// from random games until every kind has its lines.
pub fn random_positions(seed: u64) {
    let total: u32 = WANTED.iter().map(|&(_, n)| n).sum();
    let progress = Progress::new(total.into(), "random tactics");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut quota = Quota {
        counts: HashMap::new(),
        by_length: HashMap::new(),
        progress: &progress,
    };
    for iter in 0..RANDOM_GAMES {
        if quota.all_met() {
            break;
        }
        if iter % 1000 == 0 {
            progress.message(format!("game {iter}"));
        }
        let rule = RULES[iter % 3];
        let plies = rng.gen_range(8..70);
        if let Some((mut b, moves)) = random_game(&mut rng, rule, 15, plies) {
            classify(&mut b, rule, &moves, &mut quota);
        }
    }
    progress.note(&format!("{:?}", quota.counts));
}

/// Emits the position of a random game as the first kind it is: a win in one, the only
/// block of a five, a VCF, a VCF only through forbidden points, or a VCF to defend against.
fn classify(b: &mut Board, rule: Rule, moves: &[Pos], quota: &mut Quota) {
    let me = b.side_to_move();
    let opp = me.opp();
    let my5 = fives(b, me);
    let op5 = fives(b, opp);
    let line = |kind: &str, expect: &[Pos], info: &str| case_line(rule, moves, kind, expect, info);
    if !my5.is_empty() {
        let legal: Vec<Pos> = my5.into_iter().filter(|&p| legal_for(b, p, me)).collect();
        if !legal.is_empty() {
            quota.emit("win1", line("win1", &legal, "five now"));
        }
        return;
    }
    if op5.len() == 1 {
        if legal_for(b, op5[0], me) {
            quota.emit("block5", line("block5", &op5, "only block"));
        }
        return;
    }
    if !op5.is_empty() {
        return;
    }
    if let Some(n) = shortest_vcf(b, 7, true) {
        let cap = match n {
            0 | 1 => 0,
            2 => 5,
            3 => 8,
            _ => 26,
        };
        let kept = quota
            .by_length
            .entry(format!("vcf{}", n.min(4)))
            .or_insert(0);
        if *kept < cap {
            *kept += 1;
            let firsts = vcf_first_moves(b, n, true);
            quota.emit("vcf", line("vcf", &firsts, &format!("VCF with {n} fours")));
        }
        return;
    }
    if renju_black(b, me) {
        if let Some(n) = shortest_vcf(b, 6, false) {
            let firsts = vcf_first_moves(b, n, false);
            let forb = b.forbidden_points();
            let info = format!(
                "VCF with {n} fours only ignoring forbidden points; expect lists forbidden points; firsts {}",
                human(&firsts)
            );
            quota.emit("noforbid", line("noforbid", &forb, &info));
            return;
        }
    }
    if quota.count("defend") < wanted("defend") {
        if let Some((n, defences)) = vcf_defences(b) {
            let info = format!("opponent VCF with {n} fours; moves that stop every VCF");
            quota.emit("defend", line("defend", &defences, &info));
        }
    }
}

/// The opponent (not to move) has a VCF of at least 2 fours and we have none: its length
/// and our moves after which no VCF of at most 7 fours remains, if there are 1 to 12 of them
/// and the opponent has no threat sequence (VCT) after at least one of them (a position lost
/// whatever we play tests nothing: the engine rightly plays the move that delays the loss).
fn vcf_defences(b: &mut Board) -> Option<(u32, Vec<Pos>)> {
    let me = b.side_to_move();
    b.set_side_to_move(me.opp());
    let theirs = shortest_vcf(b, 5, true);
    b.set_side_to_move(me);
    let n = theirs.filter(|&n| n >= 2)?;
    let cands: Vec<Pos> = b
        .empty_points()
        .filter(|&p| b.is_candidate(p, 2) && legal_for(b, p, me))
        .collect();
    let mut defences = Vec::new();
    for m in cands {
        b.make_move(m);
        let mut budget = 300_000;
        let lost = naive_vcf(b, 7, true, &mut budget);
        b.undo();
        if !lost && budget > 0 {
            defences.push(m);
        }
    }
    if defences.is_empty() || defences.len() > 12 {
        return None;
    }
    let one_holds = defences.iter().any(|&m| !vct_after(b, m));
    one_holds.then_some((n, defences))
}

/// Does the side not to move win by a threat sequence of at most 9 plies after our `m`
/// (the tools' VCT solver, 20,000 nodes)?
fn vct_after(b: &mut Board, m: Pos) -> bool {
    b.make_move(m);
    let mut budget = 20_000;
    let won = crate::vct::vct_root(b, 9, &mut budget).is_some();
    b.undo();
    won
}

/// Long VCFs (5 to 8 fours, 9 to 15 plies): random dense games screened with the engine's
/// own solver, then proved shortest and listed (first moves) by the naive solver only.
pub fn long_vcfs(seed: u64) {
    let progress = Progress::new(LONG_VCFS as u64, "long VCFs");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut per_len = HashMap::new();
    let mut emitted = 0;
    for iter in 0..THREAT_GAMES {
        if emitted >= LONG_VCFS {
            break;
        }
        if iter % 1000 == 0 {
            progress.message(format!("game {iter}"));
        }
        let rule = RULES[iter % 3];
        let plies = rng.gen_range(24..90);
        let Some((mut b, moves)) = random_game(&mut rng, rule, 15, plies) else {
            continue;
        };
        let me = b.side_to_move();
        if !fives(&b, me).is_empty() || !fives(&b, me.opp()).is_empty() {
            continue;
        }
        // Screen: the engine's solver must see a VCF of 5+ fours.
        let mut budget = 30_000;
        let Some((_, eplies, _)) = pentad::search::vcf::vcf_root(&mut b, me, 12, &mut budget)
        else {
            continue;
        };
        if eplies < 9 {
            continue;
        }
        let Ok(Some(n)) = shortest_vcf_checked(&mut b, 8, true) else {
            continue;
        };
        if n < 5 {
            continue;
        }
        let cnt = per_len.entry(n).or_insert(0);
        if *cnt >= LONG_VCF_PER_LENGTH {
            continue;
        }
        *cnt += 1;
        emitted += 1;
        let firsts = vcf_first_moves(&mut b, n, true);
        let info = format!("VCF with {n} fours (long, {} plies)", 2 * n - 1);
        progress.line(&case_line(rule, &moves, "vcf", &firsts, &info));
    }
    progress.note(&format!("{per_len:?}"));
}

/// After the attacker's `m`, does every defender reply lose to a naive VCF of at most
/// `fours` fours? (A threat followed by a VCF; replies are all legal empty points.)
fn threat_then_vcf(b: &mut Board, m: Pos, fours: u32) -> bool {
    let att = b.side_to_move();
    b.make_move(m);
    let def = att.opp();
    let mut replies: Vec<Pos> = b.empty_points().filter(|&p| legal_for(b, p, def)).collect();
    // Nearest first: refutations are usually close to the threat.
    replies.sort_by_key(|p| {
        let (dx, dy) = (p.x() as i32 - m.x() as i32, p.y() as i32 - m.y() as i32);
        dx.abs().max(dy.abs())
    });
    let mut all_lose = true;
    for r in replies {
        if b.is_win_move(r, def) {
            all_lose = false;
            break;
        }
        b.make_move(r);
        let mut budget = 150_000;
        let lost = naive_vcf(b, fours, true, &mut budget);
        b.undo();
        if !lost {
            all_lose = false;
            break;
        }
    }
    b.undo();
    all_lose
}

/// Does `m` make a three-or-four threat for the side to move (afterwards a point that gives
/// two fives, or a five point)? Checked with `is_win_move` only.
fn is_threat(b: &mut Board, m: Pos) -> bool {
    let att = b.side_to_move();
    b.make_move(m);
    let mut threat = !fives(b, att).is_empty();
    if !threat {
        let cands: Vec<Pos> = b.empty_points().filter(|&p| b.is_candidate(p, 2)).collect();
        for c in cands {
            if !legal_for(b, c, att) {
                continue;
            }
            b.make_move_as(c, att);
            let n = fives(b, att).len();
            b.undo();
            if n >= 2 {
                threat = true;
                break;
            }
        }
    }
    b.undo();
    threat
}

/// VCT positions: no VCF for the side to move, but a three (or four) after which every
/// defence loses to a VCF. Screened with the engine's VCT solver; the expected moves are all
/// threat moves the naive check proves winning.
pub fn vcts(seed: u64) {
    let progress = Progress::new(VCTS as u64, "VCTs");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut emitted = 0;
    for iter in 0..THREAT_GAMES {
        if emitted >= VCTS {
            break;
        }
        if iter % 1000 == 0 {
            progress.message(format!("game {iter}"));
        }
        let rule = RULES[iter % 3];
        let plies = rng.gen_range(12..50);
        let Some((mut b, moves)) = random_game(&mut rng, rule, 15, plies) else {
            continue;
        };
        let Some(vplies) = vct_candidate(&mut b) else {
            continue;
        };
        let me = b.side_to_move();
        let cands: Vec<Pos> = b
            .empty_points()
            .filter(|&p| b.is_candidate(p, 2) && legal_for(&b, p, me))
            .collect();
        let mut winners = Vec::new();
        for m in cands {
            if is_threat(&mut b, m) && threat_then_vcf(&mut b, m, 4) {
                winners.push(m);
            }
        }
        emitted += 1;
        let info = format!(
            "VCT: a threat, then a VCF of at most 4 fours against every defence (engine: {vplies} plies)"
        );
        progress.line(&case_line(rule, &moves, "vct", &winners, &info));
    }
}

/// The engine's VCT length when the position is a VCT case: no five on the board, the
/// engine's VCT solver claims a win of 5 plies or more, neither side has a naive VCF, and
/// the claimed first move survives the naive threat-then-VCF check.
fn vct_candidate(b: &mut Board) -> Option<u32> {
    let me = b.side_to_move();
    if !fives(b, me).is_empty() || !fives(b, me.opp()).is_empty() {
        return None;
    }
    let mut budget = 20_000;
    let (mv, vplies, _) = crate::vct::vct_root(b, 9, &mut budget)?;
    if vplies < 5 {
        return None;
    }
    if shortest_vcf_checked(b, 6, true) != Ok(None) {
        return None;
    }
    // The opponent must have no VCF either (else the position is a race).
    b.set_side_to_move(me.opp());
    let theirs = shortest_vcf_checked(b, 5, true);
    b.set_side_to_move(me);
    if theirs != Ok(None) {
        return None;
    }
    threat_then_vcf(b, mv, 4).then_some(vplies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::search::bench::board_from_moves;

    /// White to move stops Black's 3-four VCF with any of five moves, and loses to j7's threat
    /// sequence after each of them: not a defence case.
    const LOST_ANYWAY: &str =
        "h8 i9 h7 j10 g6 h6 i11 k9 f6 i12 h9 i5 k10 g9 i6 g8 i7 h13 g5 h12 l9 m8 f8 m9 e8";
    /// A defence case of the committed suite (standard): the defences hold.
    const HELD: &str = "h8 g8 g9 i7 j7 h7 g10 k8 k6 h6 l9 f10 m8 h10 j8 i5 e9";

    #[test]
    fn a_position_lost_whatever_the_defence_is_not_a_case() {
        let mut b = board_from_moves(Rule::FREESTYLE, 15, LOST_ANYWAY).unwrap();
        let defence = Pos::from_human("f5").unwrap();
        assert!(vct_after(&mut b, defence), "j7 wins after f5");
        assert_eq!(vcf_defences(&mut b), None);
    }

    #[test]
    fn a_defence_that_holds_makes_a_case() {
        let mut b = board_from_moves(Rule::STANDARD, 15, HELD).unwrap();
        let (fours, defences) = vcf_defences(&mut b).expect("a defence case");
        assert_eq!(fours, 2);
        assert_eq!(human(&defences), "i4 i6 i8 d9 f9 h9 i9");
    }
}
