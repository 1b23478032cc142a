//! The constructed long-VCF lines of `tests/data/tactics.txt` (`--part chains`): chains of
//! 10 to 15 fours and defences against chains of 5 to 7 fours, each proved with the naive
//! solver of [`super::naive`].

use anyhow::{bail, Result};
use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::naive::*;
use crate::progress::Progress;

/// Seed of the committed lines: VCF case `i` uses `seed + i`, defence case `i` uses
/// `seed + DEFEND_SEED_OFFSET + i`. The builder screens its steps with the engine's own VCF
/// and VCT solvers on node budgets, so a change to them can change which chain a seed gives;
/// the committed lines are then made again (`--chain-cases` builds chosen cases apart).
pub const CHAINS_SEED: u64 = 9_100;
const DEFEND_SEED_OFFSET: u64 = 100;
/// Tries per case before giving up.
const TRIES: usize = 5_000;

// ---------------------------------------------------------------------------------------
// Long VCFs (10 to 15 fours) and long-VCF defences, built as a chain of fours.
//
// Each four of the chain lies in a window of five cells on one line: the previous attacker
// move, two more attacker stones (placed beforehand, or earlier stones of the chain), the
// next attacker move and its five point, which the defender must take. The first window holds
// three attacker stones placed beforehand; the last one is an open four (two five points).
// Defender stones cap each window's line just outside it, so that the four has one five point
// and the line is dead once blocked; the rest of the defender's stones are scattered, never
// more than two in a window of five, so the defender has no four of its own. A step is kept
// only if the line replays exactly (one five point per four), the attacker has no other
// four-making move along it, and the engine's VCF solver finds no shortcut (a quick screen);
// the naive solver then proves the shortest VCF and its first moves on the final
// position, and positions with a shortcut are thrown away.

/// A constructed VCF: stones placed beforehand and the intended line `a1 e1 a2 e2 ... aN`
/// (attacker fours and the defender's forced blocks; `aN` makes two five points).
#[derive(Clone)]
struct Chain {
    rule: Rule,
    att: Color,
    att_stones: Vec<Pos>,
    def_stones: Vec<Pos>,
    line: Vec<Pos>,
    /// Line direction (index into `DIRS`) of each four.
    dirs: Vec<usize>,
    /// Empty cells that must stay empty: the five points of the last four and the trap's.
    reserved: Vec<Pos>,
    /// Extra four-making moves allowed at each attacker turn: a trap's lines and decoys.
    slack: usize,
}

impl Chain {
    /// The position before the line, the attacker to move.
    fn board(&self) -> Board {
        let mut b = Board::new(15, 15, self.rule).unwrap();
        for &p in &self.att_stones {
            b.make_move_as(p, self.att);
        }
        for &p in &self.def_stones {
            b.make_move_as(p, self.att.opp());
        }
        b.set_side_to_move(self.att);
        b
    }

    /// The position after the whole line so far.
    fn board_after(&self) -> Board {
        let mut b = self.board();
        for (i, &m) in self.line.iter().enumerate() {
            let c = if i % 2 == 0 { self.att } else { self.att.opp() };
            b.make_move_as(m, c);
        }
        b
    }

    /// Replays the line: before each attacker move neither side has a five point and the move
    /// is legal; after it the attacker's five points are exactly the next block (two or more
    /// after the last move of a `complete` line); every block is legal and leaves the defender
    /// without a five point.
    fn replays(&self, complete: bool) -> bool {
        let mut b = self.board();
        let (att, def) = (self.att, self.att.opp());
        let n = self.line.len();
        for (i, &m) in self.line.iter().enumerate() {
            if !b.is_empty(m) {
                return false;
            }
            if i % 2 == 0 {
                if !fives(&b, att).is_empty() || !fives(&b, def).is_empty() {
                    return false;
                }
                if !legal_for(&b, m, att) {
                    return false;
                }
                b.make_move_as(m, att);
                let f = fives(&b, att);
                if i + 1 == n {
                    return complete && f.len() >= 2;
                }
                if f != vec![self.line[i + 1]] {
                    return false;
                }
            } else {
                if !legal_for(&b, m, def) {
                    return false;
                }
                b.make_move_as(m, def);
                if !fives(&b, def).is_empty() {
                    return false;
                }
            }
        }
        !complete
    }

