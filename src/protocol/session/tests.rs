//! Session tests that need the engine's test hooks or its events: what follows a search the
//! watchdog had to answer for while it kept running, and the searches that follow an answer
//! (pondering, the reply of `YXBALANCETWO`).

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::Session;
use crate::engine::{hash_bytes_for_settings, EngineEvent, Notify};

/// How often [`await_reply`] looks at the output while no engine event arrives.
const REPLY_POLL: Duration = Duration::from_millis(20);

/// A session whose engine events arrive on the returned channel.
fn session() -> (Session<Vec<u8>>, mpsc::Receiver<EngineEvent>) {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let notify: Notify = Arc::new(move |ev| {
        if let Ok(t) = tx.lock() {
            let _ = t.send(ev);
        }
    });
    (Session::new(Vec::new(), notify), rx)
}

/// Feeds `lines` to the session, one command each.
fn send(s: &mut Session<Vec<u8>>, lines: &[&str]) {
    for l in lines {
        s.handle_input(l.as_bytes(), false);
    }
}

/// Reply lines printed since the last call, without MESSAGE lines.
fn replies(s: &mut Session<Vec<u8>>) -> Vec<String> {
    let out = std::mem::take(s.output());
    String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(str::to_string)
        .collect()
}

/// Hands engine events to the session until it has printed a line other than a `MESSAGE`
/// (the line stays in the output). A `TURN` that arrives while the engine ponders waits for
/// the pondering search to stop, so `is_thinking` alone does not show it is pending.
fn await_reply(s: &mut Session<Vec<u8>>, rx: &mpsc::Receiver<EngineEvent>, within: Duration) {
    let t = Instant::now();
    let has_reply = |s: &mut Session<Vec<u8>>| {
        String::from_utf8_lossy(s.output())
            .lines()
            .any(|l| !l.starts_with("MESSAGE"))
    };
    while !has_reply(s) {
        let left = within
            .checked_sub(t.elapsed())
            .expect("the engine replies in time");
        if let Ok(ev) = rx.recv_timeout(left.min(REPLY_POLL)) {
            s.handle_event(ev);
        }
    }
}

/// Hands engine events to the session until its search has been answered.
fn await_answer(s: &mut Session<Vec<u8>>, rx: &mpsc::Receiver<EngineEvent>, within: Duration) {
    let t = Instant::now();
    while s.is_thinking() {
        let left = within.saturating_sub(t.elapsed());
        let ev = rx
            .recv_timeout(left)
            .expect("the search is answered in time");
        s.handle_event(ev);
    }
}

#[test]
fn nothing_waits_for_a_search_the_watchdog_abandoned() {
    // The watchdog answers a 200 ms turn after about 140 ms; the search keeps the searcher
    // (and with it the table) for seconds more.
    let stall = Duration::from_secs(3);
    let prompt = Duration::from_millis(800);
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "INFO timeout_turn 200",
            "INFO max_memory 41943040",
            "START 15",
        ],
    );
    let before = s.engine.hash_bytes();
    s.engine.stall_next_search(stall);
    s.handle_input(b"BEGIN", false);
    await_answer(&mut s, &rx, Duration::from_secs(2));
    let r = replies(&mut s);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[1].contains(','), "the watchdog's move: {r:?}");

    // Table changes, START and the next search: answered at once, the table changes wait
    // for the late search to let go of the searcher. (On a thread of its own, so that a
    // session that blocks fails the test instead of hanging it.)
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let t = Instant::now();
        send(
            &mut s,
            &[
                "INFO max_memory 25165824",
                "YXHASHCLEAR",
                "START 15",
                "BEGIN",
            ],
        );
        await_answer(&mut s, &rx, prompt);
        let _ = done.send((s, t.elapsed()));
    });
    let (mut s, took) = finished
        .recv_timeout(stall + prompt)
        .expect("the session answers");
    assert!(took < prompt, "waited {took:?} for the late search");
    let r: Vec<String> = String::from_utf8_lossy(s.output())
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(r[0], "MESSAGE hash table cleared", "{r:?}");
    assert_eq!(r[1], "OK", "{r:?}");
    assert!(r.last().is_some_and(|m| m.contains(',')), "{r:?}");
    let want = hash_bytes_for_settings(s.settings());
    assert_ne!(want, before);
    assert_eq!(s.engine.hash_bytes(), want);
    assert_eq!(
        s.engine.table_bytes(),
        want,
        "the resize is applied once the late search returns"
    );
}

