//! Soosõrv-N opening decisions (Yixin-Board's `YXSOOSORVSTEP1..6`), made with fixed-node
//! searches as the Swap2 ones are (see `swap2`): deterministic for a position and budget,
//! ended early by the stop flag.
//!
//! The rule: the first player puts one of the 26 canonical openings (three stones around the
//! centre); the second may swap; White plays the fourth move and names N; the players may
//! swap again; Black offers N fifth moves, different under the board's symmetries; White
//! picks one of them and plays on.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::swap2::{search_fixed, Swap2Budget, DECISION_FACTOR, SWAP_MARGIN};
use crate::board::Board;
use crate::core::{Pos, Symmetry};
use crate::eval::evaluate;
use crate::search::{Score, Searcher};

/// N named with the fourth move when White is fine.
pub const EVEN_FIFTH_MOVES: i64 = 2;
/// N named when White is worse than [`SWAP_MARGIN`] after its fourth move: more offers
/// give White more to choose from.
pub const BEHIND_FIFTH_MOVES: i64 = 3;
/// Fifth-move candidates (best by static evaluation) searched before offering N of them.
const FIFTH_CANDIDATES: usize = 12;
/// How far from the centre the third opening stone may be (the 5x5 square).
const OPENING_RADIUS: i32 = 2;

/// One step's answer (the protocol layer prints it as `MESSAGE SOOSORV …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoosorvReply {
    /// Step 1: the three opening stones.
    Opening(Vec<Pos>),
    /// Steps 2 and 4: swap colours or not.
    Swap(bool),
    /// Step 3: White's fourth move and the number of fifth moves Black must offer.
    Fourth(Pos, i64),
    /// Step 5: the fifth moves offered.
    Fifths(Vec<Pos>),
    /// Step 6: the offered fifth move chosen.
    Choice(Pos),
}

/// What to decide: `step`, the stones in play order (`board`), N for steps 4-5, and for step
/// 6 the offered fifth moves.
#[allow(missing_docs)]
#[derive(Clone)]
pub struct SoosorvQuestion {
    pub step: u8,
    pub board: Board,
    pub n: i64,
    pub offered: Vec<Pos>,
}

/// The answer to `q`, or `None` when the position does not fit the step. The question's
/// board may be bare: the decision evaluates a prepared copy.
pub(crate) fn decide(
    searcher: &mut Searcher,
    q: &SoosorvQuestion,
    budget: &Swap2Budget,
    stop: &AtomicBool,
) -> Option<SoosorvReply> {
    let mut score = |b: &Board, factor: u64| -> (Pos, Score) {
        search_fixed(searcher, b, budget.probe_nodes.saturating_mul(factor), stop)
    };
    // Its static evaluations read the current learned tables, whatever the question holds.
    let mut prepared = q.board.clone();
    crate::eval::prepare(&mut prepared);
    let b = &prepared;
    let reply = match (q.step, b.stone_count()) {
        (1, 0) => SoosorvReply::Opening(opening(b, &mut score, stop)?),
        // The second player takes Black when White's best move scores clearly below 0.
        (2, 3) => SoosorvReply::Swap(score(b, DECISION_FACTOR).1 <= -SWAP_MARGIN),
        (3, 3) => {
            let (mv, s) = score(b, DECISION_FACTOR);
            let n = if s <= -SWAP_MARGIN {
                BEHIND_FIFTH_MOVES
            } else {
                EVEN_FIFTH_MOVES
            };
            SoosorvReply::Fourth(mv, n)
        }
        // Black swaps to White unless Black's best fifth move is clearly good.
        (4, 4) => SoosorvReply::Swap(score(b, DECISION_FACTOR).1 < SWAP_MARGIN),
        (5, 4) => SoosorvReply::Fifths(fifths(b, q.n.max(1) as usize, &mut score)?),
        (6, 4) => SoosorvReply::Choice(choose_fifth(b, &q.offered, &mut score)?),
        _ => return None,
    };
    searcher.drop_scratch();
    Some(reply)
}

