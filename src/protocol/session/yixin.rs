//! Yixin-Board in the session: its settings (`INFO show_detail`, `pondering`, …),
//! `YXSHOWINFO`, live analysis output, block lists, `YXSEARCHDEFEND`, `YXBALANCE…`, hash
//! files, draw and resign answers, Swap2 steps, and pondering. (The database commands live
//! elsewhere.)

use std::io::Write;

use super::{Purpose, Session, Task};
use crate::board::Board;
use crate::core::Pos;
use crate::engine::swap2::Swap2Reply;
use crate::protocol::dbcommand;
use crate::protocol::live::{
    iteration_lines, pv_info_lines, root_event_lines, SHOW_PV_INFO, SHOW_REALTIME,
};
use crate::protocol::parse::parse_i64;
use crate::protocol::yxcommand::{HashFile, MovesFor, YxCommand};
use crate::search::memory::hash_bytes_for;
use crate::search::{Exclusions, RootEvent, SearchLimits, SearchReport, MATE_BOUND};

/// Most threads `INFO thread_num` takes (more are clamped), as `YXSHOWINFO` reports it.
pub const MAX_THREADS: usize = 256;
/// Lines a balance search compares (the most promising moves).
pub const BALANCE_LINES: usize = 24;

/// What Yixin-Board set up in the session.
#[derive(Debug, Default)]
pub(super) struct YixinState {
    /// `INFO show_detail` bits ([`SHOW_REALTIME`], [`SHOW_PV_INFO`]); 0 = plain output.
    pub show_detail: i64,
    /// Root moves excluded (`YXBLOCK`).
    pub blocked: Vec<Pos>,
    /// Moves excluded in given positions (`YXBLOCKPATH`): (position hash, move).
    pub blocked_paths: Vec<(u64, Pos)>,
    /// `YXHASHDUMP` / `YXHASHLOAD` sent without a path: the next line is the path.
    pub pending_hash_file: Option<HashFile>,
    /// The reply search `YXBALANCETWO` asked for, started once our search is joined.
    pub balance_reply: Option<BalanceReply>,
    /// STOP / YXSTOP arrived since the running `YXBALANCETWO` began.
    pub stop_requested: bool,
    /// With `INFO pondering 1`, after our move: the position hash to ponder on once the
    /// session is idle (no search, nothing queued, no block being read) on that position.
    pub ponder_on: Option<u64>,
}

/// The opponent's reply of `YXBALANCETWO`. It starts only after our search has been joined
/// (the session answers first, then joins), since one search runs at a time.
pub(super) struct BalanceReply {
    /// The position after our move.
    board: Box<Board>,
    purpose: Purpose,
    /// When the person stopped our search, the depth it completed: the reply goes no
    /// deeper, so that one Stop ends both (the GUI sends no second one).
    max_depth: Option<u32>,
}

impl std::fmt::Debug for BalanceReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BalanceReply {{ max_depth: {:?} }}", self.max_depth)
    }
}

impl<W: Write> Session<W> {
    /// Yixin-Board's `INFO` keys; false for a key that is not one of them.
    pub(super) fn yixin_info(&mut self, key: &str, value: &str) -> bool {
        let num = parse_i64("INFO", value);
        match key {
            "show_detail" => match num {
                Ok(v) if (0..=3).contains(&v) => self.yx.show_detail = v,
                _ => log::debug!("INFO show_detail {value:?}: not 0..=3, ignored"),
            },
            "pondering" => self.settings.pondering = num == Ok(1),
            // Accepted and not needed: the time increment arrives through time_left, the
            // candidate range and threat-solver threads are the engine's own choice, and
            // symmetric n-best, start depth and split depth have no counterpart here.
            "time_increment" | "caution_factor" | "vcthread" | "nbestsym" | "start_depth"
            | "checkmate" | "thread_split_depth" | "swapable" | "max_moves" | "draw_result" => {
                log::debug!("INFO {key} {value}: accepted, not used")
            }
            _ => return false,
        }
        true
    }

