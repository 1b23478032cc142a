//! Hand-built renju forbidden-point cases (`--part forbidden`), checked with the naive solver
//! and printed in every board symmetry.

use std::collections::HashSet;

use anyhow::{ensure, Result};
use pentad::core::{Color, Pos, Rule, Symmetry};

use super::naive::*;
use crate::progress::Progress;

/// Black to move: Black d8 f8 h8 j8 (White c8 k8 at the ends, two far White stones). g8
/// would make X.XXX.X, a double four in one line: forbidden, and the only VCF.
const BLACK_DOUBLE_FOUR: &str = "d8 c8 f8 k8 h8 a1 j8 o15";
/// White to move with g9 g10 g11: g12 or g7 makes a four whose only block is g8, Black's
/// forbidden point; g8 itself makes an open four.
const WHITE_WINS: &str = "d8 c8 f8 k8 h8 g9 j8 g10 g13 g11 a1";

/// `moves` (human notation, 15x15) in symmetry `sym`.
fn transformed(moves: &str, sym: Symmetry) -> String {
    moves
        .split_whitespace()
        .filter_map(Pos::from_human)
        .map(|p| sym.apply(p, 15, 15).to_human())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Prints both cases in all 8 symmetries (each distinct image once, in symmetry order),
/// after checking each image with the naive solver.
pub fn forbidden_cases() -> Result<()> {
    let progress = Progress::new(16, "forbidden cases");
    let mut seen = HashSet::new();
    for sym in Symmetry::ALL {
        for (base, kind) in [(BLACK_DOUBLE_FOUR, "noforbid"), (WHITE_WINS, "vcf")] {
            let moves = transformed(base, sym);
            if !seen.insert(moves.clone()) {
                continue;
            }
            let mut b = board_of(Rule::RENJU, &moves);
            let me = b.side_to_move();
            if kind == "noforbid" {
                ensure!(me == Color::Black, "{moves}: Black must be to move");
                ensure!(shortest_vcf(&mut b, 3, false).is_some(), "{moves}: no VCF");
                ensure!(
                    shortest_vcf(&mut b, 5, true).is_none(),
                    "{moves}: a VCF without forbidden points"
                );
                let forb = b.forbidden_points();
                ensure!(!forb.is_empty(), "{moves}: no forbidden point");
                progress.line(&format!(
                    "rule=renju; size=15; moves={moves}; kind=noforbid; expect={}; # only VCF is through a forbidden 4-4 point",
                    human(&forb)
                ));
            } else {
                ensure!(me == Color::White, "{moves}: White must be to move");
                let firsts = vcf_first_moves(&mut b, 3, true);
                ensure!(firsts.len() == 3, "{moves}: {}", human(&firsts));
                progress.line(&format!(
                    "rule=renju; size=15; moves={moves}; kind=vcf; expect={}; # white four whose block is Black's forbidden point",
                    human(&firsts)
                ));
            }
        }
    }
    Ok(())
}
