//! The referee: plays one game between two engine processes under the library's own rules
//! (five per rule, renju fouls, illegal answers, time, crashes, draws).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::engine::{Engine, EngineError, EngineSpec};
use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};

/// Time control; 0 means "no limit" for either part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Time for the whole game per side, ms (`INFO timeout_match`).
    pub match_ms: u64,
    /// Time per move, ms (`INFO timeout_turn`; not sent when 0).
    pub turn_ms: u64,
}

impl TimeControl {
    /// Parses `MATCH/TURN` in seconds (floats), or a lone `TURN`. `MATCH` 0 means no game limit.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let secs = |t: &str| -> Result<u64, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("bad time {t:?} in --tc"))?;
            if !(0.0..=1e7).contains(&v) {
                return Err(format!("time {t:?} out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let tc = match s.split_once('/') {
            Some((m, t)) => TimeControl {
                match_ms: secs(m)?,
                turn_ms: secs(t)?,
            },
            None => TimeControl {
                match_ms: 0,
                turn_ms: secs(s)?,
            },
        };
        if tc.match_ms == 0 && tc.turn_ms == 0 {
            return Err("--tc needs a game or a move time limit".into());
        }
        Ok(tc)
    }
}

/// Everything a game needs besides the engines and the opening.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub tc: TimeControl,
    /// Extra time allowed past a limit before the game is lost on time, ms.
    pub tolerance_ms: u64,
    /// c-gomoku-cli's rules: the game clock has no tolerance at all (an answer that leaves it
    /// below zero loses), and a move may overrun its turn limit by
    /// `min(tolerance / 2, 1000)` ms only.
    pub strict_clock: bool,
    /// Adjudicate a draw once this many stones (opening included) are on the board.
    pub draw_after: Option<usize>,
    /// `INFO max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// `INFO thread_num`, if set.
    pub threads: Option<u32>,
    /// How long an engine may take to answer `START`, ms.
    pub startup_ms: u64,
    /// Log engine I/O and pass engine stderr through.
    pub debug: bool,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            width: 15,
            height: 15,
            rule: Rule::FREESTYLE,
            tc: TimeControl {
                match_ms: 0,
                turn_ms: 1000,
            },
            tolerance_ms: 1000,
            strict_clock: false,
            draw_after: None,
            max_memory: 350 * 1024 * 1024,
            threads: None,
            startup_ms: 10_000,
            debug: false,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// A winning five (per the rule).
    Five,
    /// Black played a renju forbidden point.
    Foul,
    /// An occupied, off-board or unparsable answer.
    Illegal,
    /// Past the time limit plus tolerance.
    Time,
    /// The engine exited, closed its pipes, failed to start or refused `START`.
    Crash,
    /// Full board or `--draw-after`.
    Draw,
}

impl Reason {
    /// All reasons, in display order.
    pub const ALL: [Reason; 6] = [
        Reason::Five,
        Reason::Foul,
        Reason::Illegal,
        Reason::Time,
        Reason::Crash,
        Reason::Draw,
    ];

    /// The lower-case name used in JSON (`five`, `foul`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Foul => "foul",
            Reason::Illegal => "illegal",
            Reason::Time => "time",
            Reason::Crash => "crash",
            Reason::Draw => "draw",
        }
    }

    /// True for endings caused by a misbehaving engine (illegal, time, crash).
    pub fn is_abnormal(self) -> bool {
        matches!(self, Reason::Illegal | Reason::Time | Reason::Crash)
    }
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
    /// A human-readable explanation, e.g. `Black wins by five`.
    pub detail: String,
    /// All stones in play order, opening included (a foul move is included; an illegal
    /// answer is not).
    pub moves: Vec<Pos>,
    /// How many of `moves` came from the opening.
    pub opening_plies: usize,
    /// Thinking time of each engine move (`moves[opening_plies..]`), ms.
    pub times_ms: Vec<u64>,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Most ms a move may take before it is lost on time, with `time_left_ms` on the mover's game
/// clock: min(turn, time left) plus the tolerance; under [`GameConfig::strict_clock`], the
/// turn limit plus `min(tolerance / 2, 1000)` and the time left exactly.
pub fn allowed_ms(cfg: &GameConfig, time_left_ms: i64) -> u64 {
    let left = time_left_ms.max(0) as u64;
    if cfg.strict_clock {
        let mut allowed = NO_LIMIT_MS;
        if cfg.tc.turn_ms > 0 {
            allowed = cfg.tc.turn_ms + (cfg.tolerance_ms / 2).min(STRICT_TURN_OVERRUN_CAP_MS);
        }
        if cfg.tc.match_ms > 0 {
            allowed = allowed.min(left);
        }
        return allowed;
    }
    let mut limit = NO_LIMIT_MS;
    if cfg.tc.turn_ms > 0 {
        limit = limit.min(cfg.tc.turn_ms);
    }
    if cfg.tc.match_ms > 0 {
        limit = limit.min(left);
    }
    limit + cfg.tolerance_ms
}