    /// Four-making moves the attacker has at each of its turns on the line.
    fn four_moves(&self) -> Vec<usize> {
        let mut b = self.board();
        let (att, def) = (self.att, self.att.opp());
        let mut out = Vec::new();
        for (i, &m) in self.line.iter().enumerate() {
            if i % 2 == 0 {
                let cands: Vec<Pos> = b.empty_points().filter(|&p| b.is_candidate(p, 2)).collect();
                let mut n = 0;
                for p in cands {
                    if !legal_for(&b, p, att) {
                        continue;
                    }
                    b.make_move_as(p, att);
                    let f = fives_near(&b, p, att).len();
                    b.undo();
                    if f >= 2 && i + 1 < self.line.len() {
                        // A double five before the end: a shortcut.
                        n += 100;
                    }
                    if f > 0 {
                        n += 1;
                    }
                }
                out.push(n);
                b.make_move_as(m, att);
            } else {
                b.make_move_as(m, def);
            }
        }
        out
    }

    /// At most `FOUR_MOVES_LIMIT` (plus the slack) four-making moves at every attacker turn
    /// (three more at the last turn of a complete line, where an open three leaves more), and
    /// no double five before the end.
    fn narrow(&self, complete: bool) -> bool {
        let limit = FOUR_MOVES_LIMIT + self.slack;
        let v = self.four_moves();
        let n = v.len();
        v.iter().enumerate().all(|(i, &k)| {
            k <= if complete && i + 1 == n {
                limit + 3
            } else {
                limit
            }
        })
    }
}

/// `len` cells from `start` along direction `d`, if all are on the board.
fn ray(b: &Board, start: (i32, i32), d: usize, len: i32) -> Option<Vec<Pos>> {
    let (dx, dy) = DIRS[d];
    (0..len)
        .map(|k| b.pos(start.0 + dx * k, start.1 + dy * k))
        .collect()
}

/// Most four-making moves the attacker may have at a turn of a chain: the two empty points of
/// the current window.
const FOUR_MOVES_LIMIT: usize = 2;

/// One step of the chain: new attacker stones, the next attacker move, its block (none for
/// the last step), the direction, defender caps and cells to keep empty.
struct Step {
    pre: Vec<Pos>,
    mv: Pos,
    block: Option<Pos>,
    dir: usize,
    caps: Vec<Pos>,
    reserved: Vec<Pos>,
}

/// Defender stones just outside the window `w` (on its line), so that the window is the only
/// live one on the line: nothing where the cell is off the board or already the defender's;
/// `None` when it is the attacker's.
fn caps_for(b: &Board, w: &[Pos], d: usize, att: Color) -> Option<Vec<Pos>> {
    let (dx, dy) = DIRS[d];
    let (f, l) = (w[0], w[w.len() - 1]);
    let mut out = Vec::new();
    for (x, y) in [
        (f.x() as i32 - dx, f.y() as i32 - dy),
        (l.x() as i32 + dx, l.y() as i32 + dy),
    ] {
        let Some(q) = b.pos(x, y) else { continue };
        match b.cell(q) {
            pentad::core::Cell::Empty => out.push(q),
            pentad::core::Cell::Stone(c) if c == att => return None,
            _ => {}
        }
    }
    Some(out)
}

/// Every way to extend the chain from its last attacker move (or to start it).
fn step_candidates(c: &Chain, last: bool) -> Vec<Step> {
    let fin = c.board_after();
    let mut out = Vec::new();
    for (d, w, ai) in step_windows(c, &fin, last) {
        window_steps(c, &fin, d, &w, ai, last, &mut out);
    }
    out
}

