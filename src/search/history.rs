//! Per-thread move-ordering memory: killer moves per ply, a counter-move table and butterfly
//! histories per colour (one for all moves, and one kept apart for attacking moves when
//! `attack_history` is on).

use crate::core::{Color, Pos};

use super::params::{history_bonus_max, history_max, MAX_TRIED_MOVES, PLY_STACK_LEN};

/// Killers and history for one search thread.
pub struct History {
    killers: Vec<[Pos; 2]>,
    hist: Vec<[i32; Pos::COUNT]>,
    /// Per colour: history of moves that make an open three or better (`attack_history`).
    attack: Vec<[i32; Pos::COUNT]>,
    /// Continuation history (`cont_history`): per colour and opponent's previous move, a score
    /// per reply within `CONT_SPAN` cells of it in both coordinates.
    cont: Vec<i32>,
    /// Per colour, indexed by the opponent's previous move: the last quiet move that refuted it.
    counter: Vec<[Pos; Pos::COUNT]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: vec![[Pos::NONE; 2]; PLY_STACK_LEN],
            hist: vec![[0; Pos::COUNT]; 2],
            attack: vec![[0; Pos::COUNT]; 2],
            cont: Vec::new(),
            counter: vec![[Pos::NONE; Pos::COUNT]; 2],
        }
    }
}

impl History {
    /// This memory, prepared for the next search (which `self` is left empty for): killers
    /// cleared (their plies no longer match), every score halved, counter moves kept.
    pub fn take_aged(&mut self) -> History {
        let mut h = std::mem::take(self);
        h.killers.fill([Pos::NONE; 2]);
        for v in h.hist.iter_mut().chain(h.attack.iter_mut()).flatten() {
            *v /= 2;
        }
        for v in h.cont.iter_mut() {
            *v /= 2;
        }
        h
    }

    /// The two killer moves at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Pos; 2] {
        self.killers[ply]
    }

    /// History score of `c` playing `p`.
    #[inline]
    pub fn score(&self, c: Color, p: Pos) -> i32 {
        self.hist[c.index()][p.index()]
    }

    /// Attack-history score of `c` playing `p` (a move making an open three or better).
    #[inline]
    pub fn attack_score(&self, c: Color, p: Pos) -> i32 {
        self.attack[c.index()][p.index()]
    }

    /// Continuation-history score of `c` answering the opponent's `prev` with `p` (0 when
    /// the table is off, `prev` is none or `p` lies outside the span around it).
    #[inline]
    pub fn cont_score(&self, c: Color, prev: Pos, p: Pos) -> i32 {
        match cont_index(c, prev, p) {
            Some(i) if !self.cont.is_empty() => self.cont[i],
            _ => 0,
        }
    }

    /// Records a cutoff by `best` answering the opponent's `prev`, after `tried`, in the
    /// continuation history (allocated on first use).
    pub fn update_cont(&mut self, c: Color, prev: Pos, depth: i32, best: Pos, tried: &[Pos]) {
        if prev.is_none() {
            return;
        }
        if self.cont.is_empty() {
            self.cont = vec![0; 2 * Pos::COUNT * CONT_CELLS];
        }
        let bonus = (depth * depth).min(history_bonus_max());
        let table = &mut self.cont;
        let mut add = |p: Pos, b: i32| {
            if let Some(i) = cont_index(c, prev, p) {
                nudge(&mut table[i], b);
            }
        };
        add(best, bonus);
        for &p in tried.iter().filter(|&&p| p != best) {
            add(p, -bonus);
        }
    }

    /// The move of `c` that last refuted the opponent's `prev` (`Pos::NONE` if none).
    #[inline]
    pub fn counter(&self, c: Color, prev: Pos) -> Pos {
        if prev.is_none() {
            return Pos::NONE;
        }
        self.counter[c.index()][prev.index()]
    }

    /// Records a beta cutoff by `best` at `ply`, answering the opponent's `prev`, after trying
    /// the moves in `tried` first.
    pub fn update(
        &mut self,
        c: Color,
        ply: usize,
        depth: i32,
        prev: Pos,
        best: Pos,
        tried: &[Pos],
    ) {
        self.set_counter(c, prev, best);
        self.update_killer(ply, best);
        self.update_scores(c, depth, best, tried);
    }

    /// Makes `best` the first killer move at `ply` (the old first becomes the second).
    pub fn update_killer(&mut self, ply: usize, best: Pos) {
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }

    /// Records `best` as the move of `c` that refuted the opponent's `prev` (if any).
    pub fn set_counter(&mut self, c: Color, prev: Pos, best: Pos) {
        if !prev.is_none() {
            self.counter[c.index()][prev.index()] = best;
        }
    }

    /// Records a beta cutoff by `best` in the history scores only (no killer or counter move),
    /// after trying the moves in `tried` first: for nodes whose moves are not quiet choices.
    pub fn update_scores(&mut self, c: Color, depth: i32, best: Pos, tried: &[Pos]) {
        bump_table(&mut self.hist[c.index()], depth, Some(best), tried);
    }

    /// Records a cutoff in the two score tables by kind of move: `attack(p)` says whether `p`
    /// makes an open three or better. An attacking `best` gains in the attack table, a quiet
    /// one in the main table; attacking moves tried before it always lose in the attack
    /// table, quiet ones in the main table only when `best` is quiet as well.
    pub fn update_split_scores(
        &mut self,
        c: Color,
        depth: i32,
        best: Pos,
        tried: &[Pos],
        attack: impl Fn(Pos) -> bool,
    ) {
        let mut attacks = [Pos::NONE; MAX_TRIED_MOVES];
        let mut quiets = [Pos::NONE; MAX_TRIED_MOVES];
        let (mut na, mut nq) = (0, 0);
        for &p in tried.iter().filter(|&&p| p != best) {
            if attack(p) {
                attacks[na] = p;
                na += 1;
            } else {
                quiets[nq] = p;
                nq += 1;
            }
        }
        let i = c.index();
        if attack(best) {
            bump_table(&mut self.attack[i], depth, Some(best), &attacks[..na]);
        } else {
            bump_table(&mut self.attack[i], depth, None, &attacks[..na]);
            bump_table(&mut self.hist[i], depth, Some(best), &quiets[..nq]);
        }
    }
}

