//! Threat classification of a node and move generation from the board's pattern state.
//!
//! `threat` reads the pattern counts: a five to play, the opponent's fives to block, an open
//! four to make, an opponent's open three to answer. `generate` then yields only the moves
//! that matter: the block of a five, defences plus own fours against an open three, or all
//! candidates ordered by pattern value. Black never gets a renju forbidden point.

use super::vcf::four_cell_count;
use crate::board::{Board, Pattern4};
use crate::core::{Color, Pos, RuleKind};
use crate::eval::weights::{ORDER_ATTACK, ORDER_DEFEND, ORDER_LINE_ME, ORDER_LINE_OPP};

/// Ordering scores at or above this mark forcing moves (own fours, blocks of big threats).
pub(crate) const FORCING_ORDER: i32 = 1 << 20;

/// The four line directions as (dx, dy), in the board's direction-index order.
pub(crate) use crate::board::DIRECTIONS as DIRS;

/// What the side to move faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Threat {
    /// Nothing urgent.
    None,
    /// The side to move wins with its n-th move from here (n plies: 1 = five now, 3 = open four).
    Win(u32),
    /// The side to move loses in n plies whatever it does.
    Loss(u32),
    /// The opponent has one five point: the only move is to take it.
    Block(Pos),
    /// The opponent threatens an open four (or a double four): defend or make fours.
    Defend,
}

/// True when `c` may play empty `p` (Black avoids forbidden points in renju).
#[inline]
pub(crate) fn can_play(board: &Board, p: Pos, c: Color) -> bool {
    !(c == Color::Black && board.rule().kind == RuleKind::Renju && board.is_forbidden(p))
}

/// The first empty cell where `c` has the combined pattern `p4` (candidate area first).
pub(crate) fn find_cell(board: &Board, c: Color, p4: Pattern4) -> Option<Pos> {
    board
        .candidates()
        .find(|&p| board.pattern4(p, c) == p4)
        .or_else(|| board.empty_points().find(|&p| board.pattern4(p, c) == p4))
}

/// Classifies the position for the side to move.
pub(crate) fn threat(board: &Board) -> Threat {
    let me = board.side_to_move();
    let opp = me.opp();
    if board.pattern4_count(me, Pattern4::Five) > 0 {
        return Threat::Win(1);
    }
    let opp_fives = board.pattern4_count(opp, Pattern4::Five);
    if opp_fives >= 2 {
        return Threat::Loss(2);
    }
    if opp_fives == 1 {
        return match find_cell(board, opp, Pattern4::Five) {
            Some(q) if can_play(board, q, me) => Threat::Block(q),
            Some(_) => Threat::Loss(2),
            None => Threat::None,
        };
    }
    if board.pattern4_count(me, Pattern4::Flex4) > 0 {
        return Threat::Win(3);
    }
    if board.pattern4_count(opp, Pattern4::Flex4) > 0 {
        return Threat::Defend;
    }
    Threat::None
}

/// Whether move ordering adds the per-direction line shapes (costly lookups) to the cell value.
const LINE_ORDER: bool = false;

/// Ordering value of `p` for the mover `me`.
#[inline]
fn cell_order(board: &Board, p: Pos, me: Color) -> (i32, Pattern4) {
    let opp = me.opp();
    let pair = board.pattern4_pair(p);
    let (a, d) = (pair[me.index()], pair[opp.index()]);
    let mut s = ORDER_ATTACK[a as usize] + ORDER_DEFEND[d as usize];
    if LINE_ORDER {
        for dir in 0..4 {
            s += ORDER_LINE_ME[board.pattern(p, me, dir) as usize];
            s += ORDER_LINE_OPP[board.pattern(p, opp, dir) as usize];
        }
    }
    if a >= Pattern4::Block4 || d >= Pattern4::Block4Flex3 {
        s += FORCING_ORDER;
    }
    (s, a)
}

/// Moves for the side to move at an inner node facing `threat`, with ordering scores.
/// Empty for `Threat::Defend` when no defence exists (the node is lost).
pub(crate) fn generate(board: &mut Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let me = board.side_to_move();
    match threat {
        Threat::Block(q) => out.push((q, FORCING_ORDER)),
        Threat::Defend => generate_defence(board, me, out),
        _ => generate_all(board, me, out),
    }
}

/// Root moves: as `generate`, but a lost or won position still gets every candidate.
pub(crate) fn generate_root(board: &Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let mut b = board.clone();
    let me = board.side_to_move();
    match threat {
        Threat::Block(_) | Threat::Defend => generate(&mut b, threat, out),
        _ => {}
    }
    if out.is_empty() {
        generate_all(board, me, out);
    }
}

