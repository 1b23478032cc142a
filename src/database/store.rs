//! The SQLite file behind the position database: opening (refusing files that are not ours or
//! are damaged, never recreating them), records and board texts per canonical position, and
//! deletion of a position's subtree. Every write is its own committed transaction.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Transaction};

use super::position::{DbPosition, Key};
use super::record::Record;
use crate::core::Pos;

/// The `format` entry of the meta table that marks a file as ours.
pub const FORMAT_NAME: &str = "pentad-position-database";
/// The schema version this code reads and writes.
pub const FORMAT_VERSION: i64 = 1;
/// How long a statement waits for another process holding the file, in milliseconds.
const BUSY_TIMEOUT_MS: u64 = 2_000;

const SCHEMA: &str = "
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE position (
    rule INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, cells BLOB NOT NULL,
    label INTEGER NOT NULL, value INTEGER NOT NULL, depth INTEGER NOT NULL,
    bound INTEGER NOT NULL, best_move INTEGER, comment TEXT NOT NULL,
    PRIMARY KEY (rule, width, height, cells)) WITHOUT ROWID;
CREATE TABLE board_text (
    rule INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, cells BLOB NOT NULL,
    point INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (rule, width, height, cells, point)) WITHOUT ROWID;
";

const KEY_WHERE: &str = "rule = ?1 AND width = ?2 AND height = ?3 AND cells = ?4";

/// What [`Store::delete_children`] does with one descendant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prune {
    /// Keep it and everything below it.
    Keep,
    /// Keep it, look at its children.
    KeepAndDescend,
    /// Delete it, and every descendant reached through it.
    Delete,
}

/// An open position database file.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    readonly: bool,
}

/// The point `p` of a `width`-wide board as a stored number.
fn point_number(p: Pos, width: usize) -> i64 {
    (p.y() * width + p.x()) as i64
}

/// A stored point number back as a point, if it lies on a `width`×`height` board.
fn number_point(n: i64, width: usize, height: usize) -> Option<Pos> {
    let n = usize::try_from(n).ok()?;
    (n < width * height).then(|| Pos::new(n % width, n / width))
}