/// The windows the next four may lie in: (direction, cells, index of the previous attacker
/// move or none). Five cells, or six for the last step's open four.
fn step_windows(c: &Chain, fin: &Board, last: bool) -> Vec<(usize, Vec<Pos>, Option<usize>)> {
    let mut windows = Vec::new();
    let len = if last { 6 } else { 5 };
    // The line so far ends with a block: its last attacker move is the one before.
    let Some(a) = c.line.len().checked_sub(2).map(|i| c.line[i]) else {
        for d in 0..4 {
            for y in 0..15 {
                for x in 0..15 {
                    if let Some(w) = ray(fin, (x, y), d, len) {
                        windows.push((d, w, None));
                    }
                }
            }
        }
        return windows;
    };
    let (ax, ay) = (a.x() as i32, a.y() as i32);
    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
        if c.dirs.last() == Some(&d) {
            continue;
        }
        // In an open four's window of six, `a` is one of the four middle cells.
        let offs = if last { 1..5 } else { 0..5 };
        for off in offs {
            if let Some(w) = ray(fin, (ax - dx * off, ay - dy * off), d, len) {
                windows.push((d, w, Some(off as usize)));
            }
        }
    }
    windows
}

/// The window's free cells (besides the previous move `ai`), or `None` when the window cannot
/// hold the step: its other cells must be empty and free, or the attacker's (a stone can serve
/// several fours), and an open four's ends must be empty.
fn window_free_cells(
    c: &Chain,
    fin: &Board,
    w: &[Pos],
    ai: Option<usize>,
    last: bool,
) -> Option<Vec<usize>> {
    let mut empties = Vec::new();
    for (i, &p) in w.iter().enumerate() {
        if Some(i) == ai {
            continue;
        }
        let free = fin.is_empty(p) && !c.reserved.contains(&p);
        let end = last && (i == 0 || i == 5);
        if free && !end {
            empties.push(i);
        } else if !free && (end || fin.cell(p) != pentad::core::Cell::Stone(c.att)) {
            return None;
        }
    }
    (empties.len() >= if last { 1 } else { 2 }).then_some(empties)
}

/// The steps a window allows, pushed onto `out`: each free middle cell as the open four's
/// move (last step, ends kept empty), or each ordered pair of free cells as move and block.
fn window_steps(
    c: &Chain,
    fin: &Board,
    d: usize,
    w: &[Pos],
    ai: Option<usize>,
    last: bool,
    out: &mut Vec<Step>,
) {
    let Some(empties) = window_free_cells(c, fin, w, ai, last) else {
        return;
    };
    let Some(caps) = caps_for(fin, w, d, c.att) else {
        return;
    };
    if caps.iter().any(|q| c.reserved.contains(q))
        || !caps.iter().all(|&q| sparse_after(fin, q, c.att.opp()))
    {
        return;
    }
    let pre_without = |skip: &[usize]| -> Vec<Pos> {
        empties
            .iter()
            .filter(|k| !skip.contains(k))
            .map(|&k| w[k])
            .collect()
    };
    for &m in &empties {
        if last {
            out.push(Step {
                pre: pre_without(&[m]),
                mv: w[m],
                block: None,
                dir: d,
                caps: caps.clone(),
                reserved: vec![w[0], w[5]],
            });
            continue;
        }
        for &e in empties.iter().filter(|&&e| e != m) {
            out.push(Step {
                pre: pre_without(&[m, e]),
                mv: w[m],
                block: Some(w[e]),
                dir: d,
                caps: caps.clone(),
                reserved: Vec::new(),
            });
        }
    }
}

/// A chain not yet finished must not win already: no VCF within `fours + 1` fours. A quick
/// screen with the engine's solver (the naive solver proves the finished position).
fn no_vcf(c: &Chain, fours: usize) -> bool {
    let mut b = c.board();
    let mut budget = 20_000;
    let found = pentad::search::vcf::vcf_root(&mut b, c.att, fours as i32 + 1, &mut budget);
    found.is_none() && budget > 0
}

