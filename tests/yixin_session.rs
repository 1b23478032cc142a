//! Replays a recorded Yixin-Board session (`tests/data/yixin-session.txt`) against the real
//! `pbrain-pentad`, started as the Windows GUI starts it (`--force-utf8`), and checks every
//! answer: the `yxshowinfo` limits, well-formed `INFO PV` blocks and REALTIME lines, one
//! legal move per search, the blocked move never searched at the root, no ERROR/UNKNOWN.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long the person let the engine think before pressing Stop.
const THINK_MS: u64 = 700;
/// The INFO keys a PV block has, in order (after `INFO PV n`).
const PV_KEYS: [&str; 11] = [
    "NUMPV",
    "DEPTH",
    "SELDEPTH",
    "NODES",
    "TOTALNODES",
    "TOTALTIME",
    "SPEED",
    "EVAL",
    "WINRATE",
    "BESTLINE",
    "PV",
];

fn on_board(xy: &str) -> bool {
    let v: Vec<i64> = xy.split(',').filter_map(|f| f.parse().ok()).collect();
    v.len() == 2 && v.iter().all(|c| (0..15).contains(c))
}

#[test]
fn a_recorded_yixin_board_session_gets_every_answer_it_expects() {
    let script = include_str!("data/yixin-session.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
        .arg("--force-utf8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<String>>()
    });
    for line in script
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        if line == "@ stop" {
            std::thread::sleep(Duration::from_millis(THINK_MS));
            writeln!(stdin, "yxstop").unwrap();
        } else {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    std::thread::sleep(Duration::from_millis(THINK_MS));
    writeln!(stdin, "END").unwrap();
    drop(stdin);
    let out = reader.join().unwrap();
    assert!(child.wait().unwrap().success());

    assert_eq!(out[0], "MESSAGE INFO MAX_THREAD_NUM 256");
    assert!(
        out[1].starts_with("MESSAGE INFO MAX_HASH_SIZE "),
        "{}",
        out[1]
    );
    let mut moves = Vec::new();
    let mut blocked_from = None;
    let mut i = 2;
    while i < out.len() {
        let l = &out[i];
        if let Some(idx) = l.strip_prefix("INFO PV ") {
            assert!(idx.parse::<usize>().is_ok(), "{l}");
            for (k, key) in PV_KEYS.iter().enumerate() {
                let got = &out[i + 1 + k];
                assert!(
                    got.starts_with(&format!("INFO {key} ")),
                    "{got} (want {key})"
                );
            }
            assert_eq!(out[i + PV_KEYS.len()], "INFO PV DONE");
            let line = out[i + 10].trim_start_matches("INFO BESTLINE ");
            assert!(line.split(' ').all(on_board), "{line}");
            i += PV_KEYS.len() + 1;
            continue;
        }
        if let Some(rest) = l.strip_prefix("MESSAGE REALTIME ") {
            let (what, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            match what {
                "POS" | "DONE" | "BEST" | "LOSE" => {
                    assert!(on_board(arg), "{l}");
                    if what != "DONE" && blocked_from.is_some() && moves.len() == 1 {
                        assert_ne!(arg, "8,6", "the blocked move was searched: {l}");
                    }
                }
                "REFRESH" | "PV" => {}
                "VAL" => assert!(arg.parse::<i32>().is_ok(), "{l}"),
                _ => panic!("unexpected REALTIME line {l}"),
            }
        } else if l.starts_with("MESSAGE ") || l == "OK" || l.starts_with("FORBID ") {
        } else if on_board(l) {
            moves.push(l.clone());
            if moves.len() == 1 {
                blocked_from = Some(i);
            }
        } else {
            panic!("unexpected answer {l:?}");
        }
        i += 1;
    }
    assert_eq!(moves.len(), 3, "one move per search: {moves:?}");
    assert!(out.iter().any(|l| l == "FORBID ."));
}