impl Store {
    /// Opens the database at `path`. Read-only mode never creates or changes the file; a
    /// writable open creates a missing file, and refuses a file that is not a Pentad
    /// database (another program's SQLite file, or not SQLite at all) without touching it.
    pub fn open(path: &Path, readonly: bool) -> Result<Store> {
        if readonly && !path.exists() {
            bail!(
                "{} does not exist (read-only mode cannot create it)",
                path.display()
            );
        }
        let flags = if readonly {
            OpenFlags::SQLITE_OPEN_READ_ONLY
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
        };
        let conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .with_context(|| format!("cannot open {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))
            .and_then(|_| conn.pragma_update(None, "synchronous", "FULL"))
            .with_context(|| format!("{}: not a readable SQLite database", path.display()))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
            readonly,
        };
        store
            .check_or_create_schema()
            .with_context(|| format!("{}", path.display()))?;
        Ok(store)
    }

    fn check_or_create_schema(&self) -> Result<()> {
        let tables: Vec<String> = {
            let mut st = self
                .conn
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
                .context("not a readable SQLite database")?;
            let rows = st.query_map([], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()
                .context("not a readable SQLite database")?
        };
        if tables.is_empty() {
            if self.readonly {
                bail!("an empty file, not a Pentad position database");
            }
            let tx = self.conn.unchecked_transaction()?;
            tx.execute_batch(SCHEMA)?;
            tx.execute(
                "INSERT INTO meta (name, value) VALUES ('format', ?1), ('version', ?2)",
                params![FORMAT_NAME, FORMAT_VERSION.to_string()],
            )?;
            tx.commit()?;
            return Ok(());
        }
        let format: Option<String> = if tables.iter().any(|t| t == "meta") {
            self.conn
                .query_row("SELECT value FROM meta WHERE name = 'format'", [], |r| {
                    r.get(0)
                })
                .optional()?
        } else {
            None
        };
        if format.as_deref() != Some(FORMAT_NAME) {
            bail!("an SQLite file of another program, not a Pentad position database (left unchanged)");
        }
        let version: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE name = 'version'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if version.as_deref() != Some(&FORMAT_VERSION.to_string()) {
            bail!("a Pentad position database of version {version:?}; this engine reads version {FORMAT_VERSION}");
        }
        Ok(())
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when opened read-only.
    pub fn is_readonly(&self) -> bool {
        self.readonly
    }

    fn writable(&self) -> Result<()> {
        if self.readonly {
            bail!("the database is read-only (INFO database_readonly 0 allows edits)");
        }
        Ok(())
    }

    /// The record of `pos`, if one is stored.
    pub fn get(&self, pos: &DbPosition) -> Result<Option<Record>> {
        let (key, sym) = pos.canonical();
        let rec = get_canonical(&self.conn, &key)?;
        Ok(rec.map(|mut r| {
            r.best_move = r.best_move.map(|p| pos.from_canonical(sym, p));
            r
        }))
    }

    /// Stores `record` for `pos` (an empty record removes the row).
    pub fn put(&mut self, pos: &DbPosition, record: &Record) -> Result<()> {
        self.writable()?;
        let (key, sym) = pos.canonical();
        let mut r = record.clone();
        r.best_move = r.best_move.map(|p| pos.to_canonical(sym, p));
        put_canonical(&self.conn, &key, &r)
    }

    /// Deletes the record of `pos` and its board texts; true when there was anything.
    pub fn delete(&mut self, pos: &DbPosition) -> Result<bool> {
        self.writable()?;
        let key = pos.canonical().0;
        let tx = self.conn.transaction()?;
        let n = delete_canonical(&tx, &key)?;
        tx.commit()?;
        Ok(n)
    }

    /// The board texts of `pos`: (point, text), points in `pos`'s orientation.
    pub fn board_texts(&self, pos: &DbPosition) -> Result<Vec<(Pos, String)>> {
        let (key, sym) = pos.canonical();
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT point, text FROM board_text WHERE {KEY_WHERE} ORDER BY point"
        ))?;
        let rows = st.query_map(key_params(&key), |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (n, text) = row?;
            if let Some(p) = number_point(n, key.width, key.height) {
                out.push((pos.from_canonical(sym, p), text));
            }
        }
        Ok(out)
    }

    /// Sets the text shown on point `p` of `pos` (an empty text removes it).
    pub fn set_board_text(&mut self, pos: &DbPosition, p: Pos, text: &str) -> Result<()> {
        self.writable()?;
        let (key, sym) = pos.canonical();
        let n = point_number(pos.to_canonical(sym, p), key.width);
        if text.is_empty() {
            self.conn.execute(
                &format!("DELETE FROM board_text WHERE {KEY_WHERE} AND point = ?5"),
                params![key.rule, key.width as i64, key.height as i64, key.cells, n],
            )?;
        } else {
            put_text(&self.conn, &key, n, text)?;
        }
        Ok(())
    }

    /// The records of the positions one move after `pos`: (move, record), moves row by row.
    pub fn children(&self, pos: &DbPosition) -> Result<Vec<(Pos, Record)>> {
        let mut out = Vec::new();
        for p in pos.empty_points() {
            let mut child = pos.clone();
            child.play(p);
            if let Some(r) = self.get(&child)? {
                out.push((p, r));
            }
        }
        Ok(out)
    }

    /// Deletes descendants of `pos` (positions reached by moves through stored positions) as
    /// `prune` decides for each, and the board texts of `pos`; all in one transaction.
    /// Returns how many records were deleted.
    pub fn delete_children(
        &mut self,
        pos: &DbPosition,
        prune: &dyn Fn(&Record) -> Prune,
    ) -> Result<usize> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        let mut seen = HashSet::new();
        let mut deleted = 0;
        let mut stack = vec![pos.clone()];
        while let Some(node) = stack.pop() {
            for p in node.empty_points() {
                let mut child = node.clone();
                child.play(p);
                let key = child.canonical().0;
                if !seen.insert(key.clone()) {
                    continue;
                }
                let Some(rec) = get_canonical(&tx, &key)? else {
                    continue;
                };
                match prune(&rec) {
                    Prune::Keep => {}
                    Prune::KeepAndDescend => stack.push(child),
                    Prune::Delete => {
                        deleted += delete_subtree(&tx, child, &mut seen)?;
                    }
                }
            }
        }
        let root = pos.canonical().0;
        tx.execute(
            &format!("DELETE FROM board_text WHERE {KEY_WHERE}"),
            key_params(&root),
        )?;
        tx.commit()?;
        Ok(deleted)
    }

