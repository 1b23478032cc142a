//! The search driver: root VCF solver, iterative deepening with aspiration windows, multi-PV,
//! Lazy SMP threads, strength limits and randomized choice among near-best moves.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::board::Board;
use crate::core::Pos;

use super::budget::Budget;
use super::limits::Exclusions;
use super::limits::{SearchLimits, FULL_STRENGTH};
use super::movegen;
use super::params::*;
use super::pvs::{RootMove, Shared, Worker};
use super::report::{RootEvents, SearchReport, SearchResult};
use super::score::{mate_in, Score, MATE, MATE_BOUND};
use super::smp::{self, InFlight};
use super::time::{IterationState, Solver};
use super::tt::TTable;
use super::{pns, vcf};

/// Ordered legal root moves (never empty when a legal move exists).
fn root_moves(board: &Board) -> Vec<RootMove> {
    let threat = board.threat();
    let mut gen = Vec::new();
    movegen::generate_root(board, threat, &mut gen);
    gen.retain(|&(p, _)| board.is_legal(p));
    if gen.is_empty() {
        // Lost or odd position: any legal move, the simple choice first.
        let simple = board.simple_move();
        if !simple.is_none() {
            gen.push((simple, 1));
        }
        for p in board.legal_moves() {
            if p != simple && board.is_candidate(p, FALLBACK_CANDIDATE_DISTANCE) {
                gen.push((p, 0));
            }
        }
        if gen.len() <= 1 {
            for p in board.legal_moves() {
                if p != simple {
                    gen.push((p, 0));
                }
            }
        }
    }
    gen.sort_by_key(|m| std::cmp::Reverse(m.1));
    gen.into_iter()
        .map(|(mv, _)| RootMove {
            mv,
            score: -MATE,
            prev_score: -MATE,
            pv: vec![mv],
        })
        .collect()
}

/// Drops the root moves `excluded` names. When the generator's moves are all excluded, the
/// other legal moves not excluded take their place (nearest the stones, then the centre,
/// first); when every legal move is excluded, the list stays as it was.
fn exclude_root_moves(rms: &mut Vec<RootMove>, board: &Board, excluded: &Exclusions) {
    let here = board.hash();
    let allowed = |p: Pos| !excluded.root.contains(&p) && !excluded.excludes(here, p);
    if rms.iter().any(|rm| allowed(rm.mv)) {
        rms.retain(|rm| allowed(rm.mv));
        return;
    }
    let (cx, cy) = (board.width() as i32 / 2, board.height() as i32 / 2);
    let mut others: Vec<Pos> = board
        .legal_moves()
        .into_iter()
        .filter(|&p| allowed(p))
        .collect();
    others.sort_by_key(|&p| {
        let centre = (p.x() as i32 - cx).abs().max((p.y() as i32 - cy).abs());
        (!board.is_candidate(p, FALLBACK_CANDIDATE_DISTANCE), centre)
    });
    if !others.is_empty() {
        *rms = others
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -MATE,
                prev_score: -MATE,
                pv: vec![mv],
            })
            .collect();
    }
}

/// Depth and node caps, and the randomized choice's margin, for a strength below
/// [`FULL_STRENGTH`].
fn strength_caps(strength: u8) -> (i32, u64, Score) {
    let s = strength.min(FULL_STRENGTH) as i32;
    let depth = 1 + s / WEAK_STRENGTH_PER_PLY;
    let nodes = WEAK_NODES_BASE << (s / WEAK_STRENGTH_PER_DOUBLING).min(WEAK_MAX_DOUBLINGS);
    let margin = (FULL_STRENGTH as i32 - s) * WEAK_MARGIN_PER_POINT;
    (depth, nodes, margin)
}

/// The share of a node limit `m` one threat solver may use (at least one node).
fn solver_node_share(m: u64) -> u64 {
    m / SOLVER_NODE_LIMIT_DIVISOR + 1
}

