//! Typed parsing of the Yixin-Board commands (`YX…`) beyond the Gomocup core: settings
//! report, block lists, analysis, hash files, opening-rule steps. (The database commands are
//! parsed elsewhere.)

use super::parse::{no_args, parse_i64, shorten, ParseError};

/// What a list of `x,y` lines (ended by `DONE`) after a command is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovesFor {
    /// `YXBLOCK`: exclude these moves from the root search.
    Block,
    /// `YXBLOCKUNDO`: allow these moves again.
    BlockUndo,
    /// `YXBLOCKPATH`: a sequence from the empty board; its last move is excluded wherever
    /// the position before it is reached.
    BlockPath,
    /// `YXBLOCKPATHUNDO`: allow that move in that position again.
    BlockPathUndo,
    /// `YXSOOSORVSTEP2..6`: the stones so far, for step `.0` with `N` = `.1` where given.
    Soosorv(u8, Option<i64>),
}

/// Which transposition-table file command waits for its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashFile {
    /// `YXHASHDUMP`: write the table.
    Dump,
    /// `YXHASHLOAD`: read a table written by `YXHASHDUMP`.
    Load,
}

/// One Yixin-Board command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YxCommand {
    /// `YXSHOWINFO`: the limits the GUI sizes its settings with.
    ShowInfo,
    /// A command followed by `x,y` lines and `DONE`.
    Moves(MovesFor),
    /// `YXBLOCKRESET`: no root move excluded.
    BlockReset,
    /// `YXBLOCKPATHRESET`: no move excluded anywhere in the tree.
    BlockPathReset,
    /// `YXSEARCHDEFEND`: every move that defends, each shown as an analysis line.
    SearchDefend,
    /// `YXBALANCEONE bias` / `YXBALANCETWO bias`: the move (or pair of moves) after which
    /// the side to move scores closest to `bias`.
    Balance { two: bool, bias: i64 },
    /// `YXSHOWHASHUSAGE`.
    ShowHashUsage,
    /// `YXHASHDUMP` / `YXHASHLOAD`, with the path when it is on the same line.
    Hash(HashFile, Option<String>),
    /// `YXDRAW`: a draw offer (answered, not accepted).
    Draw,
    /// `YXRESIGN`: the opponent resigns.
    Resign,
    /// `YXSWAP2STEP1..3`: a Swap2 decision on the current position.
    Swap2Step(u8),
    /// `YXSOOSORVSTEP1`: propose the first three stones (the other steps send stones).
    SoosorvStep1,
}

/// Parses a Yixin command (`word` upper-cased); `Unknown` when `word` is none of them.
pub fn parse(word: &str, args: &str, line: &str) -> Result<YxCommand, ParseError> {
    use YxCommand as Y;
    let moves = |cmd, m| no_args(cmd, args, Y::Moves(m));
    let bias = |cmd| {
        if args.is_empty() {
            Ok(0)
        } else {
            parse_i64(cmd, args)
        }
    };
    let path = || (!args.is_empty()).then(|| args.to_string());
    match word {
        "YXSHOWINFO" => no_args("YXSHOWINFO", args, Y::ShowInfo),
        "YXBLOCK" => moves("YXBLOCK", MovesFor::Block),
        "YXBLOCKUNDO" => moves("YXBLOCKUNDO", MovesFor::BlockUndo),
        "YXBLOCKRESET" => no_args("YXBLOCKRESET", args, Y::BlockReset),
        "YXBLOCKPATH" => moves("YXBLOCKPATH", MovesFor::BlockPath),
        "YXBLOCKPATHUNDO" => moves("YXBLOCKPATHUNDO", MovesFor::BlockPathUndo),
        "YXBLOCKPATHRESET" => no_args("YXBLOCKPATHRESET", args, Y::BlockPathReset),
        "YXSEARCHDEFEND" => no_args("YXSEARCHDEFEND", args, Y::SearchDefend),
        "YXBALANCEONE" => Ok(Y::Balance {
            two: false,
            bias: bias("YXBALANCEONE")?,
        }),
        "YXBALANCETWO" => Ok(Y::Balance {
            two: true,
            bias: bias("YXBALANCETWO")?,
        }),
        "YXSHOWHASHUSAGE" => no_args("YXSHOWHASHUSAGE", args, Y::ShowHashUsage),
        "YXHASHDUMP" => Ok(Y::Hash(HashFile::Dump, path())),
        "YXHASHLOAD" => Ok(Y::Hash(HashFile::Load, path())),
        "YXDRAW" => no_args("YXDRAW", args, Y::Draw),
        "YXRESIGN" => no_args("YXRESIGN", args, Y::Resign),
        "YXSWAP2STEP1" => no_args("YXSWAP2STEP1", args, Y::Swap2Step(1)),
        "YXSWAP2STEP2" => no_args("YXSWAP2STEP2", args, Y::Swap2Step(2)),
        "YXSWAP2STEP3" => no_args("YXSWAP2STEP3", args, Y::Swap2Step(3)),
        "YXSOOSORVSTEP1" => no_args("YXSOOSORVSTEP1", args, Y::SoosorvStep1),
        "YXSOOSORVSTEP2" => moves("YXSOOSORVSTEP2", MovesFor::Soosorv(2, None)),
        "YXSOOSORVSTEP3" => moves("YXSOOSORVSTEP3", MovesFor::Soosorv(3, None)),
        "YXSOOSORVSTEP4" => soosorv_n("YXSOOSORVSTEP4", 4, args),
        "YXSOOSORVSTEP5" => soosorv_n("YXSOOSORVSTEP5", 5, args),
        "YXSOOSORVSTEP6" => moves("YXSOOSORVSTEP6", MovesFor::Soosorv(6, None)),
        _ => Err(ParseError::Unknown(shorten(line))),
    }
}

/// `YXSOOSORVSTEP4 N` / `YXSOOSORVSTEP5 N`: N (the number of fifth moves) must be 1..=10.
fn soosorv_n(cmd: &'static str, step: u8, args: &str) -> Result<YxCommand, ParseError> {
    if args.is_empty() {
        return Err(ParseError::Missing {
            cmd,
            what: "number of fifth moves",
        });
    }
    let n = parse_i64(cmd, args)?;
    if !(1..=MAX_FIFTH_MOVES).contains(&n) {
        return Err(ParseError::OutOfRange {
            cmd,
            text: n.to_string(),
        });
    }
    Ok(YxCommand::Moves(MovesFor::Soosorv(step, Some(n))))
}

/// Most fifth moves a Soosõrv-N opening may ask for.
pub const MAX_FIFTH_MOVES: i64 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_yixin_commands() {
        assert_eq!(parse("YXSHOWINFO", "", ""), Ok(YxCommand::ShowInfo));
        assert_eq!(
            parse("YXBALANCETWO", "-30", ""),
            Ok(YxCommand::Balance {
                two: true,
                bias: -30
            })
        );
        assert_eq!(
            parse("YXHASHDUMP", "a b.hash", ""),
            Ok(YxCommand::Hash(HashFile::Dump, Some("a b.hash".into())))
        );
        assert_eq!(
            parse("YXSOOSORVSTEP4", "2", ""),
            Ok(YxCommand::Moves(MovesFor::Soosorv(4, Some(2))))
        );
        assert!(parse("YXSOOSORVSTEP4", "0", "").is_err());
        assert!(parse("YXSOOSORVSTEP5", "", "").is_err());
        assert!(parse("YXBLOCK", "7,7", "").is_err());
        assert!(matches!(
            parse("YXFOO", "", "yxfoo"),
            Err(ParseError::Unknown(_))
        ));
    }
}