    /// Runs one Yixin-Board command.
    pub(super) fn yixin(&mut self, cmd: YxCommand) {
        match cmd {
            YxCommand::ShowInfo => self.show_info(),
            YxCommand::Moves(what) => self.start_moves_block(what),
            YxCommand::BlockReset => self.yx.blocked.clear(),
            YxCommand::BlockPathReset => self.yx.blocked_paths.clear(),
            YxCommand::SearchDefend => self.think(Purpose::Defend, usize::MAX),
            YxCommand::Balance { two, bias } => {
                self.yx.stop_requested = false;
                let bias = bias.clamp(-i64::from(MATE_BOUND), i64::from(MATE_BOUND)) as i32;
                self.think(
                    Purpose::Balance {
                        two,
                        bias,
                        first: None,
                    },
                    BALANCE_LINES,
                )
            }
            YxCommand::ShowHashUsage => {
                let p = self.engine.hash_usage_permille();
                self.say(&format!("MESSAGE hash usage {}.{}%", p / 10, p % 10));
            }
            YxCommand::Hash(kind, Some(path)) => self.hash_file(kind, &path),
            YxCommand::Hash(kind, None) => self.yx.pending_hash_file = Some(kind),
            YxCommand::Draw => self.say("MESSAGE draw offer declined"),
            YxCommand::Resign => self.say("MESSAGE resignation accepted"),
            YxCommand::Swap2Step(step) => self.swap2_step(step),
            YxCommand::SoosorvStep1 => self.soosorv_step(1, None, Vec::new()),
        }
    }

    /// `YXSHOWINFO`: the most threads and the largest hash (as log2 of KiB, how the GUI
    /// reads it) the engine takes.
    fn show_info(&mut self) {
        let s = &self.settings;
        let biggest = hash_bytes_for(s.max_memory, None, s.threads) as u64;
        let log2_kib = 63 - (biggest / 1024).max(1).leading_zeros();
        self.say(&format!("MESSAGE INFO MAX_THREAD_NUM {MAX_THREADS}"));
        self.say(&format!("MESSAGE INFO MAX_HASH_SIZE {log2_kib}"));
    }

    /// The exclusions of the next search.
    pub(super) fn exclusions(&self) -> Exclusions {
        Exclusions {
            root: self.yx.blocked.clone(),
            at: self.yx.blocked_paths.clone(),
        }
    }

    /// True when root events should be sent (the GUI asked for REALTIME lines).
    pub(super) fn wants_live(&self) -> bool {
        self.yx.show_detail & SHOW_REALTIME != 0
    }

    /// The extra lines a search report brings when the GUI asked for them.
    pub(super) fn live_report(&mut self, r: &SearchReport, numpv: usize) {
        if self.yx.show_detail & SHOW_PV_INFO != 0 {
            for l in pv_info_lines(r, numpv) {
                self.say(&l);
            }
        }
        if self.wants_live() && r.multipv <= 1 {
            for l in iteration_lines(r) {
                self.say(&l);
            }
        }
    }

    /// The REALTIME lines of a root event.
    pub(super) fn live_root(&mut self, ev: RootEvent) {
        if self.wants_live() && self.is_thinking() {
            for l in root_event_lines(ev) {
                self.say(&l);
            }
        }
    }

    /// The line after `YXHASHDUMP` / `YXHASHLOAD`, when one is awaited: the path. True when
    /// the line was taken.
    pub(super) fn take_hash_path(&mut self, text: &str) -> bool {
        match self.yx.pending_hash_file.take() {
            Some(kind) => {
                self.hash_file(kind, text);
                true
            }
            None => false,
        }
    }