/// One iteration of the root search at `depth` with an aspiration window around the first
/// move's previous score, widened until the score falls inside it; sorts `rms` best first.
/// When `want_partial` and the search is interrupted, `partial` gets the interrupted
/// search's better move, if it found one.
fn aspirated_iteration(
    w: &mut Worker,
    rms: &mut [RootMove],
    depth: i32,
    want_partial: bool,
    partial: &mut Option<RootMove>,
) {
    let prev = rms[0].prev_score;
    let mut delta = aspiration_delta();
    let (mut alpha, mut beta) = if depth >= aspiration_min_depth() && prev.abs() < MATE_BOUND {
        ((prev - delta).max(-MATE), (prev + delta).min(MATE))
    } else {
        (-MATE, MATE)
    };
    loop {
        w.seldepth = 0;
        let score = w.search_root(rms, alpha, beta, depth);
        if w.stopped && want_partial {
            *partial = partial_best(&rms[..w.root_completed], alpha);
        }
        rms.sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if w.stopped {
            return;
        }
        if score <= alpha && alpha > -MATE {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-MATE);
        } else if score >= beta && beta < MATE {
            beta = (score + delta).min(MATE);
        } else {
            return;
        }
        delta += delta;
        if delta > ASPIRATION_MAX_DELTA {
            alpha = -MATE;
            beta = MATE;
        }
    }
}

/// The usable result of an iteration stopped part-way: `searched` are the root moves it
/// finished, in search order (the previous best first). The best of them counts when its
/// score beat the window's lower end `alpha` (an exact score or a fail-high); a fail-low of
/// every finished move says nothing new.
fn partial_best(searched: &[RootMove], alpha: Score) -> Option<RootMove> {
    let best = searched.iter().max_by_key(|rm| rm.score)?;
    (best.score > alpha && best.score > -MATE).then(|| best.clone())
}

/// One search's settings, resolved from its limits and its root moves.
struct Plan<'l> {
    limits: &'l SearchLimits,
    max_depth: i32,
    max_nodes: Option<u64>,
    /// Below full strength: capped depth and nodes, a randomized choice, no threat solvers.
    weak: bool,
    /// Some root moves are excluded: the threat solvers, which know nothing of exclusions,
    /// sit out.
    restricted: bool,
    /// Choose at random among the lines within `margin` of the best.
    randomize: bool,
    margin: Score,
    /// Lines searched: those reported, and more for a randomized choice.
    multipv: usize,
    threads: usize,
    /// The root has more than one move, so that a solver's proof saves a choice.
    choice: bool,
}

impl<'l> Plan<'l> {
    fn new(limits: &'l SearchLimits, restricted: bool, root_moves: usize) -> Plan<'l> {
        let weak = limits.strength < FULL_STRENGTH;
        let (cap_depth, cap_nodes, weak_margin) = strength_caps(limits.strength);
        let mut max_depth = limits
            .max_depth
            .map_or(MAX_DEPTH, |d| d as i32)
            .clamp(1, MAX_DEPTH);
        let mut max_nodes = limits.max_nodes;
        if weak {
            max_depth = max_depth.min(cap_depth);
            max_nodes = Some(max_nodes.map_or(cap_nodes, |m| m.min(cap_nodes)));
        }
        let randomize = weak || limits.randomize_seed.is_some();
        let margin = if weak {
            weak_margin
        } else {
            limits.random_margin
        };
        let multipv = limits
            .multipv
            .max(1)
            .max(if randomize { RANDOM_CHOICE_LINES } else { 1 })
            .min(root_moves);
        Plan {
            limits,
            max_depth,
            max_nodes,
            weak,
            restricted,
            randomize,
            margin,
            multipv,
            threads: limits.threads.max(1),
            choice: root_moves > 1,
        }
    }

    /// The root VCF solver runs before the tree search.
    fn root_vcf(&self) -> bool {
        !self.weak && !self.restricted && self.choice
    }

    /// The first helper thread first tries to prove a win by threats.
    fn helper_vct(&self) -> bool {
        self.root_vcf() && self.threads > 1 && self.multipv == 1
    }
}

/// Runs one search; see [`super::Searcher::search`].
pub(crate) fn search(
    tt: &TTable,
    board: &Board,
    limits: &SearchLimits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchReport),
    root_events: RootEvents,
) -> SearchResult {
    let start = Instant::now();
    // Every search reads the learned tables and the network, whatever its caller installed.
    let mut prepared = board.clone();
    crate::eval::prepare(&mut prepared);
    let board = &prepared;
    tt.new_search();
    let mut rms = root_moves(board);
    let restricted = !limits.excluded.is_empty();
    if restricted {
        exclude_root_moves(&mut rms, board, &limits.excluded);
    }
    if rms.is_empty() {
        return SearchResult {
            best: Pos::NONE,
            ..Default::default()
        };
    }
    let plan = Plan::new(limits, restricted, rms.len());
    let shared = Shared {
        tt,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start,
        time: limits.time,
        max_nodes: plan.max_nodes,
        threads: plan.threads,
        in_flight: InFlight::new(),
        excluded: &limits.excluded,
        root_events,
        leaf_samples: limits.leaf_samples.as_deref(),
    };
    if plan.root_vcf() {
        let (found, used) = root_vcf_win(board, &plan, stop, start);
        if let Some((mv, plies, pv)) = found {
            return proven_win(report, mv, plies, used, start, pv);
        }
        shared.nodes.fetch_add(used, Relaxed);
    }
    let findings = search_threads(&shared, board, &mut rms, &plan, report);
    conclude(findings, &rms, &plan, board, &shared, report)
}

