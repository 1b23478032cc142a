//! A database edit survives the engine being killed: the edit is committed before its answer
//! is printed, so SIGKILL right after the answer loses nothing, and the file reopens cleanly.
//! An edit sent during a search is answered at once, so an `END` that ends the search keeps it.

use std::io::{BufRead, BufReader, Write};
use std::ops::{Deref, DerefMut};
use std::process::{Child, Command, Stdio};

use pentad::core::Rule;
use pentad::database::{DbPosition, Record, Store};

/// A fresh folder for one test's database, removed when the test ends. Declared before the
/// engine, which is dropped first, so the folder outlives it.
fn scratch_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(prefix).tempdir().unwrap()
}

/// The engine process, killed and waited for when dropped: a failing test does not leave
/// it writing into a removed folder.
struct Engine(Child);

impl Engine {
    fn start() -> Engine {
        let child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        Engine(child)
    }
}

impl Deref for Engine {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The database file reopened read-only, with the record both tests edit (the position
/// after 7,7 and 8,8, freestyle 15×15).
fn reopened_record(path: &std::path::Path) -> (Store, Record) {
    let store = Store::open(path, true).expect("the file reopens");
    let pos = DbPosition::from_moves(Rule::FREESTYLE, 15, 15, &[(7, 7), (8, 8)]).unwrap();
    let rec = store.get(&pos).unwrap().expect("the record is there");
    (store, rec)
}

#[test]
fn an_edit_survives_a_killed_engine() {
    let dir = scratch_dir("pentad-durability-");
    let path = dir.path().join("killed.db");

    let mut child = Engine::start();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let script = format!(
        "START 15\nyxsetdatabase\n{}\nyxedittvddatabase 3 87 123 0\n7,7\n8,8\ndone\n\
         yxedittextdatabase \"kept\"7,7\n8,8\ndone\nyxquerydatabasetext\n7,7\n8,8\ndone\n",
        path.display()
    );
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // Wait for the last answer: both edits are committed before it is printed.
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "the engine ended early"
        );
        if line.starts_with("MESSAGE DATABASE TEXT") {
            assert_eq!(line.trim_end(), "MESSAGE DATABASE TEXT \"kept\"");
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL on Unix: no clean-up runs
    child.wait().unwrap();

    let (store, rec) = reopened_record(&path);
    assert_eq!(rec.label, b'w' as i32);
    assert_eq!(rec.value, 123);
    assert_eq!(rec.comment, "kept");
    assert!(store.check().unwrap().is_empty());
}

#[test]
fn an_edit_answered_during_a_search_survives_end() {
    let dir = scratch_dir("pentad-end-edit-");
    let path = dir.path().join("ended.db");

    let mut child = Engine::start();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // A search without a time limit, then an edit while it runs (Yixin-Board labelling a
    // position during an analysis).
    let script = format!(
        "INFO timeout_turn 1000000\nSTART 15\nyxsetdatabase\n{}\nBOARD\n7,7,1\n8,8,2\nDONE\n\
         yxedittvddatabase 3 87 321 0\n7,7\n8,8\ndone\n",
        path.display()
    );
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    loop {
        let Ok(line) = lines.recv_timeout(std::time::Duration::from_secs(20)) else {
            panic!("the edit was not answered while the search ran");
        };
        assert!(
            line.starts_with("MESSAGE") || line == "OK",
            "no move before END: {line}"
        );
        if line.starts_with("MESSAGE DATABASE ONE") {
            break;
        }
    }
    // The manager quits mid-search: the engine exits at once, and the edit is on disk.
    stdin.write_all(b"END\n").unwrap();
    stdin.flush().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());

    let (_, rec) = reopened_record(&path);
    assert_eq!(rec.label, b'w' as i32);
    assert_eq!(rec.value, 321);
}
