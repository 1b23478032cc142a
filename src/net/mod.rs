//! The neural evaluation's model: per-cell line-pattern features and the small heads that turn
//! them into a value and move-ordering logits, in integer (quantised) arithmetic; its file
//! format, the built-in networks and the process-wide current set.
//!
//! What the network computes (`trainer/` trains the same model in floating point):
//! - every **empty cell** has a feature vector `f = Σ_d E[key_d]`, the sum over the four line
//!   directions of a table row indexed by the line window through the cell in Black's view
//!   (each window cell 0 empty, 1 Black, 2 White or off-board; `key = Σ state × 3^slot`);
//!   renju reads 5 cells each side ([`Family::window`] 10 slots) or, for a table small enough
//!   for the processor's cache, 4 (8 slots, [`Family::windows`]); freestyle 4 (8 slots);
//! - its activation `a = clamp(f, 0, 1)`, or `f` itself for a value network with linear
//!   cells; the board keeps the pooled sum up to date on move and undo (`board/features.rs`);
//! - a value network may also weigh the board's pattern counts into the pool: `Σ_k n_k R[k]`
//!   over the [`COUNTS`] counts of [`crate::board::Board::raw_counts`], which the board keeps
//!   for the classical evaluation anyway (the combinations of a cell's four lines, which
//!   linear cells cannot see);
//! - per side to move, a value head on the pooled sum `g = (Σ a + Σ n R) / 16`:
//!   `h1 = clamp(W1 g + b1, 0, 1)`, `h2 = clamp(W2 h1 + b2, 0, 1)`, value logit `w3·h2 + b3`;
//! - and a policy logit per empty cell, `a · (p + U h1)`: a per-channel weight that the
//!   position's context (`h1`) adjusts.
//!
//! Integer scales: activations and hidden units 256 = 1.0, weights 64 = 1.0, biases 256 × 64,
//! so the value logit is `v / 16384` and a policy logit `l / 65536`.

mod file;
mod infer;

use std::sync::{Arc, OnceLock, RwLock};

use crate::core::RuleKind;

#[cfg(test)]
pub(crate) use file::tests::{
    random_network, random_plain_policy_network, random_policy_network, random_value_network,
};
pub use file::{load_file, parse, MAGIC};
pub use infer::{policy_logit, Heads, Hidden};

/// Feature channels per cell (one AVX2 register pair of `i16`).
pub const CHANNELS: usize = 32;
/// Hidden units of each head layer.
pub const HIDDEN: usize = 32;
/// Integer value of an activation or hidden unit of 1.0.
pub const ACT_ONE: i32 = 256;
/// Integer value of a weight of 1.0.
pub const WEIGHT_ONE: i32 = 64;
/// Integer value of a value logit of 1.0 (`ACT_ONE × WEIGHT_ONE`).
pub const VALUE_ONE: i32 = ACT_ONE * WEIGHT_ONE;
/// Integer value of a policy logit of 1.0.
pub const POLICY_ONE: i32 = 65536;
/// The pooled sum is divided by `1 << POOL_SHIFT` (16) before the heads.
pub const POOL_SHIFT: u32 = 4;
/// Pattern counts a value network may weigh into its pool, in the order of
/// [`crate::board::Board::raw_counts`].
pub const COUNTS: usize = 64;
/// One feature row per pattern count, as the file holds them.
pub type CountRows = [[i16; CHANNELS]; COUNTS];
/// The count rows transposed: per channel, the weights of the 64 counts in two halves of 32
/// (the heads' dot product of 32 lanes does each half).
pub type CountColumns = [[[i16; 32]; 2]; CHANNELS];
const _: () = assert!(COUNTS == 64);

/// The rule families with networks of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Renju,
    Freestyle,
}

impl Family {
    /// Both families, in file code order.
    pub const ALL: [Family; 2] = [Family::Renju, Family::Freestyle];

