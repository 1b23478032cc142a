//! Random command streams (valid commands, malformed ones and garbage bytes) fed to the
//! protocol session in-process and to the real binary: exactly one reply per command that
//! expects one, no panic, and the position unchanged after every ERROR/UNKNOWN.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command as Proc, Stdio};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pentad::board::Board;
use pentad::core::Pos;
use pentad::engine::EngineEvent;
use pentad::protocol::{Command, Session, SyncSession, MAX_LINE_BYTES};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One step of a stream: its lines and how many non-MESSAGE reply lines it must produce.
#[derive(Debug, Clone)]
struct Unit {
    lines: Vec<Vec<u8>>,
    replies: usize,
    /// A reply to this unit is a move for the side to move (checked for legality).
    moves: bool,
}

/// The generator's model of the session: only what decides the number of replies.
struct Model {
    dims: Option<(i64, i64)>,
}

const LIMITS: &[&str] = &[
    "INFO timeout_turn 0",
    "INFO max_node 300",
    "INFO max_depth 2",
];

fn coord(rng: &mut StdRng, m: &Model) -> (i64, i64) {
    let (w, h) = m.dims.unwrap_or((15, 15));
    match rng.gen_range(0..10) {
        0 => (rng.gen_range(-3..w + 3), rng.gen_range(-3..h + 3)),
        1 => (rng.gen::<i64>(), rng.gen::<i64>()),
        _ => (rng.gen_range(0..w), rng.gen_range(0..h)),
    }
}

fn garbage(rng: &mut StdRng) -> Vec<u8> {
    loop {
        let len = if rng.gen_range(0..40) == 0 {
            MAX_LINE_BYTES + rng.gen_range(1..5000)
        } else {
            rng.gen_range(1..40)
        };
        let mut v: Vec<u8> = (0..len)
            .map(|_| match rng.gen_range(0..4) {
                0 => rng.gen_range(0x80..=0xffu8),
                1 => b" ,-0123456789"[rng.gen_range(0..13)],
                _ => rng.gen_range(0x20..0x7fu8),
            })
            .collect();
        if rng.gen_bool(0.3) {
            // a known command word with random arguments
            let words = [
                "TURN ",
                "START ",
                "RECTSTART ",
                "TAKEBACK ",
                "PLAY ",
                "YXNBEST ",
                "BEGIN ",
                "RESTART ",
            ];
            let mut w = words[rng.gen_range(0..words.len())].as_bytes().to_vec();
            v.truncate(12);
            w.extend(v);
            v = w;
        }
        let text = String::from_utf8_lossy(&v).into_owned();
        let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if t.is_empty() {
            continue;
        }
        if v.len() > MAX_LINE_BYTES {
            if t.to_ascii_uppercase().starts_with("INFO") {
                continue;
            }
            return v;
        }
        // Only lines that are errors: a valid command would change the model.
        if t.parse::<Command>().is_err() {
            return v;
        }
    }
}

fn block(rng: &mut StdRng, m: &Model, fields: usize, count: usize) -> (Vec<Vec<u8>>, bool) {
    let mut lines = Vec::new();
    let mut seen = HashSet::new();
    let mut valid = true;
    for _ in 0..count {
        if rng.gen_range(0..25) == 0 {
            let bad = [
                "1,x,1",
                "1,2",
                "5,5,5,5",
                "-",
                ",",
                "3,3,",
                "999999999999999999999,1,1",
            ];
            lines.push(bad[rng.gen_range(0..bad.len())].as_bytes().to_vec());
            valid = false;
            continue;
        }
        let (x, y) = coord(rng, m);
        let (w, h) = m.dims.unwrap_or((0, 0));
        if !(0..w).contains(&x) || !(0..h).contains(&y) || !seen.insert((x, y)) {
            valid = false;
        }
        if fields == 3 {
            let f = if rng.gen_range(0..30) == 0 {
                rng.gen_range(-1..6)
            } else {
                rng.gen_range(1..3)
            };
            if !(1..=3).contains(&f) {
                valid = false;
            }
            lines.push(format!("{x},{y},{f}").into_bytes());
        } else {
            lines.push(format!("{x},{y}").into_bytes());
        }
        if rng.gen_range(0..15) == 0 {
            lines.push(b"".to_vec());
        }
    }
    lines.push(if rng.gen_bool(0.5) {
        b"DONE".to_vec()
    } else {
        b"done\r".to_vec()
    });
    (lines, valid && m.dims.is_some())
}

impl Unit {
    /// One line with `replies` answers, a move when `moves`.
    fn line(l: impl Into<Vec<u8>>, replies: usize, moves: bool) -> Unit {
        Unit {
            lines: vec![l.into()],
            replies,
            moves,
        }
    }
}

