//! Per-thread move-ordering memory: killer moves per ply, a counter-move table and a
//! butterfly history per colour.

use crate::core::{Color, Pos};

use super::params::{history_bonus_max, history_max, PLY_STACK_LEN};

/// Killers and history for one search thread.
pub struct History {
    killers: Vec<[Pos; 2]>,
    hist: Vec<[i32; Pos::COUNT]>,
    /// Per colour, indexed by the opponent's previous move: the last quiet move that refuted it.
    counter: Vec<[Pos; Pos::COUNT]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: vec![[Pos::NONE; 2]; PLY_STACK_LEN],
            hist: vec![[0; Pos::COUNT]; 2],
            counter: vec![[Pos::NONE; Pos::COUNT]; 2],
        }
    }
}

impl History {
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
        bump_table(&mut self.hist[c.index()], depth, best, tried);
    }
}

/// Adds `bonus` to a history entry, the change shrinking as the entry nears `history_max`.
#[inline]
fn nudge(v: &mut i32, bonus: i32) {
    *v += bonus - *v * bonus.abs() / history_max();
}

/// Moves one history table towards a cutoff at `depth`: `best` up, `tried` down, each
/// change shrinking as the entry nears `history_max`.
fn bump_table(table: &mut [i32; Pos::COUNT], depth: i32, best: Pos, tried: &[Pos]) {
    let bonus = (depth * depth).min(history_bonus_max());
    let mut add = |p: Pos, b: i32| nudge(&mut table[p.index()], b);
    add(best, bonus);
    for &p in tried {
        if p != best {
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
}
