//! The search's tunable table: its listing (`pbrain-pentad tunables`, in every build) and the
//! protocol's `INFO tune_<name> <value>`: ignored by a normal build, checked and applied by a
//! build with the `tune` feature (`cargo test --release --features tune --test tunables`).

use std::collections::HashSet;
use std::process::Command;

use pentad::protocol::SyncSession;
use pentad::search::{self, params, tunable_value, tunables, TunableKind, TuneError};

/// Feeds `line` and returns the lines the session printed.
fn feed(s: &mut SyncSession<Vec<u8>>, line: &str) -> Vec<String> {
    s.feed(line.as_bytes());
    let out = std::mem::take(s.session().output());
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_table_holds_valid_unique_lowercase_tunables() {
    let specs = tunables();
    assert!(specs.len() >= 25, "{} tunables", specs.len());
    let mut names = HashSet::new();
    for t in specs {
        assert!(names.insert(t.name), "{} twice", t.name);
        let lower = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        assert!(
            t.name.chars().all(lower),
            "{}: INFO keys arrive lower-cased",
            t.name
        );
        assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
        assert!(t.step > 0.0, "{}", t.name);
        if t.kind == TunableKind::Int {
            for v in [t.default, t.min, t.max, t.step] {
                assert_eq!(v.fract(), 0.0, "{}", t.name);
            }
        }
        let line = t.spsa_line();
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[0], t.name);
        assert_eq!(
            fields[1],
            if t.kind == TunableKind::Int {
                "int"
            } else {
                "float"
            }
        );
        let nums: Vec<f64> = fields[2..].iter().map(|f| f.parse().unwrap()).collect();
        assert_eq!(nums[..4], [t.default, t.min, t.max, t.step]);
    }
    let margin = specs.iter().find(|t| t.name == "futility_margin").unwrap();
    assert_eq!(
        margin.spsa_line(),
        "futility_margin, int, 90, 10, 400, 10, 0.002"
    );
    // The getters return the defaults (aspiration_delta: no test here changes it).
    let delta = specs.iter().find(|t| t.name == "aspiration_delta").unwrap();
    assert_eq!(delta.default, f64::from(params::aspiration_delta()));
}

#[test]
fn the_tunables_subcommand_prints_the_table() {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
        .arg("tunables")
        .output()
        .expect("run pbrain-pentad tunables");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want: Vec<String> = tunables().iter().map(|t| t.spsa_line()).collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}