fn unit(rng: &mut StdRng, m: &mut Model) -> Unit {
    let one = |l: String, moves: bool| Unit::line(l, 1, moves);
    match rng.gen_range(0..22) {
        k @ 0..=1 => start_unit(rng, m, k == 1),
        2 => one("RESTART".into(), false),
        3 => one("BEGIN".into(), true),
        4..=7 => {
            let (x, y) = coord(rng, m);
            one(format!("TURN {x},{y}"), true)
        }
        8 => {
            let (x, y) = coord(rng, m);
            one(format!("TAKEBACK {x},{y}"), false)
        }
        9 => {
            let (x, y) = coord(rng, m);
            one(format!("PLAY {x},{y}"), false)
        }
        10 => one("SUGGEST".into(), false),
        11 => one(format!("YXNBEST {}", rng.gen_range(-1..4)), false),
        12 => one("ABOUT".into(), false),
        13 => one("YXSHOWFORBID".into(), false),
        14 => Unit::line("YXHASHCLEAR", 0, false),
        15 => info_unit(rng),
        k @ 16..=18 => block_unit(rng, m, k - 16),
        19 => Unit::line(if rng.gen_bool(0.5) { "STOP" } else { "yxstop" }, 0, false),
        20 => Unit::line(
            [&b""[..], b"   ", b"\r", b"\t \r"][rng.gen_range(0..4)],
            0,
            false,
        ),
        _ => Unit::line(garbage(rng), 1, false),
    }
}
/// `START n` (mostly a supported size), or `rectstart w,h` when `rect`; a supported size
/// becomes the model's board.
fn start_unit(rng: &mut StdRng, m: &mut Model, rect: bool) -> Unit {
    let supported = |v: i64| (5..=32).contains(&v);
    let (line, w, h) = if rect {
        let (w, h) = (rng.gen_range(3..35), rng.gen_range(3..35));
        (format!("rectstart {w},{h}"), w, h)
    } else {
        let n = if rng.gen_bool(0.8) {
            rng.gen_range(5..=32)
        } else {
            rng.gen_range(-5..50)
        };
        (format!("START {n}"), n, n)
    };
    if supported(w) && supported(h) {
        m.dims = Some((w, h));
    }
    Unit::line(line, 1, false)
}

/// `INFO key value` with a known key (or not), its value mostly in range; no reply.
fn info_unit(rng: &mut StdRng) -> Unit {
    let keys = [
        "timeout_turn",
        "time_left",
        "timeout_match",
        "rule",
        "max_memory",
        "hash_size",
        "thread_num",
        "game_type",
        "strength",
        "Max_Depth",
        "max_node",
        "bogus",
        "folder",
    ];
    let key = keys[rng.gen_range(0..keys.len())];
    let value = match key {
        "timeout_turn" => rng.gen_range(0..5).to_string(),
        "max_node" => rng.gen_range(1..300).to_string(),
        "Max_Depth" => rng.gen_range(1..3).to_string(),
        "rule" => rng.gen_range(-1..17).to_string(),
        // keep real allocations and thread counts small
        "max_memory" => rng.gen_range(-1..(64 << 20)).to_string(),
        "hash_size" => rng.gen_range(-1..16_384).to_string(),
        "thread_num" => rng.gen_range(-1..4).to_string(),
        "folder" => "C:\\x y".into(),
        _ => rng.gen::<i64>().to_string(),
    };
    Unit::line(format!("INFO {key} {value}"), 0, false)
}

/// A position block: `BOARD` (0: a move in reply), `yxboard` (1: a reply only when the block
/// is invalid) or `SWAP2BOARD` (2: one reply), with random entries.
fn block_unit(rng: &mut StdRng, m: &mut Model, kind: u32) -> Unit {
    let (head, fields, n) = match kind {
        0 => ("BOARD", 3, rng.gen_range(0..12)),
        1 => ("yxboard", 3, rng.gen_range(0..12)),
        _ => ("SWAP2BOARD", 2, [0, 3, 5, 2][rng.gen_range(0..4)]),
    };
    let (mut lines, valid) = block(rng, m, fields, n);
    lines.insert(0, head.as_bytes().to_vec());
    let replies = if kind == 1 { usize::from(!valid) } else { 1 };
    Unit {
        lines,
        replies,
        moves: kind == 0,
    }
}

fn stream(seed: u64, len: usize) -> Vec<Unit> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut m = Model { dims: None };
    let mut v: Vec<Unit> = LIMITS
        .iter()
        .map(|l| Unit {
            lines: vec![l.as_bytes().to_vec()],
            replies: 0,
            moves: false,
        })
        .collect();
    for _ in 0..len {
        v.push(unit(&mut rng, &mut m));
    }
    v
}

fn replies(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"))
        .map(|l| l.to_string())
        .collect()
}

type Snapshot = Option<(usize, usize, u64, Vec<(Pos, pentad::core::Color)>)>;

fn snapshot(b: Option<&Board>) -> Snapshot {
    b.map(|b| (b.width(), b.height(), b.hash(), b.history().collect()))
}

