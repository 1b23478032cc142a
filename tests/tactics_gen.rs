//! Generator of `tests/data/tactics.txt` from random games (run with `--ignored`): wins in one,
//! must-blocks, VCFs, renju forbidden-point cases and VCTs, each proved with the independent naive
//! solver of `tests/common/naive_vcf.rs`. The long constructed chains come from
//! `tests/tactics_chains_gen.rs`.

#[path = "common/naive_vcf.rs"]
mod naive_vcf;

use naive_vcf::*;
use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
#[ignore]
fn generate_tactics() {
    let mut rng = StdRng::seed_from_u64(20240611);
    let rules = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU];
    let mut counts = std::collections::HashMap::new();
    let mut short: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let want = |k: &str| match k {
        "win1" => 8,
        "block5" => 8,
        "vcf" => 26,
        "noforbid" => 0,
        "defend" => 10,
        _ => 0,
    };
    for iter in 0..200_000 {
        if ["win1", "block5", "vcf", "noforbid", "defend"]
            .iter()
            .all(|k| counts.get(*k).copied().unwrap_or(0) >= want(k))
        {
            break;
        }
        let rule = rules[iter % 3];
        let plies = rng.gen_range(8..70);
        let Some((mut b, moves)) = random_game(&mut rng, rule, 15, plies) else {
            continue;
        };
        let me = b.side_to_move();
        let opp = me.opp();
        let my5 = fives(&b, me);
        let op5 = fives(&b, opp);
        let line = |kind: &str, expect: &[Pos], info: &str| {
            format!(
                "rule={}; size=15; moves={}; kind={}; expect={}; # {}",
                rule_name(rule),
                human(&moves),
                kind,
                human(expect),
                info
            )
        };
        let mut emit = |kind: &str, s: String| {
            let n = counts.entry(kind.to_string()).or_insert(0);
            if *n < want(kind) {
                *n += 1;
                println!("{s}");
            }
        };
        if !my5.is_empty() {
            let legal: Vec<Pos> = my5.into_iter().filter(|&p| legal_for(&b, p, me)).collect();
            if !legal.is_empty() {
                emit("win1", line("win1", &legal, "five now"));
            }
            continue;
        }
        if op5.len() == 1 {
            if legal_for(&b, op5[0], me) {
                emit("block5", line("block5", &op5, "only block"));
            }
            continue;
        }
        if !op5.is_empty() {
            continue;
        }
        {
            let n = shortest_vcf(&mut b, 7, true);
            if let Some(n) = n {
                let cap = match n {
                    0 | 1 => 0,
                    2 => 5,
                    3 => 8,
                    _ => 26,
                };
                let k = format!("vcf{}", n.min(4));
                if *short.entry(k.clone()).or_insert(0) < cap {
                    *short.get_mut(&k).unwrap() += 1;
                    let firsts = vcf_first_moves(&mut b, n, true);
                    emit("vcf", line("vcf", &firsts, &format!("VCF with {n} fours")));
                }
                continue;
            }
            if renju_black(&b, me) {
                if let Some(n) = shortest_vcf(&mut b, 6, false) {
                    let firsts = vcf_first_moves(&mut b, n, false);
                    let forb = b.forbidden_points();
                    emit(
                        "noforbid",
                        line(
                            "noforbid",
                            &forb,
                            &format!("VCF with {n} fours only ignoring forbidden points; expect lists forbidden points; firsts {}", human(&firsts)),
                        ),
                    );
                    continue;
                }
            }
        }
        let need_defend = counts.get("defend").copied().unwrap_or(0) < want("defend");
        let mut emit = |kind: &str, s: String| {
            let n = counts.entry(kind.to_string()).or_insert(0);
            if *n < want(kind) {
                *n += 1;
                println!("{s}");
            }
        };
        if need_defend {
            // The opponent has a VCF if it were to move; we have none.
            b.set_side_to_move(opp);
            let theirs = shortest_vcf(&mut b, 5, true);
            b.set_side_to_move(me);
            let Some(n) = theirs else { continue };
            if n < 2 {
                continue;
            }
            let cands: Vec<Pos> = b
                .empty_points()
                .filter(|&p| b.is_candidate(p, 2) && legal_for(&b, p, me))
                .collect();
            let mut defences = Vec::new();
            for m in cands {
                b.make_move(m);
                let mut budget = 300_000;
                let lost = naive_vcf(&mut b, 7, true, &mut budget);
                b.undo();
                if !lost && budget > 0 {
                    defences.push(m);
                }
            }
            if !defences.is_empty() && defences.len() <= 12 {
                emit(
                    "defend",
                    line(
                        "defend",
                        &defences,
                        &format!("opponent VCF with {n} fours; moves that stop every VCF"),
                    ),
                );
            }
        }
    }
    eprintln!("{counts:?}");
}

