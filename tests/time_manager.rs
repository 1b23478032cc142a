//! Time-manager budgets for typical Gomocup controls: invariants (optimum ≤ maximum ≤
//! limit − margin), monotonicity, and the stop rule the search asks after each iteration.

use pentad::core::Pos;
use pentad::search::time::{
    safety_margin_ms, turn_margin_ms, IterationState, TimeControl, TimeManager, INSTANT_FLOOR_MS,
    INSTANT_MAX_MS, NEXT_ITERATION_MAX_PCT, UNLIMITED_MS,
};

fn tc(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeControl {
    TimeControl {
        timeout_turn_ms: turn,
        timeout_match_ms: matc,
        time_left_ms: left,
    }
}

/// The optimum of a budget with a time limit.
fn opt_ms(tm: &TimeManager) -> u64 {
    tm.optimum_ms().expect("a time limit")
}

/// The hard maximum of a budget with a time limit.
fn max_ms(tm: &TimeManager) -> u64 {
    tm.maximum_ms().expect("a time limit")
}

/// Iterations 1..=`depth`, the best move changing in the last `changes` of them, the score
/// falling by `drop` in the last one.
fn iterations(depth: u32, changes: u32, drop: i32) -> IterationState {
    let mut it = IterationState::new(30);
    for d in 1..=depth {
        let x = 7 + (d + changes).saturating_sub(depth) as usize;
        let score = if d == depth { -drop } else { 0 };
        it.record(d, Pos::new(x, 7), score);
    }
    it
}

/// Checks the contract every budget must meet and returns it.
fn check(c: &TimeControl, empty: usize, moves: usize) -> TimeManager {
    let tm = TimeManager::new(c, empty, moves);
    if tm.is_infinite() {
        assert_eq!((tm.optimum_ms(), tm.maximum_ms()), (None, None));
        return tm;
    }
    assert!(
        opt_ms(&tm) <= max_ms(&tm),
        "{c:?}: optimum {} > maximum {}",
        opt_ms(&tm),
        max_ms(&tm)
    );
    let turn = c.turn_ms();
    let mut room = turn - turn_margin_ms(turn);
    if let Some(left) = c.game_left_ms() {
        room = room.min(left - safety_margin_ms(left));
    }
    if room >= INSTANT_MAX_MS as i64 {
        assert!(
            max_ms(&tm) as i64 <= room,
            "{c:?}: maximum {} > {room} (the limits less their margins)",
            max_ms(&tm)
        );
    } else {
        // No room for the margin: answer (almost) at once.
        assert!(
            max_ms(&tm) <= INSTANT_MAX_MS,
            "{c:?}: maximum {} in instant mode",
            max_ms(&tm)
        );
        assert!(max_ms(&tm) >= INSTANT_FLOOR_MS, "{c:?}");
    }
    tm
}

#[test]
fn fastgame_5s_120s() {
    let start = check(&tc(Some(5_000), 120_000, Some(120_000)), 225, 0);
    assert!(max_ms(&start) <= 5_000 - 225);
    assert!(opt_ms(&start) >= 1_500, "{start:?}");
    // Late in the game with 20 s left: smaller, still sane.
    let late = check(&tc(Some(5_000), 120_000, Some(20_000)), 125, 100);
    assert!(opt_ms(&late) < opt_ms(&start));
    assert!(max_ms(&late) <= 20_000 / 4, "{late:?}");
    assert!(opt_ms(&late) >= 500, "{late:?}");
}

#[test]
fn league_30s_180s() {
    let tm = check(&tc(Some(30_000), 180_000, Some(180_000)), 225, 0);
    assert!(opt_ms(&tm) >= 3_000 && opt_ms(&tm) <= 10_000, "{tm:?}");
    assert!(max_ms(&tm) <= 30_000 - 500);
    assert!(max_ms(&tm) >= opt_ms(&tm) * 3, "{tm:?}");
}

#[test]
fn finals_300s_1000s() {
    let tm = check(&tc(Some(300_000), 1_000_000, Some(1_000_000)), 400, 0);
    assert!(opt_ms(&tm) >= 20_000 && opt_ms(&tm) <= 40_000, "{tm:?}");
    assert!(max_ms(&tm) <= 200_000, "{tm:?}");
}

#[test]
fn one_second_no_game_limit() {
    let tm = check(&tc(Some(1_000), 0, None), 225, 0);
    assert_eq!(max_ms(&tm), 1_000 - turn_margin_ms(1_000) as u64);
    assert!(opt_ms(&tm) >= 500);
    // The same with the "unlimited" time_left a manager may send.
    let tm2 = check(&tc(Some(1_000), 0, Some(UNLIMITED_MS)), 225, 0);
    assert_eq!(tm, tm2);
}

#[test]
fn only_match_time() {
    // c-gomoku-cli style: no timeout_turn (default 30 s), 5 s for the game.
    let tm = check(&tc(None, 5_000, Some(5_000)), 225, 0);
    assert!(max_ms(&tm) <= 1_000, "{tm:?}");
    assert!(opt_ms(&tm) >= 50, "{tm:?}");
    // Huge turn limit with a game clock is not analysis.
    let tm = check(&tc(Some(UNLIMITED_MS), 60_000, Some(60_000)), 225, 0);
    assert!(!tm.is_infinite());
    assert!(max_ms(&tm) <= 60_000 / 4);
}

#[test]
fn time_left_nearly_spent() {
    for left in [1_000, 300, 100, 60, 40, 20, 1, 0] {
        let tm = check(&tc(Some(5_000), 120_000, Some(left)), 100, 125);
        assert!(
            max_ms(&tm) as i64 <= left.max(INSTANT_MAX_MS as i64),
            "{left} {tm:?}"
        );
    }
    let tm = check(&tc(Some(5_000), 120_000, Some(100)), 100, 125);
    assert!(max_ms(&tm) <= INSTANT_MAX_MS);
}

#[test]
fn negative_time_left_answers_at_once() {
    let tm = check(&tc(Some(5_000), 120_000, Some(-300)), 100, 125);
    assert_eq!(opt_ms(&tm), 0);
    assert!(max_ms(&tm) <= INSTANT_MAX_MS && max_ms(&tm) > 0);
    assert!(
        tm.should_stop(&iterations(1, 0, 0), 0),
        "one iteration, then answer"
    );
}

#[test]
fn timeout_turn_zero_is_instant() {
    let tm = check(&tc(Some(0), 0, None), 225, 0);
    assert_eq!(opt_ms(&tm), 0);
    assert!(max_ms(&tm) <= INSTANT_MAX_MS && max_ms(&tm) < 100);
    let tm = check(&tc(Some(0), 120_000, Some(120_000)), 225, 0);
    assert!(max_ms(&tm) <= INSTANT_MAX_MS);
}

#[test]
fn never_sent_turn_defaults_to_30s() {
    let tm = check(&tc(None, 0, None), 225, 0);
    assert_eq!(max_ms(&tm), 30_000 - turn_margin_ms(30_000) as u64);
    assert!(!tm.is_infinite());
}

#[test]
fn analysis_thinks_until_stopped() {
    for turn in [86_400_000, UNLIMITED_MS, i64::MAX] {
        let tm = check(&tc(Some(turn), 0, None), 225, 0);
        assert!(tm.is_infinite());
        assert!(!tm.should_stop(&iterations(40, 0, 0), 3_600_000));
        assert!(!tm.past_maximum(3_600_000));
    }
}

#[test]
fn more_time_left_never_less_budget() {
    for (turn, matc) in [(Some(5_000), 120_000), (None, 5_000), (Some(200), 10_000)] {
        for (empty, moves) in [(225, 0), (165, 60), (20, 205)] {
            let mut prev: Option<TimeManager> = None;
            let mut left = -2_000i64;
            while left <= 200_000 {
                let tm = check(&tc(turn, matc, Some(left)), empty, moves);
                if let Some(p) = prev {
                    assert!(
                        opt_ms(&tm) >= opt_ms(&p) && max_ms(&tm) >= max_ms(&p),
                        "left {left}: {p:?} -> {tm:?}"
                    );
                }
                prev = Some(tm);
                left += if left < 2_000 { 7 } else { 997 };
            }
        }
    }
}

#[test]
fn longer_turn_never_less_budget() {
    // (turn 0 is the special "as fast as possible" value, checked separately.)
    let mut prev = check(&tc(Some(1), 0, None), 225, 0);
    for turn in (1..60_000).step_by(13) {
        let tm = check(&tc(Some(turn), 0, None), 225, 0);
        assert!(max_ms(&tm) >= max_ms(&prev), "turn {turn}");
        assert!(opt_ms(&tm) >= opt_ms(&prev), "turn {turn}");
        prev = tm;
    }
}

#[test]
fn stop_rule_stays_inside_the_maximum() {
    // Gomocup freestyle 30 s / 180 s: the game clock binds, not the turn.
    let tm = check(&tc(Some(30_000), 180_000, Some(180_000)), 225, 0);
    assert!(!tm.turn_bound());
    let cap = max_ms(&tm) * NEXT_ITERATION_MAX_PCT / 100;
    for changes in 0..6 {
        for drop in [-500, 0, 50, 200, 10_000] {
            let it = iterations(12, changes, drop);
            let t = tm.iteration_target_ms(&it).unwrap();
            assert!(t <= cap, "{changes} {drop}: {t}");
            assert!(!tm.should_stop(&it, t - 1) && tm.should_stop(&it, t));
            assert!(tm.past_maximum(max_ms(&tm)));
        }
    }
    let target = |changes, drop| {
        tm.iteration_target_ms(&iterations(12, changes, drop))
            .unwrap()
    };
    assert!(
        target(0, 0) <= opt_ms(&tm) / 2,
        "a settled best move stops early"
    );
    assert!(target(3, 0) > opt_ms(&tm), "an unsettled one goes on");
    assert!(target(0, 200) > target(0, 0), "so does a falling score");
    // A binding turn limit deepens until the maximum whatever the iterations say.
    let tm = check(&tc(Some(5_000), 120_000, Some(120_000)), 225, 0);
    assert!(tm.turn_bound());
    assert_eq!(
        tm.iteration_target_ms(&iterations(12, 0, 0)),
        Some(max_ms(&tm))
    );
}

/// Plays out one side's clock where every move takes `pick(tm)` ms plus `latency_ms` of
/// pipe/scheduling overhead the engine cannot see; returns the lowest time left and when.
fn play_clock(
    turn: Option<i64>,
    matc: i64,
    own_moves: usize,
    latency_ms: i64,
    pick: impl Fn(&TimeManager) -> u64,
) -> (i64, usize) {
    let mut left = matc;
    let mut lowest = (left, 0);
    for i in 0..own_moves {
        let ply = 2 * i + 3;
        let tm = check(
            &tc(turn, matc, Some(left)),
            225usize.saturating_sub(ply),
            ply,
        );
        left -= pick(&tm) as i64 + latency_ms;
        if left < lowest.0 {
            lowest = (left, i);
        }
    }
    lowest
}

const CONTROLS: [(Option<i64>, i64); 5] = [
    (None, 5_000),
    (None, 1_000),
    (Some(200), 2_000),
    (Some(5_000), 120_000),
    (Some(30_000), 180_000),
];

#[test]
fn worst_case_game_never_forfeits() {
    for (turn, matc) in CONTROLS {
        // Every move takes the whole hard maximum plus 5 ms unseen latency: a typical game
        // (60 own moves) never runs the clock out…
        let (low, at) = play_clock(turn, matc, 60, 5, max_ms);
        assert!(
            low > 0,
            "{turn:?}/{matc}: clock ran out at own move {at} ({low} ms)"
        );
        // …and even a full 15x15 board (112 own moves) with 10 ms latency stays within the
        // managers' 1000 ms tolerance.
        let (low, at) = play_clock(turn, matc, 112, 10, max_ms);
        assert!(low > -1_000, "{turn:?}/{matc}: {low} ms at own move {at}");
    }
}

#[test]
fn unstable_game_keeps_time_in_hand() {
    for (turn, matc) in CONTROLS {
        // Every move unstable (two best-move changes, a falling score) and 2 ms latency (a
        // Rust engine on pipes): even a full board ends with time on the clock.
        let unstable = iterations(12, 2, 100);
        let (low, at) = play_clock(turn, matc, 112, 2, |tm| {
            tm.iteration_target_ms(&unstable).unwrap()
        });
        assert!(low > 0, "{turn:?}/{matc}: {low} ms at own move {at}");
    }
}

/// A game of typical length (30 own moves, 60 plies: renju from the 3-stone openings averages
/// 58) in which every move stops at its iteration target with the best move changed once
/// spends most of Gomocup's game clocks: time left at the end is thinking time thrown away.
/// With the game shared over 80 plies, at least 20 moves and a target of 0.6 optimums
/// (before session 69) such a game left about half the clock unspent.
#[test]
fn typical_game_spends_most_of_the_clock() {
    let gomocup = [
        (Some(5_000), 120_000),
        (Some(30_000), 180_000),
        (Some(300_000), 1_000_000),
    ];
    let typical = iterations(12, 1, 0);
    for (turn, matc) in gomocup {
        let (low, _) = play_clock(turn, matc, 30, 0, |tm| {
            tm.iteration_target_ms(&typical).unwrap()
        });
        let spent = 1.0 - low as f64 / matc as f64;
        assert!(spent > 0.7, "{turn:?}/{matc}: spent {spent:.2}");
    }
}

#[test]
fn turn_bound_only_when_the_turn_limit_sets_the_maximum() {
    let tm = |turn: i64, game: i64, left: Option<i64>| {
        TimeManager::new(
            &TimeControl {
                timeout_turn_ms: Some(turn),
                timeout_match_ms: game,
                time_left_ms: left,
            },
            200,
            25,
        )
    };
    // No game clock: the turn limit binds.
    assert!(tm(200, 0, None).turn_bound());
    // A roomy clock (Gomocup freestyle 30 s turn / 180 s game early on) binds, not the turn.
    assert!(!tm(30_000, 180_000, Some(180_000)).turn_bound());
    // 0.5 s a move with 1000 s for the game: the turn binds.
    assert!(tm(500, 1_000_000, Some(1_000_000)).turn_bound());
    // Instant answers and analysis mode are not turn bound.
    assert!(!tm(0, 0, None).turn_bound());
    assert!(!TimeManager::infinite().turn_bound());
}

/// A whole 15x15 game on a 5 s clock where every move costs the clock its full maximum, the
/// watchdog's grace and a fixed latency the engine observes through `time_left`: the clock
/// never runs out, up to a full board, for latencies far above the fixed 10 ms reserve (up to
/// 30 ms: 113 moves at the floor then cost 4.2 s of the 5; no budget survives much more).
#[test]
fn observed_latency_keeps_the_game_clock_positive() {
    use pentad::search::time::{ObservedLatency, WATCHDOG_GRACE_MIN_MS};
    for latency_ms in [0i64, 5, 15, 30] {
        let mut left = 5_000i64;
        let mut observed = ObservedLatency::default();
        for ours in 0..113usize {
            let stones = 2 * ours;
            let tc = TimeControl {
                timeout_turn_ms: Some(5_000),
                timeout_match_ms: 5_000,
                time_left_ms: Some(left),
            };
            let tm = TimeManager::with_latency(&tc, 225 - stones, stones, observed);
            let max = tm.maximum_ms().unwrap() as i64;
            left -= max + WATCHDOG_GRACE_MIN_MS as i64 + latency_ms;
            assert!(left > 0, "latency {latency_ms}: clock spent at move {ours}");
            observed.observe(latency_ms + WATCHDOG_GRACE_MIN_MS as i64);
        }
    }
}

/// Without the observation the same game at 30 ms of latency runs the clock out: the fixed
/// reserve alone is not enough (why the latency is observed).
#[test]
fn fixed_reserve_alone_runs_out_at_high_latency() {
    let mut left = 5_000i64;
    let mut ran_out = false;
    for ours in 0..113usize {
        let stones = 2 * ours;
        let tc = TimeControl {
            timeout_turn_ms: Some(5_000),
            timeout_match_ms: 5_000,
            time_left_ms: Some(left),
        };
        let max = TimeManager::new(&tc, 225 - stones, stones)
            .maximum_ms()
            .unwrap() as i64;
        left -= max + pentad::search::time::WATCHDOG_GRACE_MIN_MS as i64 + 30;
        ran_out |= left <= 0;
    }
    assert!(ran_out);
}
