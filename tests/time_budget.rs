//! Budgets of the time manager for typical tournament controls, and whole-game simulations:
//! an engine that spends its full hard maximum on every move must never exceed
//! `min(timeout_turn, time_left)` and never run out of game time.

use pentad::search::time::{
    safety_margin_ms, turn_margin_ms, TimeControl, TimeManager, INSTANT_FLOOR_MS, INSTANT_MAX_MS,
    UNLIMITED_MS,
};

/// The optimum of a budget with a time limit.
fn opt_ms(tm: &TimeManager) -> u64 {
    tm.optimum_ms().expect("a time limit")
}

/// The hard maximum of a budget with a time limit.
fn max_ms(tm: &TimeManager) -> u64 {
    tm.maximum_ms().expect("a time limit")
}

fn tc(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeControl {
    TimeControl {
        timeout_turn_ms: turn,
        timeout_match_ms: matc,
        time_left_ms: left,
    }
}

/// Plays `our_moves` moves on a 15x15 board, the first `greedy` of them taking the full
/// maximum and the rest the optimum, each plus `overhead_ms` (pipes, scheduling); returns
/// the time left at the end. Panics when a move's maximum plus overhead reaches the
/// enforced limit.
fn simulate(
    turn: Option<i64>,
    matc: i64,
    our_moves: usize,
    greedy: usize,
    overhead_ms: i64,
) -> i64 {
    let mut left = matc;
    for k in 0..our_moves {
        let stones = 2 * k;
        let control = tc(turn, matc, Some(left));
        let tm = TimeManager::new(&control, 225 - stones, stones);
        let limit = control.enforced_limit_ms();
        let spent = if k < greedy { max_ms(&tm) } else { opt_ms(&tm) };
        let used = spent as i64 + overhead_ms;
        assert!(
            opt_ms(&tm) <= max_ms(&tm),
            "move {k}: optimum above maximum"
        );
        assert!(
            max_ms(&tm) as i64 + overhead_ms < limit,
            "move {k}: maximum {} + overhead {overhead_ms} ms reaches the limit {limit} ms \
             (time left {left})",
            max_ms(&tm)
        );
        left -= used;
    }
    left
}

#[test]
fn typical_controls_leave_room_and_use_the_clock() {
    // (turn, match): Gomocup-like controls.
    for &(turn, matc) in &[
        (5_000, 120_000),
        (30_000, 180_000),
        (300_000, 1_000_000),
        (1_000, 0),
    ] {
        let control = tc(Some(turn), matc, (matc > 0).then_some(matc));
        let tm = TimeManager::new(&control, 225, 0);
        let game = control.game_left_ms().unwrap_or(i64::MAX);
        assert!(!tm.is_infinite());
        assert!(
            (max_ms(&tm) as i64)
                <= (turn - turn_margin_ms(turn)).min(game.saturating_sub(safety_margin_ms(game))),
            "{turn}/{matc}: maximum {} vs turn {turn}, game {game}",
            max_ms(&tm)
        );
        assert!(opt_ms(&tm) > 0 && opt_ms(&tm) <= max_ms(&tm));
        if matc == 0 {
            // Only a turn limit: most of it is used.
            assert!(max_ms(&tm) as i64 >= turn * 3 / 4, "{turn}: {tm:?}");
        } else {
            // A game clock: the first move gets a fair share, not the whole turn.
            assert!(
                (opt_ms(&tm) as i64) < matc / 10,
                "{turn}/{matc}: optimum {}",
                opt_ms(&tm)
            );
            assert!(
                (opt_ms(&tm) as i64) > matc / 200,
                "{turn}/{matc}: optimum {} is too timid",
                opt_ms(&tm)
            );
        }
    }
}

#[test]
fn only_match_time_is_shared_over_the_game() {
    // No timeout_turn sent (the arena's `--tc 5/0`): the game clock decides.
    let tm = TimeManager::new(&tc(None, 5_000, Some(5_000)), 225, 0);
    assert!(max_ms(&tm) < 1_000, "{tm:?}");
    assert!(opt_ms(&tm) >= 50, "{tm:?}");
    // Later in the game with less time: proportionally less.
    let late = TimeManager::new(&tc(None, 5_000, Some(1_000)), 125, 100);
    assert!(max_ms(&late) < max_ms(&tm) / 2, "{late:?}");
}

#[test]
fn nearly_spent_and_negative_time_left() {
    let nearly = TimeManager::new(&tc(Some(5_000), 120_000, Some(60)), 100, 125);
    assert!(max_ms(&nearly) <= INSTANT_MAX_MS, "{nearly:?}");
    assert!(max_ms(&nearly) >= INSTANT_FLOOR_MS);
    for left in [0, -1, -5_000, i64::MIN / 2] {
        let tm = TimeManager::new(&tc(Some(5_000), 120_000, Some(left)), 100, 125);
        assert_eq!(max_ms(&tm), INSTANT_FLOOR_MS, "time_left {left}");
        assert_eq!(opt_ms(&tm), 0, "time_left {left}");
    }
}

#[test]
fn turn_zero_and_tiny_turns_answer_at_once() {
    for turn in [0, 1, 10, 40] {
        let tm = TimeManager::new(&tc(Some(turn), 0, Some(UNLIMITED_MS)), 225, 0);
        assert!(max_ms(&tm) <= INSTANT_MAX_MS, "turn {turn}: {tm:?}");
        assert_eq!(opt_ms(&tm), 0, "turn {turn}");
    }
    // From 50 ms on the turn keeps its margin like any other.
    let tm = TimeManager::new(&tc(Some(50), 0, Some(UNLIMITED_MS)), 225, 0);
    assert!(max_ms(&tm) + 25 <= 50, "{tm:?}");
}

#[test]
fn full_games_never_run_out() {
    // 112 of our moves fill a 15x15 board; every move costs 10 ms of overhead besides its
    // thinking. Thinking the optimum on every move, or the maximum (4x the optimum) on the
    // first 25 moves, must not run out of time.
    for &(turn, matc) in &[
        (None, 5_000),
        (Some(200), 5_000),
        (Some(5_000), 120_000),
        (Some(30_000), 180_000),
        (Some(300_000), 1_000_000),
    ] {
        for greedy in [0, 25] {
            let left = simulate(turn, matc, 112, greedy, 10);
            assert!(left > 0, "{turn:?}/{matc}/{greedy}: ran out ({left} ms)");
        }
    }
}

#[test]
fn fast_turn_limits_keep_a_margin() {
    // 0.2 s a move: the answer must arrive before the limit, yet most of the turn is used.
    let tm = TimeManager::new(&tc(Some(200), 0, Some(UNLIMITED_MS)), 225, 0);
    assert!(max_ms(&tm) + 30 <= 200, "{tm:?}");
    assert!(max_ms(&tm) >= 160, "{tm:?}: too timid");
    let tm = TimeManager::new(&tc(Some(1_000), 0, None), 225, 0);
    assert!(max_ms(&tm) + 60 <= 1_000, "{tm:?}");
    assert!(max_ms(&tm) >= 900, "{tm:?}: too timid");
}
