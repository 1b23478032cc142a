//! Time-manager budgets for typical Gomocup controls: invariants (optimum ≤ maximum ≤
//! limit − margin), monotonicity.

use pentad::search::time::{
    safety_margin_ms, TimeControl, TimeManager, INSTANT_FLOOR_MS, INSTANT_MAX_MS,
};

fn tc(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeControl {
    TimeControl {
        timeout_turn_ms: turn,
        timeout_match_ms: matc,
        time_left_ms: left,
    }
}

/// Checks the contract every budget must meet and returns it.
fn check(c: &TimeControl, empty: usize, moves: usize) -> TimeManager {
    let tm = TimeManager::new(c, empty, moves);
    assert!(
        tm.optimum_ms() <= tm.maximum_ms(),
        "{c:?}: optimum {} > maximum {}",
        tm.optimum_ms(),
        tm.maximum_ms()
    );
    assert_eq!(tm.hard_deadline_ms(), tm.maximum_ms());
    if tm.is_infinite() {
        return tm;
    }
    let limit = c.enforced_limit_ms();
    let room = limit - safety_margin_ms(limit);
    if room >= INSTANT_MAX_MS as i64 {
        assert!(
            tm.maximum_ms() as i64 <= room,
            "{c:?}: maximum {} > limit {limit} - margin",
            tm.maximum_ms()
        );
    } else {
        // No room for the margin: answer (almost) at once.
        assert!(
            tm.maximum_ms() <= INSTANT_MAX_MS,
            "{c:?}: maximum {} in instant mode",
            tm.maximum_ms()
        );
        assert!(tm.maximum_ms() >= INSTANT_FLOOR_MS, "{c:?}");
    }
    tm
}

#[test]
fn fastgame_5s_120s() {
    let start = check(&tc(Some(5_000), 120_000, Some(120_000)), 225, 0);
    assert!(start.maximum_ms() <= 5_000 - 342);
    assert!(start.optimum_ms() >= 1_500, "{start:?}");
    // Late in the game with 20 s left: smaller, still sane.
    let late = check(&tc(Some(5_000), 120_000, Some(20_000)), 125, 100);
    assert!(late.optimum_ms() < start.optimum_ms());
    assert!(late.maximum_ms() <= 20_000 / 4, "{late:?}");
    assert!(late.optimum_ms() >= 500, "{late:?}");
}

#[test]
fn league_30s_180s() {
    let tm = check(&tc(Some(30_000), 180_000, Some(180_000)), 225, 0);
    assert!(
        tm.optimum_ms() >= 3_000 && tm.optimum_ms() <= 10_000,
        "{tm:?}"
    );
    assert!(tm.maximum_ms() <= 30_000 - 500);
    assert!(tm.maximum_ms() >= tm.optimum_ms() * 3, "{tm:?}");
}

#[test]
fn finals_300s_1000s() {
    let tm = check(&tc(Some(300_000), 1_000_000, Some(1_000_000)), 400, 0);
    assert!(
        tm.optimum_ms() >= 20_000 && tm.optimum_ms() <= 40_000,
        "{tm:?}"
    );
    assert!(tm.maximum_ms() <= 200_000, "{tm:?}");
}

#[test]
fn one_second_no_game_limit() {
    let tm = check(&tc(Some(1_000), 0, None), 225, 0);
    assert_eq!(tm.maximum_ms(), 1_000 - safety_margin_ms(1_000) as u64);
    assert!(tm.optimum_ms() >= 500);
    // The same with the "unlimited" time_left a manager may send.
    let tm2 = check(&tc(Some(1_000), 0, Some(2_147_483_647)), 225, 0);
    assert_eq!(tm, tm2);
}

#[test]
fn only_match_time() {
    // c-gomoku-cli style: no timeout_turn (default 30 s), 5 s for the game.
    let tm = check(&tc(None, 5_000, Some(5_000)), 225, 0);
    assert!(tm.maximum_ms() <= 1_000, "{tm:?}");
    assert!(tm.optimum_ms() >= 50, "{tm:?}");
    // Huge turn limit with a game clock is not analysis.
    let tm = check(&tc(Some(2_147_483_647), 60_000, Some(60_000)), 225, 0);
    assert!(!tm.is_infinite());
    assert!(tm.maximum_ms() <= 60_000 / 4);
}

#[test]
fn time_left_nearly_spent() {
    for left in [1_000, 300, 100, 60, 40, 20, 1, 0] {
        let tm = check(&tc(Some(5_000), 120_000, Some(left)), 100, 125);
        assert!(
            tm.maximum_ms() as i64 <= left.max(INSTANT_MAX_MS as i64),
            "{left} {tm:?}"
        );
    }
    let tm = check(&tc(Some(5_000), 120_000, Some(100)), 100, 125);
    assert!(tm.maximum_ms() <= INSTANT_MAX_MS);
}

#[test]
fn negative_time_left_answers_at_once() {
    let tm = check(&tc(Some(5_000), 120_000, Some(-300)), 100, 125);
    assert_eq!(tm.optimum_ms(), 0);
    assert!(tm.maximum_ms() <= INSTANT_MAX_MS && tm.maximum_ms() > 0);
    assert!(tm.should_stop(0, 1, 0, 0));
}

#[test]
fn timeout_turn_zero_is_instant() {
    let tm = check(&tc(Some(0), 0, None), 225, 0);
    assert_eq!(tm.optimum_ms(), 0);
    assert!(tm.maximum_ms() <= INSTANT_MAX_MS && tm.maximum_ms() < 100);
    let tm = check(&tc(Some(0), 120_000, Some(120_000)), 225, 0);
    assert!(tm.maximum_ms() <= INSTANT_MAX_MS);
}

#[test]
fn never_sent_turn_defaults_to_30s() {
    let tm = check(&tc(None, 0, None), 225, 0);
    assert_eq!(tm.maximum_ms(), 30_000 - safety_margin_ms(30_000) as u64);
    assert!(!tm.is_infinite());
}

#[test]
fn analysis_thinks_until_stopped() {
    for turn in [86_400_000, 2_147_483_647, i64::MAX] {
        let tm = check(&tc(Some(turn), 0, None), 225, 0);
        assert!(tm.is_infinite());
        assert_eq!(tm.limits(), (None, None));
        assert!(!tm.should_stop(3_600_000, 40, 0, 0));
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
                        tm.optimum_ms() >= p.optimum_ms() && tm.maximum_ms() >= p.maximum_ms(),
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
        assert!(tm.maximum_ms() >= prev.maximum_ms(), "turn {turn}");
        assert!(tm.optimum_ms() >= prev.optimum_ms(), "turn {turn}");
        prev = tm;
    }
}

#[test]
fn stop_rule_extends_only_up_to_the_maximum() {
    let tm = check(&tc(Some(5_000), 120_000, Some(100_000)), 225, 10);
    for changes in 0..6 {
        for drop in [-500, 0, 50, 200, 10_000] {
            let t = tm.target_ms(12, changes, drop);
            assert!(t <= tm.maximum_ms());
            assert!(tm.should_stop(tm.maximum_ms(), 12, changes, drop));
        }
    }
    assert!(tm.target_ms(12, 0, 0) < tm.optimum_ms());
    assert!(tm.target_ms(12, 3, 0) > tm.optimum_ms());
    assert!(tm.target_ms(12, 0, 200) > tm.target_ms(12, 0, 0));
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
        let (low, at) = play_clock(turn, matc, 60, 5, |tm| tm.maximum_ms());
        assert!(
            low > 0,
            "{turn:?}/{matc}: clock ran out at own move {at} ({low} ms)"
        );
        // …and even a full 15x15 board (112 own moves) with 10 ms latency stays within the
        // managers' 1000 ms tolerance.
        let (low, at) = play_clock(turn, matc, 112, 10, |tm| tm.maximum_ms());
        assert!(low > -1_000, "{turn:?}/{matc}: {low} ms at own move {at}");
    }
}

#[test]
fn unstable_game_keeps_time_in_hand() {
    for (turn, matc) in CONTROLS {
        // Every move unstable (two best-move changes: 1.4 x optimum) and 2 ms latency (a
        // Rust engine on pipes): even a full board ends with time on the clock.
        let (low, at) = play_clock(turn, matc, 112, 2, |tm| tm.target_ms(12, 2, 0));
        assert!(low > 0, "{turn:?}/{matc}: {low} ms at own move {at}");
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