/// Stones (either colour) within two cells of the step's new cells: lower is roomier.
fn crowding(b: &Board, s: &Step) -> usize {
    let mut cells: Vec<Pos> = s.pre.clone();
    cells.push(s.mv);
    cells.extend(s.block);
    stones_near(b, &cells)
}

/// Stones (either colour) within two cells of each of `cells`, summed over the cells.
fn stones_near(b: &Board, cells: &[Pos]) -> usize {
    let mut n = 0;
    for p in cells {
        for dy in -2..=2 {
            for dx in -2..=2 {
                if let Some(q) = b.pos(p.x() as i32 + dx, p.y() as i32 + dy) {
                    n += usize::from(!b.is_empty(q));
                }
            }
        }
    }
    n
}

/// Builds a chain of `n` fours (with the defender's caps), backtracking over at most three
/// extensions per step, roomiest first; `None` when it gets stuck. With `trap_at` =
/// `Some(k)`, a forbidden-point trap is set right after the `k`th four.
fn build_chain(
    rng: &mut StdRng,
    rule: Rule,
    att: Color,
    n: usize,
    trap_at: Option<usize>,
) -> Option<Chain> {
    let c = Chain {
        rule,
        att,
        att_stones: Vec::new(),
        def_stones: Vec::new(),
        line: Vec::new(),
        dirs: Vec::new(),
        reserved: Vec::new(),
        slack: 0,
    };
    let mut work = 0;
    extend_chain(rng, c, 1, n, trap_at, &mut work)
}

/// Adds step `step` (of `n`) and the rest to the chain `c`; `work` counts the candidates
/// checked, over the whole attempt.
fn extend_chain(
    rng: &mut StdRng,
    c: Chain,
    step: usize,
    n: usize,
    trap_at: Option<usize>,
    work: &mut usize,
) -> Option<Chain> {
    if step > n {
        return Some(c);
    }
    use rand::seq::SliceRandom;
    let last = step == n;
    let fin = c.board_after();
    let mut cands: Vec<(usize, Step)> = step_candidates(&c, last)
        .into_iter()
        .map(|s| (crowding(&fin, &s) * 4 + rng.gen_range(0..24), s))
        .collect();
    cands.shuffle(rng);
    cands.sort_by_key(|x| x.0);
    let mut tried = 0;
    for (_, s) in cands.into_iter().take(60) {
        *work += 1;
        if *work > 3_000 || tried >= 3 {
            return None;
        }
        let mut c2 = c.clone();
        c2.att_stones.extend(&s.pre);
        c2.def_stones.extend(&s.caps);
        c2.line.push(s.mv);
        if let Some(e) = s.block {
            c2.line.push(e);
        }
        c2.dirs.push(s.dir);
        c2.reserved.extend(&s.reserved);
        // A finished chain must have no VCF shorter than its own.
        let screen = if last { step - 2 } else { step };
        if c2.replays(last) && c2.narrow(last) && no_vcf(&c2, screen) {
            tried += 1;
            if trap_at == Some(step) {
                let Some(t) = add_trap(rng, &c2, step) else {
                    continue;
                };
                c2 = t;
            }
            if let Some(done) = extend_chain(rng, c2, step + 1, n, trap_at, work) {
                return Some(done);
            }
        }
    }
    None
}

/// Does a stone of `col` at `p` keep every window of five through `p` at two `col` stones
/// or fewer?
fn sparse_after(b: &Board, p: Pos, col: Color) -> bool {
    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
        for off in 0..5 {
            let start = (p.x() as i32 - dx * off, p.y() as i32 - dy * off);
            let Some(w) = ray(b, start, d, 5) else {
                continue;
            };
            let n = w
                .iter()
                .filter(|&&q| q == p || b.cell(q) == pentad::core::Cell::Stone(col))
                .count();
            if n > 2 {
                return false;
            }
        }
    }
    true
}

