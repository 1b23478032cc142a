//! The learned evaluation tables: per rule family, a value per pattern code and colour and a
//! value per threat index and side to move; their text file format, the built-in set and the
//! process-wide current set (replaceable from a file at run time).
//!
//! File format (text, whitespace-separated, `#` starts a comment line):
//!
//! ```text
//! pentad-eval 1
//! family renju            # then `gomoku` (freestyle, standard, caro)
//! cells black  <N_PCODES integers>
//! cells white  <N_PCODES integers>
//! threat black <N_THREAT integers>   # value when Black is to move, by threat index
//! threat white <N_THREAT integers>
//! family gomoku
//! ...
//! ```
//!
//! Values are in the evaluation's unit and must fit in an `i16`.

use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

use anyhow::{bail, Context, Result};

use super::threat::N_THREAT;
use crate::board::{CellValues, N_PCODES};
use crate::core::{Color, RuleKind};

/// Magic first line of a tables file.
const MAGIC: &str = "pentad-eval 1";

/// Rule families with separate tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Renju: Black's and White's values differ.
    Renju,
    /// Freestyle, standard and caro.
    Gomoku,
}

impl Family {
    /// Both families, in file order.
    pub const ALL: [Family; 2] = [Family::Renju, Family::Gomoku];

    /// The family of a rule.
    pub const fn of(kind: RuleKind) -> Family {
        match kind {
            RuleKind::Renju => Family::Renju,
            _ => Family::Gomoku,
        }
    }

    /// The family's index in the tables kept per family (renju 0, the others 1).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Family::Renju => "renju",
            Family::Gomoku => "gomoku",
        }
    }
}

/// The plain values of one family, as trained and as written to files.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyValues {
    /// `cells[colour][pcode]`.
    pub cells: [Vec<i16>; 2],
    /// `threat[side to move][threat index]`.
    pub threat: [Vec<i16>; 2],
}

impl FamilyValues {
    /// All-zero values.
    pub fn zero() -> FamilyValues {
        FamilyValues {
            cells: [vec![0; N_PCODES], vec![0; N_PCODES]],
            threat: [vec![0; N_THREAT], vec![0; N_THREAT]],
        }
    }

    /// Whether the evaluation part (cells and threats) is all zero.
    pub fn evaluation_is_zero(&self) -> bool {
        self.cells
            .iter()
            .chain(&self.threat)
            .flatten()
            .all(|&v| v == 0)
    }

    /// The board-ready table: expanded cell values carrying the threat values (Black's
    /// then White's) for the evaluator.
    pub fn to_cell_values(&self) -> CellValues {
        let cells: [[i16; N_PCODES]; 2] =
            std::array::from_fn(|c| std::array::from_fn(|pc| self.cells[c][pc]));
        let extra = self.threat.concat();
        CellValues::from_pcode_values(&cells, extra)
    }
}

/// A complete set of tables: one per family, board-ready.
pub struct EvalTables {
    /// Plain values, by family in [`Family::ALL`] order.
    pub values: [FamilyValues; 2],
    ready: [Arc<CellValues>; 2],
}

impl EvalTables {
    /// Tables from plain values. An all-zero family shares the board's zero table, so boards
    /// of its rules keep no value sum and the evaluation skips the learned part.
    pub fn new(values: [FamilyValues; 2]) -> EvalTables {
        let ready = std::array::from_fn(|f| {
            if values[f].evaluation_is_zero() {
                CellValues::zero()
            } else {
                Arc::new(values[f].to_cell_values())
            }
        });
        EvalTables { values, ready }
    }

    /// All-zero tables: the evaluation is the linear one alone.
    pub fn zero() -> EvalTables {
        EvalTables::new([FamilyValues::zero(), FamilyValues::zero()])
    }

    /// Parses the text format (module doc).
    pub fn parse(text: &str) -> Result<EvalTables> {
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        if lines.next() != Some(MAGIC) {
            bail!("not a Pentad evaluation file (first line must be `{MAGIC}`)");
        }
        let mut tokens = lines.flat_map(str::split_whitespace).peekable();
        let mut values = [FamilyValues::zero(), FamilyValues::zero()];
        for (f, family) in Family::ALL.iter().enumerate() {
            expect(&mut tokens, &["family", family.name()])?;
            for (what, len) in [("cells", N_PCODES), ("threat", N_THREAT)] {
                for colour in ["black", "white"] {
                    expect(&mut tokens, &[what, colour])?;
                    let c = usize::from(colour == "white");
                    let row = read_values(&mut tokens, len)
                        .with_context(|| format!("{} {what} {colour}", family.name()))?;
                    match what {
                        "cells" => values[f].cells[c] = row,
                        _ => values[f].threat[c] = row,
                    }
                }
            }
        }
        if let Some(t) = tokens.next() {
            bail!("unexpected `{t}` after the last table");
        }
        Ok(EvalTables::new(values))
    }

    /// The text format of these tables.
    pub fn to_text(&self) -> String {
        let mut out = format!("{MAGIC}\n");
        for (f, family) in Family::ALL.iter().enumerate() {
            out += &format!("family {}\n", family.name());
            for (what, rows) in [
                ("cells", &self.values[f].cells),
                ("threat", &self.values[f].threat),
            ] {
                for (c, colour) in ["black", "white"].iter().enumerate() {
                    out += &row_text(&format!("{what} {colour}"), &rows[c]);
                }
            }
        }
        out
    }