#[test]
fn bad_names_and_values_are_refused_in_every_build() {
    let unknown = search::set_tunable("no_such_tunable", "1");
    assert_eq!(
        unknown,
        Err(TuneError::UnknownName("no_such_tunable".into()))
    );
    // razor_margin (20..=600): no test here changes it.
    for bad in ["abc", "1.5", "", "99999", "-1", "19", "601"] {
        let r = search::set_tunable("razor_margin", bad);
        assert!(
            matches!(
                r,
                Err(TuneError::NotANumber { .. } | TuneError::OutOfRange { .. })
            ),
            "{bad:?}: {r:?}"
        );
    }
    assert_eq!(tunable_value("razor_margin"), Some(160.0));
    assert_eq!(params::razor_margin(), 160);
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_normal_build_ignores_tune_keys_silently() {
    let mut s = SyncSession::new(Vec::new());
    for line in [
        "INFO tune_futility_margin 120",
        "INFO tune_no_such_tunable 1",
        "INFO tune_futility_margin 99999",
    ] {
        assert!(feed(&mut s, line).is_empty(), "{line}");
    }
    assert_eq!(
        search::set_tunable("futility_margin", "120"),
        Err(TuneError::NotTuningBuild)
    );
    assert_eq!(tunable_value("futility_margin"), Some(90.0));
    // The evaluation's weights are listed beside the search's and refused the same way.
    assert_eq!(
        search::set_tunable("w_renju_tempo", "30"),
        Err(TuneError::NotTuningBuild)
    );
    assert_eq!(tunable_value("w_renju_tempo"), Some(12.0));
}

/// A fixed renju position, Black to move.
#[cfg(feature = "tune")]
fn renju_board() -> pentad::board::Board {
    use pentad::search::bench::board_from_moves;
    board_from_moves(pentad::core::Rule::RENJU, 15, "h8 i9 i7 g9").unwrap()
}

/// The linear evaluation of [`renju_board`].
#[cfg(feature = "tune")]
fn renju_evaluation() -> i32 {
    pentad::eval::evaluate_linear(&renju_board())
}

/// Nodes of a fixed-depth one-thread search of a fixed position with a fresh table.
#[cfg(feature = "tune")]
fn fixed_search_nodes() -> u64 {
    search_nodes(pentad::core::Rule::FREESTYLE)
}

/// [`fixed_search_nodes`] of the same position under `rule`.
#[cfg(feature = "tune")]
fn search_nodes(rule: pentad::core::Rule) -> u64 {
    use pentad::search::bench::board_from_moves;
    use pentad::search::{SearchLimits, Searcher};
    let board = board_from_moves(rule, 15, "h8 i9 i7 g9 j8").unwrap();
    let limits = SearchLimits {
        max_depth: Some(6),
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    Searcher::new(1 << 20)
        .search(&board, &limits, &stop, &mut |_| {})
        .nodes
}

// One test changes the process-wide values, so that no other test sees them change: the
// checks run one after the other, each leaving the defaults as it found them.
#[cfg(feature = "tune")]
#[test]
fn a_tuning_build_sets_checked_values_through_info() {
    let mut s = SyncSession::new(Vec::new());
    info_sets_checked_values(&mut s);
    changed_values_change_the_tree();
    let builtin_nodes = the_policys_gates_change_the_tree();
    a_value_network_keeps_the_built_in_policy(builtin_nodes);
    renju_copies_change_only_the_renju_tree(builtin_nodes);
    evaluation_weights_move_the_evaluation(&mut s);
}

/// `INFO tune_*` sets a value in range and answers one `ERROR` line for anything else.
#[cfg(feature = "tune")]
fn info_sets_checked_values(s: &mut SyncSession<Vec<u8>>) {
    assert!(feed(s, "INFO tune_futility_margin 120").is_empty());
    assert_eq!(params::futility_margin(), 120);
    assert_eq!(tunable_value("futility_margin"), Some(120.0));
    // Bad names and values: one ERROR line each, and nothing changes.
    for line in [
        "INFO tune_futility_margin 99999",
        "INFO tune_futility_margin abc",
        "INFO tune_futility_margin",
        "INFO tune_no_such_tunable 5",
    ] {
        let out = feed(s, line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("ERROR INFO tune_"), "{line}: {out:?}");
    }
    assert_eq!(params::futility_margin(), 120);
    // Keys are case-insensitive, like every INFO key.
    assert!(feed(s, "INFO TUNE_FUTILITY_MARGIN 90").is_empty());
    assert_eq!(params::futility_margin(), 90);
}

/// The search reads the values: a change changes the tree, the default restores it.
#[cfg(feature = "tune")]
fn changed_values_change_the_tree() {
    let default_nodes = fixed_search_nodes();
    search::set_tunable("lmr_min_moves", "4").unwrap();
    assert_eq!(params::lmr_min_moves(), 4);
    let later_reduced_nodes = fixed_search_nodes();
    assert_ne!(later_reduced_nodes, default_nodes);
    search::set_tunable("lmr_min_moves", "1").unwrap();
    assert_eq!(fixed_search_nodes(), default_nodes);
}

/// A value network loaded over the built-in renju networks joins the built-in policy: its
/// value changes the tree, and the policy still orders it (switching the policy off changes
/// the tree again). The value network is the renju sample with its policy heads zeroed.
#[cfg(feature = "tune")]
fn a_value_network_keeps_the_built_in_policy(builtin_nodes: u64) {
    let renju = pentad::core::Rule::RENJU;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/net/renju-sample.pnet"
    );
    let mut bytes = std::fs::read(path).unwrap();
    // Each side's heads (after the 16-byte header and the table) end in `p` and `U`.
    const SIDE: usize = 6532;
    const POLICY_AT: usize = 4420;
    let heads_start = bytes.len() - 2 * SIDE;
    for side in 0..2 {
        let at = heads_start + side * SIDE + POLICY_AT;
        bytes[at..at + SIDE - POLICY_AT].fill(0);
    }
    let value = pentad::net::parse(&bytes).unwrap();
    assert!(value.has_value() && !value.has_policy());
    let set = pentad::net::builtin().with(std::sync::Arc::new(value));
    let builtin_policy = pentad::net::builtin();
    let kind = pentad::core::RuleKind::Renju;
    assert!(std::sync::Arc::ptr_eq(
        set.policy_for_rule(kind).unwrap(),
        builtin_policy.policy_for_rule(kind).unwrap()
    ));
    pentad::net::set_current(set);
    let value_nodes = search_nodes(renju);
    assert_ne!(value_nodes, builtin_nodes, "the value changes the tree");
    search::set_tunable("policy_order", "0").unwrap();
    assert_ne!(
        search_nodes(renju),
        value_nodes,
        "the policy still orders it"
    );
    search::set_tunable("policy_order", "150").unwrap();
    pentad::net::set_current(pentad::net::builtin());
    assert_eq!(search_nodes(renju), builtin_nodes);
}

/// A policy network's gates and reductions change the renju tree; the built-in policy's node
/// count is returned for the next check.
#[cfg(feature = "tune")]
fn the_policys_gates_change_the_tree() -> u64 {
    // A policy network's gates: its policy changes the tree; a `policy_min_depth` beyond the
    // search's depths, or a `policy_order` of 0, leaves the classical one (its reductions
    // included). The classical tree is searched with no network at all.
    let renju = pentad::core::Rule::RENJU;
    pentad::net::set_current(pentad::net::NetSet::default());
    let classical_nodes = search_nodes(renju);
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/net/renju8-sample.pnet"
    );
    pentad::net::load_file(std::path::Path::new(sample)).unwrap();
    let policy_nodes = search_nodes(renju);
    assert_ne!(policy_nodes, classical_nodes);
    search::set_tunable("policy_min_depth", "10").unwrap();
    assert_eq!(search_nodes(renju), classical_nodes);
    search::set_tunable("policy_min_depth", "2").unwrap();
    search::set_tunable("policy_order", "0").unwrap();
    assert_eq!(search_nodes(renju), classical_nodes);
    search::set_tunable("policy_order", "150").unwrap();
    assert_eq!(search_nodes(renju), policy_nodes);
    // The policy's reductions (renju's own copies): another slope or pivot, another tree.
    for (name, other) in [
        ("policy_lmr_renju", "120"),
        ("policy_lmr_pivot_renju", "50"),
    ] {
        let default = tunable_value(name).unwrap().to_string();
        search::set_tunable(name, other).unwrap();
        assert_ne!(search_nodes(renju), policy_nodes, "{name} {other}");
        search::set_tunable(name, &default).unwrap();
    }
    assert_eq!(search_nodes(renju), policy_nodes);
    // The built-in renju policy orders the search too.
    pentad::net::set_current(pentad::net::builtin());
    let builtin_nodes = search_nodes(renju);
    assert_ne!(builtin_nodes, classical_nodes);
    assert_ne!(builtin_nodes, policy_nodes);
    builtin_nodes
}

