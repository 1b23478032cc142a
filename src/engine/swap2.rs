//! Swap2 opening decisions for SWAP2BOARD, made with the engine's own search.
//!
//! A decision runs as an engine job ([`Engine::go_swap2`]) on the search thread, with the
//! engine's searcher, stop flag and watchdog. Every decision rests on [`probe`]: a
//! fixed-node, single-thread search from an emptied table (the searcher's scratch table, see
//! [`Searcher::search_from_scratch`]), whose score is from the side to move's point of view.
//! Fixed nodes make the answers deterministic; the time cap ([`Swap2Budget::max_ms`], which
//! the watchdog enforces) is only a safety net for slow machines. When the stop flag is set
//! (STOP, or the time cap) the decision is made at once from the searches done so far.
//!
//! - 0 stones: canonical three-stone shapes (two Black, one White) around the centre are
//!   ranked by static evaluation; the most even ones are searched and the one whose score is
//!   closest to 0 is proposed.
//! - 3 stones (we are the second player, White to move): `S` = the search score of White's
//!   best move. `S <= -SWAP_MARGIN`: Black is clearly better, `SWAP`. `S >= -PLAY_MARGIN`:
//!   White is fine, play that move. In between (Black a little better, within the noise of a
//!   short search): add one White and one Black stone that bring the score closest to 0 and
//!   hand the choice back; if no pair balances better than the position already is, take
//!   the better colour instead.
//! - 5 stones (we are the first player, White to move): `SWAP` (take Black) when White's best
//!   move still scores below 0, otherwise play that move as White.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};

use super::{Answer, Engine, EngineEvent, Notify, Settings};
use crate::board::Board;
use crate::core::{Color, Pos, Symmetry};
use crate::eval::evaluate;
use crate::search::{pick_simple_move, Score, SearchLimits, Searcher};

/// Main-table size of the private engine of [`respond_with`] (its probes use the scratch
/// table).
const PRIVATE_ENGINE_HASH_BYTES: usize = 1 << 16;
/// Nodes of one probe with the default budget.
pub const DEFAULT_PROBE_NODES: u64 = 5_000;
/// Wall-clock cap of one decision with the default budget, ms.
pub const DEFAULT_MAX_MS: u64 = 3_000;
/// Stone pairs searched when balancing a three-stone position.
const BALANCE_CANDIDATES: usize = 24;
/// The most even candidates of the first round that are searched again, deeper.
const REFINE_CANDIDATES: usize = 4;
/// Nodes of a second-round search, in probes.
pub const REFINE_FACTOR: u64 = 8;
/// The position's own search (the move we might play) gets this many probes' worth of nodes.
pub const DECISION_FACTOR: u64 = 16;
/// Probes' worth of nodes one decision may spend at most (sizes the node budget from time).
const PROBES_PER_DECISION: u64 =
    DECISION_FACTOR + BALANCE_CANDIDATES as u64 + REFINE_CANDIDATES as u64 * REFINE_FACTOR;
/// Search speed assumed when turning a time budget into nodes (measured: 600-700 per ms on a
/// loaded 2-core machine, 15x15; renju is slower).
const ASSUMED_NODES_PER_MS: u64 = 250;
/// With 3 stones: White's best move scoring at most `-SWAP_MARGIN` means Black is good.
pub const SWAP_MARGIN: Score = 100;
/// With 3 stones: White's best move scoring at least `-PLAY_MARGIN` means White is fine.
pub const PLAY_MARGIN: Score = 30;

/// Our answer to SWAP2BOARD (the protocol layer prints it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Reply {
    /// Take the other colour.
    Swap,
    /// Stones to place, in order (three, two or one).
    Moves(Vec<Pos>),
}

/// How much work one Swap2 decision may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swap2Budget {
    /// Nodes of one probe search (deterministic part of the budget).
    pub probe_nodes: u64,
    /// Wall-clock cap for the whole decision in ms (safety net; 0 = static choices only).
    pub max_ms: u64,
}

impl Default for Swap2Budget {
    fn default() -> Self {
        Swap2Budget {
            probe_nodes: DEFAULT_PROBE_NODES,
            max_ms: DEFAULT_MAX_MS,
        }
    }
}

