//! VCF (victory by continuous fours): the attacker plays only fours, the defender only the
//! forced block. Used as quiescence at the leaves and as a root solver. Renju-correct: Black's
//! forbidden points are never attacking fours nor counter-blocks, and a White four whose only
//! block is forbidden to Black wins at once.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use crate::board::{Board, Pattern4};
use crate::core::{Color, Pos};

use super::movegen::{can_play, find_cell, DIRS};

/// The first empty cell within four steps of `m` on its lines where `c` has a five.
fn five_near(board: &Board, m: Pos, c: Color) -> Option<Pos> {
    for &(dx, dy) in &DIRS {
        for k in [-4, -3, -2, -1, 1, 2, 3, 4] {
            let (x, y) = (m.x() as i32 + dx * k, m.y() as i32 + dy * k);
            if let Some(q) = board.pos(x, y) {
                if board.four_class(q, c) == Pattern4::Five {
                    return Some(q);
                }
            }
        }
    }
    None
}

/// The classes of a point that makes a four (but not a five).
const FOUR_CLASSES: [Pattern4; 4] = [
    Pattern4::Block4,
    Pattern4::Block4Plus,
    Pattern4::Block4Flex3,
    Pattern4::Flex4,
];

/// How many points make a four (not a five) for `c`. Read off the pattern counts.
#[inline]
pub(crate) fn four_cell_count(b: &Board, c: Color) -> usize {
    FOUR_CLASSES
        .iter()
        .map(|&p4| b.pattern4_count(c, p4) as usize)
        .sum()
}

/// Most four-making moves one VCF node tries (more never occur in real positions).
const MAX_FOUR_MOVES: usize = 64;

/// Nodes between two looks at the clock and the stop flag in the threat solvers.
const SOLVER_POLL: u64 = 256;

/// A node budget for the threat solvers, optionally bounded by a stop flag and a deadline
/// (polled every [`SOLVER_POLL`] nodes). Once exhausted or stopped, `nodes` is 0 and stays 0.
pub struct Budget<'a> {
    /// Nodes left.
    pub nodes: u64,
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    next_poll: u64,
    /// True when the stop flag or the deadline ended the search (not the node count).
    pub interrupted: bool,
    /// Nodes taken so far.
    pub used: u64,
}

impl<'a> Budget<'a> {
    /// A plain node budget.
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            nodes,
            stop: None,
            deadline: None,
            next_poll: 0,
            interrupted: false,
            used: 0,
        }
    }

    /// A node budget that also ends when `stop` is set or at `deadline`.
    pub fn limited(nodes: u64, stop: &'a AtomicBool, deadline: Option<Instant>) -> Budget<'a> {
        Budget {
            nodes,
            stop: Some(stop),
            deadline,
            next_poll: nodes.saturating_sub(SOLVER_POLL),
            interrupted: false,
            used: 0,
        }
    }

    /// Takes one node; false when the budget is spent (or the search was interrupted).
    #[inline]
    pub fn take(&mut self) -> bool {
        if self.nodes == 0 {
            return false;
        }
        self.nodes -= 1;
        self.used += 1;
        if self.nodes <= self.next_poll && self.stop.is_some() {
            self.next_poll = self.nodes.saturating_sub(SOLVER_POLL);
            self.poll();
        }
        true
    }

    /// True when nothing is left.
    #[inline]
    pub fn spent(&self) -> bool {
        self.nodes == 0
    }

    fn poll(&mut self) {
        let stopped = self.stop.is_some_and(|s| s.load(Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d);
        if stopped {
            self.nodes = 0;
            self.interrupted = true;
        }
    }
}

/// Searches a VCF for `attacker`, who must be the side to move, with at most `max_fours`
/// attacking fours. Each visited node costs one unit of `budget` (stops at 0). Returns the
/// number of plies to the five (1 = five now).
pub fn vcf(board: &mut Board, attacker: Color, max_fours: i32, budget: &mut u64) -> Option<u32> {
    let mut b = Budget::nodes(*budget);
    let r = rec(board, attacker, max_fours, &mut b, None);
    *budget = b.nodes;
    r
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
        if let Some(plies) = rec(board, attacker, fours, budget, Some(&mut line)) {
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

fn rec(
    b: &mut Board,
    att: Color,
    fours_left: i32,
    budget: &mut Budget,
    line: Option<&mut Vec<Pos>>,
) -> Option<u32> {
    if !budget.take() {
        return None;
    }
    let def = att.opp();
    if b.pattern4_count(att, Pattern4::Five) > 0 {
        if let Some(l) = line {
            l.push(find_cell(b, att, Pattern4::Five)?);
        }
        return Some(1);
    }
    let def_fives = b.pattern4_count(def, Pattern4::Five);
    if def_fives >= 2 || fours_left <= 0 {
        return None;
    }
    let fours = four_cell_count(b, att);
    if def_fives == 0 && fours == 0 {
        return None;
    }
    // A fixed stack list: this runs at every search leaf, so no allocation per node.
    let mut buf = [(Pos::NONE, Pattern4::None); MAX_FOUR_MOVES];
    let mut len = 0;
    if def_fives == 1 {
        let q = find_cell(b, def, Pattern4::Five)?;
        let a = b.pattern4(q, att);
        if a < Pattern4::Block4 || !can_play(b, q, att) {
            return None;
        }
        buf[0] = (q, a);
        len = 1;
    } else {
        if b.pattern4_count(att, Pattern4::Flex4) > 0 {
            if let Some(l) = line {
                // Line stored reversed: the open four then (block, five) left implicit.
                l.push(find_cell(b, att, Pattern4::Flex4)?);
            }
            return Some(3);
        }
        // Every four point lies beside a stone, so in the candidate area: stop at the last.
        let fours = fours.min(MAX_FOUR_MOVES);
        for p in b.candidates() {
            if len == fours {
                break;
            }
            let a = b.four_class(p, att);
            if a >= Pattern4::Block4 {
                buf[len] = (p, a);
                len += 1;
            }
        }
        buf[..len].sort_by_key(|m| std::cmp::Reverse(m.1));
    }
    for &(m, a) in &buf[..len] {
        if a == Pattern4::Flex4 {
            if let Some(l) = line {
                l.push(m);
            }
            return Some(3);
        }
        b.make_move_as(m, att);
        // The attacker had no five point before `m` (checked above), so every one now is
        // new and lies on a line through `m`.
        let fives = b.pattern4_count(att, Pattern4::Five);
        let block = if fives == 1 {
            five_near(b, m, att)
        } else {
            None
        };
        let q = match (fives, block) {
            (0, _) | (1, None) => {
                b.undo();
                continue;
            }
            (1, Some(q)) if can_play(b, q, def) => q,
            // Two five points, or one the defender may not take: the attack wins.
            _ => {
                b.undo();
                if let Some(l) = line {
                    l.push(m);
                }
                return Some(3);
            }
        };
        b.make_move_as(q, def);
        let mut sub = Vec::new();
        let r = rec(
            b,
            att,
            fours_left - 1,
            budget,
            line.as_ref().map(|_| &mut sub),
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
