//! Tests of the SQLite store: round trips, symmetry, read-only mode, foreign and damaged files,
//! subtree deletion, check and fix.

use super::*;
use crate::core::Rule;
use crate::database::record::{LABEL_LOSE, LABEL_WIN};

/// A fresh folder for one test's database files, removed when the test ends.
fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("pentad-db-test-")
        .tempdir()
        .unwrap()
}

fn pos(moves: &[(i64, i64)]) -> DbPosition {
    DbPosition::from_moves(Rule::FREESTYLE, 15, 15, moves).unwrap()
}

fn labelled(label: i32) -> Record {
    Record {
        label,
        ..Record::empty()
    }
}

#[test]
fn records_round_trip_across_symmetries() {
    let dir = scratch_dir();
    let path = dir.path().join("round.db");
    let mut s = Store::open(&path, false).unwrap();
    let a = pos(&[(7, 7), (8, 7)]);
    let rec = Record {
        label: LABEL_WIN,
        value: 123,
        depth: 9,
        bound: 3,
        best_move: Some(Pos::new(9, 7)),
        comment: "note".into(),
    };
    s.put(&a, &rec).unwrap();
    assert_eq!(s.get(&a).unwrap(), Some(rec.clone()));
    // The transposed position finds the same record, best move transposed too.
    let b = pos(&[(7, 7), (7, 8)]);
    let got = s.get(&b).unwrap().unwrap();
    assert_eq!(got.best_move, Some(Pos::new(7, 9)));
    assert_eq!(got.comment, "note");
    s.set_board_text(&b, Pos::new(7, 9), "A").unwrap();
    assert_eq!(
        s.board_texts(&a).unwrap(),
        vec![(Pos::new(9, 7), "A".to_string())]
    );
    drop(s);
    let s = Store::open(&path, true).unwrap();
    assert_eq!(s.get(&a).unwrap(), Some(rec));
    assert_eq!(s.count().unwrap(), 1);
}

#[test]
fn read_only_mode_refuses_writes_and_missing_files() {
    let dir = scratch_dir();
    let path = dir.path().join("ro.db");
    assert!(Store::open(&path, true).is_err());
    assert!(!path.exists());
    Store::open(&path, false).unwrap();
    let mut s = Store::open(&path, true).unwrap();
    let e = s.put(&pos(&[(7, 7)]), &labelled(LABEL_WIN)).unwrap_err();
    assert!(e.to_string().contains("read-only"));
    assert!(s.set_board_text(&pos(&[]), Pos::new(1, 1), "a").is_err());
    assert!(s.delete(&pos(&[(7, 7)])).is_err());
}

#[test]
fn foreign_and_damaged_files_are_refused_untouched() {
    let dir = scratch_dir();
    let junk = dir.path().join("junk.db");
    let bytes = b"this is not an SQLite file at all, but it is long enough to look like one....";
    std::fs::write(&junk, bytes.repeat(20)).unwrap();
    assert!(Store::open(&junk, false).is_err());
    assert_eq!(std::fs::read(&junk).unwrap(), bytes.repeat(20));

    let foreign = dir.path().join("foreign.db");
    {
        let c = Connection::open(&foreign).unwrap();
        c.execute_batch("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let before = std::fs::read(&foreign).unwrap();
    let e = Store::open(&foreign, false).unwrap_err();
    assert!(format!("{e:#}").contains("another program"), "{e:#}");
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
}

#[test]
fn deleting_children_follows_the_filter() {
    let dir = scratch_dir();
    let path = dir.path().join("del.db");
    let mut s = Store::open(&path, false).unwrap();
    let root = pos(&[(7, 7)]);
    let win = pos(&[(7, 7), (8, 8)]);
    let win_child = pos(&[(7, 7), (8, 8), (9, 9)]);
    let lose = pos(&[(7, 7), (7, 8)]);
    let lose_child = pos(&[(7, 7), (7, 8), (1, 1)]);
    s.put(&root, &labelled(b'a' as i32)).unwrap();
    s.put(&win, &labelled(LABEL_WIN)).unwrap();
    s.put(&win_child, &labelled(b'b' as i32)).unwrap();
    s.put(&lose, &labelled(LABEL_LOSE)).unwrap();
    s.put(&lose_child, &labelled(LABEL_WIN)).unwrap();
    s.set_board_text(&root, Pos::new(0, 0), "T").unwrap();
    // Delete wins only, looking below kept positions too.
    let n = s
        .delete_children(&root, &|r| {
            if r.label == LABEL_WIN {
                Prune::Delete
            } else {
                Prune::KeepAndDescend
            }
        })
        .unwrap();
    assert_eq!(n, 3); // win, its child, and the win below the loss
    assert!(s.get(&lose).unwrap().is_some());
    assert!(s.get(&win_child).unwrap().is_none());
    assert!(s.get(&lose_child).unwrap().is_none());
    assert!(s.get(&root).unwrap().is_some());
    assert!(s.board_texts(&root).unwrap().is_empty());
    // Delete everything below the root.
    assert_eq!(s.delete_children(&root, &|_| Prune::Delete).unwrap(), 1);
    assert_eq!(s.count().unwrap(), 1);
}

#[test]
fn check_finds_and_fix_removes_bad_rows() {
    let dir = scratch_dir();
    let path = dir.path().join("check.db");
    let mut s = Store::open(&path, false).unwrap();
    s.put(&pos(&[(7, 7)]), &labelled(LABEL_WIN)).unwrap();
    assert!(s.check().unwrap().is_empty());
    // A row written behind the store's back: three black stones and no white one.
    s.conn
        .execute(
            "INSERT INTO position VALUES (0, 15, 15, ?1, 119, 0, 0, 0, NULL, '')",
            [{
                let mut c = vec![0u8; 225];
                c[0] = 1;
                c[1] = 1;
                c[2] = 1;
                c
            }],
        )
        .unwrap();
    assert_eq!(s.check().unwrap().len(), 1);
    assert_eq!(s.fix().unwrap(), 1);
    assert!(s.check().unwrap().is_empty());
    assert_eq!(s.count().unwrap(), 1);
}