/// The answer without search (static evaluation, simple moves): what the watchdog answers
/// with when a decision overruns its time. Evaluates with the learned tables whether or not
/// the question's board has them installed.
pub fn static_reply(q: &SoosorvQuestion) -> Option<SoosorvReply> {
    let mut prepared = q.board.clone();
    crate::eval::prepare(&mut prepared);
    let b = &prepared;
    let eval_after = |stones: &[Pos]| {
        let mut a = b.clone();
        for &p in stones {
            a.make_move(p);
        }
        evaluate(&a)
    };
    Some(match (q.step, b.stone_count()) {
        (1, 0) => SoosorvReply::Opening(
            canonical_openings(b)
                .into_iter()
                .min_by_key(|o| eval_after(o).abs())?,
        ),
        (2, 3) | (4, 4) => SoosorvReply::Swap(false),
        (3, 3) => SoosorvReply::Fourth(b.simple_move(), EVEN_FIFTH_MOVES),
        (5, 4) => SoosorvReply::Fifths(fifths(b, q.n.max(1) as usize, &mut |a: &Board, _| {
            (Pos::NONE, evaluate(a))
        })?),
        (6, 4) => SoosorvReply::Choice(*q.offered.iter().find(|&&p| b.is_legal(p))?),
        _ => return None,
    })
}

/// The 26 canonical openings of an empty board (centre stone, a direct or diagonal second,
/// a third within the 5x5 square), one per symmetry class, as stone lists.
pub fn canonical_openings(b: &Board) -> Vec<Vec<Pos>> {
    let (w, h) = (b.width() as i32, b.height() as i32);
    let (cx, cy) = (w / 2, h / 2);
    let at = |dx: i32, dy: i32| b.pos(cx + dx, cy + dy);
    let mut seen: Vec<Vec<u64>> = Vec::new();
    let mut out = Vec::new();
    for second in [(1, 0), (1, 1)] {
        for dy in -OPENING_RADIUS..=OPENING_RADIUS {
            for dx in -OPENING_RADIUS..=OPENING_RADIUS {
                let (Some(c), Some(s), Some(t)) = (at(0, 0), at(second.0, second.1), at(dx, dy))
                else {
                    continue;
                };
                if t == c || t == s {
                    continue;
                }
                let key = class_key(&[c, s, t], w as usize, h as usize);
                if !seen.contains(&key) {
                    seen.push(key);
                    out.push(vec![c, s, t]);
                }
            }
        }
    }
    out
}

/// A key equal for stone lists (Black, White, Black) that are symmetric images.
fn class_key(stones: &[Pos], w: usize, h: usize) -> Vec<u64> {
    let mut keys: Vec<Vec<u64>> = Symmetry::of_board(w, h)
        .iter()
        .map(|s| {
            let mut k: Vec<u64> = stones
                .iter()
                .enumerate()
                .map(|(i, &p)| {
                    let q = s.apply(p, w, h);
                    ((i % 2) as u64) << 32 | (q.y() * w + q.x()) as u64
                })
                .collect();
            k.sort_unstable();
            k
        })
        .collect();
    keys.sort();
    keys.swap_remove(0)
}

/// Step 1: the canonical opening after which White's best move scores closest to 0.
fn opening(
    b: &Board,
    score: &mut impl FnMut(&Board, u64) -> (Pos, Score),
    stop: &AtomicBool,
) -> Option<Vec<Pos>> {
    let mut best: Option<(Score, Vec<Pos>)> = None;
    for stones in canonical_openings(b) {
        if stop.load(Relaxed) && best.is_some() {
            break;
        }
        let mut pos = b.clone();
        for &p in &stones {
            pos.make_move(p);
        }
        let s = score(&pos, 1).1.abs();
        if best.as_ref().is_none_or(|(bs, _)| s < *bs) {
            best = Some((s, stones));
        }
    }
    best.map(|(_, s)| s)
}