impl Swap2Budget {
    /// The budget for the session's time settings: at most a third of `timeout_turn`
    /// (30 s when never sent), a quarter of `time_left` when known, and 3 s. The node count
    /// shrinks with the time so that a short turn stays short.
    pub fn for_time(timeout_turn_ms: Option<i64>, time_left_ms: Option<i64>) -> Swap2Budget {
        let turn = timeout_turn_ms
            .unwrap_or(crate::search::time::DEFAULT_TURN_MS)
            .max(0) as u64;
        let mut ms = (turn / 3).min(DEFAULT_MAX_MS);
        if let Some(left) = time_left_ms {
            ms = ms.min(left.max(0) as u64 / 4);
        }
        let nodes = (ms * ASSUMED_NODES_PER_MS / PROBES_PER_DECISION).min(DEFAULT_PROBE_NODES);
        Swap2Budget {
            probe_nodes: nodes.max(if ms == 0 { 0 } else { 200 }),
            max_ms: ms,
        }
    }

    /// [`Swap2Budget::for_time`] for the protocol settings.
    /// `INFO max_node` bounds every probe too, as it bounds every move search.
    pub fn for_settings(s: &Settings) -> Swap2Budget {
        let mut budget = Swap2Budget::for_time(s.timeout_turn_ms, s.time_left_ms);
        if s.max_nodes > 0 {
            budget.probe_nodes = budget.probe_nodes.min(s.max_nodes);
        }
        budget
    }
}

/// Runs the fixed-node searches of one decision; gives up once `stop` is set (STOP or the
/// time cap). Without a searcher every search is skipped: static choices only.
struct Prober<'a> {
    searcher: Option<&'a mut Searcher>,
    nodes: u64,
    stop: &'a AtomicBool,
}

impl Prober<'_> {
    /// Best move and score (side to move's view) of a search with `factor` probes' worth of
    /// nodes; `None` without a searcher, when the budget is zero, or once the stop flag is
    /// set (a search cut short has no trustworthy score).
    fn search(&mut self, board: &Board, factor: u64) -> Option<(Pos, Score)> {
        let searcher = self.searcher.as_deref_mut()?;
        if self.nodes == 0 || self.stop.load(Relaxed) {
            return None;
        }
        let r = search_fixed(
            searcher,
            board,
            self.nodes.saturating_mul(factor),
            self.stop,
        );
        (!self.stop.load(Relaxed)).then_some(r)
    }
}

/// A one-thread search of `board` limited by `nodes` only (and `stop`), from an emptied
/// table: the same input gives the same result. The time cap is left to the stop flag: a
/// time limit per search would make the node budgets depend on the clock.
pub(crate) fn search_fixed(
    searcher: &mut Searcher,
    board: &Board,
    nodes: u64,
    stop: &AtomicBool,
) -> (Pos, Score) {
    let limits = SearchLimits {
        max_nodes: Some(nodes.max(1)),
        threads: 1,
        ..SearchLimits::default()
    };
    let r = searcher.search_from_scratch(board, &limits, stop);
    (r.best, r.score)
}

/// The score for the side to move of a fixed-node search of `board` (emptied table, one
/// thread, no time limit): the measure every Swap2 decision uses. Deterministic.
pub fn probe(board: &Board, nodes: u64) -> Score {
    let mut s = Searcher::new(PRIVATE_ENGINE_HASH_BYTES);
    search_fixed(&mut s, board, nodes, &AtomicBool::new(false)).1
}

/// The decision for `board` (see [`respond_with`]) with `searcher`, until `stop` is set:
/// then the searches done so far decide. Runs on the engine's search thread. `board` may be
/// bare: the decision evaluates a prepared copy.
pub(crate) fn decide(
    searcher: &mut Searcher,
    board: &Board,
    budget: &Swap2Budget,
    stop: &AtomicBool,
) -> Option<Swap2Reply> {
    let reply = decide_with(
        board,
        &mut Prober {
            searcher: Some(&mut *searcher),
            nodes: budget.probe_nodes,
            stop,
        },
    );
    searcher.drop_scratch();
    reply
}

/// The decision without any search (static evaluation and simple moves): what the
/// watchdog answers with when a decision overruns, and the protocol layer's fallback.
/// Evaluates with the learned tables whether or not `board` has them installed.
pub fn static_reply(board: &Board) -> Option<Swap2Reply> {
    let stop = AtomicBool::new(false);
    decide_with(
        board,
        &mut Prober {
            searcher: None,
            nodes: 0,
            stop: &stop,
        },
    )
}

