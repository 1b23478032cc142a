//! The tree search's move lists: the board's generator ([`Board::generate`]) chosen by the
//! threat the side to move faces, each move scored for ordering.
//!
//! Against a five only its block is generated; against an open three the defences plus own
//! fours; against a winning four-three point the moves that stop it plus own fours;
//! otherwise every candidate, ordered by the pattern values of both colours plus the
//! learned ordering values when the tables in use have them (`eval::tables`).

use std::sync::Arc;

use crate::board::{Board, GenKind, Pattern4, Threat};
use crate::core::{Color, Pos};
use crate::eval::weights::OrderWeights;
use crate::net::{policy_logit, CHANNELS, POLICY_ONE};

use super::params::{DEFENCE_ORDER, FORCING_ORDER};

/// Ordering value of `p` for the mover `me`, whose class there is `a`, by the values `w`:
/// the mover's fours (plain ones included) and blocks of the opponent's four-three or bigger
/// carry the forcing mark.
#[inline]
fn cell_order(w: &OrderWeights, board: &Board, p: Pos, me: Color, a: Pattern4) -> i32 {
    let d = board.pattern4(p, me.opp());
    let mut s = w.attack[a as usize] + w.defend[d as usize];
    if a >= Pattern4::Block4 || d >= Pattern4::Block4Flex3 {
        s += FORCING_ORDER;
    }
    s
}

/// The policy logits of one node's moves, kept by cell so that the move loop can read a
/// move's logit after the list has been reordered.
pub(crate) struct PolicyMemo {
    /// Logit by cell index ([`POLICY_ONE`] = 1 nat); only the node's moves are current.
    logits: Vec<i32>,
    /// The node's largest logit.
    best: i32,
    /// The policy was read at this node.
    active: bool,
    /// The policy is still to be read, with this weight: [`read_policy`] reads it when the
    /// node's moves are first ordered past the table move, so a node that the table move
    /// cuts off never pays for it.
    pending: Option<i32>,
}

impl PolicyMemo {
    /// A memo for searches of `board`: the logit table (4 bytes a cell) is made only when
    /// the board's network has a policy, so a search without one carries none.
    pub fn for_board(board: &Board) -> PolicyMemo {
        let has_policy = board.policy_network().is_some();
        PolicyMemo {
            logits: if has_policy {
                vec![0; Pos::COUNT]
            } else {
                Vec::new()
            },
            best: 0,
            active: false,
            pending: None,
        }
    }

    /// How far (in [`POLICY_ONE`] units) the policy puts move `p` below the node's best move;
    /// `None` when the node's policy was not read.
    #[inline]
    pub fn gap(&self, p: Pos) -> Option<i32> {
        self.active.then(|| self.best - self.logits[p.index()])
    }

    /// The policy is still to be read.
    #[cfg(test)]
    fn is_pending(&self) -> bool {
        self.pending.is_some()
    }
}

/// Moves for the side to move at an inner node facing `threat`, with ordering scores by the
/// patterns; `memo` is set to add the network's policy with `policy_weight` when
/// [`read_policy`] is called (nothing to add for a single move, a zero weight or a board
/// without a policy). Empty for `Threat::Defend` when no defence exists (the node is lost).
pub(crate) fn generate(
    board: &mut Board,
    threat: Threat,
    policy_weight: i32,
    out: &mut Vec<(Pos, i32)>,
    memo: &mut PolicyMemo,
) {
    generate_by_patterns(board, threat, out);
    let has_policy = board.policy_network().is_some();
    memo.active = false;
    memo.pending = (out.len() > 1 && policy_weight != 0 && has_policy).then_some(policy_weight);
}

/// Adds the policy that [`generate`] left pending to the scores of the node's moves `out`
/// (in any order; `board` in the node's position) and keeps their logits in `memo`.
pub(crate) fn read_policy(board: &Board, out: &mut [(Pos, i32)], memo: &mut PolicyMemo) {
    if let Some(weight) = memo.pending.take() {
        memo.active = add_policy(board, out, weight, memo);
    }
}