    /// Writes or reads the transposition table; a bad path or file is an ERROR and changes
    /// nothing.
    fn hash_file(&mut self, kind: HashFile, path: &str) {
        let path = path.trim().trim_matches('"');
        let outcome = match kind {
            HashFile::Dump => std::fs::File::create(path)
                .map_err(|e| e.to_string())
                .and_then(|f| {
                    let mut w = std::io::BufWriter::new(f);
                    self.engine
                        .with_searcher(|s| s.dump_hash(&mut w))
                        .map_err(|e| e.to_string())
                }),
            HashFile::Load => std::fs::File::open(path)
                .map_err(|e| e.to_string())
                .and_then(|f| {
                    let mut r = std::io::BufReader::new(f);
                    self.engine.with_searcher(|s| s.load_hash(&mut r))
                }),
        };
        let (cmd, done) = match kind {
            HashFile::Dump => ("YXHASHDUMP", "written to"),
            HashFile::Load => ("YXHASHLOAD", "loaded from"),
        };
        match outcome {
            Ok(()) => self.say(&format!("MESSAGE hash table {done} {path}")),
            Err(e) => self.error(&format!("{cmd}: {path}: {e}")),
        }
    }

    /// A command whose `x,y` lines follow: collect them until DONE.
    fn start_moves_block(&mut self, what: MovesFor) {
        self.block = Some(super::Block {
            kind: super::BlockKind::Moves(what),
            entries: Vec::new(),
            error: None,
        });
    }