/// The root VCF solver: a forced win by fours needs no tree search. Its node budget is capped
/// by its share of a node limit and by what its time allows; it polls the stop flag and its
/// own deadline (a share of the maximum), so that the tree search always gets the rest of the
/// time. Returns a legal winning first move with its length and line, and the nodes used.
fn root_vcf_win(
    board: &Board,
    plan: &Plan,
    stop: &AtomicBool,
    start: Instant,
) -> (Option<pns::VctWin>, u64) {
    let nodes = root_vcf_nodes();
    let nodes = plan
        .max_nodes
        .map_or(nodes, |m| nodes.min(solver_node_share(m)));
    let time = &plan.limits.time;
    let nodes = time
        .solver_node_cap(Solver::RootVcf)
        .map_or(nodes, |cap| nodes.min(cap));
    let mut lim = Budget::limited(nodes, stop, time.solver_deadline(Solver::RootVcf, start));
    let mut b = board.clone();
    let found = vcf::vcf_root_limited(&mut b, board.side_to_move(), root_vcf_depth(), &mut lim);
    (found.filter(|(mv, _, _)| board.is_legal(*mv)), lim.used)
}

/// What the threads of one search found.
struct Findings {
    /// The main thread's last completed iteration: its root moves, best first, and depth.
    completed: Option<(Vec<RootMove>, i32)>,
    /// The best root move of the main thread's interrupted last iteration, when it is known.
    partial: Option<RootMove>,
    /// The deepest iteration any helper thread completed: (depth, root move with its line).
    helper_best: Option<(i32, RootMove)>,
    /// A win by threats the first helper proved.
    helper_vct: Option<pns::VctWin>,
}

/// What the helper threads found, written as they go.
#[derive(Default)]
struct HelperFindings {
    best: Mutex<Option<(i32, RootMove)>>,
    vct: Mutex<Option<pns::VctWin>>,
}