/// Step 5: the `n` fifth moves best for Black, no two symmetric images of each other.
fn fifths(
    b: &Board,
    n: usize,
    score: &mut impl FnMut(&Board, u64) -> (Pos, Score),
) -> Option<Vec<Pos>> {
    let (w, h) = (b.width(), b.height());
    let stones: Vec<Pos> = b.history().map(|(p, _)| p).collect();
    let mut cands: Vec<(Score, Pos)> = b
        .legal_moves()
        .into_iter()
        .filter(|&p| b.is_candidate(p, 2))
        .map(|p| {
            let mut a = b.clone();
            a.make_move(p);
            // Static score for White to move: lower is better for Black.
            (evaluate(&a), p)
        })
        .collect();
    cands.sort_by_key(|c| c.0);
    cands.truncate(FIFTH_CANDIDATES);
    let mut scored: Vec<(Score, Pos)> = cands
        .into_iter()
        .map(|(_, p)| {
            let mut a = b.clone();
            a.make_move(p);
            (score(&a, 1).1, p)
        })
        .collect();
    scored.sort_by_key(|c| c.0);
    let mut picked: Vec<Pos> = Vec::new();
    let mut classes: Vec<Vec<u64>> = Vec::new();
    for (_, p) in scored {
        let mut all = stones.clone();
        all.push(p);
        let key = class_key(&all, w, h);
        if !classes.contains(&key) {
            classes.push(key);
            picked.push(p);
        }
        if picked.len() == n {
            break;
        }
    }
    (!picked.is_empty()).then_some(picked)
}

/// Step 6: the offered fifth move after which White's best move scores highest.
fn choose_fifth(
    b: &Board,
    offered: &[Pos],
    score: &mut impl FnMut(&Board, u64) -> (Pos, Score),
) -> Option<Pos> {
    offered
        .iter()
        .filter(|&&p| b.is_legal(p))
        .map(|&p| {
            let mut a = b.clone();
            a.make_move(p);
            (score(&a, 1).1, p)
        })
        .max_by_key(|c| c.0)
        .map(|c| c.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    #[test]
    fn there_are_26_openings() {
        let b = Board::new(15, 15, Rule::RENJU).unwrap();
        let all = canonical_openings(&b);
        assert_eq!(all.len(), 26);
        assert!(all.iter().all(|o| o[0] == Pos::new(7, 7)));
    }

    /// The static answers of a bare board (the watchdog's question holds one) are those of
    /// the prepared board the engine's own decisions evaluate.
    #[test]
    fn the_static_answers_read_the_learned_tables() {
        let question = |step: u8, stones: &[(usize, usize)], prepared: bool| {
            let mut board = Board::new(15, 15, Rule::RENJU).unwrap();
            if prepared {
                crate::eval::prepare(&mut board);
            }
            for &(x, y) in stones {
                board.make_move(Pos::new(x, y));
            }
            SoosorvQuestion {
                step,
                board,
                n: 3,
                offered: Vec::new(),
            }
        };
        let cases: [(u8, &[(usize, usize)]); 4] = [
            (1, &[]),
            (5, &[(7, 7), (8, 8), (9, 9), (6, 8)]),
            (5, &[(7, 7), (8, 7), (9, 7), (8, 8)]),
            (5, &[(7, 7), (8, 8), (8, 6), (6, 6)]),
        ];
        for (step, stones) in cases {
            let bare = static_reply(&question(step, stones, false));
            assert!(bare.is_some(), "step {step} {stones:?}");
            assert_eq!(
                bare,
                static_reply(&question(step, stones, true)),
                "step {step} {stones:?}"
            );
        }
    }

    /// The searched answers too: a bare question (the engine's job holds one) is decided as
    /// the prepared one, the fifth moves' static ranking included.
    #[test]
    fn the_decisions_read_the_learned_tables() {
        let budget = Swap2Budget {
            probe_nodes: 300,
            max_ms: 0,
        };
        let stop = AtomicBool::new(false);
        let stones: [&[(usize, usize)]; 3] = [
            &[(7, 7), (8, 8), (9, 9), (6, 8)],
            &[(7, 7), (8, 7), (9, 7), (8, 8)],
            &[(7, 7), (8, 8), (8, 6), (6, 6)],
        ];
        for stones in stones {
            let mut bare = Board::new(15, 15, Rule::RENJU).unwrap();
            for &(x, y) in stones {
                bare.make_move(Pos::new(x, y));
            }
            let mut prepared = bare.clone();
            crate::eval::prepare(&mut prepared);
            let ask = |board: &Board| {
                let q = SoosorvQuestion {
                    step: 5,
                    board: board.clone(),
                    n: 3,
                    offered: Vec::new(),
                };
                decide(&mut Searcher::new(1 << 20), &q, &budget, &stop)
            };
            let answer = ask(&bare);
            assert!(answer.is_some(), "{stones:?}");
            assert_eq!(answer, ask(&prepared), "{stones:?}");
        }
    }
}