/// Scatters defender stones until the defender has `count`.
fn pad_defender(rng: &mut StdRng, c: &mut Chain, count: usize) -> bool {
    use rand::seq::SliceRandom;
    let def = c.att.opp();
    let mut fin = c.board_after();
    let mut empties: Vec<Pos> = fin
        .empty_points()
        .filter(|p| !c.reserved.contains(p))
        .collect();
    empties.shuffle(rng);
    for p in empties {
        if c.def_stones.len() >= count {
            break;
        }
        if sparse_after(&fin, p, def) {
            fin.make_move_as(p, def);
            c.def_stones.push(p);
        }
    }
    c.def_stones.len() == count
}

/// One way to lay a trap: `x = second[x_at]` ends up a double four. `second` is the window
/// of five through the attacker move `a_k` (without it) and `first` the crossing window
/// through `x` (without `x`); `second[free_at]` and `first[free_at_first]` stay empty as the
/// two fours' five points; `caps` close both lines.
#[derive(Clone)]
struct TrapOption {
    second: Vec<Pos>,
    x_at: usize,
    free_at: usize,
    first: Vec<Pos>,
    free_at_first: usize,
    caps: Vec<Pos>,
}

/// A forbidden-point trap for Black's chain: after the attacker move `a_k` some cell `x`
/// makes two fours (a 4-4, forbidden), one with three Black stones placed beforehand and one
/// with `a_k` and two more, both lines capped. Without the forbidden rule Black would win
/// there at once; with it the chain goes on.
fn add_trap(rng: &mut StdRng, c: &Chain, k: usize) -> Option<Chain> {
    use rand::seq::SliceRandom;
    let fin = c.board_after();
    let mut opts = trap_options(c, &fin, c.line[2 * (k - 1)]);
    opts.shuffle(rng);
    // Roomiest first: stones near the trap's cells make accidental threes.
    opts.sort_by_cached_key(|o| stones_near(&fin, &o.first));
    opts.into_iter().take(200).find_map(|o| lay_trap(c, &o, k))
}

/// Every trap through the attacker move `a`, in a fixed order.
fn trap_options(c: &Chain, fin: &Board, a: Pos) -> Vec<TrapOption> {
    let (ax, ay) = (a.x() as i32, a.y() as i32);
    let mut opts = Vec::new();
    for (d2, &(dx, dy)) in DIRS.iter().enumerate() {
        for off in 0..5 {
            let Some(w2) = ray(fin, (ax - dx * off, ay - dy * off), d2, 5) else {
                continue;
            };
            let second: Vec<Pos> = w2.iter().copied().filter(|&p| p != a).collect();
            if !second
                .iter()
                .all(|&p| fin.is_empty(p) && !c.reserved.contains(&p))
            {
                continue;
            }
            for x_at in 0..4 {
                crossing_traps(c, fin, (d2, &w2), &second, x_at, &mut opts);
            }
        }
    }
    opts
}

/// The traps whose second window is `w2` (direction `d2`; `second` without `a_k`) and whose
/// double four is at `second[x_at]`, over every crossing window through it, onto `opts`.
fn crossing_traps(
    c: &Chain,
    fin: &Board,
    (d2, w2): (usize, &[Pos]),
    second: &[Pos],
    x_at: usize,
    opts: &mut Vec<TrapOption>,
) {
    let x = second[x_at];
    for (d1, &(ex, ey)) in DIRS.iter().enumerate() {
        if d1 == d2 {
            continue;
        }
        for off1 in 0..5 {
            let start = (x.x() as i32 - ex * off1, x.y() as i32 - ey * off1);
            let Some(w1) = ray(fin, start, d1, 5) else {
                continue;
            };
            let first: Vec<Pos> = w1.iter().copied().filter(|&p| p != x).collect();
            if !first
                .iter()
                .all(|&p| fin.is_empty(p) && !c.reserved.contains(&p) && !second.contains(&p))
            {
                continue;
            }
            let (Some(mut caps), Some(caps1)) =
                (caps_for(fin, w2, d2, c.att), caps_for(fin, &w1, d1, c.att))
            else {
                continue;
            };
            for q in caps1 {
                if !caps.contains(&q) {
                    caps.push(q);
                }
            }
            if caps
                .iter()
                .any(|q| second.contains(q) || first.contains(q) || c.reserved.contains(q))
            {
                continue;
            }
            for free_at_first in 0..4 {
                for free_at in (0..4).filter(|&f| f != x_at) {
                    opts.push(TrapOption {
                        second: second.to_vec(),
                        x_at,
                        free_at,
                        first: first.clone(),
                        free_at_first,
                        caps: caps.clone(),
                    });
                }
            }
        }
    }
}