/// Replies further than this from the opponent's previous move (in x or y) have no
/// continuation-history entry.
const CONT_SPAN: usize = 7;
/// Continuation-history entries per colour and previous move.
const CONT_CELLS: usize = (2 * CONT_SPAN + 1) * (2 * CONT_SPAN + 1);

/// Index of `c` answering `prev` with `p` in the continuation history, if `p` is near `prev`.
#[inline]
fn cont_index(c: Color, prev: Pos, p: Pos) -> Option<usize> {
    if prev.is_none() {
        return None;
    }
    let dx = p.x() + CONT_SPAN - prev.x();
    let dy = p.y() + CONT_SPAN - prev.y();
    let side = 2 * CONT_SPAN + 1;
    if p.x() + CONT_SPAN < prev.x() || p.y() + CONT_SPAN < prev.y() || dx >= side || dy >= side {
        return None;
    }
    Some((c.index() * Pos::COUNT + prev.index()) * CONT_CELLS + dy * side + dx)
}

/// Adds `bonus` to a history entry, the change shrinking as the entry nears `history_max`.
#[inline]
fn nudge(v: &mut i32, bonus: i32) {
    *v += bonus - *v * bonus.abs() / history_max();
}

/// Moves one history table towards a cutoff at `depth`: `best` (if any) up, `tried` down,
/// each change shrinking as the entry nears `history_max`.
fn bump_table(table: &mut [i32; Pos::COUNT], depth: i32, best: Option<Pos>, tried: &[Pos]) {
    let bonus = (depth * depth).min(history_bonus_max());
    let mut add = |p: Pos, b: i32| nudge(&mut table[p.index()], b);
    if let Some(b) = best {
        add(b, bonus);
    }
    for &p in tried {
        if Some(p) != best {
            add(p, -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_and_history_update() {
        let mut h = History::default();
        let (a, b) = (Pos::new(1, 1), Pos::new(2, 2));
        let prev = Pos::new(5, 5);
        h.update(Color::Black, 3, 4, Pos::NONE, a, &[b, a]);
        h.update(Color::Black, 3, 4, prev, b, &[b]);
        assert_eq!(h.killers(3), [b, a]);
        assert_eq!(h.counter(Color::Black, prev), b);
        assert_eq!(h.counter(Color::White, prev), Pos::NONE);
        assert_eq!(h.counter(Color::Black, Pos::NONE), Pos::NONE);
        assert!(h.score(Color::Black, a) > 0);
        assert_eq!(h.score(Color::White, a), 0);
    }

    #[test]
    fn score_only_update_leaves_killers_and_counters_alone() {
        let mut h = History::default();
        let (a, b) = (Pos::new(1, 1), Pos::new(2, 2));
        h.update_scores(Color::White, 5, a, &[b, a]);
        assert!(h.score(Color::White, a) > 0);
        assert!(h.score(Color::White, b) < 0);
        assert_eq!(h.killers(0), [Pos::NONE; 2]);
        assert_eq!(h.counter(Color::White, b), Pos::NONE);
        h.set_counter(Color::White, b, a);
        assert_eq!(h.counter(Color::White, b), a);
    }

    #[test]
    fn split_update_routes_attacks_and_quiets_to_their_tables() {
        let mut h = History::default();
        let (att, att2, q) = (Pos::new(1, 1), Pos::new(2, 2), Pos::new(3, 3));
        let is_attack = |p: Pos| p == att || p == att2;
        // An attacking cutoff after a quiet move and another attack: the quiet move keeps its
        // main score, the other attack loses.
        h.update_split_scores(Color::Black, 4, att, &[q, att2], is_attack);
        assert!(h.attack_score(Color::Black, att) > 0);
        assert!(h.attack_score(Color::Black, att2) < 0);
        assert_eq!(h.score(Color::Black, q), 0);
        assert_eq!(h.score(Color::Black, att), 0);
        // A quiet cutoff after an attack: main table up for it, attack table down.
        h.update_split_scores(Color::White, 4, q, &[att, q], is_attack);
        assert!(h.score(Color::White, q) > 0);
        assert!(h.attack_score(Color::White, att) < 0);
        assert_eq!(h.attack_score(Color::White, q), 0);
    }

    #[test]
    fn continuation_history_is_per_previous_move_and_local() {
        let mut h = History::default();
        let prev = Pos::new(7, 7);
        let (near, near2, far) = (Pos::new(8, 6), Pos::new(0, 14), Pos::new(15, 7));
        assert_eq!(h.cont_score(Color::Black, prev, near), 0);
        h.update_cont(Color::Black, prev, 4, near, &[near2, far]);
        assert!(h.cont_score(Color::Black, prev, near) > 0);
        assert!(h.cont_score(Color::Black, prev, near2) < 0);
        assert_eq!(h.cont_score(Color::Black, prev, far), 0);
        assert_eq!(h.cont_score(Color::White, prev, near), 0);
        assert_eq!(h.cont_score(Color::Black, Pos::new(7, 8), near), 0);
        assert_eq!(h.cont_score(Color::Black, Pos::NONE, near), 0);
    }

    #[test]
    fn aged_memory_keeps_halved_scores_and_counters_but_no_killers() {
        let mut h = History::default();
        let (a, prev) = (Pos::new(4, 4), Pos::new(5, 5));
        h.update(Color::Black, 2, 8, prev, a, &[]);
        h.update_cont(Color::Black, prev, 8, a, &[]);
        let (s, c) = (
            h.score(Color::Black, a),
            h.cont_score(Color::Black, prev, a),
        );
        let aged = h.take_aged();
        assert_eq!(aged.score(Color::Black, a), s / 2);
        assert_eq!(aged.cont_score(Color::Black, prev, a), c / 2);
        assert_eq!(aged.counter(Color::Black, prev), a);
        assert_eq!(aged.killers(2), [Pos::NONE; 2]);
        assert_eq!(h.score(Color::Black, a), 0);
    }
}
