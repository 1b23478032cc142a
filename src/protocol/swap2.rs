//! Swap2 opening decisions for SWAP2BOARD, made with the engine's own search.
//!
//! Every decision rests on [`probe`]: a fixed-node, single-thread search from a cleared
//! transposition table, whose score is from the side to move's point of view. Fixed nodes
//! make the answers deterministic; a wall-clock cap ([`Swap2Budget::max_ms`]) is only a
//! safety net for slow machines.
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

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::Settings;
use crate::eval::evaluate;
use crate::search::{pick_simple_move, Score, SearchLimits, Searcher};

/// Transposition table of the Swap2 searcher (kept small: it lives next to the engine's).
const SWAP2_HASH_BYTES: usize = 4 << 20;
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

/// Our answer to SWAP2BOARD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Reply {
    /// Take the other colour (`SWAP`).
    Swap,
    /// Stones to place, in order (three, two or one).
    Moves(Vec<Pos>),
}

impl fmt::Display for Swap2Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Reply::Swap => write!(f, "SWAP"),
            Swap2Reply::Moves(ms) => {
                let v: Vec<String> = ms.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", v.join(" "))
            }
        }
    }
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
    pub fn for_settings(s: &Settings) -> Swap2Budget {
        Swap2Budget::for_time(s.timeout_turn_ms, s.time_left_ms)
    }
}

/// Runs the fixed-node searches of one decision; gives up once `stop` is set (the deadline).
struct Prober<'a> {
    searcher: Searcher,
    nodes: u64,
    stop: &'a AtomicBool,
}

impl Prober<'_> {
    /// Best move and score (side to move's view) of a search with `factor` probes' worth of
    /// nodes; `None` when the budget is zero or the deadline came first (a search cut short
    /// by time has no trustworthy score).
    fn search(&mut self, board: &Board, factor: u64) -> Option<(Pos, Score)> {
        if self.nodes == 0 || self.stop.load(Relaxed) {
            return None;
        }
        let r = search_fixed(
            &mut self.searcher,
            board,
            self.nodes.saturating_mul(factor),
            self.stop,
        );
        (!self.stop.load(Relaxed)).then_some(r)
    }
}

/// A one-thread search of `board` limited by `nodes` only (and `stop`), from a cleared
/// table: the same input gives the same result.
fn search_fixed(
    searcher: &mut Searcher,
    board: &Board,
    nodes: u64,
    stop: &AtomicBool,
) -> (Pos, Score) {
    searcher.clear_hash();
    let limits = SearchLimits {
        max_nodes: Some(nodes.max(1)),
        threads: 1,
        ..SearchLimits::default()
    };
    let r = searcher.search(board, &limits, stop, &mut |_| {});
    (r.best, r.score)
}

/// The score for the side to move of a fixed-node search of `board` (cleared table, one
/// thread, no time limit): the measure every Swap2 decision uses. Deterministic.
pub fn probe(board: &Board, nodes: u64) -> Score {
    let mut s = Searcher::new(SWAP2_HASH_BYTES);
    search_fixed(&mut s, board, nodes, &AtomicBool::new(false)).1
}

/// Answers a Swap2 position with the default budget; see [`respond_with`].
pub fn respond(board: &Board) -> Option<Swap2Reply> {
    respond_with(board, &Swap2Budget::default())
}

/// Answers a Swap2 position. `board` holds the stones in Swap2 order (Black, White, Black,
/// White, Black) with White to move after 3 or 5 stones. Returns `None` for a stone count
/// other than 0, 3 or 5, or when no legal answer exists (a board too full or too small).
pub fn respond_with(board: &Board, budget: &Swap2Budget) -> Option<Swap2Reply> {
    let stop = AtomicBool::new(false);
    let (done, wait) = mpsc::channel::<()>();
    let max = Duration::from_millis(budget.max_ms);
    thread::scope(|scope| {
        let stop = &stop;
        // The watchdog sets `stop` at the deadline, or when the decision is made (`done`
        // dropped). Per-search time limits would make the searcher's own budgets depend on
        // the clock; this keeps them fixed.
        scope.spawn(move || {
            let _ = wait.recv_timeout(max);
            stop.store(true, Relaxed);
        });
        let mut prober = Prober {
            searcher: Searcher::new(SWAP2_HASH_BYTES),
            nodes: budget.probe_nodes,
            stop,
        };
        let reply = match board.stone_count() {
            0 => propose(board, &mut prober).map(Swap2Reply::Moves),
            3 => choose_after_three(board, &mut prober),
            5 => choose_after_five(board, &mut prober),
            _ => None,
        };
        drop(done);
        reply
    })
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

/// The eight symmetries of the square applied to an offset.
fn transform(k: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    let (x, y) = if k & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if k & 1 != 0 { -x } else { x };
    let y = if k & 2 != 0 { -y } else { y };
    (x, y)
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
            let canon = (0..8)
                .map(|k| (transform(k, w), transform(k, b)))
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
    let mut cands: Vec<(i32, usize, [Pos; 2], Board)> = Vec::new();
    for &w in &near {
        for &b in &near {
            if w == b {
                continue;
            }
            if let Some(nb) = place(board, &[(w, Color::White), (b, Color::Black)]) {
                let idx = cands.len();
                cands.push((evaluate(&nb).abs(), idx, [w, b], nb));
            }
        }
    }
    cands.sort_by_key(|c| (c.0, c.1));
    cands.truncate(BALANCE_CANDIDATES);
    let boards: Vec<&Board> = cands.iter().map(|c| &c.3).collect();
    let (k, score) = most_even(&boards, prober)?;
    Some((cands[k].2.to_vec(), score))
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
mod tests {
    use super::*;
    use crate::core::Rule;

    fn setup(stones: &[(usize, usize)]) -> Board {
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
                assert!((0..8).all(|k| (transform(k, a.0), transform(k, a.1)) != *b));
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
    }

    #[test]
    fn zero_budget_still_answers_legally() {
        let zero = Swap2Budget::for_time(Some(0), None);
        let Some(Swap2Reply::Moves(ms)) = respond_with(&setup(&[]), &zero) else {
            panic!("expected moves")
        };
        assert_eq!(ms.len(), 3);
        let r = respond_with(&setup(&[(7, 7), (8, 8), (3, 12)]), &zero).unwrap();
        assert!(matches!(r, Swap2Reply::Moves(_) | Swap2Reply::Swap));
        assert_eq!(respond_with(&setup(&[(7, 7)]), &zero), None);
        assert_eq!(Swap2Reply::Swap.to_string(), "SWAP");
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
