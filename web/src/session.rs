//! One browser tab: its game, its engine worker, and the dispatch of the page's requests and
//! the engine's events. The session is the referee: it checks every move (the person's and
//! the engine's) with the engine library's rules before it goes on the board.

mod opening;

use std::time::Instant;

use pentad::core::{Color, Pos, Rule};
use pentad_arena::game::parse_move;
use pentad_arena::EngineSpec;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tokio::sync::OwnedSemaphorePermit;

use crate::analysis;
use crate::game::{color_name, parse_color, Game, Refusal};
use crate::levels::{level, Level, DEFAULT_LEVEL, LEVELS};
use crate::messages::{Clock, Reply, Request, State};
use crate::results;
use crate::sgf;
use crate::worker::{Event, Job, Purpose, Worker};
use opening::Swap2;

/// The default game: 15×15 freestyle, the person Black.
const DEFAULT_SIZE: usize = 15;

/// A tab's state.
pub struct Session {
    worker: Worker,
    game: Game,
    human: Color,
    level: Level,
    engine_name: String,
    next_id: u64,
    /// The job whose answer is awaited.
    pending: Option<(u64, Purpose)>,
    analyzing: bool,
    engine_down: Option<String>,
    swap2: Option<Swap2>,
    /// Thinking time used per colour, and when the current turn began.
    used_ms: [u64; 2],
    turn_began: Instant,
}

impl Session {
    /// A session with an empty default game; returns the receiver of its engine events.
    /// `place` (under the cap on engines) is held until its engine has ended.
    pub fn new(
        spec: EngineSpec,
        place: OwnedSemaphorePermit,
    ) -> (Session, UnboundedReceiver<Event>) {
        let (tx, rx) = unbounded_channel();
        let engine_name = spec.name.clone().unwrap_or_else(|| spec.file_name());
        let session = Session {
            worker: Worker::start(spec, tx, place),
            game: Game::new(DEFAULT_SIZE, Rule::FREESTYLE).expect("valid default size"),
            human: Color::Black,
            level: level(DEFAULT_LEVEL).expect("default level exists"),
            engine_name,
            next_id: 0,
            pending: None,
            analyzing: false,
            engine_down: None,
            swap2: None,
            used_ms: [0; 2],
            turn_began: Instant::now(),
        };
        (session, rx)
    }

    /// The first messages a page gets.
    pub fn greeting(&self) -> Vec<Reply> {
        vec![
            Reply::Levels {
                names: LEVELS.iter().map(|l| l.name).collect(),
                default: DEFAULT_LEVEL,
            },
            self.state(),
        ]
    }

    /// Handles one request; returns the messages for the page.
    pub fn request(&mut self, req: Request) -> Vec<Reply> {
        let result = match req {
            Request::New {
                size,
                rule,
                color,
                level,
                swap2,
            } => self.new_game(size, &rule, &color, &level, swap2),
            Request::Play { x, y } => self.human_move(x, y),
            Request::Undo => self.undo(),
            Request::Redo => self.redo(),
            Request::Hint => self.hint(),
            Request::Resign => self.resign(),
            Request::Analyze { on } => {
                self.analyzing = on;
                if !on && matches!(self.pending, Some((_, Purpose::Analyze))) {
                    self.cancel();
                }
                Ok(())
            }
            Request::Swap2 { choice } => self.swap2_choice(&choice),
            Request::Restart => {
                self.cancel();
                self.worker.restart();
                self.engine_down = None;
                Ok(())
            }
            Request::Save => return vec![self.save()],
            Request::Load { text } => self.load(&text),
            Request::Results { text } => {
                return vec![match results::read(&text) {
                    Ok(data) => Reply::Results {
                        data: Box::new(data),
                    },
                    Err(e) => error(format!("Cannot read the results file: {e}")),
                }]
            }
        };
        let mut out = Vec::new();
        if let Err(e) = result {
            out.push(error(e));
        }
        self.next_step();
        out.push(self.state());
        out
    }

