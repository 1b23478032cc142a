//! Every run-time tunable is live: set to its least or its greatest value, it changes what the
//! engine does — the node count of a fixed search, the time manager's budgets, or the
//! evaluation of a random position. A tunable that no value moves is dead code with a name
//! (the project keeps live code only). A `tune` build, in a process of its own: it changes
//! process-wide values (`cargo test --release --features tune --test tunables_live`).
#![cfg(feature = "tune")]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pentad::board::{random_games, Board};
use pentad::core::tunable::TunableSpec;
use pentad::core::{Pos, Rule};
use pentad::search::bench::board_from_moves;
use pentad::search::time::{IterationState, Solver, TimeControl, TimeManager, SETTLED_DEPTH};
use pentad::search::{self, tunables, SearchLimits, Searcher, TunableKind};

/// Tunables that act only with a second search thread (ABDADA's deferral, the helper's
/// threat search), where node counts are not repeatable: the two-thread tests of
/// `search::root` (`multipv_reports_each_line_and_threads_work`,
/// `a_second_thread_proves_wins_by_threats`) run them at their defaults.
const THREADED_ONLY: [&str; 2] = ["abdada_min_depth", "helper_vct_nodes"];

/// Fixed searches: (rule, moves, depth). A middle game of each rule family searched deep
/// enough for the reductions, IIR and the history's saturation to act, and a renju position
/// whose root VCF search takes more than the smallest `root_vcf_nodes`.
const SEARCHES: [(Rule, &str, u32); 3] = [
    (
        Rule::FREESTYLE,
        "h8 h7 f9 i9 i7 g9 f8 f7 g7 e8 i5 h6 h5 j5",
        8,
    ),
    (Rule::RENJU, "h8 h7 f9 i9 i7 g9 f8 f7 g7 e8 i5 h6 h5 j5", 8),
    (
        Rule::RENJU,
        "h8 g9 i9 j9 i8 h7 k9 l10 h10 j10 j11 g10 f10 f8 g7 i7 e8 k11 j7 f7 i11 m9 d7 e9 g11 \
         d8 c8 m8 g12 k7 k10 i12 h6 k12 j12 e7 j13 f13 l8 i5 e12 g6 h12 l13 n10 o10 j5 o9",
        2,
    ),
];

/// Node counts of [`SEARCHES`], one thread, a fresh table each.
fn search_nodes() -> Vec<u64> {
    SEARCHES
        .iter()
        .map(|&(rule, moves, depth)| {
            let board = board_from_moves(rule, 15, moves).unwrap();
            let limits = SearchLimits {
                max_depth: Some(depth),
                ..Default::default()
            };
            let stop = AtomicBool::new(false);
            Searcher::new(1 << 20)
                .search(&board, &limits, &stop, &mut |_| {})
                .nodes
        })
        .collect()
}

/// An iteration history `depth` deep whose best move changed `changes` times lately.
fn iterations(depth: u32, changes: u32) -> IterationState {
    let mut it = IterationState::new(30);
    for d in 1..=depth {
        let mv = if d + changes > depth { d } else { 0 };
        it.record(d, Pos::new(mv as usize % 15, 7), 50);
    }
    it
}

/// Everything the time manager decides, over clocks where each of its rules binds: a turn
/// limit alone, and game clocks early and late in a game.
fn budgets() -> Vec<Option<u64>> {
    let clocks = [
        (Some(5_000), 0, None, 200, 20),
        (Some(30_000), 180_000, Some(120_000), 200, 25),
        (Some(30_000), 180_000, Some(9_000), 120, 100),
        (Some(60_000), 0, Some(2_000), 60, 160),
    ];
    let start = Instant::now();
    let since = |t: Option<Instant>| t.map(|t| (t - start).as_millis() as u64);
    let mut out = Vec::new();
    for (turn, game, left, empty, played) in clocks {
        let tc = TimeControl {
            timeout_turn_ms: turn,
            timeout_match_ms: game,
            time_left_ms: left,
        };
        let tm = TimeManager::new(&tc, empty, played);
        out.extend([tm.optimum_ms(), tm.maximum_ms()]);
        for it in [iterations(SETTLED_DEPTH + 2, 0), iterations(4, 2)] {
            out.push(tm.iteration_target_ms(&it));
        }
        for solver in [Solver::RootVcf, Solver::HelperVct] {
            out.push(since(tm.solver_deadline(solver, start)));
            out.push(tm.solver_node_cap(solver));
        }
    }
    out
}

/// The evaluation of the positions of a few random games of each rule family.
fn evaluations() -> Vec<i32> {
    let mut out = Vec::new();
    for rule in [Rule::FREESTYLE, Rule::RENJU] {
        random_games(rule, 7, 12, 40, |b: &mut Board| {
            out.push(pentad::eval::evaluate_linear(b));
            true
        });
    }
    out
}

/// What the engine does, as far as the tunables reach.
#[derive(PartialEq, Debug)]
struct Behaviour {
    nodes: Vec<u64>,
    budgets: Vec<Option<u64>>,
    evaluations: Vec<i32>,
}

/// Whether two behaviours differ in the part one probe looks at.
type Differs = fn(&Behaviour, &Behaviour) -> bool;

fn behaviour() -> Behaviour {
    Behaviour {
        nodes: search_nodes(),
        budgets: budgets(),
        evaluations: evaluations(),
    }
}

/// `v` as the protocol writes a value of `t`'s kind.
fn text(t: &TunableSpec, v: f64) -> String {
    match t.kind {
        TunableKind::Int => format!("{}", v as i64),
        TunableKind::Float => format!("{v}"),
    }
}

/// The default text of tunable `name`.
fn default_text(name: &str) -> String {
    let t = tunables().iter().find(|t| t.name == name).unwrap();
    text(t, t.default)
}

// One test: the values are process-wide, so no other test may run beside it.
#[test]
fn every_tunable_changes_what_the_engine_does() {
    let defaults = behaviour();
    // Each probe alone tells a small change of a tunable of its kind (a probe that saw
    // nothing would let dead tunables pass).
    let probes: [(&str, &str, Differs); 3] = [
        ("futility_margin", "150", |a, b| a.nodes != b.nodes),
        ("iteration_target_share", "0.9", |a, b| {
            a.budgets != b.budgets
        }),
        ("w_gomoku_cell_me_flex3", "30", |a, b| {
            a.evaluations != b.evaluations
        }),
    ];
    for (name, value, differs) in probes {
        search::set_tunable(name, value).unwrap();
        let changed = behaviour();
        search::set_tunable(name, &default_text(name)).unwrap();
        assert!(differs(&defaults, &changed), "{name} {value}");
    }

    let mut dead = Vec::new();
    for t in tunables() {
        if THREADED_ONLY.contains(&t.name) {
            continue;
        }
        let moves = [t.min, t.max]
            .into_iter()
            .filter(|&v| v != t.default)
            .any(|v| {
                search::set_tunable(t.name, &text(t, v)).unwrap();
                // The cheap probes first: most weights show in the evaluations.
                let changed = evaluations() != defaults.evaluations
                    || budgets() != defaults.budgets
                    || search_nodes() != defaults.nodes;
                search::set_tunable(t.name, &text(t, t.default)).unwrap();
                changed
            });
        if !moves {
            dead.push(t.name);
        }
    }
    assert!(dead.is_empty(), "tunables that change nothing: {dead:?}");
    // Every value restored: the defaults behave as before.
    assert_eq!(behaviour(), defaults);
    // The exemptions name real tunables.
    for name in THREADED_ONLY {
        assert!(tunables().iter().any(|t| t.name == name), "{name}");
    }
}