/// Adds `weight` ordering units per unit (nat) of the network's policy logit to each move's
/// score, when the board has a network with a policy and the weight is not zero, and keeps
/// the logits in `memo`. Whether the policy was read.
fn add_policy(board: &Board, out: &mut [(Pos, i32)], weight: i32, memo: &mut PolicyMemo) -> bool {
    let Some(net) = board.policy_network().filter(|_| weight != 0) else {
        return false;
    };
    if net.policy_reads_context() && !board.network().is_some_and(|f| Arc::ptr_eq(f, net)) {
        // A policy with context reads the features the board keeps for it (`NetSet` never
        // pairs it with another network's features).
        return false;
    }
    if memo.logits.len() < Pos::COUNT {
        // A memo made before the network was installed (never in a search: a worker's
        // memos are made for its board).
        memo.logits.resize(Pos::COUNT, 0);
    }
    let channel_weights = net.policy_weights(board.side_to_move().index(), || board.net_pool());
    let logits = &mut memo.logits;
    memo.best = if net.policy_reads_context() {
        board.with_net_activations(|act| add_logits(act, out, &channel_weights, weight, logits))
    } else {
        // Straight from the line keys, inlined (a dynamic call per move cost about 1 % of a
        // renju search).
        let act = |p| board.net_activation_direct(p);
        add_logits(act, out, &channel_weights, weight, logits)
    };
    true
}

/// Adds each move's policy logit (from its activation `act`) times `weight` to its score
/// and records the logit by cell; returns the largest logit.
#[inline(always)]
fn add_logits(
    act: impl Fn(Pos) -> [i16; CHANNELS],
    moves: &mut [(Pos, i32)],
    channel_weights: &[i32; CHANNELS],
    weight: i32,
    logits: &mut [i32],
) -> i32 {
    let mut best = i32::MIN;
    for m in moves.iter_mut() {
        let logit = policy_logit(&act(m.0), channel_weights);
        logits[m.0.index()] = logit;
        best = best.max(logit);
        m.1 += (i64::from(logit) * i64::from(weight) / i64::from(POLICY_ONE)) as i32;
    }
    best
}

/// [`generate`] by the pattern values alone.
fn generate_by_patterns(board: &mut Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let me = board.side_to_move();
    // A `tune` build reads the values set at run time; a normal one the constants.
    #[cfg(feature = "tune")]
    let w = &crate::eval::tuning::current_order();
    #[cfg(not(feature = "tune"))]
    let w = &crate::eval::weights::ORDER;
    match threat {
        Threat::Block(q) => out.push((q, FORCING_ORDER)),
        Threat::Defend => board.generate(me, GenKind::Defences, |b, p, a| {
            // Own fours already carry the forcing mark (so they come before the defences); a
            // pure defence gets its own bonus.
            let bonus = if a < Pattern4::Block4 {
                DEFENCE_ORDER
            } else {
                0
            };
            out.push((p, cell_order(w, b, p, me, a) + bonus));
        }),
        _ => {
            if board.pattern4_count(me.opp(), Pattern4::Block4Flex3) > 0 {
                board.generate(me, GenKind::FourThreeDefences, |b, p, a| {
                    out.push((p, cell_order(w, b, p, me, a)));
                });
                if !out.is_empty() {
                    return;
                }
            }
            generate_all(board, w, out);
        }
    }
}

/// Every candidate of the side to move, scored by the values `w`.
fn generate_all(board: &mut Board, w: &OrderWeights, out: &mut Vec<(Pos, i32)>) {
    let me = board.side_to_move();
    board.generate(me, GenKind::All, |b, p, a| {
        out.push((p, cell_order(w, b, p, me, a)));
    });
}