    /// Handles one engine event; returns the messages for the page.
    pub fn engine_event(&mut self, ev: Event) -> Vec<Reply> {
        match ev {
            Event::Name(name) => {
                self.engine_name = name;
                vec![]
            }
            Event::Line { id, line } => {
                if self.pending.map(|(p, _)| p) != Some(id) {
                    return vec![];
                }
                analysis::parse(&line, self.game.size)
                    .map(|report| vec![Reply::Analysis { report }])
                    .unwrap_or_default()
            }
            Event::Answer {
                id,
                purpose,
                result,
            } => {
                if self.pending.map(|(p, _)| p) != Some(id) {
                    return vec![];
                }
                self.pending = None;
                let mut out = match result {
                    Ok(line) => self.answer(purpose, &line),
                    Err(reason) => {
                        self.engine_down = Some(reason.clone());
                        vec![error(format!("Engine problem: {reason}"))]
                    }
                };
                self.next_step();
                out.push(self.state());
                out
            }
        }
    }

    fn new_game(
        &mut self,
        size: usize,
        rule: &str,
        color: &str,
        level_name: &str,
        swap2: bool,
    ) -> Result<(), String> {
        let rule = match rule {
            "freestyle" | "standard" | "renju" | "caro" => Rule::from_name(rule),
            _ => None,
        }
        .ok_or_else(|| format!("unknown rule {rule:?}"))?;
        let human = parse_color(color).ok_or_else(|| format!("unknown colour {color:?}"))?;
        let lv = level(level_name).ok_or_else(|| format!("unknown level {level_name:?}"))?;
        let game = Game::new(size, rule).map_err(|e| format!("cannot start a game: {e}"))?;
        self.cancel();
        self.game = game;
        self.level = lv;
        self.human = human;
        self.swap2 = swap2.then(|| Swap2::start(human == Color::Black));
        self.used_ms = [0; 2];
        self.turn_began = Instant::now();
        Ok(())
    }

    fn human_move(&mut self, x: usize, y: usize) -> Result<(), String> {
        if !self.human_may_place() {
            return Err("it is not your turn".into());
        }
        if x >= self.game.size || y >= self.game.size {
            return Err(Refusal::OffBoard.to_string());
        }
        let p = Pos::new(x, y);
        self.game.check(p).map_err(|e| e.to_string())?;
        self.cancel();
        self.play(p);
        if let Some(s) = self.swap2.take() {
            self.swap2 = s.after_placed(self.game.moves.len());
        }
        Ok(())
    }

    /// True when a click on the board may place a stone now.
    fn human_may_place(&self) -> bool {
        if self.game.outcome.is_some() {
            return false;
        }
        match self.swap2 {
            Some(s) => s.person_places(),
            None => self.game.to_move() == self.human,
        }
    }

    /// Plays `p` for the side to move and charges its clock.
    fn play(&mut self, p: Pos) {
        let side = self.game.to_move();
        self.used_ms[side.index()] += self.turn_began.elapsed().as_millis() as u64;
        self.turn_began = Instant::now();
        self.game.push(p);
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.swap2.is_some() {
            return Err("undo is not available during the Swap2 opening".into());
        }
        self.cancel();
        if !self.game.undo() {
            return Err("nothing to undo".into());
        }
        // Back to the person's turn (their move and the engine's answer).
        while self.game.to_move() != self.human && self.game.undo() {}
        self.turn_began = Instant::now();
        Ok(())
    }

    fn redo(&mut self) -> Result<(), String> {
        if self.swap2.is_some() || !self.game.redo() {
            return Err("nothing to redo".into());
        }
        self.cancel();
        while self.game.to_move() != self.human && self.game.outcome.is_none() && self.game.redo() {
        }
        self.turn_began = Instant::now();
        Ok(())
    }

    fn hint(&mut self) -> Result<(), String> {
        if self.game.outcome.is_some() || self.swap2.is_some() || self.engine_down.is_some() {
            return Err("no hint now".into());
        }
        if self.game.to_move() != self.human {
            return Err("wait for the engine's move".into());
        }
        self.launch(Purpose::Hint);
        Ok(())
    }