/// The chain with the trap `o` laid after its `k`th four, if the line still replays, stays
/// narrow, `x` is forbidden there and the trap's stones give no shortcut.
fn lay_trap(c: &Chain, o: &TrapOption, k: usize) -> Option<Chain> {
    let mut c2 = c.clone();
    c2.def_stones.extend(&o.caps);
    for (i, &p) in o.second.iter().enumerate() {
        if i != o.x_at && i != o.free_at {
            c2.att_stones.push(p);
        }
    }
    for (i, &p) in o.first.iter().enumerate() {
        if i != o.free_at_first {
            c2.att_stones.push(p);
        }
    }
    let x = o.second[o.x_at];
    c2.reserved
        .extend([x, o.second[o.free_at], o.first[o.free_at_first]]);
    // The trap's two lines add up to two four-making moves at every later turn.
    c2.slack += 2;
    if !c2.replays(false) || !c2.narrow(false) {
        return None;
    }
    // After a_k and its block, x is a double four: forbidden.
    let mut b = c2.board();
    for (i, &m) in c2.line[..2 * k].iter().enumerate() {
        let col = if i % 2 == 0 { c2.att } else { c2.att.opp() };
        b.make_move_as(m, col);
    }
    // No shortcut through the trap's stones.
    (b.is_forbidden(x) && no_vcf(&c2, k)).then_some(c2)
}

/// A decoy for a finished chain: three attacker stones in a capped window of five elsewhere,
/// whose two fours only force a block. The solvers must see through them (no shortcut).
fn add_decoy(rng: &mut StdRng, c: &Chain) -> Option<Chain> {
    use rand::seq::SliceRandom;
    let fin = c.board_after();
    let mut opts = Vec::new();
    for d in 0..DIRS.len() {
        for y in 0..15 {
            for x in 0..15 {
                let Some(w) = ray(&fin, (x, y), d, 5) else {
                    continue;
                };
                if !w
                    .iter()
                    .all(|p| fin.is_empty(*p) && !c.reserved.contains(p))
                {
                    continue;
                }
                let Some(caps) = caps_for(&fin, &w, d, c.att) else {
                    continue;
                };
                if caps.iter().any(|q| c.reserved.contains(q))
                    || !caps.iter().all(|&q| sparse_after(&fin, q, c.att.opp()))
                {
                    continue;
                }
                opts.push((w, caps));
            }
        }
    }
    opts.shuffle(rng);
    let n = c.line.len().div_ceil(2);
    for (w, caps) in opts.into_iter().take(100) {
        let mut cells = w.clone();
        cells.shuffle(rng);
        let mut c2 = c.clone();
        c2.att_stones.extend(&cells[..3]);
        c2.reserved.extend(&cells[3..]);
        c2.def_stones.extend(caps);
        c2.slack += 2;
        if c2.replays(true) && c2.narrow(true) && no_vcf(&c2, n - 2) {
            return Some(c2);
        }
    }
    None
}

/// Stone counts: the side to move is `att` (`att_to_move`) or the defender.
fn defender_count(c: &Chain, att_to_move: bool) -> usize {
    let a = c.att_stones.len();
    match (c.att, att_to_move) {
        (Color::Black, true) => a,
        (Color::Black, false) => a - 1,
        (Color::White, true) => a + 1,
        (Color::White, false) => a,
    }
}