    /// The family of a rule, if it has networks (standard and caro keep the classical
    /// evaluation).
    pub fn of(kind: RuleKind) -> Option<Family> {
        match kind {
            RuleKind::Renju => Some(Family::Renju),
            RuleKind::Freestyle => Some(Family::Freestyle),
            _ => None,
        }
    }

    /// Window cells (slots) a line key covers: renju needs the fifth cell each side to tell a
    /// five from an overline, freestyle does not.
    pub fn window(self) -> u32 {
        match self {
            Family::Renju => 10,
            Family::Freestyle => 8,
        }
    }

    /// The windows a network of the family may read: the full one, and for renju also 8 (it
    /// cannot tell a five from an overline by the keys, which the rules code does anyway).
    pub fn windows(self) -> &'static [u32] {
        match self {
            Family::Renju => &[8, 10],
            Family::Freestyle => &[8],
        }
    }

    /// The family's code in network files.
    pub fn code(self) -> u8 {
        match self {
            Family::Renju => 0,
            Family::Freestyle => 1,
        }
    }

    /// The family of a file code.
    pub fn from_code(code: u8) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.code() == code)
    }

    /// Lower-case name, as in messages and file names.
    pub fn name(self) -> &'static str {
        match self {
            Family::Renju => "renju",
            Family::Freestyle => "freestyle",
        }
    }
}

/// One family's quantised network.
pub struct Network {
    family: Family,
    /// Window slots of a line key (one of [`Family::windows`]).
    window: u32,
    /// `E[key][channel]`, `keys × CHANNELS`; row 0 (the all-empty window) is zero.
    embedding: Box<[[i16; CHANNELS]]>,
    /// Heads for Black to move and White to move.
    heads: [Heads; 2],
    /// Some value head reads anything (else the network only orders moves).
    has_value: bool,
    /// Some policy head reads anything (else the network does not order moves).
    has_policy: bool,
    /// Some policy head reads the position's context (`U h1`).
    policy_reads_context: bool,
    /// Per side to move, the policy's channel weights without context (`p` alone).
    plain_policy: [[i32; CHANNELS]; 2],
    /// A cell's activation is its feature sum unclipped (a value network only): the pooled
    /// sum is then a sum of table rows, which a move changes by two rows per cell it reaches.
    linear: bool,
    /// A value network's rows for the board's pattern counts, added to the pool (transposed).
    count_columns: Option<Box<CountColumns>>,
}

impl Network {
    /// A network from its parts; its window is read from the table's size (`3^window` rows).
    fn new(family: Family, embedding: Box<[[i16; CHANNELS]]>, heads: [Heads; 2]) -> Network {
        let has_value = heads.iter().any(Heads::has_value);
        let has_policy = heads.iter().any(Heads::has_policy);
        let policy_reads_context = heads.iter().any(Heads::policy_reads_context);
        let plain_policy = [0, 1].map(|side| heads[side].policy_weights(&[0; HIDDEN]));
        let window = (1..=10)
            .find(|&w| 3usize.pow(w) >= embedding.len())
            .unwrap_or(10);
        debug_assert_eq!(3usize.pow(window), embedding.len());
        Network {
            family,
            window,
            embedding,
            heads,
            has_value,
            has_policy,
            policy_reads_context,
            plain_policy,
            linear: false,
            count_columns: None,
        }
    }

    /// Whether a cell's activation is its feature sum unclipped (see [`Network::linear`]).
    #[inline(always)]
    pub fn linear_cells(&self) -> bool {
        self.linear
    }

    /// The pooled input of the value heads: the cells' pool, plus each pattern count (`counts`,
    /// asked for only by a network with count rows) times its row.
    #[inline]
    pub fn value_pool(
        &self,
        mut pool: [i32; CHANNELS],
        counts: impl FnOnce() -> [u16; COUNTS],
    ) -> [i32; CHANNELS] {
        if let Some(columns) = &self.count_columns {
            // A board of at most 32 × 32 counts at most 4,096 of anything: an i16 holds it.
            let counts = counts().map(|n| n as i16);
            let mut halves = [[0i16; 32]; 2];
            halves[0].copy_from_slice(&counts[..32]);
            halves[1].copy_from_slice(&counts[32..]);
            let term = infer::count_term(columns, &halves);
            for (sum, t) in pool.iter_mut().zip(term) {
                *sum += t;
            }
        }
        pool
    }

