//! The Yixin position-database commands in the session: collecting the position or path line
//! that follows a command, the INFO keys `usedatabase` and `database_readonly`, and every
//! `MESSAGE DATABASE …` answer Yixin-Board parses (docs/database.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Line, Session};
use crate::core::Pos;
use crate::database::record::{
    clean_board_text, clean_comment, label_from_input, pack_tag, Record, BEST_MOVE_TAG,
    BOUND_EXACT, DEPTH_LIMIT, VALUE_LIMIT,
};
use crate::database::{text, DbPosition, Store, DEFAULT_FILE};
use crate::protocol::dbcommand::{DbCommand, PathCommand, PositionCommand};
use crate::protocol::parse::{command_word, parse_fields, shorten};
use crate::protocol::Command;

/// `yxedittvddatabase` mask bits.
const MASK_LABEL: i64 = 1;
const MASK_VALUE: i64 = 2;
const MASK_DEPTH: i64 = 4;

/// The database settings and the command being collected.
#[derive(Default)]
pub(super) struct DbState {
    store: Option<Store>,
    /// The file `INFO usedatabase 1` opens (`yxsetdatabase` changes it).
    path: Option<PathBuf>,
    readonly: bool,
    pending: Option<Pending>,
}

impl DbState {
    /// True while a database command still reads its following lines.
    pub(super) fn is_collecting(&self) -> bool {
        self.pending.is_some()
    }
}

/// The input a database command still expects.
enum Pending {
    /// The next line is a path.
    Path(PathCommand),
    /// Inside the quoted text of `yxedittextdatabase` (text so far, unescaped).
    Text(String),
    /// `x,y` lines until `DONE`.
    Moves {
        cmd: PositionCommand,
        moves: Vec<(i64, i64)>,
        error: Option<String>,
    },
}

/// Reads a quoted text with `\"` and `\\` escapes from `s` into `out`. Returns what follows
/// the closing quote, or `None` when the text goes on in the next line.
fn read_quoted<'a>(s: &'a str, out: &mut String) -> Option<&'a str> {
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some(&s[i + 1..]),
            '\\' => match chars.next() {
                Some((_, e)) if e == '"' || e == '\\' => out.push(e),
                Some((_, e)) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            _ => out.push(c),
        }
    }
    None
}