/// The 8 symmetries of a square board of side `n` applied to a human-notation move list.
fn transform(moves: &str, n: usize, sym: usize, shift: (i32, i32)) -> String {
    moves
        .split_whitespace()
        .map(|m| {
            let p = Pos::from_human(m).expect("bad move");
            let (mut x, mut y) = (p.x() as i32, p.y() as i32);
            let l = n as i32 - 1;
            if sym & 1 != 0 {
                x = l - x;
            }
            if sym & 2 != 0 {
                y = l - y;
            }
            if sym & 4 != 0 {
                std::mem::swap(&mut x, &mut y);
            }
            let (x, y) = ((x + shift.0).clamp(0, l), (y + shift.1).clamp(0, l));
            Pos::new(x as usize, y as usize).to_human()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Hand-built renju positions, checked with the naive solver and printed in all symmetries.
#[test]
#[ignore]
fn generate_forbidden_cases() {
    // Black to move: Black d8 f8 h8 j8 (White c8 k8 at the ends, two far White stones).
    // g8 would make X.XXX.X, a double four in one line: forbidden, and the only VCF.
    let black_44 = "d8 c8 f8 k8 h8 a1 j8 o15";
    // White to move with g9 g10 g11: g12 or g7 makes a four whose only block is g8, Black's
    // forbidden point; g8 itself makes an open four.
    let white_wins = "d8 c8 f8 k8 h8 g9 j8 g10 g13 g11 a1";
    let mut seen = std::collections::HashSet::new();
    for sym in 0..8 {
        for (base, kind) in [(black_44, "noforbid"), (white_wins, "vcf")] {
            let moves = transform(base, 15, sym, (0, 0));
            if !seen.insert(moves.clone()) {
                continue;
            }
            let mut b = board_of(Rule::RENJU, &moves);
            let me = b.side_to_move();
            if kind == "noforbid" {
                assert_eq!(me, Color::Black);
                assert!(shortest_vcf(&mut b, 3, false).is_some());
                assert!(shortest_vcf(&mut b, 5, true).is_none());
                let forb = b.forbidden_points();
                assert!(!forb.is_empty());
                println!(
                    "rule=renju; size=15; moves={moves}; kind=noforbid; expect={}; # only VCF is through a forbidden 4-4 point",
                    human(&forb)
                );
            } else {
                assert_eq!(me, Color::White);
                let firsts = vcf_first_moves(&mut b, 3, true);
                assert_eq!(firsts.len(), 3, "{moves}: {}", human(&firsts));
                println!(
                    "rule=renju; size=15; moves={moves}; kind=vcf; expect={}; # white four whose block is Black's forbidden point",
                    human(&firsts)
                );
            }
        }
    }
}

/// Long VCFs (5 to 8 fours, 9 to 15 plies): random dense games screened with the engine's
/// own solver, then proved shortest and listed (first moves) by the naive solver only.
#[test]
#[ignore]
fn generate_long_vcf() {
    let mut rng = StdRng::seed_from_u64(777_015);
    let rules = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU];
    let mut per_len = std::collections::HashMap::new();
    let mut emitted = 0;
    for iter in 0..40_000 {
        if emitted >= 14 {
            break;
        }
        let rule = rules[iter % 3];
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
        if *cnt >= 5 {
            continue;
        }
        *cnt += 1;
        emitted += 1;
        let firsts = vcf_first_moves(&mut b, n, true);
        println!(
            "rule={}; size=15; moves={}; kind=vcf; expect={}; # VCF with {n} fours (long, {} plies)",
            rule_name(rule),
            human(&moves),
            human(&firsts),
            2 * n - 1
        );
    }
    eprintln!("{per_len:?}");
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
#[test]
#[ignore]
fn generate_vct() {
    let mut rng = StdRng::seed_from_u64(4_242_017);
    let rules = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU];
    let mut emitted = 0;
    for iter in 0..40_000 {
        if emitted >= 8 {
            break;
        }
        let rule = rules[iter % 3];
        let plies = rng.gen_range(12..50);
        let Some((mut b, moves)) = random_game(&mut rng, rule, 15, plies) else {
            continue;
        };
        let me = b.side_to_move();
        if !fives(&b, me).is_empty() || !fives(&b, me.opp()).is_empty() {
            continue;
        }
        let mut budget = 20_000;
        let Some((mv, vplies, _)) = pentad::search::vct::vct_root(&mut b, 9, &mut budget) else {
            continue;
        };
        if vplies < 5 {
            continue;
        }
        if shortest_vcf_checked(&mut b, 6, true) != Ok(None) {
            continue;
        }
        // The opponent must have no VCF either (else the position is a race).
        b.set_side_to_move(me.opp());
        let theirs = shortest_vcf_checked(&mut b, 5, true);
        b.set_side_to_move(me);
        if theirs != Ok(None) {
            continue;
        }
        if !threat_then_vcf(&mut b, mv, 4) {
            continue;
        }
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
        println!(
            "rule={}; size=15; moves={}; kind=vct; expect={}; # VCT: a threat, then a VCF of at most 4 fours against every defence (engine: {vplies} plies)",
            rule_name(rule),
            human(&moves),
            human(&winners)
        );
    }
}
