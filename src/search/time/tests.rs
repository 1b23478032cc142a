//! Unit tests of the time manager: budgets, the per-iteration stop rule, the solvers' shares.

use super::*;

fn tc(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeControl {
    TimeControl {
        timeout_turn_ms: turn,
        timeout_match_ms: matc,
        time_left_ms: left,
    }
}

/// An iteration history of depths 1..=`depth`, the best move changing at the depths in
/// `changes`, all with `score`.
fn history(depth: u32, changes: &[u32], score: Score) -> IterationState {
    let mut it = IterationState::new(30);
    let mut x = 7;
    for d in 1..=depth {
        if changes.contains(&d) {
            x += 1;
        }
        it.record(d, Pos::new(x, 7), score);
    }
    it
}

#[test]
fn margin_grows_and_is_capped() {
    assert_eq!(safety_margin_ms(0), 50);
    assert_eq!(safety_margin_ms(200), 70);
    assert_eq!(safety_margin_ms(1_000), 150);
    assert_eq!(safety_margin_ms(5_000), 500);
    assert_eq!(safety_margin_ms(30_000), 500);
    assert_eq!(safety_margin_ms(-100), 50);
    assert_eq!(turn_margin_ms(200), 33);
    assert_eq!(turn_margin_ms(500), 45);
    assert_eq!(turn_margin_ms(1_000), 65);
    assert_eq!(turn_margin_ms(30_000), 500);
    assert_eq!(turn_margin_ms(-100), 25);
}

#[test]
fn watchdog_is_past_the_maximum_and_inside_the_margin() {
    for turn in [0, 50, 100, 200, 500, 1_000, 5_000, 30_000, 300_000] {
        let max = TimeManager::new(&tc(Some(turn), 0, None), 225, 0)
            .maximum_ms()
            .unwrap();
        let w = watchdog_ms(max);
        assert!(w > max);
        // At least 20 ms (and more for longer turns) left to print the answer.
        let room = turn.max(100) as u64 - w;
        assert!(room >= 20, "turn {turn}: maximum {max} watchdog {w}");
    }
    assert_eq!(watchdog_ms(u64::MAX), u64::MAX);
}

#[test]
fn moves_to_go_bounds() {
    assert_eq!(moves_to_go(225, 0), 35);
    assert_eq!(moves_to_go(225 - 70, 70), MIN_MOVES_TO_GO);
    assert_eq!(moves_to_go(3, 222), 2);
    assert_eq!(moves_to_go(0, 225), 1);
}

#[test]
fn turn_only_uses_most_of_the_turn() {
    let tm = TimeManager::new(&tc(Some(5_000), 0, None), 225, 0);
    assert_eq!(tm.maximum_ms(), Some(5_000 - 225));
    assert_eq!(tm.optimum_ms(), Some(3_342));
    assert!(tm.turn_bound() && !tm.is_infinite());
}

#[test]
fn never_sent_turn_is_thirty_seconds() {
    let tm = TimeManager::new(&TimeControl::default(), 225, 0);
    assert_eq!(tm.maximum_ms(), Some(DEFAULT_TURN_MS as u64 - 500));
}

#[test]
fn instant_and_analysis() {
    let tm = TimeManager::new(&tc(Some(0), 0, None), 225, 0);
    assert_eq!(
        (tm.optimum_ms(), tm.maximum_ms()),
        (Some(0), Some(INSTANT_MAX_MS))
    );
    assert!(tm.should_stop(&history(1, &[], 0), 0));
    let tm = TimeManager::new(&tc(Some(UNLIMITED_MS), 0, None), 225, 0);
    assert!(tm.is_infinite());
    assert_eq!(tm, TimeManager::infinite());
    assert!(!tm.should_stop(&history(60, &[], 0), u64::MAX - 1));
    assert!(!tm.past_maximum(u64::MAX));
    // A game clock bounds even a huge turn limit.
    let tm = TimeManager::new(&tc(Some(UNLIMITED_MS), 60_000, Some(60_000)), 225, 0);
    assert!(!tm.is_infinite());
    assert!(tm.maximum_ms().unwrap() < 60_000);
}

#[test]
fn time_left_is_authoritative_and_unlimited_left_is_ignored() {
    let b = TimeManager::new(&tc(Some(5_000), 0, None), 225, 0);
    let c = TimeManager::new(&tc(Some(5_000), 120_000, Some(UNLIMITED_MS)), 225, 0);
    assert_eq!(c, b);
    let d = TimeManager::new(&tc(Some(5_000), 0, Some(UNLIMITED_MS)), 225, 0);
    assert_eq!(d, b);
    // A real time_left counts even with timeout_match 0.
    let a = TimeManager::new(&tc(Some(5_000), 0, Some(100)), 225, 0);
    assert!(a.maximum_ms().unwrap() <= INSTANT_MAX_MS);
    // Before the first time_left, timeout_match stands in for it.
    let e = TimeManager::new(&tc(Some(5_000), 10_000, None), 225, 0);
    let f = TimeManager::new(&tc(Some(5_000), 10_000, Some(10_000)), 225, 0);
    assert_eq!(e, f);
    assert!(e.maximum_ms() < b.maximum_ms());
}

#[test]
fn hard_limit_is_the_maximum() {
    let tm = TimeManager::new(&tc(Some(1_000), 0, None), 225, 0);
    assert!(!tm.past_maximum(934));
    assert!(tm.past_maximum(935));
    let fixed = TimeManager::fixed_maximum(50);
    assert!(!fixed.past_maximum(49) && fixed.past_maximum(50));
    // A fixed maximum never stops between iterations for time.
    assert_eq!(fixed.iteration_target_ms(&history(3, &[], 0)), None);
    assert!(!fixed.should_stop(&history(3, &[], 0), 49));
}

#[test]
fn solvers_get_their_share_of_the_maximum() {
    let start = Instant::now();
    let tm = TimeManager::fixed_maximum(1_000);
    let at = |s| {
        tm.solver_deadline(s, start)
            .map(|d| d.duration_since(start))
    };
    assert_eq!(at(Solver::RootVcf), Some(Duration::from_millis(200)));
    assert_eq!(at(Solver::HelperVct), Some(Duration::from_millis(800)));
    assert_eq!(tm.solver_node_cap(Solver::RootVcf), Some(60_001));
    assert_eq!(tm.solver_node_cap(Solver::HelperVct), None);
    let inf = TimeManager::infinite();
    assert_eq!(inf.solver_deadline(Solver::RootVcf, start), None);
    assert_eq!(inf.solver_node_cap(Solver::RootVcf), None);
    // An instant answer still lets a solver look at one node.
    let instant = TimeManager::fixed_maximum(0);
    assert_eq!(instant.solver_node_cap(Solver::RootVcf), Some(1));
}

#[test]
fn target_scales_with_stability_and_falling_score() {
    // A game clock (the turn limit does not bind): optimum 1_000, maximum 5_000.
    let tm = TimeManager {
        optimum: Some(1_000),
        maximum: Some(5_000),
        turn_bound: false,
    };
    let target = |it: &IterationState| tm.iteration_target_ms(it).unwrap();
    assert_eq!(target(&history(8, &[], 10)), 500); // settled: 1.0 x 0.5
    assert_eq!(target(&history(4, &[], 10)), 700); // stable but shallow: 1.0 x 0.7
    assert_eq!(target(&history(8, &[8], 10)), 1_000);
    assert_eq!(target(&history(8, &[6, 8], 10)), 1_400);
    assert_eq!(target(&history(8, &[5, 6, 7, 8], 10)), 1_800);
    // Only the last four iterations count.
    assert_eq!(target(&history(12, &[5, 6, 7, 8], 10)), 500);
    // A falling score: the drop below the best of the previous three iterations.
    let mut falling = history(8, &[], 100);
    falling.record(9, Pos::new(7, 7), 0);
    assert_eq!(target(&falling), 750); // 1.0 x 0.5 x 1.5
    falling.record(10, Pos::new(7, 7), -500);
    assert_eq!(target(&falling), 1_000); // the drop counts up to 200: x 2
                                         // Never past 60 % of the maximum.
    let tight = TimeManager {
        maximum: Some(1_000),
        ..tm
    };
    assert_eq!(
        tight.iteration_target_ms(&history(8, &[5, 6, 7, 8], 10)),
        Some(600)
    );
    assert!(!tm.should_stop(&history(8, &[], 10), 499));
    assert!(tm.should_stop(&history(8, &[], 10), 500));
}

#[test]
fn binding_turn_limit_deepens_to_the_maximum() {
    let tm = TimeManager::new(&tc(Some(1_000), 0, None), 225, 0);
    assert!(tm.turn_bound());
    let max = tm.maximum_ms().unwrap();
    for it in [history(8, &[], 10), history(8, &[5, 6, 7, 8], 10)] {
        assert_eq!(
            tm.iteration_target_ms(&it),
            Some(max * TURN_BOUND_DEEPEN_PCT / 100)
        );
    }
}

#[test]
fn iteration_state_counts_changes_and_drops() {
    let (a, b) = (Pos::new(7, 7), Pos::new(8, 8));
    let mut s = IterationState::new(10);
    assert_eq!((s.best_move_changes(), s.score_drop()), (0, 0));
    s.record(1, a, 50);
    s.record(2, b, 40);
    s.record(3, a, 10);
    assert_eq!(s.best_move_changes(), 2);
    assert_eq!(s.score_drop(), 40);
    for d in 4..8 {
        s.record(d, a, 60);
    }
    assert_eq!(s.best_move_changes(), 0);
    assert_eq!(s.score_drop(), 0);
    assert!(!s.mate_settled() && !s.only_move_searched());
}

#[test]
fn proven_mates_and_only_moves_stop_whatever_the_time() {
    let inf = TimeManager::infinite();
    // A win in 5 plies is settled from depth 7, a loss in 6 from depth 8.
    for (score, settled_at) in [(MATE - 5, 7), (-(MATE - 6), 8)] {
        let mut it = IterationState::new(10);
        for d in 1..settled_at {
            it.record(d, Pos::new(7, 7), score);
            assert!(
                !it.mate_settled() && !inf.should_stop(&it, 0),
                "{score} {d}"
            );
        }
        it.record(settled_at, Pos::new(7, 7), score);
        assert!(it.mate_settled() && inf.should_stop(&it, 0), "{score}");
    }
    let mut only = IterationState::new(1);
    for d in 1..ONLY_MOVE_DEPTH {
        only.record(d, Pos::new(7, 7), 0);
        assert!(!inf.should_stop(&only, 0));
    }
    only.record(ONLY_MOVE_DEPTH, Pos::new(7, 7), 0);
    assert!(only.only_move_searched() && inf.should_stop(&only, 0));
}
