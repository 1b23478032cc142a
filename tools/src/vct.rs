//! The depth-first VCT solver (victory by continuous threats: fours and open threes), for
//! the tools: `tactics` proves its generated cases with it and `prove` runs it beside the
//! engine's proof-number prover (`pentad::search::pns`), which searches the same move sets.
//!
//! The attacker plays only fours and three-making moves; the defender answers a four with the
//! forced block and an open three with every defence the move generator knows (points on the
//! threat lines that leave no open four, plus its own fours). A proof therefore only exists
//! when every defence loses. Conservative: a threat the defence generator does not recognise
//! (a four-three point without an open three) ends the line as "no proof", never as a win.

use pentad::board::{Board, GenKind, Pattern4, Threat, UNDEFENDED_THREAT_LOSS_PLIES};
use pentad::core::{Color, Pos};
use pentad::search::budget::Budget;
use pentad::search::pns::VctWin;

/// Searches a VCT for the side to move within `max_plies` plies (odd, attacker's moves
/// included), deepening two plies at a time; `budget` counts nodes and stops the search at 0.
pub fn vct_root(board: &mut Board, max_plies: u32, budget: &mut u64) -> Option<VctWin> {
    let mut b = Budget::nodes(*budget);
    let r = vct_root_limited(board, max_plies, &mut b);
    *budget = b.nodes;
    r
}

/// As [`vct_root`] with a [`Budget`] that may also end at a deadline or on a stop flag.
pub fn vct_root_limited(board: &mut Board, max_plies: u32, budget: &mut Budget) -> Option<VctWin> {
    let att = board.side_to_move();
    let mut plies = 3;
    while plies <= max_plies {
        let mut line = Vec::new();
        if let Some(n) = attack(board, att, plies as i32, budget, &mut line) {
            line.reverse();
            let first = *line.first()?;
            return Some((first, n, line));
        }
        if budget.spent() {
            break;
        }
        plies += 2;
    }
    None
}

/// The attacker's moves of kind `kind` (threats or fours), strongest class first.
fn attacking_moves(b: &mut Board, att: Color, kind: GenKind) -> Vec<(Pos, Pattern4)> {
    let mut v = Vec::new();
    b.generate(att, kind, |_, p, a| v.push((p, a)));
    v.sort_by_key(|m| std::cmp::Reverse(m.1));
    v
}

/// Attacker to move: Some(plies) if a threat sequence wins within `depth` plies.
fn attack(
    b: &mut Board,
    att: Color,
    depth: i32,
    budget: &mut Budget,
    line: &mut Vec<Pos>,
) -> Option<u32> {
    if !budget.take() {
        return None;
    }
    let moves: Vec<(Pos, Pattern4)> = match b.threat() {
        Threat::Win(n) => {
            if n as i32 > depth {
                return None;
            }
            let kind = if n == 1 {
                Pattern4::Five
            } else {
                Pattern4::Flex4
            };
            line.push(b.first_point_with(att, kind)?);
            return Some(n);
        }
        Threat::Loss(_) => return None,
        Threat::Block(q) => vec![(q, b.pattern4(q, att))],
        // Facing an open three, only fours keep the initiative.
        Threat::Defend => attacking_moves(b, att, GenKind::Fours),
        Threat::None => attacking_moves(b, att, GenKind::Threats),
    };
    if depth < 3 {
        return None;
    }
    for (m, _) in moves {
        b.make_move(m);
        let mut sub = Vec::new();
        let r = defend(b, att, depth - 1, budget, &mut sub);
        b.undo();
        if let Some(n) = r {
            line.extend(sub);
            line.push(m);
            return Some(n + 1);
        }
        if budget.spent() {
            return None;
        }
    }
    None
}

