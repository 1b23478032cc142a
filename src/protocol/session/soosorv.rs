//! Yixin-Board's Soosõrv-N opening steps in the session: the question goes to the engine,
//! the answer comes back as the `MESSAGE SOOSORV …` lines the GUI parses.

use std::io::Write;

use super::{Purpose, Session};
use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::soosorv::{SoosorvQuestion, SoosorvReply};
use crate::engine::swap2::Swap2Budget;

/// Stones on the board before the fifth move.
const STONES_BEFORE_FIFTH: usize = 4;

impl<W: Write> Session<W> {
    /// Step `step` (1..=6) with N = `n` where the step has one, on the stones `pts` (in play
    /// order; for step 6 the four stones, then the fifth moves offered).
    pub(super) fn soosorv_step(&mut self, step: u8, n: Option<i64>, pts: Vec<Pos>) {
        let Some(cur) = self.board.as_ref() else {
            self.error("no board yet (send START first)");
            return;
        };
        let (stones, offered) = if step == 6 {
            if pts.len() <= STONES_BEFORE_FIFTH {
                self.error("YXSOOSORVSTEP6: expected four stones and the fifth moves offered");
                return;
            }
            (
                pts[..STONES_BEFORE_FIFTH].to_vec(),
                pts[STONES_BEFORE_FIFTH..].to_vec(),
            )
        } else {
            (pts, Vec::new())
        };
        let mut board = match Board::new(cur.width(), cur.height(), cur.rule()) {
            Ok(b) => b,
            Err(e) => {
                self.error(&format!("YXSOOSORVSTEP{step}: {e}"));
                return;
            }
        };
        for (i, &p) in stones.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.make_move_as(p, c);
        }
        let question = SoosorvQuestion {
            step,
            board: board.clone(),
            n: n.unwrap_or(1),
            offered,
        };
        let budget = Swap2Budget::for_settings(&self.settings);
        self.start_task(Purpose::Soosorv(step), board, false, |engine| {
            engine.go_soosorv(question, budget)
        });
    }

    /// Prints a step's answer.
    pub(super) fn say_soosorv(&mut self, step: u8, reply: Option<SoosorvReply>) {
        let lines: Vec<String> = match reply {
            None => {
                self.error(&format!(
                    "YXSOOSORVSTEP{step}: the position does not fit this step"
                ));
                return;
            }
            Some(SoosorvReply::Opening(ms)) => super::yixin::moves_lines("SOOSORV", 1, &ms),
            Some(SoosorvReply::Swap(yes)) => {
                let which = if step <= 2 { "SWAP1" } else { "SWAP2" };
                let answer = if yes { "YES" } else { "NO" };
                vec![format!("MESSAGE SOOSORV {which} {answer}")]
            }
            Some(SoosorvReply::Fourth(p, n)) => {
                vec![format!("MESSAGE SOOSORV MOVE4 {} {} {n}", p.x(), p.y())]
            }
            Some(SoosorvReply::Fifths(ms)) => {
                let mut v = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
                v.extend(
                    ms.iter()
                        .map(|p| format!("MESSAGE SOOSORV MOVE5 {} {}", p.x(), p.y())),
                );
                v.push("MESSAGE SOOSORV MOVE5 DONE".into());
                v
            }
            Some(SoosorvReply::Choice(p)) => {
                vec![format!("MESSAGE SOOSORV MOVE5C {} {}", p.x(), p.y())]
            }
        };
        for l in lines {
            self.say(&l);
        }
    }
}