    fn resign(&mut self) -> Result<(), String> {
        if self.game.outcome.is_some() {
            return Err("the game is already over".into());
        }
        self.cancel();
        self.swap2 = None;
        let who = if self.human == Color::Black {
            "White wins: Black resigned"
        } else {
            "Black wins: White resigned"
        };
        self.game.end(self.human, "resign", who.into());
        Ok(())
    }

    fn swap2_choice(&mut self, choice: &str) -> Result<(), String> {
        let s = self.swap2.ok_or("there is no Swap2 choice to make now")?;
        let (human, next) = s.choose(choice, self.game.moves.len())?;
        if let Some(h) = human {
            self.human = h;
        }
        self.swap2 = next;
        Ok(())
    }

    fn save(&self) -> Reply {
        let (black, white) = match self.human {
            Color::Black => ("You", self.engine_name.as_str()),
            Color::White => (self.engine_name.as_str(), "You"),
        };
        let result = match &self.game.outcome {
            None => String::new(),
            Some(o) => match (o.winner, o.reason) {
                (None, _) => "0".into(),
                (Some(w), r) => {
                    let side = if w == "black" { "B" } else { "W" };
                    let suffix = match r {
                        "resign" => "R",
                        "foul" | "illegal" => "F",
                        _ => "",
                    };
                    format!("{side}+{suffix}")
                }
            },
        };
        let moves = &self.game.moves;
        Reply::Sgf {
            name: format!("pentad-{}-{}moves.sgf", self.game.rule.name(), moves.len()),
            text: sgf::write(self.game.size, self.game.rule, black, white, &result, moves),
        }
    }

    fn load(&mut self, text: &str) -> Result<(), String> {
        let fail = |e: String| format!("Cannot load the SGF file (the current game stays): {e}");
        let games = sgf::parse_all(text).map_err(fail)?;
        let g = &games[0];
        let game = Game::from_moves(g.size, sgf::rule_of(&g.rule), &g.moves).map_err(fail)?;
        self.cancel();
        self.game = game;
        self.swap2 = None;
        self.human = self.game.to_move();
        self.used_ms = [0; 2];
        self.turn_began = Instant::now();
        Ok(())
    }

    /// Reads the engine's answer to a finished job.
    fn answer(&mut self, purpose: Purpose, line: &str) -> Vec<Reply> {
        match purpose {
            Purpose::Move => self.engine_move(line),
            Purpose::Hint => match self.engine_point(line) {
                Ok(p) => vec![Reply::Hint { x: p.x(), y: p.y() }],
                Err(e) => vec![error(format!("No hint: {e}"))],
            },
            Purpose::Analyze => vec![],
            Purpose::Swap2 => match self.swap2_answer(line) {
                Ok(()) => vec![],
                Err(e) => self.engine_fault(e),
            },
        }
    }

    fn engine_move(&mut self, line: &str) -> Vec<Reply> {
        match self.engine_point(line) {
            Ok(p) => {
                self.play(p);
                vec![]
            }
            Err(e) => self.engine_fault(e),
        }
    }

    /// An engine that answered nonsense: stopped, reported; the game stays.
    fn engine_fault(&mut self, why: String) -> Vec<Reply> {
        let reason = format!("the engine played an illegal move: {why}");
        self.worker.restart();
        self.engine_down = Some(reason.clone());
        vec![error(format!("Engine problem: {reason}"))]
    }

    /// The point of a move answer, if it is on the board and empty (a renju foul by the
    /// engine is accepted and judged by [`Game::push`]).
    fn engine_point(&self, line: &str) -> Result<Pos, String> {
        let (x, y) = parse_move(line).ok_or_else(|| format!("unreadable answer {line:?}"))?;
        let (x, y) = (x as usize, y as usize);
        if x >= self.game.size || y >= self.game.size {
            return Err(format!("{x},{y} is off the board"));
        }
        let p = Pos::new(x, y);
        match self.game.check(p) {
            Ok(()) | Err(Refusal::Forbidden) => Ok(p),
            Err(e) => Err(format!("{} ({e})", p.to_human())),
        }
    }

