//! Threat-space proof-number search (depth-first proof numbers, df-pn): proves a win by
//! continuous threats (fours and open threes) for the side to move.
//!
//! The move sets are those of the tools' depth-first VCT solver (`tools/src/vct.rs`): the
//! attacker plays fours and three-making moves (only fours while it faces an open three, only
//! the block while it faces a four); the defender answers a four with its block and an open
//! three with every defence the board's generator knows, its own fours included. So a proof holds against every defence, renju
//! forbidden points included, and a threat the defence generator does not recognise ends the
//! line unproved.
//!
//! Unlike the depth-first VCT solver, the search keeps proof and disproof numbers of every
//! position it has expanded in a [`ProofTable`]: threats played in another order are proved
//! once, and the search always goes on where the fewest defender replies are left to refute.
//! Lines of 20-40 plies with a few replies at each three cost thousands of nodes, not millions.
//!
//! Numbers are kept negamax-style for the side to move: `phi` is the work left to prove that
//! the side to move gets its way (the attacker wins, or the defender escapes), `delta` the work
//! to prove the opposite. A node's `phi` is the least `delta` of its children and its `delta`
//! the sum of their `phi`.

use crate::board::{Board, GenKind, Pattern4, Threat, UNDEFENDED_THREAT_LOSS_PLIES};
use crate::core::{Color, Pos};

use super::budget::Budget;

/// A win by continuous threats (fours and open threes) for the side to move: the first move,
/// the plies to the five (attacker's moves included), and the line as far as it was recorded.
pub type VctWin = (Pos, u32, Vec<Pos>);

/// Proof numbers at or above this count as infinite (a proved or disproved node).
const INF: u32 = 1 << 28;
/// Positions deeper than this many plies below the root are left unproved (the defender holds).
const MAX_PROOF_PLY: usize = 100;
/// Initial `delta` of the defender's node after an attacking move that is not a four: the
/// defender usually has a few replies to an open three (after a four it has one).
const THREE_REPLIES_GUESS: u32 = 3;
/// Entries per table bucket (an empty or unsettled one is replaced first).
const BUCKET: usize = 4;
/// Table entries per node of the budget ([`ProofTable::for_budget`]).
const ENTRIES_PER_NODE: u64 = 4;
/// Nodes the measure of a found proof (its length and line) may spend proving again
/// positions whose entries the table lost.
const LENGTH_NODES: u64 = 50_000;
/// Smallest and largest table sizes [`ProofTable::for_budget`] picks (log2 of entries; the
/// largest is 8 MiB, which the memory plan's base overhead covers: one table exists at a time).
const MIN_TABLE_BITS: u32 = 12;
const MAX_TABLE_BITS: u32 = 19;
/// Keys of positions the attacker is White are distinguished from Black's by this mask.
const WHITE_ATTACKER_KEY: u64 = 0x2545_F491_4F6C_DD1D;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    phi: u32,
    delta: u32,
}

impl Entry {
    fn settled(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// Proof and disproof numbers of searched positions, by hash (a few MiB).
pub struct ProofTable {
    entries: Vec<Entry>,
    mask: usize,
}

impl ProofTable {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> ProofTable {
        let n = 1usize << bits.max(BUCKET.trailing_zeros());
        ProofTable {
            entries: vec![Entry::default(); n],
            mask: n - 1,
        }
    }

    /// A table sized for a search of `nodes` nodes (a few entries a node, within bounds).
    pub fn for_budget(nodes: u64) -> ProofTable {
        let wanted = nodes.saturating_mul(ENTRIES_PER_NODE);
        let bits = (64 - wanted.leading_zeros()).clamp(MIN_TABLE_BITS, MAX_TABLE_BITS);
        ProofTable::new(bits)
    }

    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let i = (key as usize) & self.mask & !(BUCKET - 1);
        self.entries[i..i + BUCKET]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.phi, e.delta))
    }

    fn put(&mut self, key: u64, phi: u32, delta: u32) {
        let i = (key as usize) & self.mask & !(BUCKET - 1);
        let bucket = &mut self.entries[i..i + BUCKET];
        let new = Entry { key, phi, delta };
        let slot = bucket
            .iter()
            .position(|e| e.key == key)
            .or_else(|| bucket.iter().position(|e| e.key == 0))
            // Settled entries are worth most (they end searches at once); unsettled ones are
            // cheap to rebuild.
            .or_else(|| bucket.iter().position(|e| !e.settled()))
            .or_else(|| new.settled().then_some((key >> 32) as usize % BUCKET));
        if let Some(i) = slot {
            bucket[i] = new;
        }
    }
}