/// The move list (Black first, alternating) of a chain's position.
fn chain_moves(c: &Chain) -> Vec<Pos> {
    let (blacks, whites) = if c.att == Color::Black {
        (&c.att_stones, &c.def_stones)
    } else {
        (&c.def_stones, &c.att_stones)
    };
    assert!(blacks.len() == whites.len() || blacks.len() == whites.len() + 1);
    let mut out = Vec::new();
    for i in 0..blacks.len() {
        out.push(blacks[i]);
        if i < whites.len() {
            out.push(whites[i]);
        }
    }
    out
}

/// A `kind=vcf` line with a shortest VCF of exactly `n` fours, or `None` (try again).
fn long_vcf_case(
    rng: &mut StdRng,
    rule: Rule,
    att: Color,
    n: u32,
    decoys: usize,
    trap: bool,
) -> Option<String> {
    let trap_at = trap.then_some(n as usize / 5);
    let mut c = build_chain(rng, rule, att, n as usize, trap_at)?;
    for _ in 0..decoys {
        c = add_decoy(rng, &c)?;
    }
    let count = defender_count(&c, true);
    if !pad_defender(rng, &mut c, count) || !c.replays(true) || !c.narrow(true) {
        return None;
    }
    // From here on only the move list and the naive solver.
    let moves = chain_moves(&c);
    let mut check = board_of(rule, &human(&moves));
    if check.side_to_move() != att
        || !fives(&check, att).is_empty()
        || !fives(&check, att.opp()).is_empty()
    {
        return None;
    }
    if shortest_vcf_checked(&mut check, n, true) != Ok(Some(n)) {
        return None;
    }
    let mut note = String::new();
    if trap {
        // Without the forbidden rule Black would be quicker: the long way avoids a 4-4.
        match shortest_vcf_checked(&mut check, n, false) {
            Ok(Some(k)) if k < n => {
                note = format!("; {k} fours if Black could take a forbidden 4-4 point")
            }
            _ => return None,
        }
    }
    // The defender has no VCF of its own.
    check.set_side_to_move(att.opp());
    let theirs = shortest_vcf_checked(&mut check, 10, true);
    check.set_side_to_move(att);
    if theirs != Ok(None) {
        return None;
    }
    let firsts = vcf_first_moves_checked(&mut check, n, true).ok()?;
    if firsts.is_empty() {
        return None;
    }
    if decoys > 0 {
        let s = if decoys == 1 { "" } else { "s" };
        note.push_str(&format!(
            "; {decoys} side three{s} whose fours lead nowhere"
        ));
    }
    Some(format!(
        "rule={}; size=15; moves={}; kind=vcf; expect={}; # VCF with {n} fours (constructed chain, {} plies{note})",
        rule_name(rule),
        human(&moves),
        human(&firsts),
        2 * n - 1
    ))
}

/// A `kind=defend` line: the defender to move, the attacker threatening a VCF of exactly
/// `n` fours; expect lists every move after which the attacker has no VCF at all.
fn long_defend_case(rng: &mut StdRng, rule: Rule, att: Color, n: u32) -> Option<String> {
    let mut c = build_chain(rng, rule, att, n as usize, None)?;
    let count = defender_count(&c, false);
    if !pad_defender(rng, &mut c, count) || !c.replays(true) || !c.narrow(true) {
        return None;
    }
    let moves = chain_moves(&c);
    let mut b = board_of(rule, &human(&moves));
    let def = att.opp();
    if b.side_to_move() != def || !fives(&b, att).is_empty() || !fives(&b, def).is_empty() {
        return None;
    }
    // The defender has no VCF; the attacker, were it to move, has one of exactly n fours.
    if shortest_vcf_checked(&mut b, 10, true) != Ok(None) {
        return None;
    }
    b.set_side_to_move(att);
    let theirs = shortest_vcf_checked(&mut b, n, true);
    b.set_side_to_move(def);
    if theirs != Ok(Some(n)) {
        return None;
    }
    let cands: Vec<Pos> = b
        .empty_points()
        .filter(|&p| b.is_candidate(p, 2) && legal_for(&b, p, def))
        .collect();
    let mut defences = Vec::new();
    for m in cands {
        b.make_move(m);
        // Any VCF at all (up to 20 fours: far beyond what the chain can reach).
        let lost = naive_vcf_checked(&mut b, 20, true, 2_000_000);
        b.undo();
        match lost {
            Ok(false) => defences.push(m),
            Ok(true) => {}
            Err(()) => return None,
        }
    }
    if defences.is_empty() {
        return None;
    }
    // The position must not be lost anyway: after every VCF-stopping move the attacker has no
    // threat sequence (VCT) either (screened with the engine's VCT solver).
    for &d in &defences {
        b.make_move(d);
        let mut budget = 100_000;
        let vct = crate::vct::vct_root(&mut b, 15, &mut budget);
        b.undo();
        if vct.is_some() {
            return None;
        }
    }
    Some(format!(
        "rule={}; size=15; moves={}; kind=defend; expect={}; # opponent VCF with {n} fours (constructed chain); moves that stop every VCF",
        rule_name(rule),
        human(&moves),
        human(&defences)
    ))
}