/// Both decisions: their static evaluations read the current learned tables on a prepared
/// copy, whatever `board` holds.
fn decide_with(board: &Board, prober: &mut Prober) -> Option<Swap2Reply> {
    let mut prepared = board.clone();
    crate::eval::prepare(&mut prepared);
    let board = &prepared;
    match board.stone_count() {
        0 => propose(board, prober).map(Swap2Reply::Moves),
        3 => choose_after_three(board, prober),
        5 => choose_after_five(board, prober),
        _ => None,
    }
}

/// Answers a Swap2 position with the default budget; see [`respond_with`].
pub fn respond(board: &Board) -> Option<Swap2Reply> {
    respond_with(board, &Swap2Budget::default())
}

/// Answers a Swap2 position, waiting for the decision of a private engine (for tools and
/// tests; the protocol session runs it on its own engine). `board` holds the stones in Swap2
/// order (Black, White, Black, White, Black) with White to move after 3 or 5 stones.
/// Returns `None` for a stone count other than 0, 3 or 5, or when no legal answer exists (a
/// board too full or too small).
pub fn respond_with(board: &Board, budget: &Swap2Budget) -> Option<Swap2Reply> {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let notify: Notify = Arc::new(move |ev| {
        if let Ok(t) = tx.lock() {
            let _ = t.send(ev);
        }
    });
    let mut engine = Engine::new(PRIVATE_ENGINE_HASH_BYTES, notify);
    if let Err(e) = engine.go_swap2(board.clone(), *budget) {
        log::error!("swap2: {e}");
        return static_reply(board);
    }
    let outcome = loop {
        match rx.recv() {
            Ok(EngineEvent::Done(outcome)) => break outcome,
            Ok(EngineEvent::Report(_) | EngineEvent::Root(_)) => continue,
            Err(_) => break Err("the engine is gone".into()),
        }
    };
    engine.finished();
    match outcome {
        Ok(Answer::Swap2(reply)) => reply,
        other => {
            log::warn!("swap2: no decision ({other:?}); static choice");
            static_reply(board)
        }
    }
}

/// Is `p` an acceptable stone of colour `c` in a Swap2 setup: empty, not a renju foul for
/// Black, and not a five (the opening must not end the game).
fn fits(board: &Board, p: Pos, c: Color) -> bool {
    board.is_empty(p) && !(c == Color::Black && board.is_forbidden(p)) && !board.is_win_move(p, c)
}

/// Places `stones` (checking each with [`fits`]) and sets White to move; `None` if one does
/// not fit.
fn place(board: &Board, stones: &[(Pos, Color)]) -> Option<Board> {
    let mut b = board.clone();
    for &(p, c) in stones {
        if !fits(&b, p, c) {
            return None;
        }
        b.make_move_as(p, c);
    }
    b.set_side_to_move(Color::White);
    Some(b)
}

/// Three-stone shapes as (White offset, second Black offset) from the first Black stone, one
/// per symmetry class, within two cells, in a fixed order.
fn shapes() -> Vec<((i32, i32), (i32, i32))> {
    let offs: Vec<(i32, i32)> = (-2..=2)
        .flat_map(|y| (-2..=2).map(move |x| (x, y)))
        .filter(|&o| o != (0, 0))
        .collect();
    let mut out = Vec::new();
    for &w in &offs {
        for &b in &offs {
            if w == b {
                continue;
            }
            let canon = Symmetry::ALL
                .iter()
                .map(|s| (s.apply_offset(w), s.apply_offset(b)))
                .min()
                .unwrap_or((w, b));
            if canon == (w, b) {
                out.push((w, b));
            }
        }
    }
    out
}

/// Proposes three stones (Black, White, Black) whose position is closest to even.
fn propose(board: &Board, prober: &mut Prober) -> Option<Vec<Pos>> {
    let (cx, cy) = (
        (board.width() as i32 - 1) / 2,
        (board.height() as i32 - 1) / 2,
    );
    let mut cands: Vec<(i32, usize, Vec<Pos>, Board)> = Vec::new();
    for (i, (w, b)) in shapes().into_iter().enumerate() {
        let pts = [(cx, cy), (cx + w.0, cy + w.1), (cx + b.0, cy + b.1)];
        let Some(ps) = pts
            .iter()
            .map(|&(x, y)| board.pos(x, y))
            .collect::<Option<Vec<Pos>>>()
        else {
            continue;
        };
        let colors = [Color::Black, Color::White, Color::Black];
        let stones: Vec<(Pos, Color)> = ps.iter().copied().zip(colors).collect();
        if let Some(nb) = place(board, &stones) {
            cands.push((evaluate(&nb).abs(), i, ps, nb));
        }
    }
    if cands.is_empty() {
        return fallback_three(board);
    }
    // Every shape is probed (the static evaluation ranks them too poorly to preselect a few);
    // the static order only breaks ties.
    cands.sort_by_key(|c| (c.0, c.1));
    let boards: Vec<&Board> = cands.iter().map(|c| &c.3).collect();
    let best = most_even(&boards, prober);
    let k = best.map_or(0, |b| b.0);
    log::info!(
        "swap2: proposing {:?} (|score| {:?} of {} shapes)",
        cands[k].2,
        best.map(|b| b.1),
        cands.len()
    );
    Some(cands[k].2.clone())
}