    /// The `x,y` lines of a block, checked against the current board.
    pub(super) fn finish_moves_block(&mut self, what: MovesFor, entries: &[Vec<i64>]) {
        let Some(cur) = self.board.as_ref() else {
            self.error("no board yet (send START first)");
            return;
        };
        let pts = match super::check_points(cur, entries) {
            Ok(p) => p,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        match what {
            MovesFor::Block => {
                for p in pts {
                    if !self.yx.blocked.contains(&p) {
                        self.yx.blocked.push(p);
                    }
                }
            }
            MovesFor::BlockUndo => self.yx.blocked.retain(|p| !pts.contains(p)),
            MovesFor::BlockPath | MovesFor::BlockPathUndo => {
                let Some(entry) = path_exclusion(cur, &pts) else {
                    self.error("YXBLOCKPATH: expected a sequence of moves");
                    return;
                };
                let list = &mut self.yx.blocked_paths;
                if what == MovesFor::BlockPath {
                    if !list.contains(&entry) {
                        list.push(entry);
                    }
                } else {
                    list.retain(|e| *e != entry);
                }
            }
            MovesFor::Soosorv(step, n) => self.soosorv_step(step, n, pts),
        }
    }

    /// `YXSWAP2STEP1..3`: the Swap2 decision on the current position, answered with the
    /// `MESSAGE SWAP2 …` lines the GUI parses.
    fn swap2_step(&mut self, step: u8) {
        let Some(cur) = self.board.as_ref() else {
            self.error("no board yet (send START first)");
            return;
        };
        if step == 1 {
            // A new game: the stones of the last one (the GUI sends no START) do not count.
            match Board::new(cur.width(), cur.height(), cur.rule()) {
                Ok(empty) => self.start_opening_task(Purpose::YxSwap2(1), empty),
                Err(e) => self.error(&format!("YXSWAP2STEP1: {e}")),
            }
            return;
        }
        let want = usize::from(step) * 2 - 1;
        if cur.stone_count() != want {
            let have = cur.stone_count();
            self.error(&format!(
                "YXSWAP2STEP{step}: needs {want} stones on the board, found {have}"
            ));
            return;
        }
        let entries: Vec<Vec<i64>> = cur
            .history()
            .map(|(p, _)| vec![p.x() as i64, p.y() as i64])
            .collect();
        match super::build_swap2(cur, &entries) {
            Ok(board) => self.start_opening_task(Purpose::YxSwap2(step), board),
            Err(e) => self.error(&format!("YXSWAP2STEP{step}: {e}")),
        }
    }

    /// Starts a Swap2 decision whose answer goes out as `purpose` says.
    fn start_opening_task(&mut self, purpose: Purpose, board: Board) {
        let budget = crate::engine::swap2::Swap2Budget::for_settings(&self.settings);
        self.start_task(purpose, board.clone(), false, |engine| {
            engine.go_swap2(board, budget)
        });
    }

    /// The `MESSAGE SWAP2 …` lines of a Swap2 decision at `step`.
    pub(super) fn say_swap2_step(&mut self, step: u8, reply: Option<Swap2Reply>) {
        let lines: Vec<String> = match (step, reply) {
            (_, None) => {
                self.error(&format!("YXSWAP2STEP{step}: no answer for this position"));
                return;
            }
            (1, Some(Swap2Reply::Moves(ms))) => moves_lines("SWAP2", 1, &ms),
            (2, Some(Swap2Reply::Swap)) => vec!["MESSAGE SWAP2 SWAP1 YES".into()],
            (2, Some(Swap2Reply::Moves(ms))) if ms.len() == 2 => moves_lines("SWAP2", 4, &ms),
            (2, Some(Swap2Reply::Moves(_))) => vec!["MESSAGE SWAP2 SWAP1 NO".into()],
            (_, Some(Swap2Reply::Swap)) => vec!["MESSAGE SWAP2 SWAP2 YES".into()],
            (_, Some(Swap2Reply::Moves(_))) => vec!["MESSAGE SWAP2 SWAP2 NO".into()],
        };
        for l in lines {
            self.say(&l);
        }
    }

    /// STOP / YXSTOP while a search runs: stop it (and remember it for a balance reply).
    pub(super) fn stop_search(&mut self) {
        self.yx.stop_requested = true;
        self.engine.stop();
    }

    /// After our move is answered: ponder on the position once the session is idle (the
    /// GUI's database queries sent during the search run first).
    pub(super) fn ponder_after_answer(&mut self) {
        self.yx.ponder_on = self
            .board
            .as_ref()
            .filter(|_| self.settings.pondering)
            .map(Board::hash);
    }

    /// Starts the `YXBALANCETWO` reply search, if one is due (call once the answered search
    /// has been joined).
    pub(super) fn start_balance_reply(&mut self) {
        let Some(reply) = self.yx.balance_reply.take() else {
            return;
        };
        let saved_board = self.board.replace(*reply.board);
        let saved_depth = self.settings.max_depth;
        if let Some(d) = reply.max_depth {
            self.settings.max_depth = match saved_depth {
                0 => d,
                set => set.min(d),
            };
        }
        self.think(reply.purpose, BALANCE_LINES);
        self.settings.max_depth = saved_depth;
        self.board = saved_board;
    }

    /// Starts the ponder search due after our move once the session is idle on that
    /// position; a search started meanwhile cancels it.
    pub(super) fn ponder_if_idle(&mut self) {
        let Some(after_move) = self.yx.ponder_on else {
            return;
        };
        if self.task.is_some() {
            self.yx.ponder_on = None;
            return;
        }
        if !self.queue.is_empty() || self.block.is_some() || self.db.is_collecting() {
            return;
        }
        self.yx.ponder_on = None;
        if self.board.as_ref().map(Board::hash) == Some(after_move) {
            self.start_pondering();
        }
    }

    /// With `INFO pondering 1`, after our move: think on the opponent's time (silently,
    /// without limits) until the next command; the table keeps the work.
    fn start_pondering(&mut self) {
        if !self.settings.pondering || !self.queue.is_empty() || self.input_closed {
            return;
        }
        let Some(board) = self.board.clone() else {
            return;
        };
        if board.legal_moves().is_empty() {
            return;
        }
        let limits = SearchLimits {
            threads: self.settings.threads.max(1),
            ..SearchLimits::default()
        };
        self.start_task(Purpose::Ponder, board.clone(), false, |engine| {
            engine.go(board, limits)
        });
    }

    /// Input while pondering: INFO is applied at once (Piskvork sends `INFO time_left`
    /// before `TURN`), and so are database commands (Yixin-Board queries the position after
    /// every move; they do not touch the search); anything else stops the ponder search and
    /// waits for it to end.
    pub(super) fn input_while_pondering(&mut self, line: super::Line) {
        let word = crate::protocol::command_word(&line.text);
        let whole = !line.truncated && self.block.is_none();
        let database = self.db.is_collecting() || dbcommand::parse(&word, "").is_some();
        if word == "END" {
            self.quit = true;
        } else if whole && (word == "INFO" || (database && self.queue.is_empty())) {
            self.execute(line);
        } else {
            self.engine.stop();
            if !matches!(word.as_str(), "STOP" | "YXSTOP") {
                self.queue.push_back(line);
            }
        }
    }

    /// The answer of a balance search: the move whose line scores closest to the target.
    /// For `YXBALANCETWO` the first move is ours (a line scoring at most the target, so that
    /// a reply can bring it there), then the opponent's reply is searched the same way.
    pub(super) fn conclude_balance(&mut self, task: Task, best: Pos) {
        let Purpose::Balance { two, bias, first } = task.purpose else {
            return;
        };
        let lines = &task.lines;
        let pick = |want_at_most: bool, target: i32| {
            lines
                .iter()
                .filter(|r| !want_at_most || r.score <= target)
                .min_by_key(|r| (r.score - target).abs())
                .and_then(|r| r.pv.first().copied())
        };
        match (two, first) {
            (false, None) => {
                let mv = pick(false, bias).unwrap_or(best);
                self.say(&mv.to_string());
            }
            (true, None) => {
                let mv = pick(true, bias)
                    .or_else(|| pick(false, bias))
                    .unwrap_or(best);
                let mut board = task.board;
                board.make_move(mv);
                // The reply is the opponent's: the target from their side is -bias.
                let purpose = Purpose::Balance {
                    two,
                    bias: -bias,
                    first: Some(mv),
                };
                let stopped = std::mem::take(&mut self.yx.stop_requested);
                let completed = lines.iter().map(|r| r.depth).filter(|&d| d > 0).min();
                self.yx.balance_reply = Some(BalanceReply {
                    board: Box::new(board),
                    purpose,
                    max_depth: stopped.then(|| completed.unwrap_or(1)),
                });
            }
            (_, Some(m1)) => {
                let m2 = pick(false, bias).unwrap_or(best);
                self.say(&format!("{m1} {m2}"));
            }
        }
    }

    /// The answer of `YXSEARCHDEFEND`: a MESSAGE naming every move not proven lost (the
    /// GUI has already marked each line's win rate), then the best move.
    pub(super) fn conclude_defend(&mut self, task: &Task, best: Pos) {
        let holding: Vec<String> = task
            .lines
            .iter()
            .filter(|r| r.score > -MATE_BOUND)
            .filter_map(|r| r.pv.first().map(|p| p.to_string()))
            .collect();
        self.say(&format!("MESSAGE DEFEND {}", holding.join(" ")));
        self.say(&best.to_string());
    }

    /// Keeps the latest report of each line (for balance and defence answers).
    pub(super) fn keep_line(&mut self, r: &SearchReport) {
        if let Some(task) = self.task.as_mut() {
            let i = r.multipv.max(1) - 1;
            if task.lines.len() <= i {
                task.lines.resize(i + 1, SearchReport::default());
            }
            task.lines[i] = r.clone();
        }
    }
}

/// `MESSAGE <RULE> MOVE<k> x y` for each move, `k` counting from `first`.
pub(super) fn moves_lines(rule: &str, first: usize, ms: &[Pos]) -> Vec<String> {
    ms.iter()
        .enumerate()
        .map(|(i, p)| format!("MESSAGE {rule} MOVE{} {} {}", first + i, p.x(), p.y()))
        .collect()
}

/// The exclusion a block path stands for: its last move, in the position its other moves
/// (played alternately from the empty board) make. `None` for an empty path.
fn path_exclusion(cur: &Board, pts: &[Pos]) -> Option<(u64, Pos)> {
    let (&last, before) = pts.split_last()?;
    let mut b = Board::new(cur.width(), cur.height(), cur.rule()).ok()?;
    for &p in before {
        if !b.is_empty(p) {
            return None;
        }
        b.make_move(p);
    }
    Some((b.hash(), last))
}