#[test]
fn stop_during_a_swap2_decision_answers_once_with_the_decision_so_far() {
    // The default budget (no timeout_turn) takes the better part of a second or more.
    let (mut s, rx) = session();
    s.handle_input(b"START 15", false);
    assert_eq!(replies(&mut s), ["OK"]);
    for (stones, stop) in [(&[][..], "STOP"), (&["7,7", "8,8", "8,7"][..], "YXSTOP")] {
        s.handle_input(b"SWAP2BOARD", false);
        for st in stones {
            s.handle_input(st.as_bytes(), false);
        }
        s.handle_input(b"DONE", false);
        assert!(s.is_thinking(), "the decision runs on the engine");
        s.handle_input(b"ABOUT", false);
        assert_eq!(s.queued(), 1, "commands wait for the decision");
        std::thread::sleep(Duration::from_millis(30));
        let t = Instant::now();
        s.handle_input(stop.as_bytes(), false);
        await_answer(&mut s, &rx, Duration::from_secs(2));
        assert!(
            t.elapsed() < Duration::from_millis(600),
            "{:?}",
            t.elapsed()
        );
        let r = replies(&mut s);
        assert_eq!(r.len(), 2, "{r:?}");
        let stones_played = s.board().unwrap().stone_count();
        let words: Vec<&str> = r[0].split(' ').collect();
        if stones.is_empty() {
            assert_eq!(words.len(), 3, "{r:?}");
            assert_eq!(stones_played, 0, "a proposal places nothing");
        } else if r[0] == "SWAP" {
            assert_eq!(stones_played, 3);
        } else {
            assert!(words.len() <= 2 && words.iter().all(|w| w.contains(',')));
            assert_eq!(stones_played, if words.len() == 1 { 4 } else { 3 });
        }
        assert!(r[1].starts_with("name="), "ABOUT after the decision: {r:?}");
    }
}

#[test]
fn control_characters_never_reach_the_output() {
    let (mut s, _rx) = session();
    s.handle_input(b"START 15", false);
    s.handle_input(b"INFO eval_file a\x01b\0c\rd", false);
    s.handle_input(b"FOO\0BAR\x1b[2J", false);
    let out = std::mem::take(s.output());
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 3, "{text:?}");
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(text.contains("a?b?c?d"), "{text:?}");
}

/// Hands engine events to the session for `time` (the search runs on meanwhile).
fn pump(s: &mut Session<Vec<u8>>, rx: &mpsc::Receiver<EngineEvent>, time: Duration) {
    let t = Instant::now();
    while let Some(left) = time.checked_sub(t.elapsed()) {
        if let Ok(ev) = rx.recv_timeout(left) {
            s.handle_event(ev);
        }
    }
}

/// The `(1) depth a-b` iteration lines of a multi-PV search printed since the last call,
/// as the depth `a` of each.
fn first_line_depths(s: &mut Session<Vec<u8>>) -> Vec<u32> {
    let out = String::from_utf8_lossy(s.output()).to_string();
    out.lines()
        .filter_map(|l| l.strip_prefix("MESSAGE (1) depth "))
        .filter_map(|l| l.split('-').next()?.parse().ok())
        .collect()
}

#[test]
fn pondering_starts_once_the_move_is_answered() {
    // Yixin-Board sends a database query while the engine thinks: it is answered after the
    // move, and the pondering starts after it.
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "INFO pondering 1",
            "INFO timeout_turn 200",
            "START 15",
            "BEGIN",
            "yxquerydatabaseallt",
            "done",
        ],
    );
    await_answer(&mut s, &rx, Duration::from_secs(3));
    assert_eq!(replies(&mut s), ["OK", "7,7"]);
    assert!(s.is_pondering(), "the engine thinks on after its move");
    // The GUI's query of the new position is answered at once and the pondering goes on.
    send(&mut s, &["yxquerydatabaseallt", "7,7", "done"]);
    pump(&mut s, &rx, Duration::from_millis(50));
    assert!(
        s.is_pondering(),
        "a database query leaves the pondering alone"
    );
    s.handle_input(b"TURN 8,8", false);
    await_reply(&mut s, &rx, Duration::from_secs(3));
    await_answer(&mut s, &rx, Duration::from_secs(3));
    let r = replies(&mut s);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(s.is_pondering(), "and again after the next one");
    s.handle_input(b"YXSTOP", false);
    pump(&mut s, &rx, Duration::from_millis(300));
    assert!(!s.is_pondering());
}

