//! An independent naive VCF solver for the tactics generators: it uses only `is_win_move`,
//! `is_forbidden` and move/undo (no pattern tables), so the tactical answers do not depend on
//! the code under test; plus the random games and the line formatting the generators share.

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule, RuleKind};
use rand::rngs::StdRng;
use rand::Rng;

/// The four line directions.
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// True when `c` is Black under renju (the side with forbidden points).
pub fn renju_black(b: &Board, c: Color) -> bool {
    c == Color::Black && b.rule().kind == RuleKind::Renju
}

/// Can `c` legally play empty `p`?
pub fn legal_for(b: &Board, p: Pos, c: Color) -> bool {
    b.is_empty(p) && !(renju_black(b, c) && !b.is_win_move(p, c) && b.is_forbidden(p))
}

/// Cells where `c` would win now.
pub fn fives(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_points().filter(|&p| b.is_win_move(p, c)).collect()
}

/// Five cells of `c` on the lines through `m`, within 4 steps.
pub fn fives_near(b: &Board, m: Pos, c: Color) -> Vec<Pos> {
    let mut v = Vec::new();
    for (dx, dy) in DIRS {
        for k in [-4, -3, -2, -1, 1, 2, 3, 4] {
            if let Some(q) = b.pos(m.x() as i32 + dx * k, m.y() as i32 + dy * k) {
                if b.is_empty(q) && b.is_win_move(q, c) && !v.contains(&q) {
                    v.push(q);
                }
            }
        }
    }
    v
}

/// Naive VCF: does the attacker (side to move) win with at most `fours` fours?
pub fn naive_vcf(b: &mut Board, fours: u32, use_forbidden: bool, budget: &mut u64) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let att = b.side_to_move();
    let def = att.opp();
    if !fives(b, att).is_empty() {
        return true;
    }
    if fours == 0 {
        return false;
    }
    let dfives = fives(b, def);
    if dfives.len() >= 2 {
        return false;
    }
    let cands: Vec<Pos> = if dfives.len() == 1 {
        dfives
    } else {
        b.empty_points().filter(|&p| b.is_candidate(p, 2)).collect()
    };
    for m in cands {
        if use_forbidden && !legal_for(b, m, att) {
            continue;
        }
        b.make_move(m);
        let f = fives_near(b, m, att);
        let won = if f.is_empty() {
            None
        } else if f.len() >= 2 || (use_forbidden && !legal_for(b, f[0], def)) {
            Some(true)
        } else {
            b.make_move(f[0]);
            let r = naive_vcf(b, fours - 1, use_forbidden, budget);
            b.undo();
            Some(r)
        };
        b.undo();
        if won == Some(true) {
            return true;
        }
    }
    false
}

/// First moves of the attacker (side to move) that win by VCF within `fours` fours (a line
/// whose proof runs out of its 200 000-node budget counts as no win).
pub fn vcf_first_moves(b: &mut Board, fours: u32, use_forbidden: bool) -> Vec<Pos> {
    first_moves(b, fours, use_forbidden, 200_000, false).unwrap_or_default()
}

/// Shortest VCF length (in attacker fours) up to `max`, if any.
pub fn shortest_vcf(b: &mut Board, max: u32, use_forbidden: bool) -> Option<u32> {
    (1..=max).find(|&n| {
        let mut budget = 300_000;
        naive_vcf(b, n, use_forbidden, &mut budget)
    })
}

