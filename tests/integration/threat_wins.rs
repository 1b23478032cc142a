//! Data-driven test of the proof-number threat search on positions from real games
//! (`tests/data/threat-wins.txt`): each is proved within a fixed node budget, the line it
//! returns is legal move by move and ends with the attacker's winning stone, and the claimed
//! length is odd (the attacker moves first and last).

use pentad::core::{Cell, Pos, Rule};
use pentad::search::bench::board_from_moves;
use pentad::search::budget::Budget;
use pentad::search::pns::{prove, ProofTable};

/// Node budget per position: every position of the file is proved in under half of it.
const NODES: u64 = 40_000;

#[test]
fn game_positions_with_a_threat_win_are_proved() {
    let text = include_str!("../data/threat-wins.txt");
    let mut positions = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.splitn(4, ' ');
        let rule = Rule::from_name(f.next().unwrap()).unwrap();
        let moves = f.nth(2).unwrap();
        let mut b = board_from_moves(rule, 15, moves).unwrap();
        let att = b.side_to_move();
        let mut table = ProofTable::for_budget(NODES);
        let mut budget = Budget::nodes(NODES);
        let (mv, plies, pv) = prove(&mut b, &mut table, &mut budget)
            .unwrap_or_else(|| panic!("no proof in {NODES} nodes: {line}"));
        assert_eq!(pv.first(), Some(&mv), "{line}");
        assert!(
            plies % 2 == 1 && plies as usize >= pv.len(),
            "{plies} plies: {line}"
        );
        for &p in &pv {
            assert!(
                b.is_legal(p),
                "{} illegal in the line: {line}",
                p.to_human()
            );
            b.make_move(p);
        }
        let last: Pos = *pv.last().unwrap();
        assert_eq!(b.cell(last), Cell::Stone(att), "{line}");
        positions += 1;
    }
    assert_eq!(positions, 15);
}
