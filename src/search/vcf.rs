//! VCF (victory by continuous fours): the attacker plays only fours, the defender only the
//! forced block. Used as quiescence at the leaves and as a root solver. Renju-correct: Black's
//! forbidden points are never attacking fours nor counter-blocks, and a White four whose only
//! block is forbidden to Black wins at once.

use crate::board::{Board, GenKind, Pattern4};
use crate::core::{Color, Pos};

use super::budget::Budget;
use super::params::{MAX_FOUR_MOVES, NEAR_LINE, NEAR_SQUARE};

/// Searches a VCF for `attacker`, who must be the side to move, with at most `max_fours`
/// attacking fours. Each visited node costs one unit of `budget` (stops at 0). Returns the
/// number of plies to the five (1 = five now).
pub fn vcf(board: &mut Board, attacker: Color, max_fours: i32, budget: &mut u64) -> Option<u32> {
    let mut b = Budget::nodes(*budget);
    let r = rec(board, attacker, max_fours, &mut b, None, None);
    *budget = b.nodes;
    r
}

/// As [`vcf`] with the attacker's fours kept near the attacker's last stone, and each later
/// four near the one before (a leaf's quick look: a VCF that starts far from the attacker's
/// last stone, or jumps across the board, is not looked for).
pub fn vcf_near(
    board: &mut Board,
    attacker: Color,
    max_fours: i32,
    budget: &mut u64,
) -> Option<u32> {
    let last = board
        .history()
        .rev()
        .find(|&(_, c)| c == attacker)
        .map(|(p, _)| p);
    let mut b = Budget::nodes(*budget);
    let r = rec(board, attacker, max_fours, &mut b, None, last);
    *budget = b.nodes;
    r
}

/// [`is_near_offset`] for the points `c` and `p` (the tests' reference).
#[cfg(test)]
fn is_near(c: Pos, p: Pos) -> bool {
    let dx = c.x().abs_diff(p.x());
    let dy = c.y().abs_diff(p.y());
    (dx <= NEAR_SQUARE && dy <= NEAR_SQUARE)
        || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= NEAR_LINE)
}

/// Side of the square that holds every point near a centre.
const NEAR_SPAN: usize = 2 * NEAR_LINE + 1;