/// c-gomoku-cli's cap on a move's overrun of its turn limit (ms).
pub const STRICT_TURN_OVERRUN_CAP_MS: u64 = 1000;

/// An engine's process slot in one worker thread: spawned on demand, reused between games,
/// replaced after the engine misbehaved.
pub struct EngineSlot {
    pub spec: EngineSpec,
    /// Name used in logs.
    pub label: String,
    engine: Option<Engine>,
}

impl EngineSlot {
    /// A slot with no process yet.
    pub fn new(spec: EngineSpec, label: &str) -> EngineSlot {
        EngineSlot {
            spec,
            label: label.to_string(),
            engine: None,
        }
    }

    fn get(&mut self, debug: bool) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            self.engine = Some(Engine::spawn(&self.spec, &self.label, debug)?);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| EngineError::Spawn("no process".into()))
    }

    /// Kills the process (after misbehaviour); the next game starts a fresh one.
    pub fn discard(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill();
        }
    }

    /// Ends the process politely (`END`, then a kill after a grace period).
    pub fn close(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit(Duration::from_millis(1000));
        }
    }

    /// True when a process is running in this slot.
    pub fn is_running(&self) -> bool {
        self.engine.is_some()
    }
}

struct Loss {
    reason: Reason,
    detail: String,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Further `START`s sent to an engine that refused one. An engine may still be finishing its
/// last search when the next game starts (Rapfi drops commands while it thinks, then reads
/// the size as a command of its own); a refusal that persists still loses the game.
const START_RETRIES: u32 = 2;
/// The pause before sending `START` again.
const START_RETRY_PAUSE: Duration = Duration::from_millis(200);

fn start_engine(slot: &mut EngineSlot, cfg: &GameConfig) -> Result<(), Loss> {
    let crash = |e: EngineError| Loss {
        reason: if matches!(e, EngineError::Timeout { .. }) {
            Reason::Time
        } else {
            Reason::Crash
        },
        detail: format!("START failed: {e}"),
    };
    let threads = slot.spec.threads.or(cfg.threads);
    let options = slot.spec.options.clone();
    let label = slot.label.clone();
    let eng = slot.get(cfg.debug).map_err(crash)?;
    let start = if cfg.width == cfg.height {
        format!("START {}", cfg.width)
    } else {
        format!("RECTSTART {},{}", cfg.width, cfg.height)
    };
    let mut tries = 0;
    loop {
        eng.drain();
        eng.send(&start).map_err(crash)?;
        let answer = eng
            .recv(Instant::now() + Duration::from_millis(cfg.startup_ms))
            .map_err(crash)?;
        if answer.to_ascii_uppercase().starts_with("OK") {
            break;
        }
        tries += 1;
        if tries > START_RETRIES {
            return Err(Loss {
                reason: Reason::Crash,
                detail: format!("refused {start} {tries} times: {answer:?}"),
            });
        }
        log::warn!("{label}: refused {start} ({answer:?}); trying again");
        std::thread::sleep(START_RETRY_PAUSE);
    }
    let mut infos = Vec::new();
    if cfg.tc.turn_ms > 0 {
        infos.push(format!("INFO timeout_turn {}", cfg.tc.turn_ms));
    }
    infos.push(format!("INFO timeout_match {}", cfg.tc.match_ms));
    infos.push(format!("INFO max_memory {}", cfg.max_memory));
    infos.push("INFO game_type 1".to_string());
    infos.push(format!("INFO rule {}", cfg.rule.to_info()));
    if let Some(t) = threads {
        infos.push(format!("INFO thread_num {t}"));
    }
    infos.extend(options.iter().map(|(k, v)| format!("INFO {k} {v}")));
    for line in infos {
        eng.send(&line).map_err(crash)?;
    }
    Ok(())
}

/// Parses an `x,y` move answer.
pub fn parse_move(line: &str) -> Option<(u32, u32)> {
    let (x, y) = line.trim().split_once(',')?;
    let (x, y) = (x.trim(), y.trim());
    if x.is_empty() || y.is_empty() || !(x.bytes().chain(y.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// Far enough away to mean "no deadline".
const NO_LIMIT_MS: u64 = 7 * 24 * 3600 * 1000;

/// Plays one game from `opening` (points in play order, Black first). `slots[0]` plays Black,
/// `slots[1]` White. An engine that misbehaves loses and its process is killed (the slot
/// spawns a fresh one for the next game); well-behaved processes stay up for reuse.
pub fn play_game(slots: [&mut EngineSlot; 2], opening: &[Pos], cfg: &GameConfig) -> GameResult {
    let [black, white] = slots;
    let mut slots = [black, white];
    let mut game = match Game::new(cfg, opening) {
        Ok(g) => g,
        Err(e) => return Game::no_game(e),
    };
    for c in Color::BOTH {
        if let Err(loss) = start_engine(slots[c.index()], cfg) {
            let detail = format!(
                "{} wins: {} {}",
                side_name(c.opp()),
                side_name(c),
                loss.detail
            );
            return game.end(&mut slots, Some(c), Some(c.opp()), loss.reason, detail);
        }
    }
    let mut time_left = [cfg.tc.match_ms as i64; 2];
    let mut first_request = [true; 2];
    loop {
        if let Some(detail) = game.drawn(cfg) {
            return game.end(&mut slots, None, None, Reason::Draw, detail);
        }
        let side = game.board.side_to_move();
        let si = side.index();
        let allowed_ms = allowed_ms(cfg, time_left[si]);
        let request = game.request(cfg, time_left[si], first_request[si]);
        first_request[si] = false;
        let t0 = Instant::now();
        let answer = ask(
            slots[si],
            cfg,
            &request,
            t0 + Duration::from_millis(allowed_ms),
        );
        let elapsed = t0.elapsed();
        let p = match game.judge(answer, elapsed, allowed_ms) {
            Ok(p) => p,
            Err((reason, what)) => {
                let detail = format!("{} wins: {what}", side_name(side.opp()));
                return game.end(&mut slots, Some(side), Some(side.opp()), reason, detail);
            }
        };
        let elapsed_ms = elapsed.as_millis() as u64;
        if cfg.tc.match_ms > 0 {
            time_left[si] -= elapsed_ms as i64;
        }
        game.times_ms.push(elapsed_ms);
        if let Some((winner, reason, detail)) = game.play(p, cfg) {
            // A foul loses the game; the engine's process is fine.
            return game.end(&mut slots, None, Some(winner), reason, detail);
        }
    }
}

/// Sends `request` to the slot's engine (starting its process if need be) and waits for its
/// move until `deadline`.
fn ask(
    slot: &mut EngineSlot,
    cfg: &GameConfig,
    request: &[String],
    deadline: Instant,
) -> Result<String, EngineError> {
    let eng = slot.get(cfg.debug)?;
    eng.drain();
    for line in request {
        eng.send(line)?;
    }
    eng.recv_move(deadline)
}

/// One game in progress: the board, the stones in play order and each engine move's time.
struct Game {
    board: Board,
    moves: Vec<Pos>,
    opening_plies: usize,
    times_ms: Vec<u64>,
}

impl Game {
    /// The game after `opening`'s points that are on the board and empty, in order.
    fn new(cfg: &GameConfig, opening: &[Pos]) -> Result<Game, String> {
        let mut board = Board::new(cfg.width, cfg.height, cfg.rule).map_err(|e| e.to_string())?;
        let mut moves: Vec<Pos> = Vec::new();
        for &p in opening {
            if board.contains(p.x() as i32, p.y() as i32) && board.is_empty(p) {
                board.make_move(p);
                moves.push(p);
            }
        }
        Ok(Game {
            board,
            opening_plies: moves.len(),
            moves,
            times_ms: Vec::new(),
        })
    }

    /// The result of a game that could not be set up.
    fn no_game(why: String) -> GameResult {
        GameResult {
            winner: None,
            reason: Reason::Draw,
            detail: format!("no game: {why}"),
            moves: Vec::new(),
            opening_plies: 0,
            times_ms: Vec::new(),
        }
    }

    /// Ends the game; the process of `loser`, an engine that misbehaved, is killed.
    fn end(
        self,
        slots: &mut [&mut EngineSlot; 2],
        loser: Option<Color>,
        winner: Option<Color>,
        reason: Reason,
        detail: String,
    ) -> GameResult {
        if let Some(l) = loser {
            slots[l.index()].discard();
        }
        GameResult {
            winner,
            reason,
            detail,
            moves: self.moves,
            opening_plies: self.opening_plies,
            times_ms: self.times_ms,
        }
    }

    /// A draw's detail when the game ends before the side to move is asked: no legal move
    /// left, or the adjudication's stone count reached.
    fn drawn(&self, cfg: &GameConfig) -> Option<String> {
        if let Some(detail) = no_move_left(&self.board) {
            return Some(detail.into());
        }
        cfg.draw_after
            .filter(|&n| self.board.stone_count() >= n)
            .map(|n| format!("Draw after {n} moves"))
    }

    /// The lines that ask the side to move for its move, `time_left` on its clock: the clock,
    /// then the whole board on its `first` request (`BEGIN` on an empty one), else the last
    /// move.
    fn request(&self, cfg: &GameConfig, time_left: i64, first: bool) -> Vec<String> {
        let clock = if cfg.tc.match_ms > 0 {
            time_left
        } else {
            pentad::protocol::UNLIMITED_TIME_MS
        };
        let mut request = vec![format!("INFO time_left {clock}")];
        if first {
            if self.board.stone_count() == 0 {
                request.push("BEGIN".into());
            } else {
                let side = self.board.side_to_move();
                request.push("BOARD".into());
                for (p, c) in self.board.history() {
                    request.push(format!("{},{}", p, if c == side { 1 } else { 2 }));
                }
                request.push("DONE".into());
            }
        } else if let Some(last) = self.board.last_move() {
            request.push(format!("TURN {last}"));
        }
        request
    }

    /// The side to move's answer, which took `elapsed` of its `allowed_ms`, as a point to
    /// play, or why it loses (the reason and what happened).
    fn judge(
        &self,
        answer: Result<String, EngineError>,
        elapsed: Duration,
        allowed_ms: u64,
    ) -> Result<Pos, (Reason, String)> {
        let who = side_name(self.board.side_to_move());
        let line = match answer {
            Err(EngineError::Timeout { .. }) => {
                let within = allowed_ms as f64 / 1000.0;
                let what = format!("{who} lost on time (no move within {within:.3} s)");
                return Err((Reason::Time, what));
            }
            Err(e) => return Err((Reason::Crash, format!("{who} crashed ({e})"))),
            Ok(line) => line,
        };
        if elapsed.as_millis() as u64 > allowed_ms {
            let what = format!("{who} lost on time ({:.3} s)", elapsed.as_secs_f64());
            return Err((Reason::Time, what));
        }
        let illegal =
            |why: String| Err((Reason::Illegal, format!("illegal move by {who} ({why})")));
        let Some((x, y)) = parse_move(&line) else {
            return illegal(format!("unparsable answer {line:?}"));
        };
        if !self.board.contains(x as i32, y as i32) {
            return illegal(format!("off the board: {x},{y}"));
        }
        let p = Pos::new(x as usize, y as usize);
        if !self.board.is_empty(p) {
            return illegal(format!("occupied {}", p.to_human()));
        }
        Ok(p)
    }

    /// Plays the side to move's `p`; when that ends the game (a five, or a renju foul), the
    /// winner, the reason and its detail.
    fn play(&mut self, p: Pos, cfg: &GameConfig) -> Option<(Color, Reason, String)> {
        let side = self.board.side_to_move();
        let wins = self.board.is_win_move(p, side);
        let foul =
            !wins && side == Color::Black && cfg.rule.is_renju() && self.board.is_forbidden(p);
        self.board.make_move(p);
        self.moves.push(p);
        if wins {
            let detail = format!("{} wins by five", side_name(side));
            Some((side, Reason::Five, detail))
        } else if foul {
            let detail = format!("White wins: Black foul at {}", p.to_human());
            Some((Color::White, Reason::Foul, detail))
        } else {
            None
        }
    }
}

/// A draw's detail when the side to move has no legal move: the board is full, or (renju)
/// every empty point left is forbidden for Black.
fn no_move_left(board: &Board) -> Option<&'static str> {
    if board.empty_count() == 0 {
        Some("Draw: board full")
    } else if !board.empty_points().any(|p| board.is_legal(p)) {
        Some("Draw: board full for Black (every empty point is forbidden)")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real 224-move renju game (pentad-arena, 2 threads against 1, 0.2 s a move) whose
    /// last empty point, k5, is forbidden for Black.
    const NO_MOVE_FOR_BLACK: [&str; 10] = [
        "h8 i7 j6 i6 i9 j7 g7 j10 h5 g10 h7 h6 j8 h10 i10 i8 h9 f6 f7 g8 g6 i4 i5 g5 k7 ",
        "h4 e7 d7 f4 e8 f9 g9 l9 l8 k9 j9 k10 k8 j11 i12 k12 l13 n9 m8 l11 o8 n8 k11 n7 ",
        "n6 j13 m10 g12 l7 i14 h15 j5 m5 n5 m9 m7 j2 i3 l4 k3 l5 l6 k4 j4 l2 l3 m3 m2 j12 ",
        "f8 m11 m12 m4 k6 i13 l10 f10 h14 g11 h12 e11 f11 e10 d10 j3 e9 c11 i2 o1 n2 e12 ",
        "d12 n4 o4 d11 e14 c10 f13 h11 b9 b11 a11 c9 c12 k13 i11 l12 f14 g14 n10 n11 n13 ",
        "o14 a12 i15 j14 j15 g15 e15 d6 o5 k1 e5 f5 l14 a10 a9 n14 e4 f3 c5 e2 g4 f2 f1 ",
        "g2 h2 c3 d2 c7 o9 k15 d5 b5 d3 d4 g1 b6 b7 a8 f15 i1 a5 a6 b14 o7 o11 o12 e13 ",
        "b13 b3 f12 e6 a2 j1 d1 a13 c1 n15 e1 b1 c15 e3 a1 h1 l1 m1 n1 b2 c2 k2 o2 a3 g3 ",
        "h3 n3 o3 a4 b4 c4 c6 m6 o6 a7 b8 c8 d8 d9 b10 o10 b12 n12 c13 d13 g13 h13 m13 ",
        "o13 a14 c14 d14 l15 m14 m15 k14 a15 b15 d15 o15 ",
    ];

    #[test]
    fn a_board_full_for_black_is_a_draw() {
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        let moves = NO_MOVE_FOR_BLACK.concat();
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let (last, before) = moves.split_last().unwrap();
        for m in before {
            b.make_move(Pos::from_human(m).unwrap());
            assert_eq!(no_move_left(&b), None, "after {m}");
        }
        b.make_move(Pos::from_human(last).unwrap());
        assert_eq!(b.empty_count(), 1);
        assert!(b.is_forbidden(Pos::from_human("k5").unwrap()));
        assert_eq!(
            no_move_left(&b),
            Some("Draw: board full for Black (every empty point is forbidden)")
        );
        b.make_move_as(Pos::from_human("k5").unwrap(), pentad::core::Color::White);
        assert_eq!(no_move_left(&b), Some("Draw: board full"));
    }

    #[test]
    fn parses_moves() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move(" 10 , 3 "), Some((10, 3)));
        assert_eq!(parse_move("7,7,1"), None);
        assert_eq!(parse_move("-1,3"), None);
        assert_eq!(parse_move("h8"), None);
        assert_eq!(parse_move(","), None);
        assert_eq!(parse_move("99999999999,1"), None);
    }

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            TimeControl::parse("180/5").unwrap(),
            TimeControl {
                match_ms: 180_000,
                turn_ms: 5000
            }
        );
        assert_eq!(
            TimeControl::parse("0/0.25").unwrap(),
            TimeControl {
                match_ms: 0,
                turn_ms: 250
            }
        );
        assert_eq!(TimeControl::parse("2").unwrap().turn_ms, 2000);
        assert_eq!(TimeControl::parse("10/0").unwrap().match_ms, 10_000);
        assert!(TimeControl::parse("0/0").is_err());
        assert!(TimeControl::parse("-1/5").is_err());
        assert!(TimeControl::parse("a/5").is_err());
    }

    #[test]
    fn reasons_serialize_lowercase() {
        for r in Reason::ALL {
            let s = serde_json::to_string(&r).unwrap();
            assert_eq!(s, format!("\"{}\"", r.name()));
            assert_eq!(serde_json::from_str::<Reason>(&s).unwrap(), r);
        }
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn strict_clock_has_no_game_clock_tolerance() {
        let mut cfg = GameConfig {
            tc: TimeControl {
                match_ms: 5000,
                turn_ms: 5000,
            },
            tolerance_ms: 3000,
            ..GameConfig::default()
        };
        assert_eq!(allowed_ms(&cfg, 400), 3400);
        cfg.strict_clock = true;
        assert_eq!(allowed_ms(&cfg, 400), 400);
        assert_eq!(allowed_ms(&cfg, -5), 0);
        assert_eq!(allowed_ms(&cfg, 60_000), 6000);
        cfg.tc = TimeControl {
            match_ms: 60_000,
            turn_ms: 200,
        };
        assert_eq!(allowed_ms(&cfg, 60_000), 1200);
        cfg.tolerance_ms = 1000;
        assert_eq!(allowed_ms(&cfg, 60_000), 700);
    }
}
