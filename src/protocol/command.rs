//! Typed parsing of Gomocup protocol lines: commands, BOARD/SWAP2BOARD body lines, errors.

use std::fmt;
use std::str::FromStr;

/// A point as the manager sent it: raw 64-bit numbers, not yet checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Column (may be negative or too large: the session checks it).
    pub x: i64,
    /// Row.
    pub y: i64,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

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

/// Why a line could not be understood. `Unknown` becomes `UNKNOWN <text>`, everything else
/// `ERROR <why>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command we know; holds the (shortened) line.
    Unknown(String),
    /// A required argument is missing.
    Missing {
        cmd: &'static str,
        what: &'static str,
    },
    /// An argument is not a number.
    NotANumber { cmd: &'static str, text: String },
    /// A number does not fit in 64 bits.
    OutOfRange { cmd: &'static str, text: String },
    /// Wrong number of comma-separated fields.
    Fields {
        cmd: &'static str,
        expected: usize,
        got: usize,
    },
    /// Extra words after a complete command.
    Trailing { cmd: &'static str, text: String },
}

/// At most this many characters of user text are echoed back in replies.
pub const ECHO_LIMIT: usize = 80;

/// `s` cut to [`ECHO_LIMIT`] characters, control characters replaced, `...` when cut.
pub fn shorten(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(ECHO_LIMIT)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(ECHO_LIMIT).is_some() {
        out.push_str("...");
    }
    out
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(t) => write!(f, "unknown command {t}"),
            ParseError::Missing { cmd, what } => write!(f, "{cmd}: missing {what}"),
            ParseError::NotANumber { cmd, text } => write!(f, "{cmd}: not a number: {text}"),
            ParseError::OutOfRange { cmd, text } => {
                write!(f, "{cmd}: number out of range: {text}")
            }
            ParseError::Fields { cmd, expected, got } => {
                write!(
                    f,
                    "{cmd}: expected {expected} comma-separated fields, got {got}"
                )
            }
            ParseError::Trailing { cmd, text } => write!(f, "{cmd}: unexpected text: {text}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one decimal 64-bit integer (optional sign, surrounding blanks allowed).
pub fn parse_i64(cmd: &'static str, text: &str) -> Result<i64, ParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ParseError::Missing {
            cmd,
            what: "number",
        });
    }
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::NotANumber {
            cmd,
            text: shorten(t),
        });
    }
    t.parse::<i64>().map_err(|_| ParseError::OutOfRange {
        cmd,
        text: shorten(t),
    })
}

/// Parses `n` comma-separated integers (`7,7` or `7,7,1`; blanks around fields allowed).
pub fn parse_fields(cmd: &'static str, text: &str, n: usize) -> Result<Vec<i64>, ParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ParseError::Missing {
            cmd,
            what: "coordinates x,y",
        });
    }
    let parts: Vec<&str> = t.split(',').collect();
    if parts.len() != n {
        return Err(ParseError::Fields {
            cmd,
            expected: n,
            got: parts.len(),
        });
    }
    parts.iter().map(|p| parse_i64(cmd, p)).collect()
}

fn coord(cmd: &'static str, args: &str) -> Result<Coord, ParseError> {
    let v = parse_fields(cmd, args, 2)?;
    Ok(Coord { x: v[0], y: v[1] })
}

/// `c` when the command has no arguments, else a `Trailing` error.
pub(super) fn no_args<T>(cmd: &'static str, args: &str, c: T) -> Result<T, ParseError> {
    if args.is_empty() {
        Ok(c)
    } else {
        Err(ParseError::Trailing {
            cmd,
            text: shorten(args),
        })
    }
}

/// The text of one input line as the session reads it: lossy UTF-8, with blanks and NULs
/// trimmed at both ends.
pub fn line_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_matches(|c: char| c.is_whitespace() || c == '\0')
        .to_string()
}

/// The first word of a line, upper-cased (for deciding what to do while a search runs).
pub fn command_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

impl FromStr for Command {
    type Err = ParseError;

    /// Parses one trimmed, non-empty line. Command words are case-insensitive.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        let (word, args) = match line.find(char::is_whitespace) {
            Some(i) => (&line[..i], line[i..].trim()),
            None => (line, ""),
        };
        match word.to_ascii_uppercase().as_str() {
            "START" => {
                if args.is_empty() {
                    return Err(ParseError::Missing {
                        cmd: "START",
                        what: "board size",
                    });
                }
                Ok(Command::Start(parse_i64("START", args)?))
            }
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
                let (key, value) = match args.find(char::is_whitespace) {
                    Some(i) => (&args[..i], args[i..].trim()),
                    None => (args, ""),
                };
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
            "YXNBEST" => {
                if args.is_empty() {
                    return Err(ParseError::Missing {
                        cmd: "YXNBEST",
                        what: "number of moves",
                    });
                }
                Ok(Command::YxNBest(parse_i64("YXNBEST", args)?))
            }
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
        assert_eq!(parse_i64("X", "-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_fields("X", " 1 , -2 ,3", 3), Ok(vec![1, -2, 3]));
    }

    #[test]
    fn shortens_long_text() {
        let s = "x".repeat(1000);
        assert_eq!(shorten(&s).len(), ECHO_LIMIT + 3);
        assert_eq!(shorten("a\tb"), "a?b");
    }
}