/// A move of an expanded node with its child's numbers.
#[derive(Clone, Copy)]
struct Child {
    mv: Pos,
    key: u64,
    phi: u32,
    delta: u32,
}

/// What a node is: settled at once (`phi`, `delta`), or its moves.
enum Expansion {
    Settled(u32, u32),
    Moves(Vec<Child>),
}

/// One proof search: the board (played along the searched line), the attacker and the budget.
struct Prover<'t, 'b> {
    board: &'t mut Board,
    att: Color,
    table: &'t mut ProofTable,
    budget: &'t mut Budget<'b>,
    ply: usize,
}

/// Proves a win by threats for the side to move on `board` within `budget` nodes, using (and
/// filling) `table`, which may be reused for other positions with the same attacker colour.
/// Returns the first move, the plies to the five against the longest defence, and that line.
pub fn prove(board: &mut Board, table: &mut ProofTable, budget: &mut Budget) -> Option<VctWin> {
    let att = board.side_to_move();
    let mut p = Prover {
        board,
        att,
        table,
        budget,
        ply: 0,
    };
    let (phi, _) = p.mid(INF, INF);
    if phi != 0 {
        return None;
    }
    // Measuring the proof may need to prove again positions whose entries were replaced:
    // it has a budget of its own, so that a proof found at the end of the budget counts.
    let mut extra = Budget::nodes(LENGTH_NODES);
    let mut p = Prover {
        budget: &mut extra,
        ..p
    };
    let mut memo = std::collections::HashMap::new();
    let plies = p.win_length(&mut memo)?;
    let line = p.winning_line(&memo);
    let first = *line.first()?;
    Some((first, plies, line))
}

impl Prover<'_, '_> {
    fn key(&self) -> u64 {
        salt(self.board.hash(), self.att)
    }

    fn attacker_to_move(&self) -> bool {
        self.board.side_to_move() == self.att
    }

