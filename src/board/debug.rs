//! Slow from-scratch reference computations of the board's incremental state, for tests and
//! debugging: every incremental structure can be checked against a full recomputation.

use super::{pattern, zobrist, Board, CellInfo, Counts, Pattern, Pattern4, EMPTY, SIDE_KEY};
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
    exact_class(b, i, c, [0, 1, 2, 3].map(|d| b.code(c.index(), k[d])))
}

/// Colour `c`'s class at empty padded cell `i` from its four pattern codes, resolving a
/// renju 3-3 candidate with the exact test.
fn exact_class(b: &Board, i: usize, c: Color, codes: [u8; 4]) -> Pattern4 {
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
    let central = central_if_empty(b);
    let mut pcount = [[0u32; 16]; 2];
    let mut p4count = [[0u32; 16]; 2];
    for i in 0..b.grid.len() {
        check_cell(b, i, central)?;
        if b.on_board_index(i) && b.grid[i] == EMPTY {
            for c in 0..2 {
                for code in b.info[i].codes(c) {
                    pcount[c][code as usize] += 1;
                }
                p4count[c][b.info[i].pat4()[c] as usize] += 1;
            }
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
    let mut expect: Vec<Pos> = match central {
        Some(p) => vec![p],
        None => b
            .empty_points()
            .filter(|&p| b.in_candidate_area(p))
            .collect(),
    };
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

/// The empty point nearest the centre on a board without stones (its candidate area).
fn central_if_empty(b: &Board) -> Option<Pos> {
    (b.stones == 0).then(|| b.central_empty()).flatten()
}

/// Padded cell `i` against a from-scratch recomputation: a padding cell is a wall; an
/// on-board cell has the keys, stone count nearby, candidate flag and cell value copy its
/// neighbourhood gives, and, when empty, the pattern and combined codes of its keys.
/// `central` is [`central_if_empty`] (computed once per check).
fn check_cell(b: &Board, i: usize, central: Option<Pos>) -> Result<(), String> {
    if !b.on_board_index(i) {
        return match b.grid[i] {
            super::WALL => Ok(()),
            _ => Err(format!("padding cell {i} is not a wall")),
        };
    }
    let p = b.pos_of(i);
    let k = b.scratch_keys(i);
    if k != b.info[i].keys {
        return Err(format!(
            "keys differ at {p:?}: {:?} vs {k:?}",
            b.info[i].keys
        ));
    }
    let near = b.scratch_near(i);
    if near != b.near[i] {
        return Err(format!(
            "near count differs at {p:?}: {} vs {near}",
            b.near[i]
        ));
    }
    let empty = b.grid[i] == EMPTY;
    let cand = empty && b.stones > 0 && b.is_candidate(p, super::CANDIDATE_RADIUS);
    // Without stones the area is `central` by definition: only its one point is asked.
    let asked = b.stones > 0 || central == Some(p);
    if asked && (cand || central == Some(p)) != b.in_candidate_area(p) {
        return Err(format!("candidate area differs at {p:?}"));
    }
    if b.info[i].value() != b.grid[i] {
        return Err(format!("cell value copy differs at {p:?}"));
    }
    if !empty {
        return Ok(());
    }
    for c in 0..2 {
        let codes = [0, 1, 2, 3].map(|d| b.code(c, k[d]));
        if codes != b.info[i].codes(c) {
            return Err(format!("patterns differ at {p:?} colour {c}"));
        }
        if b.comb[c << 16 | pattern::comb_index(codes)] != b.info[i].pat4()[c] {
            return Err(format!("pattern4 differs at {p:?} colour {c}"));
        }
    }
    Ok(())
}

/// The incremental state of a board before one operation, for [`check_change`].
#[derive(Clone, Default)]
pub struct Snapshot {
    grid: Vec<u8>,
    info: Vec<CellInfo>,
    near: Vec<u8>,
    counts: Option<Counts>,
    value: i32,
    stones: usize,
}

impl Snapshot {
    /// Records `b`'s state, reusing this snapshot's buffers.
    pub fn take(&mut self, b: &Board) {
        self.grid.clone_from(&b.grid);
        self.info.clone_from(&b.info);
        self.near.clone_from(&b.near);
        self.counts = Some(b.counts);
        self.value = b.value;
        self.stones = b.stones;
    }
}

/// Padded indices whose state a stone or wall at padded index `i` can change: the cells of
/// its four lines within the key window, and the square of the candidate radius.
fn reach_of(b: &Board, i: usize) -> Vec<usize> {
    let mut cells = Vec::new();
    for &off in &b.dirs {
        cells.extend((-KEY_WINDOW..=KEY_WINDOW).map(|o| (i as isize + o * off) as usize));
    }
    let (r, s) = (super::CANDIDATE_RADIUS as isize, b.stride as isize);
    for dy in -r..=r {
        cells.extend((-r..=r).map(|dx| (i as isize + dy * s + dx) as usize));
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Cells along a line whose keys include a given cell (the key window's half width).
const KEY_WINDOW: isize = 5;

/// After one operation on `b` that changed at most the cell `p` (a move, an undo, a takeback
/// or a wall there; an operation that changed nothing passes too), with `before` taken just
/// before it from a board that was consistent: `b` is consistent again, checked in time
/// proportional to the board's area but without recomputing cells the operation cannot
/// reach. Every cell within reach of `p` is recomputed from scratch
/// ([`check_consistency`]'s per-cell test, exact renju classes included), every other cell
/// must be unchanged, and the counts, cell value sum and stone count must have changed by
/// exactly the difference over the reached cells; the hash is recomputed from the history.
/// The class counts of renju 3-3 candidates and `candidates()` are left to
/// [`check_consistency`].
pub fn check_change(before: &Snapshot, b: &Board, p: Pos) -> Result<(), String> {
    let Some(counts_before) = before.counts.filter(|_| before.grid.len() == b.grid.len()) else {
        return Err("snapshot of another board".to_string());
    };
    let reach = reach_of(b, b.idx(p));
    let mut in_reach = vec![false; b.grid.len()];
    let central = central_if_empty(b);
    for &i in &reach {
        in_reach[i] = true;
        check_cell(b, i, central)?;
        if b.on_board_index(i) && b.grid[i] == EMPTY {
            check_exact_classes(b, b.pos_of(i))?;
        }
    }
    for i in (0..b.grid.len()).filter(|&i| !in_reach[i]) {
        let (was, now) = (&before.info[i], &b.info[i]);
        let same_codes = b.grid[i] != EMPTY || was.pats() == now.pats() && was.pat4() == now.pat4();
        if before.grid[i] != b.grid[i] || before.near[i] != b.near[i] || was.keys != now.keys {
            return Err(format!("cell {i} out of reach of {p:?} changed"));
        }
        if !same_codes || was.value() != now.value() {
            return Err(format!("codes of cell {i} out of reach of {p:?} changed"));
        }
    }
    let sum = |grid: &[u8], info: &[CellInfo]| reached_sums(b, &reach, grid, info);
    let (was, now) = (sum(&before.grid, &before.info), sum(&b.grid, &b.info));
    for k in 0..64 {
        let (c, code) = (k / 32, k % 16);
        let (have_was, have_now) = match k % 32 < 16 {
            true => (counts_before.pat(c, code), b.counts.pat(c, code)),
            false => (counts_before.pat4(c, code), b.counts.pat4(c, code)),
        };
        if i64::from(have_now) - i64::from(have_was) != now.counts[k] - was.counts[k] {
            return Err(format!("count {k} changed by a wrong amount around {p:?}"));
        }
    }
    if i64::from(b.value) - i64::from(before.value) != now.value - was.value {
        return Err(format!(
            "cell value sum changed by a wrong amount around {p:?}"
        ));
    }
    let stones = before.stones as i64 + now.stones - was.stones;
    if stones != b.stones as i64 || b.stones != b.history.len() {
        return Err(format!("stone count wrong after a change at {p:?}"));
    }
    if recompute_hash(b) != b.hash {
        return Err("hash differs".to_string());
    }
    Ok(())
}

/// What the reached cells add to the board's totals.
struct ReachedSums {
    /// `[32 c + code]` pattern codes (per direction), `[32 c + 16 + code]` combined codes.
    counts: [i64; 64],
    value: i64,
    stones: i64,
}

/// The totals of the reached cells of a grid and its cell data (`b` gives the geometry and
/// the value table).
fn reached_sums(b: &Board, reach: &[usize], grid: &[u8], info: &[CellInfo]) -> ReachedSums {
    let mut s = ReachedSums {
        counts: [0; 64],
        value: 0,
        stones: 0,
    };
    for &i in reach.iter().filter(|&&i| b.on_board_index(i)) {
        match grid[i] {
            EMPTY => {}
            1 | 2 => {
                s.stones += 1;
                continue;
            }
            _ => continue,
        }
        for c in 0..2 {
            for code in info[i].codes(c) {
                s.counts[32 * c + code as usize] += 1;
            }
            s.counts[32 * c + 16 + info[i].pat4()[c] as usize] += 1;
            let pc = super::pcode_of_packed((info[i].pats() >> (16 * c)) as u16);
            let v = i64::from(b.values.value(Color::BOTH[c], pc));
            s.value += if c == 0 { v } else { -v };
        }
    }
    s
}

/// At empty `p`, whose pattern codes [`check_cell`] found equal to a recomputation: both
/// colours' classes equal the exact class of those codes (renju 3-3 candidates resolved by
/// the recursive test), and `four_class` agrees with them on fours and fives.
fn check_exact_classes(b: &Board, p: Pos) -> Result<(), String> {
    let i = b.idx(p);
    for c in Color::BOTH {
        let exact = exact_class(b, i, c, b.info[i].codes(c.index()));
        let p4 = b.pattern4(p, c);
        if p4 != exact {
            return Err(format!(
                "pattern4 {p4:?} vs exact {exact:?} at {p:?} for {c:?}"
            ));
        }
        let f = b.four_class(p, c);
        if (p4 >= Pattern4::Block4 || f >= Pattern4::Block4) && f != p4 {
            return Err(format!("four_class {f:?} vs pattern4 {p4:?} at {p:?}"));
        }
    }
    Ok(())
}
