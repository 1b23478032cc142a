//! Replays recorded Yixin-Board sessions (`tests/data/yixin-session.txt`, and
//! `tests/data/yixin-database-session.txt` with the database in use) against the real
//! `pbrain-pentad`, started as the Windows GUI starts it (`--force-utf8`), and checks every
//! answer: the `yxshowinfo` limits, well-formed `INFO PV` blocks and REALTIME lines, one
//! legal move per search, the blocked move never searched at the root, no ERROR/UNKNOWN, and
//! (database session) every `MESSAGE DATABASE` line as the GUI got it, and the labels, board
//! text and comment in the database file afterwards.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use pentad::core::{Pos, Rule};
use pentad::database::{DbPosition, Store};
use pentad::protocol::PV_INFO_KEYS;

/// How long the person let the engine think before pressing Stop.
const THINK_MS: u64 = 700;
/// How long a stopped search may take to print its move on a loaded machine.
const MOVE_WAIT: Duration = Duration::from_secs(60);
/// The move both sessions block (`block g7` in the GUI) before the engine's second search.
const BLOCKED: &str = "8,6";

fn on_board(xy: &str) -> bool {
    let v: Vec<i64> = xy.split(',').filter_map(|f| f.parse().ok()).collect();
    v.len() == 2 && v.iter().all(|c| (0..15).contains(c))
}

/// The lines of a recorded file, without `#` comments and blank lines.
fn script_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
}

/// Sends the recorded lines to a fresh engine running in `dir` (`@ stop`: wait, send
/// `yxstop`, then wait for the move, as the GUI does before it sends anything else), ends
/// it once it has answered everything, and returns everything it printed.
fn replay(script: &str, dir: &Path) -> Vec<String> {
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .arg("--force-utf8")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts"),
    );
    let mut stdin = child.0.stdin.take().unwrap();
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = Vec::new();
    for line in script_lines(script) {
        if line == "@ stop" {
            std::thread::sleep(Duration::from_millis(THINK_MS));
            writeln!(stdin, "yxstop").unwrap();
            // A loaded machine may answer late; the GUI waits for the move, and so does this.
            loop {
                let got = rx.recv_timeout(MOVE_WAIT).expect("a move after yxstop");
                let is_move = on_board(&got);
                out.push(got);
                if is_move {
                    break;
                }
            }
        } else {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    // END exits soon even if commands before it are still being answered: first an
    // `ABOUT` (which the sessions never send), whose answer comes after every earlier one.
    writeln!(stdin, "ABOUT").unwrap();
    loop {
        let got = rx.recv_timeout(MOVE_WAIT).expect("the ABOUT answer");
        if got.starts_with("name=") {
            break; // the marker itself is not part of the session
        }
        out.push(got);
    }
    writeln!(stdin, "END").unwrap();
    drop(stdin);
    out.extend(rx.iter());
    reader.join().unwrap();
    assert!(child.0.wait().unwrap().success());
    out
}

/// A child process, killed and waited for when dropped: an engine `replay` gives up on does
/// not go on writing into the scratch folder once the failing test removes it.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Checks the start-up limits, the search output and any other line of `out`; returns the
/// moves played and the `MESSAGE DATABASE` lines, in order.
fn check_answers(out: &[String]) -> (Vec<String>, Vec<String>) {
    assert_eq!(out[0], "MESSAGE INFO MAX_THREAD_NUM 256");
    assert!(
        out[1].starts_with("MESSAGE INFO MAX_HASH_SIZE "),
        "{}",
        out[1]
    );
    let mut moves = Vec::new();
    let mut database = Vec::new();
    let mut i = 2;
    while i < out.len() {
        let l = &out[i];
        if let Some(idx) = l.strip_prefix("INFO PV ") {
            assert!(idx.parse::<usize>().is_ok(), "{l}");
            for (k, key) in PV_INFO_KEYS.iter().enumerate() {
                let got = &out[i + 1 + k];
                assert!(
                    got.starts_with(&format!("INFO {key} ")),
                    "{got} (want {key})"
                );
            }
            assert_eq!(out[i + PV_INFO_KEYS.len() + 1], "INFO PV DONE");
            let line = out[i + 10].trim_start_matches("INFO BESTLINE ");
            assert!(line.split(' ').all(on_board), "{line}");
            i += PV_INFO_KEYS.len() + 2;
            continue;
        }
        if let Some(rest) = l.strip_prefix("MESSAGE REALTIME ") {
            let (what, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            match what {
                "POS" | "DONE" | "BEST" | "LOSE" => {
                    assert!(on_board(arg), "{l}");
                    if what != "DONE" && moves.len() == 1 {
                        assert_ne!(arg, BLOCKED, "the blocked move was searched: {l}");
                    }
                }
                "REFRESH" | "PV" => {}
                "VAL" => assert!(arg.parse::<i32>().is_ok(), "{l}"),
                _ => panic!("unexpected REALTIME line {l}"),
            }
        } else if l.starts_with("MESSAGE DATABASE") {
            database.push(l.clone());
        } else if l.starts_with("MESSAGE ") || l == "OK" || l.starts_with("FORBID ") {
        } else if on_board(l) {
            moves.push(l.clone());
        } else {
            panic!("unexpected answer {l:?}");
        }
        i += 1;
    }
    (moves, database)
}

/// A fresh scratch folder for one engine run, removed when the test ends (`replay` has waited
/// for the engine by then).
fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("pentad-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn a_recorded_yixin_board_session_gets_every_answer_it_expects() {
    let tmp = scratch_dir("yixin-session");
    let dir = tmp.path();
    let out = replay(include_str!("data/yixin-session.txt"), dir);
    let (moves, database) = check_answers(&out);
    assert_eq!(moves.len(), 3, "one move per search: {moves:?}");
    assert!(database.is_empty(), "{database:?}");
    assert!(out.iter().any(|l| l == "FORBID ."));
}

#[test]
fn a_recorded_yixin_board_database_session_gets_every_answer_it_expects() {
    let tmp = scratch_dir("yixin-database-session");
    let dir = tmp.path();
    let out = replay(include_str!("data/yixin-database-session.txt"), dir);
    let (moves, database) = check_answers(&out);
    assert_eq!(moves.len(), 2, "one move per search: {moves:?}");
    let expected: Vec<&str> =
        script_lines(include_str!("data/yixin-database-session.answers")).collect();
    assert_eq!(database, expected);

    // What the person entered is in the file (`pentad.db` in the engine's folder).
    let store = Store::open(&dir.join("pentad.db"), true).expect("the database file opens");
    let at = |moves: &[(i64, i64)]| DbPosition::from_moves(Rule::FREESTYLE, 15, 15, moves).unwrap();
    let labelled = at(&[(7, 7), (8, 7), (6, 8)]);
    let record = store
        .get(&labelled)
        .unwrap()
        .expect("the commented position");
    assert_eq!(record.comment, "ok");
    assert_eq!(
        store.board_texts(&labelled).unwrap(),
        vec![(Pos::new(5, 9), "A".to_string())]
    );
    let won = store
        .get(&at(&[(7, 7), (8, 7), (6, 8), (6, 6)]))
        .unwrap()
        .expect("the position tagged W");
    assert_eq!(won.label, b'w' as i32);
    assert_eq!(store.count().unwrap(), 2);
}