/// The index of the board (White to move) whose search score is closest to 0, and that
/// |score|. Round one probes every board; round two searches the most even few again with
/// more nodes and decides among them. Ties go to the earlier board. `None` when not even one
/// probe fits in the time.
fn most_even(boards: &[&Board], prober: &mut Prober) -> Option<(usize, Score)> {
    let mut first: Vec<(Score, usize)> = Vec::new();
    for (k, b) in boards.iter().enumerate() {
        let Some((_, s)) = prober.search(b, 1) else {
            break;
        };
        first.push((s.abs(), k));
    }
    first.sort();
    let mut best: Option<(Score, usize)> = None;
    for &(_, k) in first.iter().take(REFINE_CANDIDATES) {
        let Some((_, s)) = prober.search(boards[k], REFINE_FACTOR) else {
            break;
        };
        if best.is_none_or(|(bs, _)| s.abs() < bs) {
            best = Some((s.abs(), k));
        }
    }
    best.or_else(|| first.first().copied()).map(|(s, k)| (k, s))
}

/// Three stones for a board where no shape near the centre fits (tiny boards, walls).
fn fallback_three(board: &Board) -> Option<Vec<Pos>> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for c in [Color::Black, Color::White, Color::Black] {
        b.set_side_to_move(c);
        let p = b
            .legal_moves()
            .into_iter()
            .filter(|&p| fits(&b, p, c))
            .min_by_key(|&p| {
                let (dx, dy) = (
                    2 * p.x() as i32 - (b.width() as i32 - 1),
                    2 * p.y() as i32 - (b.height() as i32 - 1),
                );
                dx * dx + dy * dy
            })?;
        b.make_move_as(p, c);
        out.push(p);
    }
    Some(out)
}

/// White's best move and its score (White's view), or a simple move scored statically.
fn white_best(board: &Board, prober: &mut Prober) -> Option<(Pos, Score)> {
    let mut b = board.clone();
    b.set_side_to_move(Color::White);
    let found = prober
        .search(&b, DECISION_FACTOR)
        .filter(|&(p, _)| b.is_legal(p));
    match found {
        Some(r) => Some(r),
        None => {
            let p = pick_simple_move(&b);
            (!p.is_none()).then(|| (p, evaluate(&b)))
        }
    }
}

fn choose_after_three(board: &Board, prober: &mut Prober) -> Option<Swap2Reply> {
    let (mv, s) = white_best(board, prober)?;
    log::info!("swap2 (3 stones): White's best {mv} scores {s}");
    if s <= -SWAP_MARGIN {
        return Some(Swap2Reply::Swap);
    }
    if s >= -PLAY_MARGIN {
        return Some(Swap2Reply::Moves(vec![mv]));
    }
    match balance(board, prober) {
        Some((pair, b)) if b < s.abs() => {
            log::info!("swap2: adding {pair:?} (|score| {b})");
            Some(Swap2Reply::Moves(pair))
        }
        // No pair evens the game out: Black is the (slightly) better side.
        _ => Some(Swap2Reply::Swap),
    }
}

/// One White and one Black stone near the stones that bring White's score closest to 0,
/// with that |score|.
fn balance(board: &Board, prober: &mut Prober) -> Option<(Vec<Pos>, Score)> {
    let near: Vec<Pos> = board
        .empty_points()
        .filter(|&p| board.is_candidate(p, 2))
        .collect();
    let pairs = most_even_pairs(board, &near, BALANCE_CANDIDATES);
    let boards = pairs
        .iter()
        .map(|&[w, b]| place(board, &[(w, Color::White), (b, Color::Black)]))
        .collect::<Option<Vec<Board>>>()?;
    let refs: Vec<&Board> = boards.iter().collect();
    let (k, score) = most_even(&refs, prober)?;
    Some((pairs[k].to_vec(), score))
}