/// A comment as `MESSAGE DATABASE TEXT` carries it: quoted, `"` and `\` escaped, line breaks
/// kept (the GUI reads on to the closing quote).
fn quote_for_gui(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

impl<W: Write> Session<W> {
    /// True for a line that a running search need not hold back: a line of the database
    /// command being read, or a query or edit of one position (one quick transaction, which
    /// does not touch the search) when nothing waits in the queue before it. Yixin-Board
    /// queries the database while the engine thinks, and an edit answered at once is on disk
    /// before an `END` that ends the search. Path commands (imports, exports, another file)
    /// and checks can take long, and the search's answer must not wait: they are queued.
    pub(super) fn database_line_now(&self, line: &Line) -> bool {
        if self.db.is_collecting() {
            return true;
        }
        !line.truncated
            && self.block.is_none()
            && self.queue.is_empty()
            && matches!(
                line.text.parse::<Command>(),
                Ok(Command::Database(DbCommand::Position(_)))
            )
    }

    /// Starts a database command: most read a position or a path first.
    pub(super) fn database(&mut self, cmd: DbCommand) {
        match cmd {
            DbCommand::Position(PositionCommand::EditText(rest)) => {
                let Some(rest) = rest.strip_prefix('"') else {
                    self.error("yxedittextdatabase: the text must start with a double quote");
                    return self.collect_moves(PositionCommand::EditText(String::new()), true);
                };
                self.db.pending = Some(Pending::Text(String::new()));
                self.text_line(rest);
            }
            DbCommand::Position(c) => self.collect_moves(c, false),
            DbCommand::Path(c, Some(path)) => self.db_path_command(c, &path),
            DbCommand::Path(c, None) => self.db.pending = Some(Pending::Path(c)),
            DbCommand::Save => self.db_save(),
            DbCommand::Check => self.db_check(),
            DbCommand::Fix => self.db_fix(),
        }
    }

    fn collect_moves(&mut self, cmd: PositionCommand, failed: bool) {
        let error = failed.then(|| "bad text".to_string());
        self.db.pending = Some(Pending::Moves {
            cmd,
            moves: Vec::new(),
            error,
        });
    }

    /// One input line while a database command collects its input.
    pub(super) fn db_line(&mut self, line: Line) {
        if line.truncated {
            self.db.pending = None;
            self.error(&format!(
                "line too long inside a database command: {}",
                shorten(&line.text)
            ));
            return;
        }
        match self.db.pending.take() {
            Some(Pending::Path(c)) => self.db_path_command(c, line.text.trim()),
            Some(Pending::Text(mut buf)) => {
                buf.push('\n');
                self.db.pending = Some(Pending::Text(buf));
                self.text_line(&line.text);
            }
            Some(Pending::Moves { cmd, moves, error }) => {
                self.db.pending = Some(Pending::Moves { cmd, moves, error });
                self.move_line(line);
            }
            None => {}
        }
    }

    /// A piece of the comment text; after the closing quote come the position lines.
    fn text_line(&mut self, s: &str) {
        let Some(Pending::Text(mut buf)) = self.db.pending.take() else {
            return;
        };
        match read_quoted(s, &mut buf) {
            None => self.db.pending = Some(Pending::Text(buf)),
            Some(rest) => {
                self.collect_moves(PositionCommand::EditText(buf), false);
                let rest = rest.trim();
                if !rest.is_empty() {
                    self.move_line(Line {
                        text: rest.to_string(),
                        truncated: false,
                    });
                }
            }
        }
    }

    fn move_line(&mut self, line: Line) {
        let word = command_word(&line.text);
        if word == "DONE" {
            if let Some(Pending::Moves { cmd, moves, error }) = self.db.pending.take() {
                match error {
                    Some(e) => self.error(&format!("{}: {e}", cmd.name())),
                    None => self.db_position_command(cmd, &moves),
                }
            }
            return;
        }
        if line.text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            // A command: the DONE was lost. Drop the database command, run this one.
            let name = match &self.db.pending {
                Some(Pending::Moves { cmd, .. }) => cmd.name(),
                _ => "database command",
            };
            self.db.pending = None;
            if word == "END" {
                self.quit = true;
                return;
            }
            self.error(&format!("{name} not terminated by DONE"));
            self.execute(line);
            return;
        }
        if let Some(Pending::Moves { moves, error, .. }) = self.db.pending.as_mut() {
            match parse_fields("database position", &line.text, 2) {
                Ok(v) => moves.push((v[0], v[1])),
                Err(e) => {
                    error.get_or_insert(e.to_string());
                }
            }
        }
    }

    /// `INFO usedatabase` / `INFO database_readonly`; false for other keys.
    pub(super) fn db_info(&mut self, key: &str, value: &str) -> bool {
        let on = match value.trim() {
            "1" => true,
            "0" => false,
            _ if matches!(key, "usedatabase" | "database_readonly") => {
                self.error(&format!(
                    "INFO {key}: expected 0 or 1, got {}",
                    shorten(value)
                ));
                return true;
            }
            _ => return false,
        };
        match key {
            "usedatabase" if on => {
                if self.db.store.is_none() {
                    let path = self.db.path.clone().unwrap_or(DEFAULT_FILE.into());
                    self.open_database(&path, "INFO usedatabase");
                }
            }
            "usedatabase" => self.db.store = None,
            "database_readonly" => {
                self.db.readonly = on;
                if let Some(path) = self.db.store.take().map(|s| s.path().to_path_buf()) {
                    self.open_database(&path, "INFO database_readonly");
                }
            }
            _ => return false,
        }
        true
    }

    /// Opens `path` as the database; on failure says why and keeps none open.
    fn open_database(&mut self, path: &Path, what: &str) -> bool {
        self.db.path = Some(path.to_path_buf());
        match Store::open(path, self.db.readonly) {
            Ok(s) => {
                self.db.store = Some(s);
                true
            }
            Err(e) => {
                self.db.store = None;
                self.error(&format!("{what}: database {e:#}"));
                false
            }
        }
    }

    /// The open store, or an ERROR naming `cmd`.
    fn store_for(&mut self, cmd: &str) -> Option<&mut Store> {
        if self.db.store.is_none() {
            self.error(&format!(
                "{cmd}: no database in use (INFO usedatabase 1, or yxsetdatabase and a path)"
            ));
        }
        self.db.store.as_mut()
    }

    fn db_path_command(&mut self, cmd: PathCommand, path: &str) {
        let name = cmd.name();
        if path.is_empty() {
            return self.error(&format!("{name}: missing file path"));
        }
        let path = Path::new(path);
        match cmd {
            PathCommand::SetDatabase => {
                if self.open_database(path, name) {
                    self.db_summary("using");
                }
            }
            PathCommand::DbToTxt | PathCommand::DbToTxtAll => self.db_export(cmd, path),
            PathCommand::TxtToDb => self.db_import(path),
            PathCommand::LibToDb => self.error(
                "yxlibtodb: Renlib .lib import is not supported (export the library as text \
                 with another tool, or enter the positions here)",
            ),
        }
    }

    fn db_summary(&mut self, verb: &str) {
        let Some(store) = self.db.store.as_ref() else {
            return;
        };
        let line = match store.count() {
            Ok(n) => format!(
                "MESSAGE db: {verb} {} ({n} positions{})",
                store.path().display(),
                if store.is_readonly() {
                    ", read-only"
                } else {
                    ""
                }
            ),
            Err(e) => format!("ERROR database {}: {e:#}", store.path().display()),
        };
        self.say(&line);
    }

    fn db_save(&mut self) {
        if self.store_for("yxsavedatabase").is_some() {
            self.db_summary("every edit is already committed to");
        }
    }

    fn db_check(&mut self) {
        let Some(store) = self.store_for("yxdbcheck") else {
            return;
        };
        let path = store.path().display().to_string();
        match store.check() {
            Ok(problems) if problems.is_empty() => {
                self.say(&format!("MESSAGE db: check of {path}: no problems"))
            }
            Ok(problems) => {
                for p in &problems {
                    self.say(&format!("MESSAGE db: problem: {p}"));
                }
                self.error(&format!(
                    "yxdbcheck: {} problems in {path} (yxdbfix removes the bad rows)",
                    problems.len()
                ));
            }
            Err(e) => self.error(&format!("yxdbcheck: {path}: {e:#}")),
        }
    }

    fn db_fix(&mut self) {
        let Some(store) = self.store_for("yxdbfix") else {
            return;
        };
        let line = match store.fix() {
            Ok(n) => format!("MESSAGE db: fix removed {n} inconsistent rows"),
            Err(e) => format!("ERROR yxdbfix: {e:#}"),
        };
        self.say(&line);
    }

    fn db_export(&mut self, cmd: PathCommand, path: &Path) {
        let filter = if cmd == PathCommand::DbToTxt {
            let Some(b) = self.board.as_ref() else {
                return self.error("yxdbtotxt: no board yet (send START first)");
            };
            Some((self.rule, b.width(), b.height()))
        } else {
            None
        };
        let Some(store) = self.store_for(cmd.name()) else {
            return;
        };
        let result = store
            .all_records()
            .and_then(|r| Ok((r, store.all_board_texts()?)))
            .map(|(r, t)| text::export(&r, &t, filter))
            .and_then(|s| {
                std::fs::write(path, &s)?;
                Ok(s.lines().filter(|l| !l.starts_with('#')).count())
            });
        match result {
            Ok(n) => self.say(&format!(
                "MESSAGE db: wrote {n} lines to {}",
                path.display()
            )),
            Err(e) => self.error(&format!("{}: {}: {e:#}", cmd.name(), path.display())),
        }
    }

    fn db_import(&mut self, path: &Path) {
        let Some(store) = self.store_for("yxtxttodb") else {
            return;
        };
        let result = std::fs::read_to_string(path)
            .map_err(anyhow::Error::from)
            .and_then(|s| text::import(&s))
            .and_then(|im| {
                store.import(&im.records, &im.texts)?;
                Ok((im.records.len(), im.texts.len()))
            });
        match result {
            Ok((r, t)) => self.say(&format!(
                "MESSAGE db: imported {r} positions and {t} board texts from {}",
                path.display()
            )),
            Err(e) => self.error(&format!(
                "yxtxttodb: {}: {e:#} (nothing imported)",
                path.display()
            )),
        }
    }

    /// Runs a command on its collected position.
    fn db_position_command(&mut self, cmd: PositionCommand, moves: &[(i64, i64)]) {
        let name = cmd.name();
        let Some(b) = self.board.as_ref() else {
            return self.error(&format!("{name}: no board yet (send START first)"));
        };
        let pos = match DbPosition::from_moves(self.rule, b.width(), b.height(), moves) {
            Ok(p) => p,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        let is_query = matches!(
            cmd,
            PositionCommand::QueryAll
                | PositionCommand::QueryAllText
                | PositionCommand::QueryOne
                | PositionCommand::QueryText
        );
        if is_query && self.db.store.is_none() {
            // Yixin-Board queries after every position change, also before it has sent
            // `INFO usedatabase 1`: without a database there is nothing to show.
            log::debug!("{name}: no database in use, nothing to answer");
            return;
        }
        if self.store_for(name).is_none() {
            return;
        }
        let done = match cmd {
            PositionCommand::SetBestMove => self.edit_best_move(true, moves),
            PositionCommand::ClearBestMove => self.edit_best_move(false, moves),
            cmd => self.run_position_command(cmd, &pos),
        };
        if let Err(e) = done {
            self.error(&format!("{name}: {e:#}"));
        }
    }

    fn store(&mut self) -> anyhow::Result<&mut Store> {
        self.db
            .store
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("no database in use"))
    }

    fn run_position_command(
        &mut self,
        cmd: PositionCommand,
        pos: &DbPosition,
    ) -> anyhow::Result<()> {
        use PositionCommand as P;
        match cmd {
            P::QueryAll => self.query_all(pos)?,
            P::QueryAllText => {
                self.query_all(pos)?;
                self.query_text(pos)?;
            }
            P::QueryOne => self.query_one(pos)?,
            P::QueryText => self.query_text(pos)?,
            P::EditTvd {
                mask,
                label,
                value,
                depth,
            } => {
                self.edit_tvd(pos, mask, label, value, depth)?;
                self.query_one(pos)?;
            }
            P::EditText(t) => {
                let store = self.store()?;
                let mut r = store.get(pos)?.unwrap_or_else(Record::empty);
                r.comment = clean_comment(&t);
                store.put(pos, &r)?;
            }
            P::EditLabel { point, text } => {
                let p = point_on(pos, point.x, point.y)?;
                self.store()?
                    .set_board_text(pos, p, &clean_board_text(&text))?;
            }
            P::DeleteOne => {
                let gone = self.store()?.delete(pos)?;
                let what = if gone { "deleted" } else { "had no" };
                self.say(&format!("MESSAGE db: {what} record of this position"));
            }
            P::DeleteAll(filter) => {
                let n = self.store()?.delete_children(pos, &|r| filter.prune(r))?;
                self.say(&format!(
                    "MESSAGE db: deleted {n} records below this position"
                ));
                self.query_all(pos)?;
            }
            P::SetBestMove | P::ClearBestMove => {} // need the move order: see edit_best_move
            P::Invalid { why, .. } => anyhow::bail!("{why}"),
        }
        Ok(())
    }

    fn edit_tvd(
        &mut self,
        pos: &DbPosition,
        mask: i64,
        label: i64,
        value: i64,
        depth: i64,
    ) -> anyhow::Result<()> {
        if !(0..8).contains(&mask) {
            anyhow::bail!("mask must be 0..7 (1 label, 2 value, 4 depth), got {mask}");
        }
        let store = self.store()?;
        let mut r = store.get(pos)?.unwrap_or_else(Record::empty);
        if mask & MASK_LABEL != 0 {
            r.label = label_from_input(label).ok_or_else(|| {
                anyhow::anyhow!("label {label} is not -1 or a printable ASCII character")
            })?;
        }
        if mask & MASK_VALUE != 0 {
            if value.abs() > VALUE_LIMIT {
                anyhow::bail!("value {value} is out of range (at most {VALUE_LIMIT} in size)");
            }
            r.value = value as i32;
        }
        if mask & MASK_DEPTH != 0 {
            if !(0..=DEPTH_LIMIT).contains(&depth) {
                anyhow::bail!("depth {depth} is out of range (0..={DEPTH_LIMIT})");
            }
            r.depth = depth as i32;
            r.bound = BOUND_EXACT;
        }
        store.put(pos, &r)
    }

    /// `yxsetbestmovedatabase` / `yxclearbestmovedatabase`: the last of `moves` becomes (or
    /// stops being) the stored best move of the position before it.
    fn edit_best_move(&mut self, set: bool, moves: &[(i64, i64)]) -> anyhow::Result<()> {
        let Some((&(x, y), before)) = moves.split_last() else {
            anyhow::bail!("the position needs at least one move (the best move is the last)");
        };
        let Some(b) = self.board.as_ref() else {
            anyhow::bail!("no board yet (send START first)");
        };
        let parent = DbPosition::from_moves(self.rule, b.width(), b.height(), before)
            .map_err(anyhow::Error::msg)?;
        let p = point_on(&parent, x, y)?;
        let store = self.store()?;
        let mut r = store.get(&parent)?.unwrap_or_else(Record::empty);
        let line = if set {
            r.best_move = Some(p);
            format!("MESSAGE db: best move of the position before it set to {x},{y}")
        } else if r.best_move.is_some() {
            r.best_move = None;
            "MESSAGE db: best move of the position before it cleared".to_string()
        } else {
            "MESSAGE db: the position before it has no best move".to_string()
        };
        store.put(&parent, &r)?;
        self.say(&line);
        Ok(())
    }

    /// `MESSAGE DATABASE REFRESH`, one line per move with a record or a board text, `DONE`.
    fn query_all(&mut self, pos: &DbPosition) -> anyhow::Result<()> {
        let store = self.store()?;
        let children = store.children(pos)?;
        let texts = store.board_texts(pos)?;
        let best = store.get(pos)?.and_then(|r| r.best_move);
        let mut points: Vec<Pos> = children
            .iter()
            .map(|c| c.0)
            .chain(texts.iter().map(|t| t.0))
            .chain(best)
            .collect();
        points.sort_by_key(|p| (p.y(), p.x()));
        points.dedup();
        self.say("MESSAGE DATABASE REFRESH");
        for p in points {
            let rec = children.iter().find(|c| c.0 == p).map(|c| &c.1);
            let text = texts.iter().find(|t| t.0 == p).map_or("", |t| t.1.as_str());
            let mut tag = rec.map_or(-1, Record::display_tag);
            if tag < 0 && best == Some(p) {
                tag = pack_tag(&[BEST_MOVE_TAG]);
            }
            let r = rec.cloned().unwrap_or_else(Record::empty);
            let has_comment = i32::from(!r.comment.is_empty());
            let line = format!(
                "MESSAGE DATABASE {} {} {tag} {} {} {} {has_comment}",
                p.x(),
                p.y(),
                r.value,
                r.depth,
                r.bound
            );
            if text.is_empty() {
                self.say(&line);
            } else {
                self.say(&format!("{line} {text}"));
            }
        }
        self.say("MESSAGE DATABASE DONE");
        Ok(())
    }

    /// `MESSAGE DATABASE ONE label value depth bound display`, or `… ONE 0 0 0 0`.
    fn query_one(&mut self, pos: &DbPosition) -> anyhow::Result<()> {
        let line = match self.store()?.get(pos)? {
            Some(r) => {
                let tag = r.display_tag();
                let shown: String = tag
                    .to_be_bytes()
                    .iter()
                    .filter(|&&b| b > 0 && tag > 0)
                    .map(|&b| b as char)
                    .collect();
                let label = r.label.max(0);
                format!(
                    "MESSAGE DATABASE ONE {label} {} {} {} {shown}",
                    r.value, r.depth, r.bound
                )
            }
            None => "MESSAGE DATABASE ONE 0 0 0 0".to_string(),
        };
        self.say(line.trim_end());
        Ok(())
    }

    /// `MESSAGE DATABASE TEXT "comment"`.
    fn query_text(&mut self, pos: &DbPosition) -> anyhow::Result<()> {
        let comment = self
            .store()?
            .get(pos)?
            .map(|r| r.comment)
            .unwrap_or_default();
        // A multi-line comment goes out as several lines, as Yixin-Board reads it (on to the
        // closing quote); each line is written on its own, so no other control character
        // reaches the manager.
        let text = format!("MESSAGE DATABASE TEXT {}", quote_for_gui(&comment));
        for line in text.split('\n') {
            self.say(line);
        }
        Ok(())
    }
}

fn point_on(pos: &DbPosition, x: i64, y: i64) -> anyhow::Result<Pos> {
    let p = pos
        .point(x, y)
        .ok_or_else(|| anyhow::anyhow!("{x},{y} is outside the board"))?;
    if !pos.is_empty(p) {
        anyhow::bail!("{x},{y} is occupied");
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_spans_lines() {
        let mut buf = String::new();
        assert_eq!(read_quoted(r#"say \"hi\" \\ "#, &mut buf), None);
        assert_eq!(buf, r#"say "hi" \ "#);
        let mut buf = String::new();
        assert_eq!(read_quoted(r#"end"7,7"#, &mut buf), Some("7,7"));
        assert_eq!(buf, "end");
        assert_eq!(quote_for_gui("a\"b\\c\nd"), "\"a\\\"b\\\\c\nd\"");
    }
}
