//! The pieces every protocol parser shares: the raw point, the parse error, number and field
//! parsing, and how user text is echoed back. The command parsers (`command.rs`,
//! `dbcommand.rs`, `yxcommand.rs`) and the session build on these; this module uses none of them.

use std::fmt;

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

/// Parses `x,y` into a [`Coord`].
pub fn coord(cmd: &'static str, args: &str) -> Result<Coord, ParseError> {
    let v = parse_fields(cmd, args, 2)?;
    Ok(Coord { x: v[0], y: v[1] })
}

/// `c` when the command has no arguments, else a `Trailing` error.
pub fn no_args<T>(cmd: &'static str, args: &str, c: T) -> Result<T, ParseError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_and_fields() {
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