fn generate_all(board: &Board, me: Color, out: &mut Vec<(Pos, i32)>) {
    for p in board.candidates() {
        let (s, a) = cell_order(board, p, me);
        if a == Pattern4::Forbid {
            continue;
        }
        out.push((p, s));
    }
}

/// A 1024-bit set of dense point indices.
struct PosSet([u64; Pos::COUNT / 64]);

impl PosSet {
    fn insert(&mut self, p: Pos) -> bool {
        let (w, b) = (p.index() / 64, p.index() % 64);
        let new = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        new
    }
}

/// Do `a` and `b` share a line (row, column or diagonal) at most `reach` steps apart?
fn on_line_within(a: Pos, b: Pos, reach: i32) -> bool {
    let dx = (b.x() as i32 - a.x() as i32).abs();
    let dy = (b.y() as i32 - a.y() as i32).abs();
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
}

/// Against an opponent's open-four threat: every point on the threat lines that leaves the
/// opponent no open four and no five, plus all own fours.
fn generate_defence(board: &mut Board, me: Color, out: &mut Vec<(Pos, i32)>) {
    let opp = me.opp();
    let mut seen = PosSet([0; Pos::COUNT / 64]);
    // Stack lists (no allocation per node); sizes bound what any real position needs.
    let mut cand = [Pos::NONE; 256];
    let mut n_cand = 0;
    let mut threats = [Pos::NONE; 32];
    let mut n_threats = 0;
    // Four points lie beside stones, so in the candidate area: stop at the last one.
    let n_flex4 = (board.pattern4_count(opp, Pattern4::Flex4) as usize).min(threats.len());
    for p in board.candidates() {
        if n_threats == n_flex4 {
            break;
        }
        if board.four_class(p, opp) == Pattern4::Flex4 {
            threats[n_threats] = p;
            n_threats += 1;
        }
    }
    let mut push = |q: Pos, cand: &mut [Pos; 256]| {
        if n_cand < cand.len() {
            cand[n_cand] = q;
            n_cand += 1;
        }
    };
    for &f in &threats[..n_threats] {
        if seen.insert(f) {
            push(f, &mut cand);
        }
        for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
            if board.pattern(f, opp, dir) < crate::board::Pattern::Block4 {
                continue;
            }
            for k in (-5..=5).filter(|&k| k != 0) {
                let (x, y) = (f.x() as i32 + dx * k, f.y() as i32 + dy * k);
                if let Some(q) = board.pos(x, y) {
                    if board.is_empty(q) && seen.insert(q) {
                        push(q, &mut cand);
                    }
                }
            }
        }
    }
    // A point that cannot touch some threat point's codes leaves that point an open four.
    // Not applied against renju Black, whose classes also depend on the exact 3-3 test of
    // cells farther away.
    let reach = board.line_reach();
    let prefilter = !(opp == Color::Black && board.rule().kind == RuleKind::Renju);
    for &q in &cand[..n_cand] {
        if prefilter
            && !threats[..n_threats]
                .iter()
                .all(|&f| f == q || on_line_within(f, q, reach))
        {
            continue;
        }
        let (s, a) = cell_order(board, q, me);
        if a == Pattern4::Forbid {
            continue;
        }
        if a >= Pattern4::Block4 {
            continue; // own fours are added below
        }
        board.make_move_as(q, me);
        let ok = board.pattern4_count(opp, Pattern4::Flex4) == 0
            && board.pattern4_count(opp, Pattern4::Five) == 0;
        board.undo();
        if ok {
            out.push((q, s + FORCING_ORDER / 2));
        }
    }
    let mut own_fours =
        four_cell_count(board, me) + board.pattern4_count(me, Pattern4::Five) as usize;
    for p in board.candidates() {
        if own_fours == 0 {
            break;
        }
        let a = board.four_class(p, me);
        if a >= Pattern4::Block4 {
            own_fours -= 1;
            let (s, _) = cell_order(board, p, me);
            out.push((p, s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_line_within_needs_a_shared_line_and_the_reach() {
        let c = Pos::new(7, 7);
        assert!(on_line_within(c, Pos::new(11, 7), 4));
        assert!(!on_line_within(c, Pos::new(12, 7), 4));
        assert!(on_line_within(c, Pos::new(12, 7), 5));
        assert!(on_line_within(c, Pos::new(3, 11), 4));
        assert!(on_line_within(c, Pos::new(2, 2), 5));
        assert!(!on_line_within(c, Pos::new(8, 9), 5));
        assert!(!on_line_within(c, Pos::new(9, 8), 5));
    }
}