/// Points in `h8` notation, separated by spaces.
pub fn human(moves: &[Pos]) -> String {
    moves
        .iter()
        .map(|p| p.to_human())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A random game of at most `plies` moves from the centre, each next to the stones, that
/// stops early once the side to move can make a five; None when a move would already win.
pub fn random_game(
    rng: &mut StdRng,
    rule: Rule,
    size: usize,
    plies: usize,
) -> Option<(Board, Vec<Pos>)> {
    let mut b = Board::new(size, size, rule).ok()?;
    let mut moves = Vec::new();
    let c = (size / 2) as i32;
    for i in 0..plies {
        let p = if i == 0 {
            Pos::new(c as usize, c as usize)
        } else {
            let cands: Vec<Pos> = b
                .empty_points()
                .filter(|&p| b.is_candidate(p, 1) && b.is_legal(p))
                .collect();
            *cands.get(rng.gen_range(0..cands.len().max(1)))?
        };
        if b.is_win_move(p, b.side_to_move()) {
            return None;
        }
        b.make_move(p);
        moves.push(p);
        if !fives(&b, b.side_to_move()).is_empty() {
            break;
        }
    }
    Some((b, moves))
}

/// The rule's name in tactics lines (caro counts as freestyle).
pub fn rule_name(r: Rule) -> &'static str {
    match r.kind {
        RuleKind::Renju => "renju",
        RuleKind::Standard => "standard",
        _ => "freestyle",
    }
}

/// `naive_vcf` reporting an exhausted budget as `Err`.
pub fn naive_vcf_checked(
    b: &mut Board,
    fours: u32,
    use_forbidden: bool,
    budget: u64,
) -> Result<bool, ()> {
    let mut left = budget;
    let r = naive_vcf(b, fours, use_forbidden, &mut left);
    if !r && left == 0 {
        return Err(());
    }
    Ok(r)
}

/// `vcf_first_moves` reporting an exhausted budget (1 000 000 nodes per line) as `Err`.
pub fn vcf_first_moves_checked(
    b: &mut Board,
    fours: u32,
    use_forbidden: bool,
) -> Result<Vec<Pos>, ()> {
    first_moves(b, fours, use_forbidden, 1_000_000, true)
}

/// The winning first moves; a line whose proof exhausts `budget` is `Err` when `strict`,
/// else no win.
fn first_moves(
    b: &mut Board,
    fours: u32,
    use_forbidden: bool,
    budget: u64,
    strict: bool,
) -> Result<Vec<Pos>, ()> {
    let att = b.side_to_move();
    let mut out = Vec::new();
    let cands: Vec<Pos> = b.empty_points().filter(|&p| b.is_candidate(p, 2)).collect();
    for m in cands {
        if use_forbidden && !legal_for(b, m, att) {
            continue;
        }
        if b.is_win_move(m, att) {
            out.push(m);
            continue;
        }
        b.make_move(m);
        let f = fives_near(b, m, att);
        let won = if f.is_empty() {
            Ok(false)
        } else if f.len() >= 2 || (use_forbidden && !legal_for(b, f[0], att.opp())) {
            Ok(true)
        } else if !fives(b, att.opp()).is_empty() {
            Ok(false)
        } else {
            b.make_move(f[0]);
            let r = naive_vcf_checked(b, fours - 1, use_forbidden, budget);
            b.undo();
            if strict {
                r
            } else {
                Ok(r.unwrap_or(false))
            }
        };
        b.undo();
        if won? {
            out.push(m);
        }
    }
    Ok(out)
}

/// The 15x15 board after `moves` (`h8` notation, Black first).
pub fn board_of(rule: Rule, moves: &str) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for m in moves.split_whitespace() {
        b.make_move(Pos::from_human(m).unwrap());
    }
    b
}

/// Naive shortest VCF up to `max` fours: `Ok(Some(n))`, `Ok(None)` when none exists (proved
/// within the budget), `Err(())` when the budget ran out.
pub fn shortest_vcf_checked(
    b: &mut Board,
    max: u32,
    use_forbidden: bool,
) -> Result<Option<u32>, ()> {
    for n in 1..=max {
        let mut budget = 400_000;
        if naive_vcf(b, n, use_forbidden, &mut budget) {
            return Ok(Some(n));
        }
        if budget == 0 {
            return Err(());
        }
    }
    Ok(None)
}