    /// The node's moves, or its numbers when the threats on the board settle it.
    fn expand(&mut self) -> Expansion {
        let proved = Expansion::Settled(0, INF);
        let refuted = Expansion::Settled(INF, 0);
        let threat = self.board.threat();
        let me = self.board.side_to_move();
        let mut moves: Vec<(Pos, Pattern4)> = Vec::new();
        if self.attacker_to_move() {
            if self.ply >= MAX_PROOF_PLY {
                return refuted;
            }
            match threat {
                Threat::Win(_) => return proved,
                Threat::Loss(_) => return refuted,
                Threat::Block(q) => moves.push((q, self.board.pattern4(q, me))),
                // Facing an open three: fours, and defences that make a three of its own.
                Threat::Defend => self.board.generate(me, GenKind::Defences, |_, p, a| {
                    if a >= Pattern4::Flex3 {
                        moves.push((p, a))
                    }
                }),
                Threat::None => self
                    .board
                    .generate(me, GenKind::Threats, |_, p, a| moves.push((p, a))),
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        } else {
            match threat {
                Threat::Win(_) | Threat::None => return proved,
                Threat::Loss(_) => return refuted,
                Threat::Block(q) => moves.push((q, Pattern4::None)),
                Threat::Defend => self
                    .board
                    .generate(me, GenKind::Defences, |_, p, a| moves.push((p, a))),
            }
        }
        if moves.is_empty() {
            return refuted;
        }
        let attacking = self.attacker_to_move();
        let children = moves
            .into_iter()
            .map(|(mv, a)| {
                let key = salt(self.board.hash_after(mv), self.att);
                let (phi, delta) = self.table.get(key).unwrap_or_else(|| {
                    if attacking && a < Pattern4::Block4 {
                        (1, THREE_REPLIES_GUESS)
                    } else {
                        (1, 1)
                    }
                });
                Child {
                    mv,
                    key,
                    phi,
                    delta,
                }
            })
            .collect();
        Expansion::Moves(children)
    }

    /// Searches the node until its `phi` reaches `th_phi` or its `delta` reaches `th_delta`
    /// (or the budget runs out); stores and returns its numbers.
    fn mid(&mut self, th_phi: u32, th_delta: u32) -> (u32, u32) {
        let key = self.key();
        if !self.budget.take() {
            return self.table.get(key).unwrap_or((1, 1));
        }
        let mut children = match self.expand() {
            Expansion::Settled(phi, delta) => {
                self.table.put(key, phi, delta);
                return (phi, delta);
            }
            Expansion::Moves(c) => c,
        };
        loop {
            let (phi, delta) = numbers(&children);
            if phi >= th_phi || delta >= th_delta || self.budget.spent() {
                self.table.put(key, phi, delta);
                return (phi, delta);
            }
            let (best, delta2) = most_promising(&children);
            let c = children[best];
            // The child may rise until the parent's delta reaches its threshold, and its delta
            // until it is no longer the cheapest (with a little slack against thrashing).
            let child_th_phi = (th_delta - delta).saturating_add(c.phi).min(INF);
            let child_th_delta = th_phi.min(delta2.saturating_add(delta2 / 4 + 1)).min(INF);
            self.board.make_move(c.mv);
            self.ply += 1;
            let (p, d) = self.mid(child_th_phi, child_th_delta);
            self.ply -= 1;
            self.board.undo();
            children[best].phi = p;
            children[best].delta = d;
        }
    }

    /// Plies to the five from this node (proved for the attacker) against the longest
    /// defence, the attacker taking its shortest proved line; `memo` keeps each position's.
    fn win_length(&mut self, memo: &mut std::collections::HashMap<u64, u32>) -> Option<u32> {
        let key = self.key();
        if let Some(&n) = memo.get(&key) {
            return Some(n);
        }
        let attacking = self.attacker_to_move();
        let n = match self.board.threat() {
            Threat::Win(n) if attacking => n,
            Threat::Loss(n) if !attacking => n,
            Threat::Defend
                if !attacking && {
                    let mut any = false;
                    let me = self.board.side_to_move();
                    self.board
                        .generate(me, GenKind::Defences, |_, _, _| any = true);
                    !any
                } =>
            {
                UNDEFENDED_THREAT_LOSS_PLIES
            }
            _ => self.inner_length(memo)?,
        };
        memo.insert(key, n);
        Some(n)
    }

    /// [`Self::win_length`] of an inner node: through its proved children.
    fn inner_length(&mut self, memo: &mut std::collections::HashMap<u64, u32>) -> Option<u32> {
        let Expansion::Moves(children) = self.expand() else {
            return None;
        };
        let attacking = self.attacker_to_move();
        let mut best: Option<u32> = None;
        for c in children {
            // A child proved for the attacker: a defender node with delta 0, an attacker node
            // with phi 0. One lost from the table is proved again.
            let proved = |pd: (u32, u32)| if attacking { pd.1 == 0 } else { pd.0 == 0 };
            if attacking && !proved((c.phi, c.delta)) {
                continue;
            }
            self.board.make_move(c.mv);
            self.ply += 1;
            let len = if proved((c.phi, c.delta)) || proved(self.mid(INF, INF)) {
                self.win_length(memo)
            } else {
                None
            };
            self.ply -= 1;
            self.board.undo();
            match (attacking, len) {
                (true, Some(l)) => best = Some(best.map_or(l + 1, |b| b.min(l + 1))),
                (false, Some(l)) => best = Some(best.map_or(l + 1, |b| b.max(l + 1))),
                (false, None) => return None,
                (true, None) => {}
            }
        }
        best
    }

    /// The line of [`Self::win_length`] from this node (which `memo` covers).
    fn winning_line(&mut self, memo: &std::collections::HashMap<u64, u32>) -> Vec<Pos> {
        let mut line = Vec::new();
        let mut played = 0;
        while let Some(&n) = memo.get(&self.key()) {
            let attacking = self.attacker_to_move();
            let mut pick: Option<Pos> = None;
            if let Expansion::Moves(children) = self.expand() {
                pick = children
                    .iter()
                    .find(|c| memo.get(&c.key).is_some_and(|&l| l + 1 == n))
                    .map(|c| c.mv);
            }
            let Some(mv) = pick else {
                if attacking {
                    let kind = if n == 1 {
                        Pattern4::Five
                    } else {
                        Pattern4::Flex4
                    };
                    line.extend(self.board.first_point_with(self.att, kind));
                }
                break;
            };
            line.push(mv);
            self.board.make_move(mv);
            played += 1;
        }
        for _ in 0..played {
            self.board.undo();
        }
        line
    }
}

/// The table key of a position with hash `hash` for attacker `att`.
fn salt(hash: u64, att: Color) -> u64 {
    match att {
        Color::Black => hash,
        Color::White => hash ^ WHITE_ATTACKER_KEY,
    }
}

/// A node's numbers from its children's: `phi` the least child `delta`, `delta` the sum of
/// the children's `phi` (both capped at [`INF`]).
fn numbers(children: &[Child]) -> (u32, u32) {
    let phi = children.iter().map(|c| c.delta).min().unwrap_or(INF);
    let delta = children
        .iter()
        .fold(0u32, |s, c| s.saturating_add(c.phi))
        .min(INF);
    (phi, delta)
}

/// The child with the least `delta` (the first of equals) and the second least `delta`.
fn most_promising(children: &[Child]) -> (usize, u32) {
    let mut best = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate().skip(1) {
        if c.delta < children[best].delta {
            second = children[best].delta;
            best = i;
        } else if c.delta < second {
            second = c.delta;
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::search::bench::board_from_moves;

    fn prove_moves(rule: Rule, moves: &str, nodes: u64) -> Option<VctWin> {
        let mut b = board_from_moves(rule, 15, moves).unwrap();
        let before = b.hash();
        let mut table = ProofTable::for_budget(nodes);
        let mut budget = Budget::nodes(nodes);
        let found = prove(&mut b, &mut table, &mut budget);
        assert_eq!(b.hash(), before, "the board is restored");
        assert!(budget.used <= nodes);
        found
    }

    /// Plays `line` from `moves` and checks that it ends in a five for the side that began it.
    fn assert_line_wins(rule: Rule, moves: &str, line: &[Pos]) {
        let mut b = board_from_moves(rule, 15, moves).unwrap();
        let att = b.side_to_move();
        for &p in line {
            assert!(
                b.is_legal(p),
                "{moves}: {} not legal in the line",
                p.to_human()
            );
            b.make_move(p);
        }
        // The line ends with the attacker's winning point: a five, or an open four whose
        // two fives the defender cannot both take.
        let last = *line.last().unwrap();
        assert_eq!(b.cell(last), crate::core::Cell::Stone(att), "{moves}");
    }

    #[test]
    fn proves_a_double_three_with_its_line() {
        // Black's open twos h8 i8 and j10 j11 cross at j8: a double three (freestyle).
        let moves = "h8 a1 i8 a15 j10 o1 j11 o15";
        let (mv, plies, line) = prove_moves(Rule::FREESTYLE, moves, 100_000).expect("a win");
        assert_eq!(line.first(), Some(&mv));
        assert!(plies % 2 == 1 && (5..=9).contains(&plies), "plies {plies}");
        assert_line_wins(Rule::FREESTYLE, moves, &line);
    }

    #[test]
    fn nothing_to_prove_without_threats() {
        assert!(prove_moves(Rule::FREESTYLE, "h8 a1 j10 o15", 100_000).is_none());
        assert!(prove_moves(Rule::RENJU, "h8 i9 j10", 100_000).is_none());
    }

    #[test]
    fn renju_black_double_three_is_not_a_win() {
        // The same shape for Black in renju: j8 is a forbidden 3-3.
        let moves = "h8 a1 i8 a15 j10 o1 j11 o15";
        let j8 = Pos::from_human("j8").unwrap();
        if let Some((mv, _, line)) = prove_moves(Rule::RENJU, moves, 100_000) {
            assert_ne!(mv, j8);
            assert_line_wins(Rule::RENJU, moves, &line);
        }
    }

    #[test]
    fn an_open_three_to_move_is_a_win_in_three() {
        // Black to move with an open three: the open four, a block, the five.
        let moves = "h8 a1 i8 a15 j8 o1";
        let (_, plies, line) = prove_moves(Rule::FREESTYLE, moves, 10_000).expect("a win");
        assert_eq!(plies, 3);
        assert_line_wins(Rule::FREESTYLE, moves, &line);
    }

    #[test]
    fn a_spent_budget_proves_nothing() {
        let moves = "h8 a1 i8 a15 j10 o1 j11 o15";
        assert!(prove_moves(Rule::FREESTYLE, moves, 1).is_none());
    }

    #[test]
    fn table_keeps_settled_entries() {
        // One bucket of four entries: keys 4, 8, 12, 16 all fall in it.
        let mut t = ProofTable::new(2);
        for k in [4, 8, 12, 16] {
            t.put(k, 0, INF);
        }
        // Full of settled entries: an unsettled one does not push them out.
        t.put(20, 5, 5);
        assert_eq!(t.get(20), None);
        for k in [4, 8, 12, 16] {
            assert_eq!(t.get(k), Some((0, INF)));
        }
        t.put(4, 3, 3);
        assert_eq!(t.get(4), Some((3, 3)), "a key's own entry is updated");
        // Now one entry is unsettled: a new key takes its place.
        t.put(24, 7, 7);
        assert_eq!(t.get(24), Some((7, 7)));
        assert_eq!(t.get(4), None);
    }
}
