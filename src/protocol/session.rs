//! The protocol session: game state, INFO settings, BOARD-block collection, command
//! dispatch, the queue of commands received while thinking, and every reply line.

mod clock;

use std::collections::{HashSet, VecDeque};
use std::io::Write;

use super::command::Command;
use super::format::{about_line, forbid_line, report_line, swap2_line};
use super::parse::{command_word, line_text, parse_fields, parse_i64, shorten, Coord};
use super::yxcommand::MovesFor;
use crate::board::Board;
use crate::core::{Cell, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use crate::engine::swap2::{static_reply, Swap2Budget, Swap2Reply};
use crate::engine::{
    hash_plan_for_settings, limits_for, time_control_for, Answer, Engine, EngineEvent, Notify,
    Settings,
};
use crate::eval;
use crate::search::{self, pick_simple_move, SearchResult};
use position::{build_position, build_swap2, check_points, rebuild, to_pos};

/// Hash size the searcher starts with; the real size is set before the first search, so that
/// start-up stays fast whatever `max_memory` turns out to be.
const INITIAL_HASH_BYTES: usize = 1 << 20;

/// Which multi-line block is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    /// `x,y` lines after a Yixin-Board command.
    Moves(MovesFor),
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::Moves(_) => "move list",
        }
    }
}

/// A BOARD / YXBOARD / SWAP2BOARD block being collected until DONE.
struct Block {
    kind: BlockKind,
    entries: Vec<Vec<i64>>,
    error: Option<String>,
}

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// BEGIN / TURN / BOARD: play the move, print `x,y`.
    Play,
    /// SUGGEST: print `SUGGEST x,y`, do not play.
    Suggest,
    /// YXNBEST: print `x,y`, do not play.
    NBest,
    /// SWAP2BOARD: print the decision, set up the Swap2 position (with our move if any).
    Swap2,
    /// YXSEARCHDEFEND: every defence as a line, then the best move.
    Defend,
    /// YXBALANCEONE/TWO: the move(s) closest to `bias`; `first` is our move once chosen.
    Balance {
        two: bool,
        bias: i32,
        first: Option<Pos>,
    },
    /// YXSWAP2STEPn: the decision as `MESSAGE SWAP2 …` lines.
    YxSwap2(u8),
    /// YXSOOSORVSTEPn: the decision as `MESSAGE SOOSORV …` lines.
    Soosorv(u8),
    /// Thinking on the opponent's time: no output, stopped by the next command.
    Ponder,
}

struct Task {
    purpose: Purpose,
    board: Board,
    multipv: bool,
    /// The latest report of each line (multi-PV searches).
    lines: Vec<search::SearchReport>,
}

/// One input line as read: lossily decoded text and whether it had to be cut short.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    truncated: bool,
}

/// The Gomocup session. Feed it input lines and engine events; it writes reply lines to `out`
/// (flushed after each line).
pub struct Session<W: Write> {
    out: W,
    settings: Settings,
    rule: Rule,
    board: Option<Board>,
    block: Option<Block>,
    engine: Engine,
    task: Option<Task>,
    queue: VecDeque<Line>,
    quit: bool,
    /// Input is closed: quit once the running search and the queue are done.
    input_closed: bool,
    /// What Yixin-Board set up (see `yixin`).
    yx: yixin::YixinState,
    /// The position database and the database command being read (session/database.rs).
    db: database::DbState,
    /// The latency the manager's game clock showed (for the game-clock reserves).
    clock: clock::ClockWatch,
}

impl<W: Write> Session<W> {
    /// A new session writing to `out`; the engine's events go to `notify`, and the caller
    /// hands them back through [`Session::handle_event`].
    pub fn new(out: W, notify: Notify) -> Session<W> {
        Session {
            out,
            settings: Settings::default(),
            rule: Rule::FREESTYLE,
            board: None,
            block: None,
            engine: Engine::new(INITIAL_HASH_BYTES, notify),
            task: None,
            queue: VecDeque::new(),
            quit: false,
            input_closed: false,
            yx: yixin::YixinState::default(),
            db: database::DbState::default(),
            clock: clock::ClockWatch::default(),
        }
    }