    /// Number of stored positions.
    pub fn count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM position", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Every stored record with its key, in key order (best moves in canonical orientation).
    pub fn all_records(&self) -> Result<Vec<(Key, Record)>> {
        let mut st = self.conn.prepare(
            "SELECT rule, width, height, cells, label, value, depth, bound, best_move, comment \
             FROM position ORDER BY rule, width, height, cells",
        )?;
        let rows = st.query_map([], |r| {
            let key = Key {
                rule: r.get(0)?,
                width: r.get::<_, i64>(1)? as usize,
                height: r.get::<_, i64>(2)? as usize,
                cells: r.get(3)?,
            };
            let best: Option<i64> = r.get(8)?;
            let rec = Record {
                label: r.get(4)?,
                value: r.get(5)?,
                depth: r.get(6)?,
                bound: r.get(7)?,
                best_move: best.and_then(|n| number_point(n, key.width, key.height)),
                comment: r.get(9)?,
            };
            Ok((key, rec))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every stored board text: key, canonical point number, text.
    pub fn all_board_texts(&self) -> Result<Vec<(Key, i64, String)>> {
        let mut st = self.conn.prepare(
            "SELECT rule, width, height, cells, point, text FROM board_text \
             ORDER BY rule, width, height, cells, point",
        )?;
        let rows = st.query_map([], |r| {
            let key = Key {
                rule: r.get(0)?,
                width: r.get::<_, i64>(1)? as usize,
                height: r.get::<_, i64>(2)? as usize,
                cells: r.get(3)?,
            };
            Ok((key, r.get(4)?, r.get(5)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores many canonical records and board texts in one transaction: all or nothing.
    pub fn import(
        &mut self,
        records: &[(Key, Record)],
        texts: &[(Key, i64, String)],
    ) -> Result<()> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        for (key, rec) in records {
            put_canonical(&tx, key, rec)?;
        }
        for (key, point, text) in texts {
            put_text(&tx, key, *point, text)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// SQLite's own integrity check and Pentad's consistency checks; one line per problem.
    pub fn check(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let mut st = self.conn.prepare("PRAGMA integrity_check")?;
        let rows = st.query_map([], |r| r.get::<_, String>(0))?;
        for row in rows {
            let line = row?;
            if line != "ok" {
                problems.push(format!("SQLite: {line}"));
            }
        }
        for (key, rec) in self.all_records()? {
            if let Some(why) = record_problem(&key, &rec) {
                problems.push(why);
            }
        }
        for (key, point, _) in self.all_board_texts()? {
            if let Some(why) = board_text_problem(&key, point) {
                problems.push(why);
            }
        }
        Ok(problems)
    }

    /// Deletes the rows [`Store::check`] finds inconsistent and compacts the file; returns how
    /// many rows went. Damage SQLite itself reports is not repaired (restore a copy).
    pub fn fix(&mut self) -> Result<usize> {
        self.writable()?;
        let records = self.all_records()?;
        let texts = self.all_board_texts()?;
        let tx = self.conn.transaction()?;
        let mut removed = 0;
        for (key, rec) in &records {
            if record_problem(key, rec).is_some() {
                removed += tx.execute(
                    &format!("DELETE FROM position WHERE {KEY_WHERE}"),
                    key_params(key),
                )?;
            }
        }
        for (key, point, _) in &texts {
            if board_text_problem(key, *point).is_some() {
                removed += tx.execute(
                    &format!("DELETE FROM board_text WHERE {KEY_WHERE} AND point = ?5"),
                    params![
                        key.rule,
                        key.width as i64,
                        key.height as i64,
                        key.cells,
                        point
                    ],
                )?;
            }
        }
        tx.commit()?;
        self.conn.execute_batch("VACUUM")?;
        Ok(removed)
    }
}

fn key_params(key: &Key) -> impl rusqlite::Params + '_ {
    (key.rule, key.width as i64, key.height as i64, &key.cells)
}

fn get_canonical(conn: &Connection, key: &Key) -> Result<Option<Record>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT label, value, depth, bound, best_move, comment FROM position WHERE {KEY_WHERE}"
    ))?;
    let rec = st
        .query_row(key_params(key), |r| {
            let best: Option<i64> = r.get(4)?;
            Ok(Record {
                label: r.get(0)?,
                value: r.get(1)?,
                depth: r.get(2)?,
                bound: r.get(3)?,
                best_move: best.and_then(|n| number_point(n, key.width, key.height)),
                comment: r.get(5)?,
            })
        })
        .optional()?;
    Ok(rec)
}

/// Stores the text of the point numbered `point` on the canonical board `key`.
fn put_text(conn: &Connection, key: &Key, point: i64, text: &str) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO board_text (rule, width, height, cells, point, text) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            key.rule,
            key.width as i64,
            key.height as i64,
            key.cells,
            point,
            text
        ],
    )?;
    Ok(())
}

fn put_canonical(conn: &Connection, key: &Key, r: &Record) -> Result<()> {
    if r.is_empty() {
        conn.execute(
            &format!("DELETE FROM position WHERE {KEY_WHERE}"),
            key_params(key),
        )?;
        return Ok(());
    }
    let best = r.best_move.map(|p| point_number(p, key.width));
    conn.prepare_cached(
        "INSERT OR REPLACE INTO position \
         (rule, width, height, cells, label, value, depth, bound, best_move, comment) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        key.rule,
        key.width as i64,
        key.height as i64,
        key.cells,
        r.label,
        r.value,
        r.depth,
        r.bound,
        best,
        r.comment
    ])?;
    Ok(())
}

/// Deletes the record and board texts of `key`; true when a record was there.
fn delete_canonical(tx: &Transaction, key: &Key) -> Result<bool> {
    let n = tx.execute(
        &format!("DELETE FROM position WHERE {KEY_WHERE}"),
        key_params(key),
    )?;
    let t = tx.execute(
        &format!("DELETE FROM board_text WHERE {KEY_WHERE}"),
        key_params(key),
    )?;
    Ok(n + t > 0)
}

/// Deletes `root` (stored) and every stored position reached from it; returns the count.
fn delete_subtree(tx: &Transaction, root: DbPosition, seen: &mut HashSet<Key>) -> Result<usize> {
    let mut deleted = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let key = node.canonical().0;
        if get_canonical(tx, &key)?.is_none() {
            continue;
        }
        delete_canonical(tx, &key)?;
        deleted += 1;
        for p in node.empty_points() {
            let mut child = node.clone();
            child.play(p);
            let ck = child.canonical().0;
            if seen.insert(ck) {
                stack.push(child);
            }
        }
    }
    Ok(deleted)
}

fn record_problem(key: &Key, rec: &Record) -> Option<String> {
    let Some(pos) = DbPosition::from_key(key) else {
        return Some(format!(
            "a record with a bad key (rule {}, {}x{}, {} cells)",
            key.rule,
            key.width,
            key.height,
            key.cells.len()
        ));
    };
    if !pos.counts_are_game_like() {
        return Some(format!(
            "a {}x{} position whose stone counts no game reaches",
            key.width, key.height
        ));
    }
    if pos.canonical().0 != *key {
        return Some(format!(
            "a {}x{} position stored in a non-canonical orientation",
            key.width, key.height
        ));
    }
    if let Some(p) = rec.best_move {
        if !pos.is_empty(p) {
            return Some(format!(
                "a best move {},{} on an occupied point",
                p.x(),
                p.y()
            ));
        }
    }
    None
}

fn board_text_problem(key: &Key, point: i64) -> Option<String> {
    let pos = DbPosition::from_key(key)?; // bad keys are reported with the records
    match number_point(point, key.width, key.height) {
        Some(p) if pos.is_empty(p) => None,
        _ => Some(format!(
            "a board text on point number {point}, not an empty point"
        )),
    }
}

#[cfg(test)]
mod tests;
