//! Parsing of the Yixin position-database commands (`yxquerydatabaseall`, `yxsetdatabase`, …):
//! the command word and the arguments on its own line. The position (`x,y` lines and `DONE`)
//! or the path line that follows is collected by the session (session/database.rs).

use super::parse::{no_args, parse_fields, parse_i64, shorten, Coord, ParseError};
use crate::database::record::{Record, LABEL_DRAW, LABEL_LOSE, LABEL_WIN};
use crate::database::Prune;

/// A database command followed by a position: `x,y` lines (moves from Black), then `DONE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommand {
    /// `yxquerydatabaseall`: the records of every move from the position.
    QueryAll,
    /// `yxquerydatabaseallt`: as `QueryAll`, then the position's comment.
    QueryAllText,
    /// `yxquerydatabaseone`: the position's own record.
    QueryOne,
    /// `yxquerydatabasetext`: the position's comment.
    QueryText,
    /// `yxedittvddatabase mask label value depth`: sets the fields `mask` selects (1 label,
    /// 2 value, 4 depth).
    EditTvd {
        mask: i64,
        label: i64,
        value: i64,
        depth: i64,
    },
    /// `yxedittextdatabase "text"`: sets the comment (the text may span lines).
    EditText(String),
    /// `yxeditlabeldatabase x,y text`: the text shown on point `x,y` (empty removes it).
    EditLabel { point: Coord, text: String },
    /// `yxdeletedatabaseone`: removes the position's record.
    DeleteOne,
    /// `yxdeletedatabaseall [type]`: removes records below the position.
    DeleteAll(DeleteFilter),
    /// `yxsetbestmovedatabase`: the last move becomes the best move of the position before it.
    SetBestMove,
    /// `yxclearbestmovedatabase`: clears the best move of the position before the last move.
    ClearBestMove,
    /// A position command with bad arguments: its position is still read (so its lines are
    /// not taken for commands), then `why` is reported once.
    Invalid { name: &'static str, why: String },
}

impl PositionCommand {
    /// The command word, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            PositionCommand::QueryAll => "yxquerydatabaseall",
            PositionCommand::QueryAllText => "yxquerydatabaseallt",
            PositionCommand::QueryOne => "yxquerydatabaseone",
            PositionCommand::QueryText => "yxquerydatabasetext",
            PositionCommand::EditTvd { .. } => "yxedittvddatabase",
            PositionCommand::EditText(_) => "yxedittextdatabase",
            PositionCommand::EditLabel { .. } => "yxeditlabeldatabase",
            PositionCommand::DeleteOne => "yxdeletedatabaseone",
            PositionCommand::DeleteAll(_) => "yxdeletedatabaseall",
            PositionCommand::SetBestMove => "yxsetbestmovedatabase",
            PositionCommand::ClearBestMove => "yxclearbestmovedatabase",
            PositionCommand::Invalid { name, .. } => name,
        }
    }
}

/// A database command whose argument is a file path: the rest of its line, or else the next
/// input line (as Yixin-Board sends it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathCommand {
    /// `yxsetdatabase`: use (or create) this database file.
    SetDatabase,
    /// `yxdbtotxt`: export the records of the current rule and board size.
    DbToTxt,
    /// `yxdbtotxtall`: export every record.
    DbToTxtAll,
    /// `yxtxttodb`: import a text export.
    TxtToDb,
    /// `yxlibtodb`: import a Renlib file (not supported).
    LibToDb,
}

impl PathCommand {
    pub fn name(self) -> &'static str {
        match self {
            PathCommand::SetDatabase => "yxsetdatabase",
            PathCommand::DbToTxt => "yxdbtotxt",
            PathCommand::DbToTxtAll => "yxdbtotxtall",
            PathCommand::TxtToDb => "yxtxttodb",
            PathCommand::LibToDb => "yxlibtodb",
        }
    }
}

/// One database command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbCommand {
    Position(PositionCommand),
    /// The path when it came on the command's own line.
    Path(PathCommand, Option<String>),
    /// `yxsavedatabase`.
    Save,
    /// `yxdbcheck`.
    Check,
    /// `yxdbfix`.
    Fix,
}

/// Which records `yxdeletedatabaseall` removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeleteFilter {
    pub select: Select,
    /// Also look below positions that are kept.
    pub recursive: bool,
}

/// The records a delete filter selects (a selected record goes with everything below it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    All,
    Win,
    Lose,
    WinLose,
    WinLoseDraw,
    NotWinLose,
    NotWinLoseDraw,
    /// Wins and losses without a mate distance in their value.
    WinLoseNoStep,
    /// Wins and losses won or lost within this many moves.
    WinLoseInStep(i64),
}