    /// The current position (after START), for tests and tools.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The INFO settings received so far.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The rule from INFO rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// True while a search runs whose answer is not printed yet (not while pondering).
    pub fn is_thinking(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|t| t.purpose != Purpose::Ponder)
    }

    /// True while the engine thinks on the opponent's time (`INFO pondering 1`).
    pub fn is_pondering(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Ponder)
    }

    /// True once END arrived or output failed: the caller should exit.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The writer (tests read captured output through it).
    pub fn output(&mut self) -> &mut W {
        &mut self.out
    }

    /// Commands waiting for the running search to finish.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Writes one protocol line. Control characters (an input's NUL or `\r` echoed in an
    /// ERROR, say) become `?`: a manager reading C strings or splitting at `\r` would see a
    /// cut or an extra line.
    fn say(&mut self, line: &str) {
        let line: std::borrow::Cow<str> = if line.contains(char::is_control) {
            line.chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect::<String>()
                .into()
        } else {
            line.into()
        };
        let ok = self
            .out
            .write_all(line.as_bytes())
            .and_then(|_| self.out.write_all(b"\n"))
            .and_then(|_| self.out.flush());
        if let Err(e) = ok {
            log::error!("cannot write to the manager: {e}");
            self.quit = true;
        }
    }

    fn error(&mut self, why: &str) {
        self.say(&format!("ERROR {why}"));
    }

    /// One raw input line (without its line end; a trailing `\r` is removed here).
    /// `truncated` tells that the reader cut an over-long line.
    pub fn handle_input(&mut self, bytes: &[u8], truncated: bool) {
        let text = line_text(bytes);
        if text.is_empty() && !truncated {
            return; // empty lines are ignored everywhere
        }
        let line = Line { text, truncated };
        if self.is_pondering() {
            self.input_while_pondering(line);
            return;
        }
        if self.is_thinking() {
            if self.database_line_now(&line) {
                self.execute(line);
                return;
            }
            match command_word(&line.text).as_str() {
                "STOP" | "YXSTOP" if !line.truncated => self.stop_search(),
                "END" if !line.truncated => self.quit = true,
                _ => self.queue.push_back(line),
            }
            return;
        }
        self.execute(line);
        self.drain_queue();
    }

    /// End of input: finish what was asked (the running search and every queued command),
    /// then quit as END does. A manager that closes the pipe mid-game loses nothing it sent.
    pub fn end_of_input(&mut self) {
        self.input_closed = true;
        self.quit_if_input_done();
    }

    fn quit_if_input_done(&mut self) {
        if self.input_closed && !self.is_thinking() && self.queue.is_empty() {
            self.quit = true;
        }
    }

    /// An event from the engine (a report line, or the end of the search).
    pub fn handle_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::Report(r) => {
                let multipv = self.task.as_ref().is_some_and(|t| t.multipv);
                if self.is_thinking() {
                    self.keep_line(&r);
                    self.say(&report_line(&r, multipv));
                    let numpv = self.task.as_ref().map_or(1, |t| t.lines.len());
                    self.live_report(&r, numpv);
                }
            }
            EngineEvent::Root(ev) => self.live_root(ev),
            EngineEvent::Done(outcome) => {
                // The answer first: joining the search thread can wait.
                if let Some(task) = self.task.take() {
                    self.conclude(task, outcome);
                }
                self.engine.finished();
                self.start_balance_reply();
                self.drain_queue();
                self.quit_if_input_done();
            }
        }
    }

    fn drain_queue(&mut self) {
        while self.task.is_none() && !self.quit {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            self.execute(line);
        }
        self.ponder_if_idle();
    }

    fn execute(&mut self, line: Line) {
        if self.db.is_collecting() {
            return self.db_line(line);
        }
        if line.truncated {
            if self.block.is_none() && command_word(&line.text) == "INFO" {
                return; // INFO is never answered, not even when absurdly long
            }
            self.block = None;
            self.error(&format!(
                "line too long ({} bytes kept): {}",
                line.text.len(),
                shorten(&line.text)
            ));
            return;
        }
        if self.block.is_some() {
            self.block_line(line);
            return;
        }
        if self.take_hash_path(&line.text) {
            return;
        }
        match line.text.parse::<Command>() {
            Ok(cmd) => self.command(cmd),
            Err(super::ParseError::Unknown(t)) => self.say(&format!("UNKNOWN {t}")),
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn block_line(&mut self, line: Line) {
        let Some(block) = self.block.as_mut() else {
            return;
        };
        let first = line.text.chars().next().unwrap_or(' ');
        if first.is_ascii_alphabetic() {
            let kind = block.kind;
            let word = command_word(&line.text);
            if word == "END" {
                self.quit = true;
            } else if word == "DONE" {
                let block = self.block.take();
                if let Some(b) = block {
                    self.finish_block(b);
                }
            } else {
                // A command inside a block: the DONE was lost. Drop the block, run the command.
                self.block = None;
                self.error(&format!("{} not terminated by DONE", kind.name()));
                self.execute(line);
            }
            return;
        }
        let n = match block.kind {
            BlockKind::Swap2 | BlockKind::Moves(_) => 2,
            _ => 3,
        };
        match parse_fields(block.kind.name(), &line.text, n) {
            Ok(v) => block.entries.push(v),
            Err(e) => {
                if block.error.is_none() {
                    block.error = Some(e.to_string());
                }
            }
        }
    }

    fn command(&mut self, cmd: Command) {
        match cmd {
            Command::Start(n) => self.start(n, n),
            Command::RectStart(w, h) => self.start(w, h),
            Command::Restart => self.restart(),
            Command::Begin => self.think_on_board("BEGIN", Purpose::Play, 1),
            Command::Turn(c) => {
                if self.place_stone("TURN", c).is_some() {
                    self.think(Purpose::Play, 1);
                }
            }
            Command::Board => self.open_block(BlockKind::Board),
            Command::YxBoard => self.open_block(BlockKind::YxBoard),
            Command::Swap2Board => self.open_block(BlockKind::Swap2),
            Command::Done => self.error("DONE without BOARD"),
            Command::Info { key, value } => self.info(&key, &value),
            Command::End => self.quit = true,
            Command::About => self.say(&about_line()),
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => {
                if let Some(p) = self.place_stone("PLAY", c) {
                    self.say(&p.to_string());
                }
            }
            Command::Suggest => self.think_on_board("SUGGEST", Purpose::Suggest, 1),
            Command::Stop => {} // idle: nothing to stop, nothing to print
            Command::YxShowForbid => {
                let pts = self
                    .board
                    .as_ref()
                    .map(|b| b.forbidden_points())
                    .unwrap_or_default();
                self.say(&forbid_line(&pts));
            }
            Command::YxHashClear => {
                self.engine.clear_hash();
                self.say("MESSAGE hash table cleared");
            }
            Command::Database(c) => self.database(c),
            Command::YxNBest(n) => self.nbest(n),
            Command::Yx(c) => self.yixin(c),
        }
    }

    /// `RESTART`: an empty board of the same size.
    fn restart(&mut self) {
        match &self.board {
            Some(b) => {
                let (w, h) = (b.width(), b.height());
                self.new_board(w, h);
                self.say("OK");
            }
            None => self.error("RESTART: no board yet (send START first)"),
        }
    }

    /// Starts a search for `purpose` if there is a board (`name`: the command, for the error).
    fn think_on_board(&mut self, name: &str, purpose: Purpose, n: usize) {
        if self.board.is_some() {
            self.think(purpose, n);
        } else {
            self.error(&format!("{name}: no board yet (send START first)"));
        }
    }

    /// Plays the side to move's stone at the empty point `c` (`TURN`, `PLAY`); `None`, with the
    /// error said, when the point is not an empty one on the board.
    fn place_stone(&mut self, name: &str, c: Coord) -> Option<Pos> {
        let p = self.empty_point(name, c)?;
        if let Some(b) = self.board.as_mut() {
            b.make_move(p);
        }
        Some(p)
    }

    /// `BOARD`, `YXBOARD`, `SWAP2BOARD`: the following lines are the block's entries.
    fn open_block(&mut self, kind: BlockKind) {
        self.block = Some(Block {
            kind,
            entries: Vec::new(),
            error: None,
        });
    }

    /// `TAKEBACK`: removes the stone at `c`.
    fn takeback(&mut self, c: Coord) {
        let Some(p) = self.on_board_point("TAKEBACK", c) else {
            return;
        };
        let removed = self.board.as_mut().is_some_and(|b| b.remove_stone(p));
        if removed {
            self.say("OK");
        } else {
            self.error(&format!("TAKEBACK: no stone at {c}"));
        }
    }

    /// `YXNBEST n`: the `n` best moves.
    fn nbest(&mut self, n: i64) {
        if self.board.is_none() {
            self.error("YXNBEST: no board yet (send START first)");
        } else if n < 1 {
            self.error(&format!(
                "YXNBEST: number of moves must be at least 1, got {n}"
            ));
        } else {
            self.think(
                Purpose::NBest,
                n.min(MAX_SIZE as i64 * MAX_SIZE as i64) as usize,
            );
        }
    }

    fn start(&mut self, w: i64, h: i64) {
        let ok = |v: i64| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&v);
        if ok(w) && ok(h) {
            self.new_board(w as usize, h as usize);
            self.sync_hash_size();
            self.say("OK");
        } else if w == h {
            self.error(&format!(
                "unsupported board size {w} (supported: {MIN_SIZE}..={MAX_SIZE})"
            ));
        } else {
            self.error(&format!(
                "unsupported board size {w}x{h} (each side {MIN_SIZE}..={MAX_SIZE})"
            ));
        }
    }

    fn new_board(&mut self, w: usize, h: usize) {
        self.clock.unlink();
        match Board::new(w, h, self.rule) {
            Ok(b) => self.board = Some(b),
            Err(e) => log::error!("cannot make a {w}x{h} board: {e}"),
        }
    }

    /// The point `c` if a board exists and `c` lies on it; prints ERROR otherwise.
    fn on_board_point(&mut self, cmd: &str, c: Coord) -> Option<Pos> {
        let Some(b) = self.board.as_ref() else {
            self.error(&format!("{cmd}: no board yet (send START first)"));
            return None;
        };
        let p = to_pos(b, c);
        if p.is_none() {
            let (w, h) = (b.width(), b.height());
            self.error(&format!("{cmd}: {c} is outside the {w}x{h} board"));
        }
        p
    }

    /// Like [`Session::on_board_point`], and the point must be empty.
    fn empty_point(&mut self, cmd: &str, c: Coord) -> Option<Pos> {
        let p = self.on_board_point(cmd, c)?;
        let empty = self.board.as_ref().is_some_and(|b| b.is_empty(p));
        if !empty {
            self.error(&format!("{cmd}: {c} is occupied"));
            return None;
        }
        Some(p)
    }

    fn info(&mut self, key: &str, value: &str) {
        if self.yixin_info(key, value) {
            return;
        }
        if let Some(name) = key.strip_prefix("tune_") {
            self.set_tunable(name, value);
            return;
        }
        if key == "eval_file" {
            self.load_eval_file(value);
            return;
        }
        if key == "net_file" {
            self.load_net_file(value);
            return;
        }
        if self.db_info(key, value) {
            return;
        }
        let s = &mut self.settings;
        let num = parse_i64("INFO", value);
        let Ok(v) = num else {
            if !matches!(key, "folder" | "evaluate") {
                log::debug!("INFO {key}: ignoring value {value:?}");
            }
            return;
        };
        match key {
            "timeout_turn" if v >= 0 => s.timeout_turn_ms = Some(v),
            "timeout_match" if v >= 0 => s.timeout_match_ms = v,
            "time_left" => s.time_left_ms = Some(v),
            "max_memory" if v >= 0 => s.max_memory = v as u64,
            "hash_size" if v >= 0 => s.hash_size_kib = v as u64,
            "game_type" => s.game_type = v,
            "thread_num" => s.threads = v.clamp(1, 256) as usize,
            "max_depth" => s.max_depth = v.clamp(0, u32::MAX as i64) as u32,
            "max_node" => s.max_nodes = v.max(0) as u64,
            "strength" => s.strength = v.clamp(0, 100) as u8,
            "rule" => match Rule::from_info(v) {
                Some(r) => self.set_rule(r),
                None => log::debug!("INFO rule {v}: unknown rule, ignored"),
            },
            _ => log::debug!("INFO {key} {v}: not used"),
        }
        if matches!(
            key,
            "max_memory" | "hash_size" | "thread_num" | "timeout_turn"
        ) {
            self.sync_hash_size();
        }
    }

    /// `INFO tune_<name> <value>`: sets a search tunable in a tuning build, where a bad name
    /// or value gets an ERROR line; other builds ignore the key, as any unused INFO key.
    fn set_tunable(&mut self, name: &str, value: &str) {
        if !search::TUNING {
            log::debug!("INFO tune_{name} {value}: not a tuning build, ignored");
            return;
        }
        if let Err(e) = search::set_tunable(name, value) {
            self.error(&format!("INFO tune_{name}: {e}"));
        }
    }

    /// `INFO eval_file <path>`: makes the learned evaluation tables of a file (written by
    /// `pentad-tools train-eval`) current; `INFO eval_file builtin` goes back to the built-in
    /// ones. A file that cannot be read or parsed gets an ERROR line and the tables in use
    /// stay. The next search uses the new tables.
    fn load_eval_file(&mut self, path: &str) {
        if path.eq_ignore_ascii_case("builtin") {
            eval::tables::set_current(eval::tables::builtin());
        } else if let Err(e) = eval::tables::load_file(std::path::Path::new(path)) {
            self.error(&format!("INFO eval_file: {e:#}"));
        }
    }

    /// `INFO net_file <path>`: puts the network of a file (`trainer/train.py` writes them) in
    /// its rule family's place; `INFO net_file builtin` goes back to the built-in networks.
    /// A file that cannot be read or parsed gets an ERROR line and the networks in use stay.
    /// The next search uses the new network.
    fn load_net_file(&mut self, path: &str) {
        if path.eq_ignore_ascii_case("builtin") {
            crate::net::set_current(crate::net::builtin());
        } else if let Err(e) = crate::net::load_file(std::path::Path::new(path)) {
            self.error(&format!("INFO net_file: {e:#}"));
        }
    }

    /// Gives the transposition table the size the settings ask for, now, while idle (INFO is
    /// queued during a search), so no move pays for the allocation inside its time.
    /// A MESSAGE says when the machine's memory capped the size the settings asked for, or
    /// when the allocation fell back to a smaller table.
    fn sync_hash_size(&mut self) {
        let plan = hash_plan_for_settings(&self.settings);
        if self.engine.is_thinking() || self.engine.hash_bytes() == plan.bytes {
            return;
        }
        self.engine.resize(plan.bytes);
        if plan.capped_by_machine() {
            self.say(&format!(
                "MESSAGE hash table {} MiB, not {} MiB: at most half the machine's memory",
                plan.bytes >> 20,
                plan.asked >> 20
            ));
        }
        match self.engine.table_bytes_now() {
            Some(got) if got < plan.bytes => self.say(&format!(
                "MESSAGE hash table {} MiB: allocating {} MiB failed",
                got >> 20,
                plan.bytes >> 20
            )),
            _ => {}
        }
    }

    /// Changes the rule; the current position is kept (replayed onto a board of the new rule).
    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(old) = self.board.take() {
            self.board = Some(rebuild(&old, rule).unwrap_or(old));
        }
    }

    fn finish_block(&mut self, block: Block) {
        let name = block.kind.name();
        if let Some(e) = block.error {
            self.error(&e);
            return;
        }
        let Some(cur) = self.board.as_ref() else {
            self.error(&format!("{name}: no board yet (send START first)"));
            return;
        };
        let built = match block.kind {
            BlockKind::Swap2 => build_swap2(cur, &block.entries),
            BlockKind::Moves(what) => {
                self.finish_moves_block(what, &block.entries);
                return;
            }
            _ => build_position(cur, &block.entries),
        };
        let board = match built {
            Ok(b) => b,
            Err(e) => {
                self.error(&format!("{name}: {e}"));
                return;
            }
        };
        match block.kind {
            BlockKind::Board => {
                self.board = Some(board);
                self.think(Purpose::Play, 1);
            }
            BlockKind::YxBoard => self.board = Some(board),
            BlockKind::Swap2 => self.decide_swap2(board),
            BlockKind::Moves(_) => {}
        }
    }

    /// Starts the Swap2 decision for `board` on the engine; STOP/YXSTOP end it early.
    fn decide_swap2(&mut self, board: Board) {
        let budget = Swap2Budget::for_settings(&self.settings);
        self.start_task(Purpose::Swap2, board.clone(), false, |engine| {
            engine.go_swap2(board, budget)
        });
    }

    /// Makes `task` the running one and starts it with `go`; if it cannot start, it is
    /// concluded at once with the fallback answer.
    fn start_task(
        &mut self,
        purpose: Purpose,
        board: Board,
        multipv: bool,
        go: impl FnOnce(&mut Engine) -> Result<(), String>,
    ) {
        self.task = Some(Task {
            purpose,
            board,
            multipv,
            lines: Vec::new(),
        });
        if let Err(e) = go(&mut self.engine) {
            log::error!("{e}");
            if let Some(task) = self.task.take() {
                self.conclude(task, Err(e));
                self.start_balance_reply();
            }
        }
    }

    fn think(&mut self, purpose: Purpose, multipv: usize) {
        let Some(board) = self.board.clone() else {
            self.error("no board yet (send START first)");
            return;
        };
        let legal = board.legal_moves().len();
        if legal == 0 {
            if board.empty_count() == 0 {
                self.error("no legal move: the board is full");
            } else {
                self.error("no legal move: every empty point is forbidden for Black");
            }
            return;
        }
        let multipv = multipv.min(legal);
        if purpose == Purpose::Play {
            let left = time_control_for(&self.settings).game_left_ms();
            self.settings.latency = self.clock.search_started(left);
        } else {
            self.clock.unlink();
        }
        let mut limits = limits_for(&self.settings, &board);
        limits.multipv = multipv;
        limits.excluded = self.exclusions();
        let live = self.wants_live();
        self.sync_hash_size();
        self.start_task(purpose, board.clone(), multipv > 1, |engine| {
            if live {
                engine.go_live(board, limits)
            } else {
                engine.go(board, limits)
            }
        });
    }

    /// Prints the answer of a finished search (with a fallback when there is none).
    fn conclude(&mut self, task: Task, outcome: Result<Answer, String>) {
        if task.purpose == Purpose::Ponder {
            return;
        }
        if let Purpose::YxSwap2(step) = task.purpose {
            let reply = match outcome {
                Ok(Answer::Swap2(reply)) => reply,
                _ => static_reply(&task.board),
            };
            self.say_swap2_step(step, reply);
            return;
        }
        if let Purpose::Soosorv(step) = task.purpose {
            let reply = match outcome {
                Ok(Answer::Soosorv(reply)) => reply,
                other => {
                    log::warn!("no Soosorv decision: {other:?}");
                    None
                }
            };
            self.say_soosorv(step, reply);
            return;
        }
        if task.purpose == Purpose::Swap2 {
            let reply = match outcome {
                Ok(Answer::Swap2(reply)) => reply,
                other => {
                    log::warn!("no Swap2 decision ({other:?}); using the static choice");
                    static_reply(&task.board)
                }
            };
            self.conclude_swap2(task.board, reply);
            return;
        }
        let result = match outcome {
            Ok(Answer::Move(r)) => Ok(r),
            Ok(other) => Err(format!("not a move: {other:?}")),
            Err(e) => Err(e),
        };
        self.conclude_move(task, result);
    }

    /// Prints the Swap2 decision and sets up its position: the stones given, plus our move
    /// when we chose to play one with 3 or 5 stones.
    fn conclude_swap2(&mut self, mut board: Board, reply: Option<Swap2Reply>) {
        let Some(reply) = reply else {
            self.error("SWAP2BOARD: no answer for this position");
            return;
        };
        if let Swap2Reply::Moves(ms) = &reply {
            if board.stone_count() > 0 && ms.len() == 1 {
                board.make_move(ms[0]);
            }
        }
        self.board = Some(board);
        self.say(&swap2_line(&reply));
    }

    /// Prints the move of a finished search (falling back to a simple legal move).
    fn conclude_move(&mut self, task: Task, outcome: Result<SearchResult, String>) {
        let best = match outcome {
            Ok(r) if task.board.is_legal(r.best) => r.best,
            Ok(r) => {
                log::warn!(
                    "search returned an illegal move {:?}; using a simple move",
                    r.best
                );
                pick_simple_move(&task.board)
            }
            Err(e) => {
                log::warn!("{e}; using a simple move");
                pick_simple_move(&task.board)
            }
        };
        if !task.board.is_legal(best) {
            self.error("no legal move found");
            return;
        }
        match task.purpose {
            Purpose::Play => {
                let mut b = task.board;
                b.make_move(best);
                self.board = Some(b);
                self.say(&best.to_string());
                self.clock.answered();
                self.ponder_after_answer();
            }
            Purpose::Suggest => self.say(&format!("SUGGEST {best}")),
            Purpose::NBest => self.say(&best.to_string()),
            Purpose::Defend => self.conclude_defend(&task, best),
            Purpose::Balance { .. } => self.conclude_balance(task, best),
            Purpose::Swap2 | Purpose::YxSwap2(_) | Purpose::Soosorv(_) | Purpose::Ponder => {
                log::error!("an opening or ponder task concluded as a move search")
            }
        }
    }
}

mod database;
mod position;
mod soosorv;
#[cfg(test)]
mod tests;
mod yixin;