/// The `keep` pairs (White stone, Black stone, two different points of `near`) that fit
/// (see [`place`]) and leave the smallest |static evaluation| with White to move, ties to
/// the earlier pair in `near` order. Scored on one board by making and undoing the stones
/// (a copy of the board per pair would cost far more than the evaluation).
fn most_even_pairs(board: &Board, near: &[Pos], keep: usize) -> Vec<[Pos; 2]> {
    let mut b = board.clone();
    let mut scored: Vec<(i32, usize, [Pos; 2])> = Vec::new();
    for &w in near {
        if !fits(&b, w, Color::White) {
            continue;
        }
        b.make_move_as(w, Color::White);
        for &black in near {
            if black == w || !fits(&b, black, Color::Black) {
                continue;
            }
            b.make_move_as(black, Color::Black);
            b.set_side_to_move(Color::White);
            scored.push((evaluate(&b).abs(), scored.len(), [w, black]));
            b.undo();
        }
        b.undo();
    }
    scored.sort_by_key(|c| (c.0, c.1));
    scored.into_iter().take(keep).map(|c| c.2).collect()
}

fn choose_after_five(board: &Board, prober: &mut Prober) -> Option<Swap2Reply> {
    let (mv, s) = white_best(board, prober)?;
    log::info!("swap2 (5 stones): White's best {mv} scores {s}");
    if s < 0 {
        Some(Swap2Reply::Swap)
    } else {
        Some(Swap2Reply::Moves(vec![mv]))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::Rule;

    /// A 15x15 freestyle board with `stones` alternately Black and White (Swap2 order).
    pub(in crate::engine) fn board_of(stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for &(x, y) in stones {
            b.make_move(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn shapes_are_one_per_symmetry_class() {
        let s = shapes();
        // 24 * 23 ordered pairs; most classes have 8 members, the symmetric ones fewer.
        assert!(
            s.len() > 24 * 23 / 8 && s.len() < 24 * 23 / 2,
            "{}",
            s.len()
        );
        for (i, a) in s.iter().enumerate() {
            for b in &s[i + 1..] {
                assert!(Symmetry::ALL
                    .iter()
                    .all(|s| (s.apply_offset(a.0), s.apply_offset(a.1)) != *b));
            }
        }
    }

    #[test]
    fn budget_follows_the_time_settings() {
        let d = Swap2Budget::for_time(None, None);
        assert_eq!(d, Swap2Budget::default());
        let short = Swap2Budget::for_time(Some(300), None);
        assert_eq!(short.max_ms, 100);
        assert!(short.probe_nodes < d.probe_nodes && short.probe_nodes > 0);
        let left = Swap2Budget::for_time(Some(30_000), Some(2_000));
        assert_eq!(left.max_ms, 500);
        let zero = Swap2Budget::for_time(Some(0), None);
        assert_eq!((zero.max_ms, zero.probe_nodes), (0, 0));
        // INFO max_node bounds the probes.
        let mut s = Settings {
            max_nodes: 150,
            ..Settings::default()
        };
        assert_eq!(Swap2Budget::for_settings(&s).probe_nodes, 150);
        s.max_nodes = 0;
        assert_eq!(Swap2Budget::for_settings(&s), d);
    }

    #[test]
    fn zero_budget_still_answers_legally() {
        let zero = Swap2Budget::for_time(Some(0), None);
        let Some(Swap2Reply::Moves(ms)) = respond_with(&board_of(&[]), &zero) else {
            panic!("expected moves")
        };
        assert_eq!(ms.len(), 3);
        let r = respond_with(&board_of(&[(7, 7), (8, 8), (3, 12)]), &zero).unwrap();
        assert!(matches!(r, Swap2Reply::Moves(_) | Swap2Reply::Swap));
        assert_eq!(respond_with(&board_of(&[(7, 7)]), &zero), None);
    }

    /// The pairs [`balance`] searches, ranked the plain way: a placed copy of the board per
    /// pair.
    fn even_pairs_by_copies(board: &Board, near: &[Pos]) -> Vec<[Pos; 2]> {
        let mut scored = Vec::new();
        for &w in near {
            for &b in near {
                if w == b {
                    continue;
                }
                if let Some(nb) = place(board, &[(w, Color::White), (b, Color::Black)]) {
                    scored.push((evaluate(&nb).abs(), scored.len(), [w, b]));
                }
            }
        }
        scored.sort_by_key(|c| (c.0, c.1));
        scored.into_iter().map(|c| c.2).collect()
    }

    #[test]
    fn pairs_ranked_by_make_and_undo_match_copies() {
        // Black's four at the end: a Black stone making five does not fit.
        let game = [(3, 7), (10, 10), (4, 7), (11, 11), (5, 7), (12, 3), (6, 7)];
        let mut filtered = false;
        for rule in [Rule::FREESTYLE, Rule::RENJU] {
            for stones in [&game[..3], &game[..5], &game[..]] {
                let mut board = Board::new(15, 15, rule).unwrap();
                for &(x, y) in stones {
                    board.make_move(Pos::new(x, y));
                }
                let near: Vec<Pos> = board
                    .empty_points()
                    .filter(|&p| board.is_candidate(p, 2))
                    .collect();
                let all = most_even_pairs(&board, &near, usize::MAX);
                assert_eq!(all, even_pairs_by_copies(&board, &near));
                filtered |= all.len() < near.len() * (near.len() - 1);
                let kept = most_even_pairs(&board, &near, BALANCE_CANDIDATES);
                assert_eq!(kept, all[..BALANCE_CANDIDATES]);
            }
        }
        assert!(filtered, "no position had a pair that does not fit");
    }

    /// The static choice of a bare board (the protocol's fallback holds one) is that of the
    /// prepared board the engine's own decision starts from.
    #[test]
    fn the_static_choice_reads_the_learned_tables() {
        for rule in [Rule::RENJU, Rule::FREESTYLE] {
            for stones in [
                [(7, 7), (8, 8), (9, 9)],
                [(7, 7), (8, 7), (9, 7)],
                [(7, 7), (8, 8), (8, 6)],
            ] {
                let mut bare = Board::new(15, 15, rule).unwrap();
                for (x, y) in stones {
                    bare.make_move(Pos::new(x, y));
                }
                let mut prepared = bare.clone();
                crate::eval::prepare(&mut prepared);
                assert_eq!(
                    static_reply(&bare),
                    static_reply(&prepared),
                    "{rule:?} {stones:?}"
                );
            }
        }
        // Five stones: the choice of colour reads the evaluation too.
        let mut bare = Board::new(15, 15, Rule::RENJU).unwrap();
        for (x, y) in [(7, 7), (8, 8), (9, 6), (6, 8), (7, 9)] {
            bare.make_move(Pos::new(x, y));
        }
        let mut prepared = bare.clone();
        crate::eval::prepare(&mut prepared);
        assert_eq!(static_reply(&bare), static_reply(&prepared));
    }

    /// The searched decision of a bare board (the engine's job holds one) is that of the
    /// prepared board: its static rankings read the learned tables too.
    #[test]
    fn the_decision_reads_the_learned_tables() {
        let budget = Swap2Budget {
            probe_nodes: 300,
            max_ms: 0,
        };
        let stop = AtomicBool::new(false);
        // In renju the first two put two moves elsewhere if the board is not prepared.
        let positions: [&[(usize, usize)]; 4] = [
            &[(7, 7), (7, 6), (6, 9)],
            &[(7, 7), (8, 7), (5, 8)],
            &[],
            &[(7, 7), (8, 8), (9, 6), (6, 8), (7, 9)],
        ];
        for rule in [Rule::RENJU, Rule::FREESTYLE] {
            for stones in positions {
                let mut bare = Board::new(15, 15, rule).unwrap();
                for &(x, y) in stones {
                    bare.make_move(Pos::new(x, y));
                }
                let mut prepared = bare.clone();
                crate::eval::prepare(&mut prepared);
                let ask = |b: &Board| decide(&mut Searcher::new(1 << 20), b, &budget, &stop);
                let answer = ask(&bare);
                assert!(answer.is_some(), "{rule:?} {stones:?}");
                assert_eq!(answer, ask(&prepared), "{rule:?} {stones:?}");
            }
        }
    }

    #[test]
    fn tiny_board_gets_three_distinct_stones() {
        let small = Board::new(5, 5, Rule::FREESTYLE).unwrap();
        let Some(Swap2Reply::Moves(m)) = respond(&small) else {
            panic!("expected moves")
        };
        assert_eq!(m.len(), 3);
        assert!(m[0] != m[1] && m[1] != m[2] && m[0] != m[2]);
    }
}