    /// Whether the network weighs the board's pattern counts into its pool.
    #[inline]
    pub fn has_count_rows(&self) -> bool {
        self.count_columns.is_some()
    }

    /// Sets the count rows (`None`: none).
    fn set_count_rows(&mut self, rows: Option<&CountRows>) {
        self.count_columns = rows.map(|rows| {
            Box::new(std::array::from_fn(|c| {
                std::array::from_fn(|half| std::array::from_fn(|k| rows[32 * half + k][c]))
            }))
        });
    }

    /// The count rows as the file holds them, if any.
    #[cfg(test)]
    fn count_rows(&self) -> Option<CountRows> {
        let columns = self.count_columns.as_ref()?;
        Some(std::array::from_fn(|k| {
            std::array::from_fn(|c| columns[c][k / 32][k % 32])
        }))
    }

    /// Whether the network has a value (a network whose value heads are all zero is a
    /// policy network: the evaluation does not read it, the move ordering may).
    #[inline]
    pub fn has_value(&self) -> bool {
        self.has_value
    }

    /// Whether the network has a policy (one whose policy heads are all zero, trained for its
    /// value alone, does not order moves).
    #[inline]
    pub fn has_policy(&self) -> bool {
        self.has_policy
    }

    /// The per-channel policy weights of the side to move (colour index) in a position whose
    /// pooled activations `pool` gives, if asked for ([`Heads::policy_weights`]): a policy
    /// without context reads neither the pool nor the heads' hidden layer.
    pub fn policy_weights(
        &self,
        side: usize,
        pool: impl FnOnce() -> [i32; CHANNELS],
    ) -> [i32; CHANNELS] {
        if !self.policy_reads_context {
            return self.plain_policy[side];
        }
        let heads = &self.heads[side];
        heads.policy_weights(&heads.first_layer(&pool()))
    }

    /// Whether the policy reads the position's context (else it needs no pooled sum).
    #[inline]
    pub fn policy_reads_context(&self) -> bool {
        self.policy_reads_context
    }

    /// The rule family the network was trained for.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Window slots of the network's line keys (cells each side: half of it).
    #[inline]
    pub fn window(&self) -> u32 {
        self.window
    }

    /// The feature row of one line key (`key < 3^window`).
    #[inline(always)]
    pub fn row(&self, key: usize) -> &[i16; CHANNELS] {
        &self.embedding[key]
    }

    /// The heads of the side to move (colour index: 0 Black, 1 White).
    #[inline]
    pub fn heads(&self, side: usize) -> &Heads {
        &self.heads[side]
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, window {})", self.family.name(), self.window)
    }
}

/// The networks in use, per family: the one whose features a board keeps (a value network,
/// or a policy that reads the position's context) and the one whose policy orders moves.
/// They are one network when a file has both, two when a value network joins a policy
/// without context.
#[derive(Clone, Default, Debug)]
pub struct NetSet {
    features: [Option<Arc<Network>>; 2],
    policies: [Option<Arc<Network>>; 2],
}

impl NetSet {
    /// The network whose features a board of the rule keeps, if its family has one.
    pub fn for_rule(&self, kind: RuleKind) -> Option<&Arc<Network>> {
        Family::of(kind).and_then(|f| self.features[f.code() as usize].as_ref())
    }

    /// The network whose policy orders a rule's moves, if its family has one.
    pub fn policy_for_rule(&self, kind: RuleKind) -> Option<&Arc<Network>> {
        Family::of(kind).and_then(|f| self.policies[f.code() as usize].as_ref())
    }