impl DeleteFilter {
    /// What to do with a descendant holding `r`.
    pub fn prune(&self, r: &Record) -> Prune {
        let wl = r.label == LABEL_WIN || r.label == LABEL_LOSE;
        let wld = wl || r.label == LABEL_DRAW;
        let selected = match self.select {
            Select::All => true,
            Select::Win => r.label == LABEL_WIN,
            Select::Lose => r.label == LABEL_LOSE,
            Select::WinLose => wl,
            Select::WinLoseDraw => wld,
            Select::NotWinLose => !wl,
            Select::NotWinLoseDraw => !wld,
            Select::WinLoseNoStep => wl && r.mate_step().is_none(),
            Select::WinLoseInStep(n) => wl && r.mate_step().is_some_and(|s| (s as i64) <= n),
        };
        match (selected, self.recursive) {
            (true, _) => Prune::Delete,
            (false, true) => Prune::KeepAndDescend,
            (false, false) => Prune::Keep,
        }
    }
}

fn delete_filter(args: &str) -> Result<DeleteFilter, ParseError> {
    const CMD: &str = "YXDELETEDATABASEALL";
    let mut words = args.split_whitespace();
    let Some(kind) = words.next() else {
        return Ok(DeleteFilter {
            select: Select::All,
            recursive: false,
        });
    };
    let lower = kind.to_ascii_lowercase();
    let (base, recursive) = match lower.strip_suffix("recursive") {
        Some(b) => (b, true),
        None => (lower.as_str(), false),
    };
    let select = match base {
        "w" => Select::Win,
        "l" => Select::Lose,
        "wl" => Select::WinLose,
        "wld" => Select::WinLoseDraw,
        "nonwl" => Select::NotWinLose,
        "nonwld" => Select::NotWinLoseDraw,
        "wlnostep" => Select::WinLoseNoStep,
        "wlinstep" => {
            let n = words.next().ok_or(ParseError::Missing {
                cmd: CMD,
                what: "number of moves",
            })?;
            Select::WinLoseInStep(parse_i64(CMD, n)?)
        }
        _ => {
            return Err(ParseError::Trailing {
                cmd: CMD,
                text: format!("unknown delete type {}", shorten(kind)),
            })
        }
    };
    if let Some(extra) = words.next() {
        return Err(ParseError::Trailing {
            cmd: CMD,
            text: shorten(extra),
        });
    }
    Ok(DeleteFilter { select, recursive })
}

fn edit_tvd(args: &str) -> Result<PositionCommand, ParseError> {
    const CMD: &str = "YXEDITTVDDATABASE";
    let v: Vec<&str> = args.split_whitespace().collect();
    if v.len() != 4 {
        return Err(ParseError::Missing {
            cmd: CMD,
            what: "four numbers: mask label value depth",
        });
    }
    Ok(PositionCommand::EditTvd {
        mask: parse_i64(CMD, v[0])?,
        label: parse_i64(CMD, v[1])?,
        value: parse_i64(CMD, v[2])?,
        depth: parse_i64(CMD, v[3])?,
    })
}

fn edit_label(args: &str) -> Result<PositionCommand, ParseError> {
    const CMD: &str = "YXEDITLABELDATABASE";
    let (point, text) = match args.find(char::is_whitespace) {
        Some(i) => (&args[..i], args[i..].trim()),
        None => (args, ""),
    };
    let v = parse_fields(CMD, point, 2)?;
    Ok(PositionCommand::EditLabel {
        point: Coord { x: v[0], y: v[1] },
        text: text.to_string(),
    })
}

/// Parses a database command from its upper-cased word and its arguments. `None` when the
/// word is not a database command.
pub fn parse(word: &str, args: &str) -> Option<Result<DbCommand, ParseError>> {
    use PositionCommand as P;
    let position = |c: P| Ok(DbCommand::Position(c));
    let inline = (!args.is_empty()).then(|| args.to_string());
    let path = |c: PathCommand| Ok(DbCommand::Path(c, inline.clone()));
    let plain = |cmd: &'static str, c: P| no_args(cmd, args, DbCommand::Position(c));
    let parsed = match word {
        "YXQUERYDATABASEALL" => plain("YXQUERYDATABASEALL", P::QueryAll),
        "YXQUERYDATABASEALLT" => plain("YXQUERYDATABASEALLT", P::QueryAllText),
        "YXQUERYDATABASEONE" => plain("YXQUERYDATABASEONE", P::QueryOne),
        "YXQUERYDATABASETEXT" => plain("YXQUERYDATABASETEXT", P::QueryText),
        "YXDELETEDATABASEONE" => plain("YXDELETEDATABASEONE", P::DeleteOne),
        "YXSETBESTMOVEDATABASE" => plain("YXSETBESTMOVEDATABASE", P::SetBestMove),
        "YXCLEARBESTMOVEDATABASE" => plain("YXCLEARBESTMOVEDATABASE", P::ClearBestMove),
        "YXEDITTVDDATABASE" => edit_tvd(args).map(DbCommand::Position),
        "YXEDITTEXTDATABASE" => position(P::EditText(args.to_string())),
        "YXEDITLABELDATABASE" => edit_label(args).map(DbCommand::Position),
        "YXDELETEDATABASEALL" => delete_filter(args).map(|f| DbCommand::Position(P::DeleteAll(f))),
        "YXSETDATABASE" => path(PathCommand::SetDatabase),
        "YXDBTOTXT" => path(PathCommand::DbToTxt),
        "YXDBTOTXTALL" => path(PathCommand::DbToTxtAll),
        "YXTXTTODB" => path(PathCommand::TxtToDb),
        "YXLIBTODB" => path(PathCommand::LibToDb),
        "YXSAVEDATABASE" => no_args("YXSAVEDATABASE", args, DbCommand::Save),
        "YXDBCHECK" => no_args("YXDBCHECK", args, DbCommand::Check),
        "YXDBFIX" => no_args("YXDBFIX", args, DbCommand::Fix),
        _ => return None,
    };
    Some(parsed.or_else(|e| {
        match word {
            "YXSAVEDATABASE" | "YXDBCHECK" | "YXDBFIX" => Err(e),
            _ => Ok(DbCommand::Position(P::Invalid {
                name: position_name(word),
                why: e
                    .to_string()
                    .split_once(": ")
                    .map_or(String::new(), |(_, w)| w.to_string()),
            })),
        }
    }))
}

