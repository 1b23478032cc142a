//! Typed parsing of Gomocup protocol command lines into [`Command`]; the Yixin-Board and
//! database commands are handed to their own parsers (`yxcommand.rs`, `dbcommand.rs`).

use std::str::FromStr;

use super::parse::{coord, no_args, parse_fields, parse_i64, Coord, ParseError};

/// One command line from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a square board (size checked by the session).
    Start(i64),
    /// `RECTSTART w,h`.
    RectStart(i64, i64),
    /// `RESTART`: empty board, same size and settings.
    Restart,
    /// `BEGIN`: we move first.
    Begin,
    /// `TURN x,y`: the opponent's move; we answer with ours.
    Turn(Coord),
    /// `BOARD`: a position follows (`x,y,f` lines, then `DONE`); we answer with a move.
    Board,
    /// `YXBOARD`: like BOARD, without thinking.
    YxBoard,
    /// `SWAP2BOARD`: Swap2 opening stones follow (`x,y` lines, then `DONE`).
    Swap2Board,
    /// `DONE` outside a BOARD block (an error).
    Done,
    /// `INFO key value`: key lower-cased, value as sent (trimmed). Never answered.
    Info { key: String, value: String },
    /// `END`: exit now.
    End,
    /// `ABOUT`: one line about the engine.
    About,
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Coord),
    /// `PLAY x,y`: play our suggested move, echo it.
    Play(Coord),
    /// `SUGGEST`: think and answer `SUGGEST x,y` without playing (pairs with PLAY).
    Suggest,
    /// `STOP` / `YXSTOP`: stop a running search.
    Stop,
    /// `YXSHOWFORBID`: list Black's forbidden points.
    YxShowForbid,
    /// `YXHASHCLEAR`: clear the transposition table.
    YxHashClear,
    /// `YXNBEST n`: multi-PV search, answer the best move (the position is not changed).
    YxNBest(i64),
    /// The other Yixin-Board commands (see [`super::yxcommand`]).
    Yx(super::yxcommand::YxCommand),
    /// One of the Yixin position-database commands (protocol/dbcommand.rs).
    Database(super::dbcommand::DbCommand),
}

/// The first word of `s` and the rest, trimmed (empty when there is none).
fn first_word(s: &str) -> (&str, &str) {
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

/// The integer argument `what` of `cmd`, which must be there.
fn required_i64(cmd: &'static str, what: &'static str, args: &str) -> Result<i64, ParseError> {
    if args.is_empty() {
        return Err(ParseError::Missing { cmd, what });
    }
    parse_i64(cmd, args)
}

impl FromStr for Command {
    type Err = ParseError;

    /// Parses one trimmed, non-empty line. Command words are case-insensitive.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        let (word, args) = first_word(line);
        match word.to_ascii_uppercase().as_str() {
            "START" => Ok(Command::Start(required_i64("START", "board size", args)?)),
            "RECTSTART" => {
                let v = parse_fields("RECTSTART", args, 2)?;
                Ok(Command::RectStart(v[0], v[1]))
            }
            "RESTART" => no_args("RESTART", args, Command::Restart),
            "BEGIN" => no_args("BEGIN", args, Command::Begin),
            "TURN" => Ok(Command::Turn(coord("TURN", args)?)),
            "BOARD" => no_args("BOARD", args, Command::Board),
            "YXBOARD" => no_args("YXBOARD", args, Command::YxBoard),
            "SWAP2BOARD" => no_args("SWAP2BOARD", args, Command::Swap2Board),
            "DONE" => Ok(Command::Done),
            "INFO" => {
                let (key, value) = first_word(args);
                Ok(Command::Info {
                    key: key.to_ascii_lowercase(),
                    value: value.to_string(),
                })
            }
            "END" => Ok(Command::End),
            "ABOUT" => Ok(Command::About),
            "TAKEBACK" => Ok(Command::Takeback(coord("TAKEBACK", args)?)),
            "PLAY" => Ok(Command::Play(coord("PLAY", args)?)),
            "SUGGEST" => no_args("SUGGEST", args, Command::Suggest),
            "STOP" | "YXSTOP" => Ok(Command::Stop),
            "YXSHOWFORBID" => Ok(Command::YxShowForbid),
            "YXHASHCLEAR" => Ok(Command::YxHashClear),
            "YXNBEST" => Ok(Command::YxNBest(required_i64(
                "YXNBEST",
                "number of moves",
                args,
            )?)),
            w => match super::dbcommand::parse(w, args) {
                Some(db) => db.map(Command::Database),
                None => super::yxcommand::parse(w, args, line).map(Command::Yx),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_case_insensitively() {
        assert_eq!("start 15".parse(), Ok(Command::Start(15)));
        assert_eq!("RectStart 20, 15".parse(), Ok(Command::RectStart(20, 15)));
        assert_eq!("turn 7,8".parse(), Ok(Command::Turn(Coord { x: 7, y: 8 })));
        assert_eq!("yxstop".parse(), Ok(Command::Stop));
        assert_eq!(
            "INFO Timeout_Turn  5000".parse(),
            Ok(Command::Info {
                key: "timeout_turn".into(),
                value: "5000".into()
            })
        );
        assert_eq!("Yxnbest 3".parse(), Ok(Command::YxNBest(3)));
    }

    #[test]
    fn reports_bad_arguments() {
        assert!(matches!(
            "TURN 7".parse::<Command>(),
            Err(ParseError::Fields { .. })
        ));
        assert!(matches!(
            "TURN a,b".parse::<Command>(),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            "TURN 99999999999999999999,1".parse::<Command>(),
            Err(ParseError::OutOfRange { .. })
        ));
        assert!(matches!(
            "TURN".parse::<Command>(),
            Err(ParseError::Missing { .. })
        ));
        assert!(matches!(
            "BEGIN now".parse::<Command>(),
            Err(ParseError::Trailing { .. })
        ));
        assert!(matches!(
            "FOO".parse::<Command>(),
            Err(ParseError::Unknown(_))
        ));
    }
}