    /// This set with `net` in its family's places: its value (or policy with context) as the
    /// features, its policy as the move ordering, each when it has one. A policy with
    /// context that the features no longer hold leaves; so do features that neither a
    /// value nor the policy reads any more.
    pub fn with(&self, net: Arc<Network>) -> NetSet {
        let mut set = self.clone();
        let slot = net.family.code() as usize;
        if net.has_policy() {
            set.policies[slot] = Some(Arc::clone(&net));
        }
        if net.has_value() || net.policy_reads_context() {
            set.features[slot] = Some(net);
        }
        // A policy with context reads only its own features, and features that no value
        // reads serve only such a policy: unless the two places hold one network, those go.
        let (features, policy) = (&mut set.features[slot], &mut set.policies[slot]);
        let shared = matches!((&*features, &*policy), (Some(f), Some(p)) if Arc::ptr_eq(f, p));
        if !shared {
            if policy.as_ref().is_some_and(|p| p.policy_reads_context()) {
                *policy = None;
            }
            if features.as_ref().is_some_and(|f| !f.has_value()) {
                *features = None;
            }
        }
        set
    }
}

/// The network files built into the binary, under `src/net/builtin/`, with the family each
/// is for (a family without one plays with the classical evaluation), each family's policy
/// before its value network, which joins it ([`NetSet::with`]). A unit test checks that each
/// parses as its family's network.
const BUILTIN_FILES: &[(Family, &[u8])] = &[
    (Family::Renju, include_bytes!("builtin/renju-policy.pnet")),
    (Family::Renju, include_bytes!("builtin/renju-value.pnet")),
    (
        Family::Freestyle,
        include_bytes!("builtin/freestyle-policy.pnet"),
    ),
    (
        Family::Freestyle,
        include_bytes!("builtin/freestyle-value.pnet"),
    ),
];

/// The networks built into the binary ([`BUILTIN_FILES`]).
pub fn builtin() -> NetSet {
    static BUILT: OnceLock<NetSet> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let nets = BUILTIN_FILES.iter().filter_map(|&(family, bytes)| {
                parse(bytes).ok().filter(|net| net.family == family)
            });
            nets.fold(NetSet::default(), |set, net| set.with(Arc::new(net)))
        })
        .clone()
}

fn current_slot() -> &'static RwLock<NetSet> {
    static CURRENT: OnceLock<RwLock<NetSet>> = OnceLock::new();
    CURRENT.get_or_init(|| RwLock::new(builtin()))
}

/// The networks in use (the built-in ones unless a file was loaded).
pub fn current() -> NetSet {
    current_slot()
        .read()
        .map(|s| s.clone())
        .unwrap_or_else(|e| e.into_inner().clone())
}