/// Long constructed VCFs (10 to 15 fours, up to 29 plies) and defences against VCFs of 5 to
/// 7 fours, or the cases `only` names (all when it is empty). Deterministic: one seed per
/// case.
pub fn long_chains(seed: u64, only: &[usize]) -> Result<()> {
    let (f, s, r) = (Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU);
    let (bl, wh) = (Color::Black, Color::White);
    // (rule, attacker, fours, decoy threes, forbidden trap)
    let vcfs = [
        (f, bl, 10, 0, false),
        (f, wh, 13, 1, false),
        (f, bl, 15, 2, false),
        (s, wh, 11, 0, false),
        (s, bl, 14, 2, false),
        (r, bl, 12, 0, true),
        (r, bl, 15, 0, true),
        (r, wh, 10, 0, false),
        (r, wh, 14, 2, false),
    ];
    // (rule, attacker, fours); the defender is to move.
    let defends = [(f, bl, 5), (s, wh, 6), (r, bl, 6), (r, wh, 5), (f, wh, 7)];
    let cases = vcfs.len() + defends.len();
    if let Some(bad) = only.iter().find(|&&c| c >= cases) {
        bail!("no chain case {bad}: the cases are 0 to {}", cases - 1);
    }
    let wanted = |case: usize| only.is_empty() || only.contains(&case);
    let count = (0..cases).filter(|&c| wanted(c)).count();
    let progress = Progress::new(count as u64, "constructed chains");
    for (i, &(rule, att, n, decoys, trap)) in vcfs.iter().enumerate() {
        if !wanted(i) {
            continue;
        }
        let what = format!("VCF case {i}");
        let line = first_success(&progress, &what, seed + i as u64, |rng| {
            long_vcf_case(rng, rule, att, n, decoys, trap)
        })?;
        progress.line(&line);
    }
    for (i, &(rule, att, n)) in defends.iter().enumerate() {
        if !wanted(vcfs.len() + i) {
            continue;
        }
        let what = format!("defend case {i}");
        let case_seed = seed + DEFEND_SEED_OFFSET + i as u64;
        let line = first_success(&progress, &what, case_seed, |rng| {
            long_defend_case(rng, rule, att, n)
        })?;
        progress.line(&line);
    }
    Ok(())
}

/// Tries `make` with one seeded generator until it builds a case (at most [`TRIES`] tries).
fn first_success(
    progress: &Progress,
    what: &str,
    seed: u64,
    mut make: impl FnMut(&mut StdRng) -> Option<String>,
) -> Result<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let t0 = std::time::Instant::now();
    progress.message(what.to_string());
    for tries in 1..TRIES {
        if let Some(line) = make(&mut rng) {
            progress.note(&format!("{what}: {tries} tries {:?}", t0.elapsed()));
            return Ok(line);
        }
    }
    bail!("{what}: nothing built in {TRIES} tries")
}