/// Renju's own copies of the search tunables.
#[cfg(feature = "tune")]
fn renju_copies_change_only_the_renju_tree(builtin_nodes: u64) {
    let renju = pentad::core::Rule::RENJU;
    // Renju's own copies: each changes the renju tree and leaves the other rules' alone; the
    // shared value does the opposite.
    let free = pentad::core::Rule::FREESTYLE;
    let free_nodes = fixed_search_nodes();
    for (name, other) in [
        ("razor_margin", "400"),
        ("lmr_log_div", "300"),
        ("policy_lmr", "120"),
        ("policy_lmr_pivot", "50"),
        ("defend_extension", "0"),
        ("block_extension", "0"),
        ("continued_attack_reduction", "0"),
        ("extension_cap_pct", "60"),
    ] {
        for (rule_name, changed) in [(format!("{name}_renju"), renju), (name.to_string(), free)] {
            let default = tunable_value(&rule_name).unwrap().to_string();
            search::set_tunable(&rule_name, other).unwrap();
            let (renju_now, free_now) = (search_nodes(renju), fixed_search_nodes());
            search::set_tunable(&rule_name, &default).unwrap();
            let (renju_moved, free_moved) = (renju_now != builtin_nodes, free_now != free_nodes);
            let expected = (changed == renju, changed == free);
            assert_eq!((renju_moved, free_moved), expected, "{rule_name} {other}");
        }
    }
    assert_eq!(search_nodes(renju), builtin_nodes);
}

/// The evaluation's tunable weights move the evaluation by what they say.
#[cfg(feature = "tune")]
fn evaluation_weights_move_the_evaluation(s: &mut SyncSession<Vec<u8>>) {
    // The evaluation's weights too: the tempo bonus moves the evaluation by as much.
    let default_eval = renju_evaluation();
    assert!(feed(s, "INFO tune_w_renju_tempo 40").is_empty());
    assert_eq!(renju_evaluation(), default_eval + 40 - 12);
    assert!(feed(s, "INFO tune_w_renju_tempo 12").is_empty());
    assert_eq!(renju_evaluation(), default_eval);
    let out = feed(s, "INFO tune_w_renju_tempo 999");
    assert!(
        out[0].starts_with("ERROR INFO tune_w_renju_tempo"),
        "{out:?}"
    );
    use pentad::board::Pattern::Block1 as BLOCK1;
    use pentad::core::Color::White as WHITE;
    // A one-stone correction in sixteenths: a whole point on the opponent's one-stone cells
    // moves the evaluation by their count, half a point by half of it.
    let opp_block1 = i32::try_from(renju_board().pattern_count(WHITE, BLOCK1)).unwrap();
    assert!(opp_block1 > 0);
    // Measured from zero corrections on both sides, whatever the built-in ones are.
    let fine_default = |name: &str| tunable_value(name).unwrap().to_string();
    let (me_default, opp_default) = (
        fine_default("w_renju_fine_me_block1"),
        fine_default("w_renju_fine_opp_block1"),
    );
    assert!(feed(s, "INFO tune_w_renju_fine_me_block1 0").is_empty());
    assert!(feed(s, "INFO tune_w_renju_fine_opp_block1 0").is_empty());
    let no_fine_eval = renju_evaluation();
    assert!(feed(s, "INFO tune_w_renju_fine_opp_block1 -16").is_empty());
    assert_eq!(renju_evaluation(), no_fine_eval + opp_block1);
    assert!(feed(s, "INFO tune_w_renju_fine_opp_block1 -8").is_empty());
    assert_eq!(renju_evaluation(), no_fine_eval + opp_block1 / 2);
    for (name, value) in [("me", &me_default), ("opp", &opp_default)] {
        let line = format!("INFO tune_w_renju_fine_{name}_block1 {value}");
        assert!(feed(s, &line).is_empty(), "{line}");
    }
    assert_eq!(renju_evaluation(), default_eval);
}