#[test]
fn balance_two_searches_the_reply_after_its_own_move() {
    // A depth cap, not the clock, ends each search, so a loaded machine still sees both
    // searches report their first iteration (with a 300 ms turn, CI once saw the reply
    // answered before its first line).
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "INFO timeout_turn 60000",
            "INFO max_depth 3",
            "START 15",
            "YXBOARD",
            "7,7,2",
            "DONE",
        ],
    );
    s.handle_input(b"YXBALANCETWO 0", false);
    await_answer(&mut s, &rx, Duration::from_secs(60));
    let searches = first_line_depths(&mut s)
        .iter()
        .filter(|&&d| d == 1)
        .count();
    assert_eq!(searches, 2, "our move, then the reply, each searched");
    let r = replies(&mut s);
    let moves: Vec<&str> = r.last().unwrap().split(' ').collect();
    assert_eq!(moves.len(), 2, "{r:?}");
    assert_ne!(moves[0], moves[1]);
    assert!(
        moves.iter().all(|m| m.contains(',') && *m != "7,7"),
        "{r:?}"
    );
}

#[test]
fn a_stopped_balance_two_searches_the_reply_as_deep_and_answers() {
    // The GUI's unlimited analysis: only the person's Stop ends the first search, and the
    // GUI sends no second Stop, so the reply goes as deep as the first search got.
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "INFO timeout_turn 2000000",
            "START 15",
            "YXBOARD",
            "7,7,2",
            "DONE",
        ],
    );
    s.handle_input(b"YXBALANCETWO 0", false);
    pump(&mut s, &rx, Duration::from_millis(400));
    s.handle_input(b"YXSTOP", false);
    await_answer(&mut s, &rx, Duration::from_secs(20));
    let depths = first_line_depths(&mut s);
    let reply_from = depths.iter().rposition(|&d| d == 1).unwrap();
    assert!(reply_from > 0, "the reply was searched: {depths:?}");
    let first_depth = depths[reply_from - 1];
    assert!(
        depths[reply_from..].iter().all(|&d| d <= first_depth),
        "{depths:?}"
    );
    let r = replies(&mut s);
    assert_eq!(r.last().unwrap().split(' ').count(), 2, "{r:?}");
}

#[test]
fn database_lines_during_a_search_are_answered_at_once_unless_queued_behind() {
    // Declared before the session, so removed after it has closed the database.
    let dir = tempfile::Builder::new()
        .prefix("pentad-db-thinking-")
        .tempdir()
        .unwrap();
    let db = dir.path().join("thinking.db");
    let (mut s, rx) = session();
    let set = format!("yxsetdatabase {}", db.display());
    send(&mut s, &["INFO timeout_turn 1000000", "START 15", &set]);
    send(&mut s, &["BOARD", "7,7,1", "8,8,2", "DONE"]);
    assert!(s.is_thinking());
    std::mem::take(s.output());

    // An edit with nothing queued before it: answered while the search goes on.
    send(&mut s, &["yxedittvddatabase 1 87 0 0", "7,7", "done"]);
    let out = String::from_utf8_lossy(&std::mem::take(s.output())).to_string();
    assert!(out.contains("MESSAGE DATABASE ONE 119 0 0 0 w"), "{out}");
    assert!(s.is_thinking());
    assert_eq!(s.queued(), 0);

    // Behind a queued command the next edit waits its turn, position lines and all, and so
    // does a path command (an export can take long) even with nothing before it.
    send(
        &mut s,
        &["ABOUT", "yxedittvddatabase 1 76 0 0", "7,7", "done"],
    );
    assert_eq!(s.queued(), 4);
    send(&mut s, &["STOP"]);
    await_answer(&mut s, &rx, Duration::from_secs(10));
    let out = String::from_utf8_lossy(&std::mem::take(s.output())).to_string();
    let lines: Vec<&str> = out.lines().filter(|l| !l.contains("depth")).collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains(','), "the move first: {out}");
    assert!(lines[1].starts_with("name=\"Pentad\""), "{out}");
    assert_eq!(lines[2], "MESSAGE DATABASE ONE 108 0 0 0 l");

    send(&mut s, &["BOARD", "7,7,1", "8,8,2", "DONE"]);
    assert!(s.is_thinking());
    let export = format!("yxdbtotxtall {}", dir.path().join("export.txt").display());
    send(&mut s, &[&export]);
    assert_eq!(s.queued(), 1);
    send(&mut s, &["STOP"]);
    await_answer(&mut s, &rx, Duration::from_secs(10));
    drop(s);
}
