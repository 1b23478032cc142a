//! What the database stores per position: a label, a value, depth and bound, a best move and a
//! comment; the label rules and the board tag the GUI draws for a record.

use crate::core::Pos;
use crate::search::score::{MATE, MATE_BOUND};

/// No label (Yixin's "none"; also what `-1` and `0` set).
pub const LABEL_NONE: i32 = -1;
/// Label of a won position (for the player who moved into it).
pub const LABEL_WIN: i32 = b'w' as i32;
/// Label of a lost position.
pub const LABEL_LOSE: i32 = b'l' as i32;
/// Label of a drawn position.
pub const LABEL_DRAW: i32 = b'd' as i32;
/// Label of a move that should not be played.
pub const LABEL_BLOCK: i32 = b'x' as i32;
/// The board tag of the move a position's stored best move points to (when the move's own
/// position has no label).
pub const BEST_MOVE_TAG: u8 = b'!';

/// Bound of a stored value, as Yixin numbers them.
pub const BOUND_NONE: i32 = 0;
pub const BOUND_UPPER: i32 = 1;
pub const BOUND_LOWER: i32 = 2;
pub const BOUND_EXACT: i32 = 3;

/// Values are kept in the search's score range.
pub const VALUE_LIMIT: i64 = MATE as i64;
/// Depths are kept in this range.
pub const DEPTH_LIMIT: i64 = 10_000;
/// At most this many characters of a point's board text are kept (the GUI shows up to 6).
pub const BOARD_TEXT_LIMIT: usize = 16;
/// At most this many bytes of a comment are kept.
pub const COMMENT_LIMIT: usize = 60_000;

/// Everything stored about one position. Points are in the orientation of the position they
/// were asked for (the store maps them to and from the canonical one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// A printable ASCII character, or [`LABEL_NONE`].
    pub label: i32,
    pub value: i32,
    pub depth: i32,
    /// One of the `BOUND_*` numbers.
    pub bound: i32,
    /// The move to play from this position, when one was set.
    pub best_move: Option<Pos>,
    /// Free text (may hold line breaks).
    pub comment: String,
}

impl Record {
    /// A record with no data.
    pub fn empty() -> Record {
        Record {
            label: LABEL_NONE,
            ..Record::default()
        }
    }

    /// True when it holds nothing worth keeping.
    pub fn is_empty(&self) -> bool {
        self.label == LABEL_NONE
            && self.value == 0
            && self.depth == 0
            && self.bound == BOUND_NONE
            && self.best_move.is_none()
            && self.comment.is_empty()
    }

    /// Moves to the forced win or loss its value encodes, when it encodes one.
    pub fn mate_step(&self) -> Option<i32> {
        (self.value.abs() >= MATE_BOUND).then(|| MATE - self.value.abs())
    }

    /// The board tag the GUI draws for this record: up to four ASCII characters packed into
    /// an integer, most significant first (`w`/`l` with a mate distance when the value holds
    /// one); `-1` when there is nothing to show.
    pub fn display_tag(&self) -> i64 {
        if self.label <= 0 {
            return -1;
        }
        let mut text = vec![self.label as u8];
        if matches!(self.label, LABEL_WIN | LABEL_LOSE) {
            if let Some(step) = self.mate_step() {
                text.extend(step.to_string().bytes());
            }
        }
        pack_tag(&text)
    }
}

/// Up to four ASCII bytes as the GUI's packed tag integer.
pub fn pack_tag(text: &[u8]) -> i64 {
    text.iter().take(4).fold(0, |acc, &c| (acc << 8) | c as i64)
}

/// The stored label for a label number sent by the GUI: `-1`/`0` clear it, `W`/`L`/`D`/`X`
/// become lower case, any other printable ASCII character is kept. `None` for anything else.
pub fn label_from_input(v: i64) -> Option<i32> {
    match v {
        -1 | 0 => Some(LABEL_NONE),
        33..=126 => {
            let c = (v as u8).to_ascii_lowercase();
            Some(if matches!(c, b'w' | b'l' | b'd' | b'x') {
                c as i32
            } else {
                v as i32
            })
        }
        _ => None,
    }
}

/// A board text as stored: whitespace and control characters removed, cut to
/// [`BOARD_TEXT_LIMIT`] characters.
pub fn clean_board_text(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take(BOARD_TEXT_LIMIT)
        .collect()
}

/// A comment as stored: CRLF and CR become LF, outer blanks trimmed, cut to
/// [`COMMENT_LIMIT`] bytes at a character boundary.
pub fn clean_comment(text: &str) -> String {
    let t = text.replace("\r\n", "\n").replace('\r', "\n");
    let t = t.trim();
    let mut end = t.len().min(COMMENT_LIMIT);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    t[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_from_the_gui() {
        assert_eq!(label_from_input(-1), Some(LABEL_NONE));
        assert_eq!(label_from_input(0), Some(LABEL_NONE));
        assert_eq!(label_from_input(b'W' as i64), Some(LABEL_WIN));
        assert_eq!(label_from_input(b'x' as i64), Some(LABEL_BLOCK));
        assert_eq!(label_from_input(b'a' as i64), Some(b'a' as i32));
        assert_eq!(label_from_input(b'A' as i64), Some(b'A' as i32));
        assert_eq!(label_from_input(7), None);
        assert_eq!(label_from_input(200), None);
    }

    #[test]
    fn display_tags() {
        let mut r = Record::empty();
        assert_eq!(r.display_tag(), -1);
        r.label = b'a' as i32;
        assert_eq!(r.display_tag(), 97);
        r.label = LABEL_WIN;
        assert_eq!(r.display_tag(), 119);
        r.value = -(MATE - 7);
        assert_eq!(r.mate_step(), Some(7));
        assert_eq!(r.display_tag(), (119 << 8) | b'7' as i64);
        r.value = MATE - 15;
        assert_eq!(
            r.display_tag(),
            (119 << 16) | (b'1' as i64) << 8 | b'5' as i64
        );
    }

    #[test]
    fn texts_are_cleaned() {
        assert_eq!(clean_board_text(" a b\tc\n"), "abc");
        assert_eq!(clean_board_text(&"z".repeat(40)).len(), BOARD_TEXT_LIMIT);
        assert_eq!(clean_comment(" one\r\ntwo\rthree \n"), "one\ntwo\nthree");
        let long = "é".repeat(COMMENT_LIMIT);
        assert!(clean_comment(&long).len() <= COMMENT_LIMIT);
    }

    #[test]
    fn empty_records() {
        assert!(Record::empty().is_empty());
        let r = Record {
            comment: "x".into(),
            ..Record::empty()
        };
        assert!(!r.is_empty());
    }
}