/// The lower-case name of a position command word.
fn position_name(word: &str) -> &'static str {
    [
        "yxquerydatabaseall",
        "yxquerydatabaseallt",
        "yxquerydatabaseone",
        "yxquerydatabasetext",
        "yxdeletedatabaseone",
        "yxdeletedatabaseall",
        "yxsetbestmovedatabase",
        "yxclearbestmovedatabase",
        "yxedittvddatabase",
        "yxeditlabeldatabase",
    ]
    .into_iter()
    .find(|n| n.eq_ignore_ascii_case(word))
    .unwrap_or("database command")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Option<Result<DbCommand, ParseError>> {
        let (w, a) = line.split_once(' ').unwrap_or((line, ""));
        parse(&w.to_ascii_uppercase(), a.trim())
    }

    #[test]
    fn parses_the_family() {
        assert_eq!(
            p("yxquerydatabaseallt"),
            Some(Ok(DbCommand::Position(PositionCommand::QueryAllText)))
        );
        assert_eq!(
            p("yxedittvddatabase 1 87 0 0"),
            Some(Ok(DbCommand::Position(PositionCommand::EditTvd {
                mask: 1,
                label: 87,
                value: 0,
                depth: 0
            })))
        );
        assert_eq!(
            p("yxeditlabeldatabase 7,8 A1"),
            Some(Ok(DbCommand::Position(PositionCommand::EditLabel {
                point: Coord { x: 7, y: 8 },
                text: "A1".into()
            })))
        );
        assert_eq!(
            p("yxdeletedatabaseall wlinsteprecursive 5"),
            Some(Ok(DbCommand::Position(PositionCommand::DeleteAll(
                DeleteFilter {
                    select: Select::WinLoseInStep(5),
                    recursive: true
                }
            ))))
        );
        assert_eq!(
            p("yxsetdatabase"),
            Some(Ok(DbCommand::Path(PathCommand::SetDatabase, None)))
        );
        assert!(p("yxfoo").is_none());
    }

    #[test]
    fn reports_bad_arguments() {
        for bad in [
            "yxedittvddatabase 1 2",
            "yxedittvddatabase a 1 2 3",
            "yxeditlabeldatabase 7 A",
            "yxeditlabeldatabase",
            "yxdeletedatabaseall bogus",
            "yxdeletedatabaseall wlinstep",
            "yxdeletedatabaseall w extra",
            "yxquerydatabaseall now",
        ] {
            // The position that follows is still read; the error comes after it.
            assert!(
                matches!(
                    p(bad),
                    Some(Ok(DbCommand::Position(PositionCommand::Invalid { .. })))
                ),
                "{bad}"
            );
        }
        assert!(matches!(p("yxsavedatabase x"), Some(Err(_))));
        assert_eq!(
            p("yxtxttodb /a b.txt"),
            Some(Ok(DbCommand::Path(
                PathCommand::TxtToDb,
                Some("/a b.txt".into())
            )))
        );
    }

    #[test]
    fn delete_filters_prune() {
        let win = Record {
            label: LABEL_WIN,
            ..Record::empty()
        };
        let other = Record::empty();
        let f = delete_filter("w").unwrap();
        assert_eq!(f.prune(&win), Prune::Delete);
        assert_eq!(f.prune(&other), Prune::Keep);
        let f = delete_filter("nonwlrecursive").unwrap();
        assert_eq!(f.prune(&win), Prune::KeepAndDescend);
        assert_eq!(f.prune(&other), Prune::Delete);
        assert_eq!(delete_filter("").unwrap().prune(&win), Prune::Delete);
    }
}