/// Defender to move: Some(plies) if every defence loses within `depth` plies.
fn defend(
    b: &mut Board,
    att: Color,
    depth: i32,
    budget: &mut Budget,
    line: &mut Vec<Pos>,
) -> Option<u32> {
    if !budget.take() {
        return None;
    }
    let mut replies = Vec::new();
    match b.threat() {
        Threat::Win(_) | Threat::None => return None,
        Threat::Loss(n) => return (n as i32 <= depth).then_some(n),
        Threat::Block(q) => replies.push(q),
        Threat::Defend => {
            let me = b.side_to_move();
            b.generate(me, GenKind::Defences, |_, p, _| replies.push(p));
            if replies.is_empty() {
                let n = UNDEFENDED_THREAT_LOSS_PLIES;
                return (n as i32 <= depth).then_some(n);
            }
        }
    }
    let mut worst = 0;
    let mut best_line = Vec::new();
    for r in replies {
        b.make_move(r);
        let mut sub = Vec::new();
        let res = attack(b, att, depth - 1, budget, &mut sub);
        b.undo();
        match res {
            Some(n) if n + 1 > worst => {
                worst = n + 1;
                best_line = sub;
                best_line.push(r);
            }
            Some(_) => {}
            None => return None,
        }
    }
    line.extend(best_line);
    Some(worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::board::random_games;
    use pentad::core::Rule;
    use pentad::search::bench::board_from_moves;

    #[test]
    fn finds_a_double_three_and_no_phantom_wins() {
        // Black h8 i8 (open two) and j10 j11 (open two): j8 makes two open threes.
        let mut b = board_from_moves(Rule::FREESTYLE, 15, "h8 a1 i8 a15 j10 o1 j11 o15").unwrap();
        let mut budget = 200_000;
        let (mv, plies, line) = vct_root(&mut b, 9, &mut budget).expect("a VCT exists");
        assert!(b.is_legal(mv));
        assert!(plies <= 9 && plies % 2 == 1, "plies {plies}");
        assert_eq!(line.first(), Some(&mv));
        // Two lone stones: nothing to prove.
        let mut b = board_from_moves(Rule::FREESTYLE, 15, "h8 a1 j10 o15").unwrap();
        let mut budget = 200_000;
        assert!(vct_root(&mut b, 9, &mut budget).is_none());
    }

    #[test]
    fn renju_black_double_three_is_not_a_win() {
        // The same shape for Black in renju: j8 is a forbidden 3-3, and no other quick VCT.
        let mut b = board_from_moves(Rule::RENJU, 15, "h8 a1 i8 a15 j10 o1 j11 o15").unwrap();
        let j8 = Pos::from_human("j8").unwrap();
        assert!(b.is_forbidden(j8));
        let mut budget = 200_000;
        if let Some((mv, _, _)) = vct_root(&mut b, 9, &mut budget) {
            assert_ne!(mv, j8);
            assert!(b.is_legal(mv));
        }
    }

    /// Random games: wherever neither side has a five or an open four to make and the
    /// board sees a quick win (a winning four-three or an unanswerable double three), this
    /// solver proves a win within 5 plies too. (Not the converse: the solver also proves
    /// double threes whose defender has fours that do not help.)
    #[test]
    fn every_quick_win_is_a_proved_five_ply_threat_win() {
        let mut found = [0u32; 2];
        for (k, rule) in [Rule::FREESTYLE, Rule::RENJU].into_iter().enumerate() {
            random_games(rule, 5, 120, 60, |b| {
                if !matches!(b.threat(), Threat::None) {
                    return false;
                }
                let Some(quick) = b.quick_win() else {
                    return true;
                };
                let mut budget = 1_000_000;
                let win = vct_root(b, 5, &mut budget);
                let proved = win.as_ref().map(|w| w.1);
                let moves: Vec<_> = b.history().map(|(p, _)| p.to_human()).collect();
                let line: Vec<_> = win
                    .iter()
                    .flat_map(|w| &w.2)
                    .map(|p| p.to_human())
                    .collect();
                assert_eq!(Some(quick), proved, "{rule:?} after {moves:?}: {line:?}");
                found[k] += 1;
                true
            });
        }
        assert!(
            found.iter().all(|&n| n >= 10),
            "too few quick wins met: {found:?}"
        );
    }
}