/// Root moves: as `generate` against a four or an open three (every candidate when that
/// leaves none), and every candidate otherwise.
pub(crate) fn generate_root(board: &Board, threat: Threat, out: &mut Vec<(Pos, i32)>) {
    let mut b = board.clone();
    if matches!(threat, Threat::Block(_) | Threat::Defend) {
        generate_by_patterns(&mut b, threat, out);
    }
    if out.is_empty() {
        #[cfg(feature = "tune")]
        let w = &crate::eval::tuning::current_order();
        #[cfg(not(feature = "tune"))]
        let w = &crate::eval::weights::ORDER;
        generate_all(&mut b, w, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testutil::setup;
    use crate::core::Rule;
    use crate::net::{random_policy_network, Family, Network};

    /// Installs `net` (or none) on `b` for its features and its policy both, as
    /// `eval::prepare` does with a network whose policy reads the context.
    fn install(b: &mut Board, net: Option<Arc<Network>>) {
        b.set_network(net.clone());
        b.set_policy_network(net);
    }

    #[test]
    fn the_policy_adds_its_weighted_logits_to_the_ordering_scores() {
        let mut b = setup(Rule::RENJU, "h8 i9 j8", "i8 h9", Color::White);
        let mut plain = Vec::new();
        generate_by_patterns(&mut b, Threat::None, &mut plain);
        let net = Arc::new(random_policy_network(Family::Renju, 3));
        install(&mut b, Some(Arc::clone(&net)));
        let heads = net.heads(Color::White.index());
        let weights = heads.policy_weights(&heads.hidden(&b.net_pool()).h1);
        let mut changed = 0;
        for weight in [0, 150, 2000] {
            let mut scored = plain.clone();
            let mut memo = PolicyMemo::for_board(&b);
            memo.active = add_policy(&b, &mut scored, weight, &mut memo);
            assert_eq!(memo.active, weight != 0);
            let logit = |p| policy_logit(&b.net_activation(p), &weights);
            let best = plain.iter().map(|m| logit(m.0)).max().unwrap();
            for (&(p, before), &(q, after)) in plain.iter().zip(&scored) {
                assert_eq!(p, q);
                let expected = before + (i64::from(logit(p)) * i64::from(weight) / 65536) as i32;
                assert_eq!(after, expected, "{p:?} at weight {weight}");
                changed += usize::from(after != before);
                let gap = (weight != 0).then(|| best - logit(p));
                assert_eq!(memo.gap(p), gap, "{p:?} at weight {weight}");
            }
        }
        assert!(changed > plain.len(), "the random policy moves the scores");
        install(&mut b, None);
        let mut scored = plain.clone();
        assert!(!add_policy(
            &b,
            &mut scored,
            150,
            &mut PolicyMemo::for_board(&b)
        ));
        assert_eq!(scored, plain, "no network, no policy");
    }

    #[test]
    fn a_memo_keeps_a_logit_table_only_for_a_board_with_a_policy() {
        let mut b = setup(Rule::RENJU, "h8 i9 j8", "i8 h9", Color::White);
        assert_eq!(PolicyMemo::for_board(&b).logits.capacity(), 0);
        install(
            &mut b,
            Some(Arc::new(random_policy_network(Family::Renju, 7))),
        );
        assert_eq!(PolicyMemo::for_board(&b).logits.len(), Pos::COUNT);
    }

    #[test]
    fn a_node_that_reads_no_policy_leaves_its_memo_inactive() {
        let mut b = setup(Rule::RENJU, "h8 i9 j8", "i8 h9", Color::White);
        let (mut moves, mut memo) = (Vec::new(), PolicyMemo::for_board(&b));
        install(
            &mut b,
            Some(Arc::new(random_policy_network(Family::Renju, 5))),
        );
        generate(&mut b, Threat::None, 150, &mut moves, &mut memo);
        assert!(memo.is_pending() && moves.iter().all(|m| memo.gap(m.0).is_none()));
        read_policy(&b, &mut moves, &mut memo);
        assert!(!memo.is_pending());
        assert!(moves.iter().all(|m| memo.gap(m.0).is_some_and(|g| g >= 0)));
        assert!(
            moves.iter().any(|m| memo.gap(m.0) == Some(0)),
            "the best move"
        );
        for weight in [0, 150] {
            if weight != 0 {
                install(&mut b, None);
            }
            moves.clear();
            generate(&mut b, Threat::None, weight, &mut moves, &mut memo);
            assert!(!memo.is_pending());
            read_policy(&b, &mut moves, &mut memo);
            assert!(moves.len() > 1 && moves.iter().all(|m| memo.gap(m.0).is_none()));
        }
    }
}