    fn swap2_answer(&mut self, line: &str) -> Result<(), String> {
        let s = self.swap2.ok_or("no Swap2 opening under way")?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() == 1 && words[0].eq_ignore_ascii_case("SWAP") {
            let (human, next) = s.engine_swapped()?;
            self.human = human;
            self.swap2 = next;
            return Ok(());
        }
        let mut points = Vec::new();
        for w in &words {
            points.push(self.engine_point(w)?);
        }
        let (human, next) = s.engine_placed(self.game.moves.len(), points.len())?;
        for p in points {
            if self.game.check(p).is_err() {
                return Err(format!("{} is not playable", p.to_human()));
            }
            self.play(p);
        }
        if let Some(h) = human {
            self.human = h;
        }
        self.swap2 = next;
        Ok(())
    }

    /// Starts whatever the engine should do now: its move, a Swap2 decision, or analysis.
    fn next_step(&mut self) {
        if self.engine_down.is_some() || self.game.outcome.is_some() {
            if self.game.outcome.is_some() {
                self.cancel();
            }
            return;
        }
        let wanted = match self.swap2 {
            Some(s) if s.engine_decides() => Some(Purpose::Swap2),
            Some(_) => None,
            None if self.game.to_move() != self.human => Some(Purpose::Move),
            None if self.analyzing => Some(Purpose::Analyze),
            None => None,
        };
        let current = self.pending.map(|(_, p)| p);
        if current == Some(Purpose::Hint) && matches!(wanted, None | Some(Purpose::Analyze)) {
            return; // the hint runs to its end; analysis resumes after it
        }
        if wanted != current {
            self.cancel();
            if let Some(p) = wanted {
                self.launch(p);
            }
        }
    }

    /// Stops the job under way (its answer will be ignored).
    fn cancel(&mut self) {
        if let Some((id, _)) = self.pending.take() {
            self.worker.stop_upto(id);
        }
    }

    fn launch(&mut self, purpose: Purpose) {
        self.cancel();
        self.next_id += 1;
        let id = self.next_id;
        self.pending = Some((id, purpose));
        self.worker.run(Job {
            id,
            purpose,
            size: self.game.size,
            rule: self.game.rule.to_info(),
            level: self.level,
            moves: self.game.moves.iter().map(|p| (p.x(), p.y())).collect(),
        });
    }

    fn state(&self) -> Reply {
        let g = &self.game;
        let thinking = matches!(self.pending, Some((_, Purpose::Move | Purpose::Swap2)));
        let over = g.outcome.is_some();
        let running = (!over && self.engine_down.is_none()).then(|| color_name(g.to_move()));
        let mut used = self.used_ms;
        if !over {
            used[g.to_move().index()] += self.turn_began.elapsed().as_millis() as u64;
        }
        Reply::State(Box::new(State {
            size: g.size,
            rule: g.rule.name(),
            level: self.level.name,
            human: color_name(self.human),
            engine: self.engine_name.clone(),
            moves: g.moves.iter().map(|p| [p.x(), p.y()]).collect(),
            to_move: color_name(g.to_move()),
            outcome: g.outcome.clone(),
            forbidden: g.forbidden(),
            thinking,
            analyzing: self.analyzing,
            can_undo: self.swap2.is_none() && !g.moves.is_empty(),
            can_redo: self.swap2.is_none() && !g.redo.is_empty(),
            engine_down: self.engine_down.clone(),
            swap2: self.swap2.map(|s| s.step_name()),
            status: self.status(thinking),
            clock: Clock {
                black_ms: used[0],
                white_ms: used[1],
                running,
            },
        }))
    }

    fn status(&self, thinking: bool) -> String {
        if let Some(o) = &self.game.outcome {
            return o.detail.clone();
        }
        if let Some(why) = &self.engine_down {
            return format!("Engine stopped: {why}. Press Restart engine to go on.");
        }
        if let Some(s) = self.swap2 {
            return s.prompt().to_string();
        }
        if thinking {
            return format!("{} is thinking…", self.engine_name);
        }
        format!(
            "Your move ({})",
            if self.human == Color::Black {
                "Black"
            } else {
                "White"
            }
        )
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The tab closed: stop whatever the engine is doing so its worker can end it.
        self.worker.stop_upto(u64::MAX);
    }
}

fn error(message: String) -> Reply {
    Reply::Error { message }
}