    /// The board-ready table of a rule.
    pub fn for_rule(&self, kind: RuleKind) -> &Arc<CellValues> {
        &self.ready[Family::of(kind) as usize]
    }

    /// Plain values of a rule's family.
    pub fn family(&self, kind: RuleKind) -> &FamilyValues {
        &self.values[Family::of(kind) as usize]
    }

    /// The threat value for `me` to move at `index`, read from a board-ready table.
    #[inline(always)]
    pub fn threat_value(ready: &CellValues, me: Color, index: usize) -> i32 {
        ready
            .extra()
            .get(me.index() * N_THREAT + index)
            .map_or(0, |&v| i32::from(v))
    }
}

/// One table row in the file format: its heading, then 20 values a line.
fn row_text(heading: &str, row: &[i16]) -> String {
    let mut out = heading.to_string();
    for (i, v) in row.iter().enumerate() {
        out += if i % 20 == 0 { "\n" } else { " " };
        out += &v.to_string();
    }
    out + "\n"
}

fn expect<'a>(tokens: &mut impl Iterator<Item = &'a str>, want: &[&str]) -> Result<()> {
    for w in want {
        match tokens.next() {
            Some(t) if t == *w => {}
            Some(t) => bail!("expected `{w}`, found `{t}`"),
            None => bail!("expected `{w}`, found the end of the file"),
        }
    }
    Ok(())
}

fn read_values<'a>(tokens: &mut impl Iterator<Item = &'a str>, len: usize) -> Result<Vec<i16>> {
    (0..len)
        .map(|i| {
            let t = tokens
                .next()
                .with_context(|| format!("only {i} of {len} values"))?;
            t.parse::<i16>()
                .with_context(|| format!("value {i}: `{t}` is not an integer in -32768..=32767"))
        })
        .collect()
}

fn current_slot() -> &'static RwLock<Arc<EvalTables>> {
    static CURRENT: OnceLock<RwLock<Arc<EvalTables>>> = OnceLock::new();
    CURRENT.get_or_init(|| RwLock::new(builtin()))
}

/// The built-in tables' text (`builtin.eval`): renju's cells and threats fitted to a
/// stronger engine's scores and taken at half strength, the other rules' zero
/// (docs/eval-training.md).
const BUILTIN_TEXT: &str = include_str!("builtin.eval");

/// The built-in tables, parsed from [`BUILTIN_TEXT`] on first use (a unit test checks that
/// the text parses; zero tables would stand in if it did not).
pub fn builtin() -> Arc<EvalTables> {
    static BUILT: OnceLock<Arc<EvalTables>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            Arc::new(EvalTables::parse(BUILTIN_TEXT).unwrap_or_else(|_| EvalTables::zero()))
        })
        .clone()
}

/// The tables in use (the built-in ones unless a file was loaded).
pub fn current() -> Arc<EvalTables> {
    current_slot()
        .read()
        .map(|t| t.clone())
        .unwrap_or_else(|e| e.into_inner().clone())
}

/// Loads tables from a file and makes them current; on error nothing changes.
pub fn load_file(path: &Path) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let tables = EvalTables::parse(&text).with_context(|| format!("in {}", path.display()))?;
    set_current(Arc::new(tables));
    Ok(())
}

/// Makes `tables` current (the built-in ones with [`builtin`]).
pub fn set_current(tables: Arc<EvalTables>) {
    match current_slot().write() {
        Ok(mut slot) => *slot = tables,
        Err(e) => *e.into_inner() = tables,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip_through_text() {
        let mut values = [FamilyValues::zero(), FamilyValues::zero()];
        for (i, v) in values[0].cells[1].iter_mut().enumerate() {
            *v = (i as i16 % 50) - 25;
        }
        values[1].threat[0][4095] = -7;
        let t = EvalTables::new(values);
        let again = EvalTables::parse(&t.to_text()).expect("written tables");
        assert_eq!(t.values, again.values);
        assert!(!Arc::ptr_eq(
            again.for_rule(RuleKind::Renju),
            &CellValues::zero()
        ));
        let zero = EvalTables::parse(&EvalTables::zero().to_text()).expect("zero tables");
        assert!(Arc::ptr_eq(
            zero.for_rule(RuleKind::Freestyle),
            &CellValues::zero()
        ));
    }

    #[test]
    fn the_built_in_tables_parse_and_only_renju_has_values() {
        let t = EvalTables::parse(BUILTIN_TEXT).expect("built-in tables");
        assert!(!t.values[Family::Renju as usize].evaluation_is_zero());
        assert!(t.values[Family::Gomoku as usize].evaluation_is_zero());
        assert_eq!(builtin().values, t.values);
        assert!(Arc::ptr_eq(
            builtin().for_rule(RuleKind::Freestyle),
            &CellValues::zero()
        ));
    }

    #[test]
    fn malformed_files_are_rejected_with_a_reason() {
        let good = builtin().to_text();
        let cases = [
            ("", "not a Pentad"),
            (
                &good.replacen("family gomoku", "family caro", 1),
                "expected `gomoku`",
            ),
            (&good.replacen(" 0\n", " x\n", 1), "not an integer"),
            (&good.replacen(" 0\n", " 40000\n", 1), "not an integer"),
            (&format!("{good} 5"), "unexpected `5`"),
            (&good[..good.len() / 2], "of"),
        ];
        for (text, why) in cases {
            let err = EvalTables::parse(text).err().expect("must fail");
            assert!(format!("{err:#}").contains(why), "{why}: {err:#}");
        }
    }
}