/// The points near a centre as offsets `(dx, dy)`, row by row (the order of the board's own
/// walk), in the front of a table big enough for the whole square, and how many there are.
const NEAR_TABLE: ([(i8, i8); NEAR_SPAN * NEAR_SPAN], usize) = {
    let r = NEAR_LINE as i32;
    let mut out = [(0i8, 0i8); NEAR_SPAN * NEAR_SPAN];
    let mut n = 0;
    let mut dy = -r;
    while dy <= r {
        let mut dx = -r;
        while dx <= r {
            if is_near_offset(dx, dy) {
                out[n] = (dx as i8, dy as i8);
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    (out, n)
};

/// Offsets `(dx, dy)` of the points near a centre (see [`is_near_offset`]), row by row.
const NEAR_OFFSETS: &[(i8, i8)] = NEAR_TABLE.0.split_at(NEAR_TABLE.1).0;

/// Whether the point at offset `(dx, dy)` from a centre is near it: within `NEAR_SQUARE`
/// cells in both directions, or on one of the centre's four lines within `NEAR_LINE` cells.
const fn is_near_offset(dx: i32, dy: i32) -> bool {
    let (ax, ay) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    let square = ax <= NEAR_SQUARE && ay <= NEAR_SQUARE;
    let line = (ax == 0 || ay == 0 || ax == ay) && (if ax > ay { ax } else { ay }) <= NEAR_LINE;
    square || line
}

/// The attacker's fours near `c` (see [`is_near_offset`]) with their classes, in the board's walk
/// order, as many as `buf` holds; returns how many. Reads only the near points instead of
/// walking the whole candidate area.
fn near_fours(b: &Board, att: Color, c: Pos, buf: &mut [(Pos, Pattern4)]) -> usize {
    let mut len = 0;
    b.fours_at_offsets(c, att, NEAR_OFFSETS, |p, a| {
        if len < buf.len() {
            buf[len] = (p, a);
            len += 1;
        }
    });
    len
}

/// As [`vcf`], also returning the first move and the winning line; deepens the number of
/// fours one at a time so that the shortest VCF is found first.
pub fn vcf_root(
    board: &mut Board,
    attacker: Color,
    max_fours: i32,
    budget: &mut u64,
) -> Option<(Pos, u32, Vec<Pos>)> {
    let mut b = Budget::nodes(*budget);
    let r = vcf_root_limited(board, attacker, max_fours, &mut b);
    *budget = b.nodes;
    r
}

/// As [`vcf_root`] with a [`Budget`] that may also end at a deadline or on a stop flag.
pub fn vcf_root_limited(
    board: &mut Board,
    attacker: Color,
    max_fours: i32,
    budget: &mut Budget,
) -> Option<(Pos, u32, Vec<Pos>)> {
    // Shortest first: a deep depth-first search would waste the budget on long sequences.
    for fours in 1..=max_fours {
        let mut line = Vec::new();
        if let Some(plies) = rec(board, attacker, fours, budget, Some(&mut line), None) {
            line.reverse();
            let first = *line.first()?;
            return Some((first, plies, line));
        }
        if budget.spent() {
            break;
        }
    }
    None
}

/// How a VCF node stands before any of the attacker's fours is tried.
enum NodeStart {
    /// The attacker has won: its point of this pattern (a five, or an open four) ends the
    /// game in this many plies.
    Won(Pattern4, u32),
    /// No VCF from here.
    Failed,
    /// The fours to try are the first this many of the buffer, best first.
    Fours(usize),
}

/// What the attacker's four at a point leaves on the board.
enum FourReply {
    /// Not a four after all (a renju rule or a broken line): taken back.
    NoFour,
    /// Two five points, or one the defender may not take: the attack wins (taken back).
    Wins,
    /// The four stands on the board and the defender must block at this point.
    Block(Pos),
}

/// `near`: when set, the attacker's fours (other than a forced counter-block) must lie near
/// this point (see [`is_near_offset`]), and each four becomes the next level's `near`.
fn rec(
    b: &mut Board,
    att: Color,
    fours_left: i32,
    budget: &mut Budget,
    line: Option<&mut Vec<Pos>>,
    near: Option<Pos>,
) -> Option<u32> {
    if !budget.take() {
        return None;
    }
    // A fixed stack list: this runs at every search leaf, so no allocation per node.
    let mut buf = [(Pos::NONE, Pattern4::None); MAX_FOUR_MOVES];
    let len = match node_start(b, att, fours_left, near, &mut buf) {
        NodeStart::Won(pattern, plies) => {
            if let Some(l) = line {
                // Line stored reversed: after an open four, (block, five) are left implicit.
                l.push(b.first_point_with(att, pattern)?);
            }
            return Some(plies);
        }
        NodeStart::Failed => return None,
        NodeStart::Fours(len) => len,
    };
    let def = att.opp();
    for &(m, a) in &buf[..len] {
        let reply = if a == Pattern4::Flex4 {
            FourReply::Wins
        } else {
            play_four(b, att, m)
        };
        let q = match reply {
            FourReply::NoFour => continue,
            FourReply::Wins => {
                if let Some(l) = line {
                    l.push(m);
                }
                return Some(3);
            }
            FourReply::Block(q) => q,
        };
        b.make_move_as(q, def);
        let mut sub = Vec::new();
        let r = rec(
            b,
            att,
            fours_left - 1,
            budget,
            line.as_ref().map(|_| &mut sub),
            near.map(|_| m),
        );
        b.undo();
        b.undo();
        if let Some(plies) = r {
            if let Some(l) = line {
                l.extend(sub);
                l.push(q);
                l.push(m);
            }
            return Some(plies + 2);
        }
        if budget.spent() {
            return None;
        }
    }
    None
}

/// The attacker's fours to try at a VCF node, into `buf`: the forced counter-block when the
/// defender has a five point, else every four (near `near` when set), best class first; or
/// the node's end when the attacker has already won or cannot go on.
#[inline]
fn node_start(
    b: &mut Board,
    att: Color,
    fours_left: i32,
    near: Option<Pos>,
    buf: &mut [(Pos, Pattern4); MAX_FOUR_MOVES],
) -> NodeStart {
    let def = att.opp();
    if b.pattern4_count(att, Pattern4::Five) > 0 {
        return NodeStart::Won(Pattern4::Five, 1);
    }
    let def_fives = b.pattern4_count(def, Pattern4::Five);
    if def_fives >= 2 || fours_left <= 0 {
        return NodeStart::Failed;
    }
    if def_fives == 1 {
        let Some(q) = b.first_point_with(def, Pattern4::Five) else {
            return NodeStart::Failed;
        };
        let a = b.pattern4(q, att);
        if a < Pattern4::Block4 || !b.can_play(q, att) {
            return NodeStart::Failed;
        }
        buf[0] = (q, a);
        return NodeStart::Fours(1);
    }
    if b.pattern4_count(att, Pattern4::Flex4) > 0 {
        return NodeStart::Won(Pattern4::Flex4, 3);
    }
    let mut len = 0;
    match near {
        Some(c) => len = near_fours(b, att, c, buf),
        None => b.generate(att, GenKind::Fours, |_, p, a| {
            if len < buf.len() {
                buf[len] = (p, a);
                len += 1;
            }
        }),
    }
    if len == 0 {
        return NodeStart::Failed;
    }
    buf[..len].sort_by_key(|m| std::cmp::Reverse(m.1));
    NodeStart::Fours(len)
}

/// Plays the attacker's four at `m` and reads the defender's answer. The attacker had no
/// five point before `m` (the caller checked), so every one now is new and lies on a line
/// through `m`.
#[inline]
fn play_four(b: &mut Board, att: Color, m: Pos) -> FourReply {
    b.make_move_as(m, att);
    let fives = b.pattern4_count(att, Pattern4::Five);
    let block = if fives == 1 {
        b.five_point_near(m, att)
    } else {
        None
    };
    match (fives, block) {
        (0, _) | (1, None) => {
            b.undo();
            FourReply::NoFour
        }
        (1, Some(q)) if b.can_play(q, att.opp()) => FourReply::Block(q),
        _ => {
            b.undo();
            FourReply::Wins
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::search::bench::board_from_moves;

    const BUDGET: u64 = 10_000;

    /// Black to move with a VCF of two fours: f3 (a closed four on row 3 against White's b3,
    /// White blocks g3), then i6 (an open four on the diagonal f3-i6 and a four on column i).
    /// The moves end with White's last stone and, before it, Black's `last`.
    fn vcf_board(extra: &str) -> Board {
        let moves = format!("c3 b3 d3 i10 e3 a15 g4 c15 i7 o1 i8 o3 i9 o5 h5 o7 {extra}");
        board_from_moves(Rule::FREESTYLE, 15, moves.trim()).unwrap()
    }

    #[test]
    fn near_fours_are_the_walks_fours_near_the_centre() {
        for rule in [Rule::FREESTYLE, Rule::RENJU] {
            crate::board::testutil::random_games(rule, 29, 60, 60, |b| {
                let att = b.side_to_move();
                let last = b.history().last().map(|(p, _)| p).unwrap_or(Pos::NONE);
                for c in [last, Pos::new(0, 0), Pos::new(14, 3)] {
                    let mut want = Vec::new();
                    b.generate(att, GenKind::Fours, |_, p, a| {
                        if is_near(c, p) {
                            want.push((p, a));
                        }
                    });
                    let mut buf = [(Pos::NONE, Pattern4::None); MAX_FOUR_MOVES];
                    let n = near_fours(b, att, c, &mut buf);
                    assert_eq!(buf[..n], want[..]);
                }
                true
            });
        }
        // The table holds exactly the near points, row by row.
        let c = Pos::new(7, 7);
        let mut walk = Vec::new();
        for y in 0..15 {
            for x in 0..15 {
                if is_near(c, Pos::new(x, y)) {
                    walk.push((x as i32 - 7, y as i32 - 7));
                }
            }
        }
        let table: Vec<(i32, i32)> = NEAR_OFFSETS
            .iter()
            .map(|&(dx, dy)| (i32::from(dx), i32::from(dy)))
            .collect();
        assert_eq!(table, walk);
    }

    #[test]
    fn nearness_is_a_small_square_or_a_short_line() {
        let c = Pos::new(7, 7);
        for (x, y, near) in [
            (9, 9, true),
            (5, 6, true),
            (11, 7, true),
            (3, 11, true),
            (12, 7, false),
            (9, 10, false),
            (10, 8, false),
        ] {
            assert_eq!(is_near(c, Pos::new(x, y)), near, "({x}, {y})");
        }
    }

    #[test]
    fn a_leaf_vcf_looks_only_near_the_attackers_last_stone() {
        // Black's last stone h5 is two cells from f3, and i6 lies on f3's diagonal: found.
        let mut b = vcf_board("");
        assert_eq!(b.pattern4_count(Color::Black, Pattern4::Flex4), 0);
        assert_eq!(
            vcf_near(&mut b, Color::Black, 6, &mut BUDGET.clone()),
            Some(5)
        );
        // Black's last stone m12 is far from both first fours (f3, i6): the full VCF finds
        // the win, the near one does not look there.
        let mut b = vcf_board("m12 o9");
        assert_eq!(vcf(&mut b, Color::Black, 6, &mut BUDGET.clone()), Some(5));
        assert_eq!(vcf_near(&mut b, Color::Black, 6, &mut BUDGET.clone()), None);
    }
}