#[test]
fn random_streams_in_process() {
    let started = Instant::now();
    let mut units_run = 0;
    for seed in 0..150u64 {
        let mut s = SyncSession::new(Vec::<u8>::new());
        for (i, u) in stream(seed, 40).into_iter().enumerate() {
            let before = snapshot(s.session().board());
            let board_before = s.session().board().cloned();
            for l in &u.lines {
                s.feed(l);
            }
            assert!(!s.session().is_thinking());
            let out = std::mem::take(s.session().output());
            let got = replies(&out);
            let shown: Vec<String> = u
                .lines
                .iter()
                .map(|l| String::from_utf8_lossy(&l[..l.len().min(60)]).into_owned())
                .collect();
            assert_eq!(
                got.len(),
                u.replies,
                "seed {seed} unit {i} {shown:?}: replies {got:?}"
            );
            if let Some(first) = got.first() {
                if first.starts_with("ERROR") || first.starts_with("UNKNOWN") {
                    assert_eq!(
                        before,
                        snapshot(s.session().board()),
                        "seed {seed} unit {i} {shown:?}: position changed after {first}"
                    );
                } else if u.moves {
                    // a move reply: on the board, was empty, is now ours
                    let b = s.session().board().expect("a board after a move");
                    let (x, y) = first.split_once(',').expect("x,y reply");
                    let p = b
                        .pos(x.parse().unwrap(), y.parse().unwrap())
                        .expect("on board");
                    assert_eq!(
                        b.last_move(),
                        Some(p),
                        "seed {seed} unit {i}: move not played"
                    );
                    if u.lines[0].starts_with(b"TURN") {
                        let prev = board_before.as_ref().expect("board before TURN");
                        assert!(
                            prev.is_empty(p),
                            "seed {seed} unit {i}: replied on an occupied point"
                        );
                    }
                }
            }
            units_run += 1;
        }
    }
    eprintln!("{units_run} units in {:?}", started.elapsed());
}

#[test]
fn commands_during_a_search_are_queued_in_order() {
    // Drive the session by hand: the search's Done event is held back while commands arrive.
    let (tx, rx) = mpsc::channel::<EngineEvent>();
    let tx = std::sync::Mutex::new(tx);
    let notify: pentad::engine::Notify = Arc::new(move |ev| {
        let _ = tx.lock().unwrap().send(ev);
    });
    let mut s = Session::new(Vec::<u8>::new(), notify);
    for l in [
        "INFO timeout_turn 0",
        "START 15",
        "BEGIN",
        "ABOUT",
        "TURN 0,0",
        "STOP",
        "YXSHOWFORBID",
        "FOO",
    ] {
        s.handle_input(l.as_bytes(), false);
    }
    assert_eq!(
        replies(s.output()),
        vec!["OK"],
        "nothing but OK before the search ends"
    );
    assert_eq!(
        s.queued(),
        4,
        "ABOUT, TURN, YXSHOWFORBID, FOO wait; STOP does not"
    );
    while s.is_thinking() || s.queued() > 0 {
        let ev = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("search finishes");
        s.handle_event(ev);
    }
    let r = replies(s.output());
    assert_eq!(r.len(), 6, "{r:?}");
    assert!(r[1].contains(','), "{r:?}");
    assert!(r[2].starts_with("name=\"Pentad\""));
    assert!(r[3].contains(','));
    assert_eq!(r[4], "FORBID .");
    assert_eq!(r[5], "UNKNOWN FOO");
    // END while thinking quits without printing the move.
    s.handle_input(b"TURN 1,1", false);
    assert!(s.is_thinking());
    s.handle_input(b"END", false);
    assert!(s.quit_requested());
}

#[test]
fn random_streams_against_the_binary() {
    for seed in 1000..1006u64 {
        let units = stream(seed, 40);
        let expected: usize = units.iter().map(|u| u.replies).sum();
        let mut child = Proc::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).split(b'\n') {
                let Ok(l) = l else { return };
                let s = String::from_utf8_lossy(&l).trim_end().to_string();
                if tx.send(s).is_err() {
                    return;
                }
            }
        });
        let mut all = Vec::new();
        for u in &units {
            for l in &u.lines {
                all.extend_from_slice(l);
                all.push(b'\n');
            }
        }
        stdin.write_all(&all).unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut got = Vec::new();
        while got.len() < expected {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(l) if l.starts_with("MESSAGE") || l.starts_with("DEBUG") => {}
                Ok(l) => got.push(l),
                Err(_) => panic!(
                    "seed {seed}: {} of {expected} replies, then silence/exit: {got:?}",
                    got.len()
                ),
            }
        }
        while let Ok(l) = rx.recv_timeout(Duration::from_millis(200)) {
            assert!(l.starts_with("MESSAGE"), "seed {seed}: extra reply {l:?}");
        }
        stdin.write_all(b"END\n").unwrap();
        drop(stdin);
        let t = Instant::now();
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            assert!(
                t.elapsed() < Duration::from_secs(2),
                "seed {seed}: no exit after END"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