/// Makes `set` current (the built-in ones with [`builtin`]).
pub fn set_current(set: NetSet) {
    match current_slot().write() {
        Ok(mut slot) => *slot = set,
        Err(e) => *e.into_inner() = set,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_networks_are_a_policy_and_a_value_network_per_family() {
        for &(family, bytes) in BUILTIN_FILES {
            let net = parse(bytes).expect("a built-in network parses");
            assert_eq!(net.family, family);
        }
        let set = builtin();
        for kind in [RuleKind::Standard, RuleKind::Caro] {
            assert!(
                set.policy_for_rule(kind).is_none(),
                "{kind:?} has no network"
            );
            assert!(set.for_rule(kind).is_none(), "{kind:?} has no network");
        }
        for kind in [RuleKind::Renju, RuleKind::Freestyle] {
            let net = set.policy_for_rule(kind).expect("a built-in network");
            assert!(
                net.has_policy() && !net.has_value(),
                "{kind:?}: a policy alone"
            );
            assert!(
                !net.policy_reads_context(),
                "{kind:?}: read straight from the line keys"
            );
            assert_eq!(net.window(), 8, "{kind:?}: the 8-slot window");
            let Some(value) = set.for_rule(kind) else {
                panic!("{kind:?} keeps a value network's features");
            };
            assert!(
                value.has_value() && !value.has_policy() && value.linear_cells(),
                "{kind:?}: a value network with linear cells"
            );
            assert!(
                value.has_count_rows(),
                "{kind:?}: the value network weighs the pattern counts"
            );
            assert_eq!(value.window(), 8, "{kind:?}: the 8-slot window");
        }
    }

    #[test]
    fn a_value_network_joins_a_policy_without_context_and_one_with_context_stands_alone() {
        let kind = RuleKind::Renju;
        let is = |slot: Option<&Arc<Network>>, net: &Arc<Network>| {
            slot.is_some_and(|s| Arc::ptr_eq(s, net))
        };
        let plain = Arc::new(random_plain_policy_network(Family::Renju, 1));
        let value = Arc::new(random_value_network(Family::Renju, 2));
        let with_context = Arc::new(random_policy_network(Family::Renju, 3));
        let full = Arc::new(random_network(Family::Renju, 4));
        let set = NetSet::default().with(Arc::clone(&plain));
        assert!(set.for_rule(kind).is_none() && is(set.policy_for_rule(kind), &plain));
        // A value network keeps the policy; another policy keeps the value.
        let paired = set.with(Arc::clone(&value));
        assert!(is(paired.for_rule(kind), &value) && is(paired.policy_for_rule(kind), &plain));
        let other = Arc::new(random_plain_policy_network(Family::Renju, 5));
        let repaired = paired.with(Arc::clone(&other));
        assert!(is(repaired.for_rule(kind), &value));
        assert!(is(repaired.policy_for_rule(kind), &other));
        // A policy with context reads its own features: it takes both places, and a value
        // network after it leaves no policy that could read them.
        let alone = paired.with(Arc::clone(&with_context));
        assert!(is(alone.for_rule(kind), &with_context));
        assert!(is(alone.policy_for_rule(kind), &with_context));
        let valued = alone.with(Arc::clone(&value));
        assert!(is(valued.for_rule(kind), &value) && valued.policy_for_rule(kind).is_none());
        // A network with both heads is both; a plain policy after it keeps its value.
        let both = valued.with(Arc::clone(&full));
        assert!(is(both.for_rule(kind), &full) && is(both.policy_for_rule(kind), &full));
        let after = both.with(Arc::clone(&plain));
        assert!(is(after.for_rule(kind), &full) && is(after.policy_for_rule(kind), &plain));
        // A plain policy after a policy with context and no value drops those features.
        let dropped = alone.with(Arc::clone(&plain));
        assert!(dropped.for_rule(kind).is_none() && is(dropped.policy_for_rule(kind), &plain));
        // The other family is untouched throughout.
        assert!(after.for_rule(RuleKind::Freestyle).is_none());
        assert!(after.policy_for_rule(RuleKind::Freestyle).is_none());
    }

    #[test]
    fn a_policy_without_context_reads_neither_the_pool_nor_the_heads() {
        let net = random_policy_network(Family::Renju, 4);
        let pool = [300 * 16; CHANNELS];
        for side in 0..2 {
            let heads = net.heads(side);
            let with_context = heads.policy_weights(&heads.hidden(&pool).h1);
            assert_eq!(net.policy_weights(side, || pool), with_context);
        }
        let heads = net.heads.clone().map(|h| Heads {
            u: [[0; HIDDEN]; CHANNELS],
            ..h
        });
        let plain = Network::new(Family::Renju, net.embedding, heads);
        assert!(plain.has_policy());
        for side in 0..2 {
            let p = plain.heads(side).p;
            let expected: [i32; CHANNELS] =
                std::array::from_fn(|c| i32::from(p[c]) * ACT_ONE / WEIGHT_ONE);
            let weights = plain.policy_weights(side, || panic!("the pool was read"));
            assert_eq!(weights, expected);
        }
    }
}