/// Runs the main thread's iterative deepening with `plan.threads - 1` helpers beside it
/// (Lazy SMP, sharing the table) until the limits or a helper's proof end the search.
fn search_threads(
    shared: &Shared,
    board: &Board,
    rms: &mut [RootMove],
    plan: &Plan,
    report: &mut dyn FnMut(&SearchReport),
) -> Findings {
    let helpers = HelperFindings::default();
    let (completed, partial) = std::thread::scope(|scope| {
        for id in 1..plan.threads {
            let rms = rms.to_vec();
            let board = board.clone();
            let helpers = &helpers;
            smp::spawn_helper(scope, id, move || {
                helper_search(id, shared, board, rms, plan, helpers);
            });
        }
        main_search(shared, board, rms, plan, report)
    });
    Findings {
        completed,
        partial,
        helper_best: helpers.best.into_inner().unwrap_or_else(|e| e.into_inner()),
        helper_vct: helpers.vct.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// A helper thread: the first one first tries to prove a win by threats, which costs the
/// main thread nothing (a proof ends the whole search); then each deepens in step with the
/// main thread, sharing its table, and records its deepest completed iteration. (A schedule
/// where helper 1 took only the even depths and ran ahead lost clearly: 37-63 in 100 renju
/// games, 2 threads against 1.)
fn helper_search(
    id: usize,
    shared: &Shared,
    board: Board,
    mut rms: Vec<RootMove>,
    plan: &Plan,
    found: &HelperFindings,
) {
    if id == 1 && plan.helper_vct() {
        let nodes = plan.max_nodes.map_or(helper_vct_nodes(), |m| {
            helper_vct_nodes().min(solver_node_share(m))
        });
        let deadline = plan
            .limits
            .time
            .solver_deadline(Solver::HelperVct, shared.start);
        let mut lim = Budget::limited(nodes, &shared.abort, deadline);
        let win = threat_win(&board, &mut lim);
        shared.nodes.fetch_add(lim.used, Relaxed);
        if let Some(win) = win {
            *found.vct.lock().unwrap_or_else(|e| e.into_inner()) = Some(win);
            shared.abort.store(true, Relaxed);
            return;
        }
    }
    let mut w = Worker::new(id, shared, &board);
    let mut depth = 1;
    while depth <= plan.max_depth && !w.stopped {
        aspirated_iteration(&mut w, &mut rms, depth, false, &mut None);
        if !w.stopped {
            for rm in rms.iter_mut() {
                rm.prev_score = rm.score;
            }
            let mut best = found.best.lock().unwrap_or_else(|e| e.into_inner());
            if best.as_ref().is_none_or(|(d, _)| *d < depth) {
                *best = Some((depth, rms[0].clone()));
            }
        }
        depth += 1;
    }
    w.flush_nodes();
}

/// The main thread's iterative deepening, reporting each completed line, until the limits or
/// the time manager stop it; `rms` are left as its last iteration sorted them. Returns the
/// last completed iteration (root moves best first, and its depth) and the interrupted
/// iteration's better move, when it found one.
fn main_search(
    shared: &Shared,
    board: &Board,
    rms: &mut [RootMove],
    plan: &Plan,
    report: &mut dyn FnMut(&SearchReport),
) -> (Option<(Vec<RootMove>, i32)>, Option<RootMove>) {
    let mut completed = None;
    let mut partial = None;
    let mut w = Worker::new(0, shared, board);
    let mut iters = IterationState::new(rms.len());
    for depth in 1..=plan.max_depth {
        for pv_idx in 0..plan.multipv {
            let want_partial = pv_idx == 0 && plan.multipv == 1;
            w.announce_root = pv_idx == 0;
            aspirated_iteration(
                &mut w,
                &mut rms[pv_idx..],
                depth,
                want_partial,
                &mut partial,
            );
            if w.stopped {
                break;
            }
            w.flush_nodes();
            if pv_idx >= plan.limits.multipv.max(1) {
                continue; // internal lines for randomized choice are not reported
            }
            report(&SearchReport {
                depth: depth as u32,
                seldepth: w.seldepth.max(depth as usize) as u32,
                score: rms[pv_idx].score,
                nodes: shared.nodes.load(Relaxed),
                elapsed_ms: shared.elapsed_ms(),
                pv: rms[pv_idx].pv.clone(),
                multipv: pv_idx + 1,
            });
        }
        if w.stopped {
            break;
        }
        for rm in rms.iter_mut() {
            rm.prev_score = rm.score;
        }
        completed = Some((rms.to_vec(), depth));
        iters.record(depth as u32, rms[0].mv, rms[0].score);
        if plan.limits.time.should_stop(&iters, shared.elapsed_ms()) {
            break;
        }
    }
    shared.abort.store(true, Relaxed);
    w.flush_nodes();
    (completed, partial)
}

/// The search's answer from what its threads found: a helper's proof unless the main thread
/// already mates as fast, else the main thread's completed iteration (or the first root
/// move of `rms`, the main thread's last order, when none completed), unless its interrupted
/// iteration or a deeper helper knows better; a randomized choice picks among the lines
/// within the margin.
fn conclude(
    found: Findings,
    rms: &[RootMove],
    plan: &Plan,
    board: &Board,
    shared: &Shared,
    report: &mut dyn FnMut(&SearchReport),
) -> SearchResult {
    let nodes = shared.nodes.load(Relaxed);
    if let Some((mv, plies, pv)) = found.helper_vct {
        let main_mate = found
            .completed
            .as_ref()
            .is_some_and(|(rms, _)| rms[0].score >= mate_in(plies as usize));
        if !main_mate {
            return proven_win(report, mv, plies, nodes, shared.start, pv);
        }
    }
    let Some((rms, depth)) = found.completed else {
        let best = rms[0].mv;
        return SearchResult {
            best,
            score: 0,
            depth: 0,
            nodes,
            pv: vec![best],
        };
    };
    let unproven = rms[0].score < MATE_BOUND && !plan.randomize;
    // The interrupted iteration already found a better move than the completed one's.
    if let Some(p) = found.partial {
        if p.mv != rms[0].mv && unproven {
            return final_line(report, p, depth as u32 + 1, nodes, shared.elapsed_ms());
        }
    }
    // A helper that completed a deeper iteration than the main thread knows better, unless the
    // main thread's answer is a proven win or several lines are wanted.
    if let Some((hdepth, hrm)) = found.helper_best {
        if hdepth > depth && unproven && plan.limits.multipv <= 1 {
            return final_line(report, hrm, hdepth as u32, nodes, shared.elapsed_ms());
        }
    }
    let chosen = if plan.randomize && rms[0].score.abs() < MATE_BOUND {
        casual_choice(&rms, plan, board, shared)
    } else {
        0
    };
    let rm = &rms[chosen];
    SearchResult {
        best: rm.mv,
        score: rm.score,
        depth: depth as u32,
        nodes,
        pv: rm.pv.clone(),
    }
}

/// Casual play: the index of a root line drawn at random among the `plan.multipv` best whose
/// score is within `plan.margin` of the best (seeded by the limits' seed, else the clock,
/// and the position).
fn casual_choice(rms: &[RootMove], plan: &Plan, board: &Board, shared: &Shared) -> usize {
    let floor = rms[0].score - plan.margin;
    let pool: Vec<usize> = (0..plan.multipv)
        .filter(|&i| rms[i].score >= floor)
        .collect();
    let seed = plan
        .limits
        .randomize_seed
        .unwrap_or(shared.start.elapsed().as_nanos() as u64);
    let mut rng = StdRng::seed_from_u64(seed ^ board.hash());
    pool[rng.gen_range(0..pool.len())]
}

/// A win by continuous threats (fours and open threes) for the side to move, as far as
/// `budget` allows (the proof-number threat search, [`pns`]); its first move is legal.
fn threat_win(board: &Board, budget: &mut Budget) -> Option<pns::VctWin> {
    let mut b = board.clone();
    let mut table = pns::ProofTable::for_budget(budget.nodes);
    pns::prove(&mut b, &mut table, budget).filter(|w| board.is_legal(w.0))
}

/// A root solver proved a win: report it as one line and make it the result.
fn proven_win(
    report: &mut dyn FnMut(&SearchReport),
    best: Pos,
    plies: u32,
    nodes: u64,
    start: Instant,
    pv: Vec<Pos>,
) -> SearchResult {
    let line = RootMove {
        mv: best,
        score: mate_in(plies as usize),
        prev_score: -MATE,
        pv,
    };
    final_line(
        report,
        line,
        plies,
        nodes,
        start.elapsed().as_millis() as u64,
    )
}

/// Reports `line` as the search's last word (one line at `depth`) and makes it the result.
fn final_line(
    report: &mut dyn FnMut(&SearchReport),
    line: RootMove,
    depth: u32,
    nodes: u64,
    elapsed_ms: u64,
) -> SearchResult {
    report(&SearchReport {
        depth,
        seldepth: depth,
        score: line.score,
        nodes,
        elapsed_ms,
        pv: line.pv.clone(),
        multipv: 1,
    });
    SearchResult {
        best: line.mv,
        score: line.score,
        depth,
        nodes,
        pv: line.pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::search::bench::board_from_moves;
    use crate::search::time::{TimeControl, TimeManager};
    use crate::search::Searcher;

    fn run(moves: &str, rule: Rule, limits: SearchLimits, stop_now: bool) -> (SearchResult, usize) {
        let b = board_from_moves(rule, 15, moves).unwrap();
        let mut s = Searcher::new(1 << 20);
        let stop = AtomicBool::new(stop_now);
        let mut reports = 0;
        let r = s.search(&b, &limits, &stop, &mut |_| reports += 1);
        assert!(b.is_legal(r.best), "illegal best {:?}", r.best);
        (r, reports)
    }

    #[test]
    fn stopped_at_once_still_returns_a_legal_move() {
        let (r, _) = run("h8 i9 i8", Rule::FREESTYLE, SearchLimits::default(), true);
        assert!(!r.best.is_none());
        let (r, _) = run("", Rule::RENJU, SearchLimits::default(), true);
        assert_eq!(r.best.to_human(), "h8");
    }

    #[test]
    fn finds_five_and_blocks_five() {
        let lim = SearchLimits {
            max_depth: Some(4),
            ..Default::default()
        };
        // Black h8 i8 j8 k8 (White scattered): Black to move wins at g8 or l8.
        let (r, _) = run(
            "h8 a1 i8 a3 j8 a5 k8 a7",
            Rule::FREESTYLE,
            lim.clone(),
            false,
        );
        assert!(["g8", "l8"].contains(&r.best.to_human().as_str()));
        assert_eq!(r.score, crate::search::mate_in(1));
        // White to move must block Black's four h8..k8 (g8 is White already).
        let (r, _) = run("h8 g8 i8 a3 j8 a5 k8", Rule::FREESTYLE, lim, false);
        assert_eq!(r.best.to_human(), "l8");
    }

    #[test]
    fn multipv_reports_each_line_and_threads_work() {
        let lim = SearchLimits {
            max_depth: Some(3),
            multipv: 3,
            threads: 2,
            ..Default::default()
        };
        let (r, reports) = run("h8 i9 i8", Rule::STANDARD, lim, false);
        assert_eq!(r.depth, 3);
        assert_eq!(reports, 9);
    }

    #[test]
    fn a_second_thread_proves_wins_by_threats() {
        // Black's two open twos cross at j8: a double three, a win by threats (freestyle).
        let moves = "h8 a1 i8 a15 j10 o1 j11 o15";
        let b = board_from_moves(Rule::FREESTYLE, 15, moves).unwrap();
        let stop = AtomicBool::new(false);
        let mut budget = Budget::limited(200_000, &stop, None);
        let (mv, plies, line) = threat_win(&b, &mut budget).expect("a VCT exists");
        assert_eq!(line.first(), Some(&mv));
        assert!(plies >= 5 && plies % 2 == 1, "plies {plies}");
        // Two threads with a turn limit: the helper's proof (or the main thread's own mate)
        // ends the search long before the limit.
        let turn = TimeControl {
            timeout_turn_ms: Some(3_000),
            ..TimeControl::default()
        };
        let lim = SearchLimits {
            threads: 2,
            time: TimeManager::new(&turn, b.empty_count(), b.stone_count()),
            ..Default::default()
        };
        assert!(
            lim.time.turn_bound(),
            "deepens to the maximum unless a proof ends it"
        );
        let t = Instant::now();
        let (r, _) = run(moves, Rule::FREESTYLE, lim, false);
        assert!(r.score >= MATE_BOUND, "score {}", r.score);
        assert!(
            t.elapsed().as_millis() < 2_000,
            "a proven win ends the search"
        );
        // Two lone stones: nothing to prove.
        let b = board_from_moves(Rule::FREESTYLE, 15, "h8 a1 j10 o15").unwrap();
        let mut budget = Budget::limited(200_000, &stop, None);
        assert!(threat_win(&b, &mut budget).is_none());
    }

    #[test]
    fn seeded_randomization_is_reproducible() {
        let lim = SearchLimits {
            max_depth: Some(3),
            randomize_seed: Some(7),
            ..Default::default()
        };
        let (a, _) = run("h8 i9", Rule::FREESTYLE, lim.clone(), false);
        let (b, _) = run("h8 i9", Rule::FREESTYLE, lim, false);
        assert_eq!(a.best, b.best);
        let weak = SearchLimits {
            strength: 0,
            ..Default::default()
        };
        let (w, _) = run("h8 i9", Rule::FREESTYLE, weak, false);
        assert!(w.depth <= 1);
    }

    #[test]
    fn a_wider_random_margin_chooses_among_more_moves() {
        let chosen = |margin: i32| {
            let mut moves: Vec<Pos> = (0..24)
                .map(|seed| {
                    let lim = SearchLimits {
                        max_depth: Some(3),
                        randomize_seed: Some(seed),
                        random_margin: margin,
                        ..Default::default()
                    };
                    run("h8 i9 h10", Rule::RENJU, lim, false).0.best
                })
                .collect();
            moves.sort_by_key(|p| p.index());
            moves.dedup();
            moves.len()
        };
        let (exact, wide) = (chosen(0), chosen(10_000));
        assert!(
            wide > exact,
            "{wide} moves with a wide margin, {exact} with none"
        );
        assert!(wide <= RANDOM_CHOICE_LINES, "{wide}");
    }

    #[test]
    fn every_rule_and_size_gives_a_legal_move() {
        for rule in [
            Rule::FREESTYLE,
            Rule::STANDARD,
            Rule::RENJU,
            Rule::CARO,
            Rule::CARO5,
        ] {
            for size in [6usize, 15, 20] {
                let b = board_from_moves(rule, size, "c3 d4 c4 c5").unwrap();
                let mut s = Searcher::new(1 << 20);
                let stop = AtomicBool::new(false);
                let lim = SearchLimits {
                    max_depth: Some(4),
                    ..Default::default()
                };
                let r = s.search(&b, &lim, &stop, &mut |_| {});
                assert!(b.is_legal(r.best), "{rule:?} {size}: {:?}", r.best);
            }
        }
    }

    #[test]
    fn node_limit_is_respected() {
        let lim = SearchLimits {
            max_nodes: Some(5_000),
            ..Default::default()
        };
        let (r, _) = run("h8 i9 i8 g8", Rule::FREESTYLE, lim, false);
        assert!(r.nodes <= 5_000 + 2_000, "nodes {}", r.nodes);
    }

    #[test]
    fn partial_iteration_counts_only_above_alpha() {
        let rm = |x: usize, score: Score| RootMove {
            mv: Pos::new(x, 0),
            score,
            prev_score: 0,
            pv: vec![Pos::new(x, 0)],
        };
        // The previous best (first) failed low, another move beat alpha: take it.
        let got = partial_best(&[rm(1, -MATE), rm(2, 40)], 10).unwrap();
        assert_eq!(got.mv, Pos::new(2, 0));
        // Everything finished failed low, or nothing finished: no information.
        assert!(partial_best(&[rm(1, -MATE), rm(2, -MATE)], 10).is_none());
        assert!(partial_best(&[rm(1, 5)], 10).is_none());
        assert!(partial_best(&[], 10).is_none());
        // The best of several finished moves.
        let got = partial_best(&[rm(1, 20), rm(2, 30), rm(3, 25)], 10).unwrap();
        assert_eq!(got.mv, Pos::new(2, 0));
    }

    #[test]
    fn strength_caps_grow_with_strength() {
        let (d0, n0, m0) = strength_caps(0);
        let (d9, n9, m9) = strength_caps(99);
        assert!(d0 < d9 && n0 < n9 && m0 > m9);
        assert_eq!(d0, 1);
    }
}
