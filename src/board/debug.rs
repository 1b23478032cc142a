//! Slow from-scratch reference computations of the board's incremental state, for tests and
//! debugging: every incremental structure can be checked against a full recomputation.

use super::{pattern, zobrist, Board, Pattern, Pattern4, EMPTY, SIDE_KEY};
use crate::core::{Color, Pos};

/// The exact recursive renju test for Black at empty `p`, without the pattern fast path.
/// False for non-empty or off-board points (any rule: it judges the renju procedure only).
pub fn forbidden_exact(b: &Board, p: Pos) -> bool {
    if !b.is_empty(p) {
        return false;
    }
    b.forbidden_exact_index(b.idx(p))
}

/// Colour `c`'s pattern at empty `p` in direction `dir`, from line keys built from the cells.
pub fn recompute_pattern(b: &Board, p: Pos, c: Color, dir: usize) -> Pattern {
    let k = b.scratch_keys(b.idx(p));
    Pattern::from_code(b.code(c.index(), k[dir]))
}

/// Colour `c`'s combined class at empty `p`, from line keys built from the cells, resolving
/// renju 3-3 candidates with the exact test.
pub fn recompute_pattern4(b: &Board, p: Pos, c: Color) -> Pattern4 {
    let i = b.idx(p);
    let k = b.scratch_keys(i);
    let codes = [0, 1, 2, 3].map(|d| b.code(c.index(), k[d]));
    let code = b.comb[c.index() << 16 | pattern::comb_index(codes)];
    if pattern::is_maybe33(code) {
        if b.forbidden_exact_index(i) {
            Pattern4::Forbid
        } else {
            pattern::combine_legal(codes)
        }
    } else {
        Pattern4::from_code(code)
    }
}

/// Zobrist hash recomputed from the history and side to move.
pub fn recompute_hash(b: &Board) -> u64 {
    let mut h = 0;
    for (p, c) in b.history() {
        h ^= zobrist(p, c);
    }
    if b.side_to_move() == Color::White {
        h ^= SIDE_KEY;
    }
    h
}

/// Compares every incremental structure with a from-scratch recomputation; describes the
/// first difference found.
pub fn check_consistency(b: &Board) -> Result<(), String> {
    let mut pcount = [[0u32; 16]; 2];
    let mut p4count = [[0u32; 16]; 2];
    for i in 0..b.grid.len() {
        if !b.on_board_index(i) {
            if b.grid[i] != super::WALL {
                return Err(format!("padding cell {i} is not a wall"));
            }
            continue;
        }
        let p = b.pos_of(i);
        let k = b.scratch_keys(i);
        if k != b.info[i].keys {
            return Err(format!(
                "keys differ at {p:?}: {:?} vs {:?}",
                b.info[i].keys, k
            ));
        }
        let near = b.scratch_near(i);
        if near != b.near[i] {
            return Err(format!(
                "near count differs at {p:?}: {} vs {near}",
                b.near[i]
            ));
        }
        let cand = b.is_empty(p) && (b.stones > 0 && b.is_candidate(p, super::CANDIDATE_RADIUS));
        let cand = cand || (b.stones == 0 && b.central_empty() == Some(p));
        if cand != b.in_candidate_area(p) {
            return Err(format!("candidate area differs at {p:?}"));
        }
        if b.info[i].value() != b.grid[i] {
            return Err(format!("cell value copy differs at {p:?}"));
        }
        if b.grid[i] != EMPTY {
            continue;
        }
        for c in 0..2 {
            let codes = [0, 1, 2, 3].map(|d| b.code(c, k[d]));
            if codes != b.info[i].codes(c) {
                return Err(format!("patterns differ at {p:?} colour {c}"));
            }
            let code4 = b.comb[c << 16 | pattern::comb_index(codes)];
            if code4 != b.info[i].pat4()[c] {
                return Err(format!("pattern4 differs at {p:?} colour {c}"));
            }
            for code in codes {
                pcount[c][code as usize] += 1;
            }
            p4count[c][code4 as usize] += 1;
        }
    }
    let have: [[u32; 16]; 2] =
        std::array::from_fn(|c| std::array::from_fn(|k| u32::from(b.counts.pat(c, k))));
    if pcount != have {
        return Err(format!("pattern counts differ: {have:?} vs {pcount:?}",));
    }
    let have: [[u32; 16]; 2] =
        std::array::from_fn(|c| std::array::from_fn(|k| u32::from(b.counts.pat4(c, k))));
    if p4count != have {
        return Err(format!("pattern4 counts differ: {have:?} vs {p4count:?}",));
    }
    let mut value = 0i32;
    b.for_each_empty_pcode(|c, pc| {
        let v = i32::from(b.values.value(c, pc));
        value += if c == Color::Black { v } else { -v };
    });
    if value != b.value {
        return Err(format!("cell value sum differs: {} vs {value}", b.value));
    }
    check_classes(b)?;
    if recompute_hash(b) != b.hash {
        return Err("hash differs".to_string());
    }
    let cands: Vec<Pos> = b.candidates().collect();
    let mut expect: Vec<Pos> = b
        .empty_points()
        .filter(|&p| b.in_candidate_area(p))
        .collect();
    let mut got = cands.clone();
    got.sort();
    expect.sort();
    if got != expect {
        return Err("candidates() differs from in_candidate_area".to_string());
    }
    let stones = (0..b.grid.len())
        .filter(|&i| matches!(b.grid[i], 1 | 2))
        .count();
    if stones != b.stones || stones != b.history.len() {
        return Err("stone count differs".to_string());
    }
    Ok(())
}

/// The public class queries against each other: a renju 3-3 candidate resolves to one of
/// the classes its internal code allows, `pattern4_count` counts exactly the cells
/// `pattern4` reports, and `four_class` agrees with `pattern4` on fours and fives.
fn check_classes(b: &Board) -> Result<(), String> {
    for c in [Color::Black, Color::White] {
        let mut count = [0u32; Pattern4::ALL.len()];
        for p in b.empty_points() {
            let code = b.info[b.idx(p)].pat4()[c.index()];
            let p4 = b.pattern4(p, c);
            if pattern::is_maybe33(code) && pattern::maybe33_outcomes(code) >> p4 as u16 & 1 == 0 {
                return Err(format!(
                    "3-3 candidate {p:?} (code {code}) resolved to {p4:?}"
                ));
            }
            let f = b.four_class(p, c);
            if (p4 >= Pattern4::Block4 || f >= Pattern4::Block4) && f != p4 {
                return Err(format!("four_class {f:?} vs pattern4 {p4:?} at {p:?}"));
            }
            count[p4 as usize] += 1;
        }
        for p4 in Pattern4::ALL {
            if b.pattern4_count(c, p4) != count[p4 as usize] {
                return Err(format!(
                    "pattern4_count({c:?}, {p4:?}) = {} but {} cells",
                    b.pattern4_count(c, p4),
                    count[p4 as usize]
                ));
            }
        }
    }
    Ok(())
}
