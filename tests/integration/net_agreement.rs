//! The engine's integer network against the trainer: for each network under
//! `tests/data/net/` (`<name>.pnet`), the value and policy logits the engine computes on the
//! positions of `<name>.agree.txt` equal the ones `trainer/train.py` wrote for its model.
//! The trainer trains through the integer arithmetic, so the two agree to the file's five
//! decimals; the bound allows for that rounding only.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::net::{self, policy_logit, Network, POLICY_ONE, VALUE_ONE};

/// Largest difference allowed between the engine's logits and the trainer's printed ones.
const BOUND: f64 = 1e-4;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/net")
}

/// Checks one agreement line: `<rule> <N>x<N> <moves|-> <value> <x>,<y>:<logit> ×3`.
fn check_line(net: &Arc<Network>, line: &str) {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 7, "malformed line {line:?}");
    let rule = Rule::from_name(f[0]).expect("a rule name");
    let size: usize = f[1].split('x').next().unwrap().parse().unwrap();
    let mut board = Board::new(size, size, rule).unwrap();
    board.set_network(Some(net.clone()));
    for m in f[2].split(',').filter(|m| *m != "-") {
        board.make_move(Pos::from_human(m).expect("a move"));
    }
    let heads = net.heads(board.side_to_move().index());
    // The pool as the evaluation reads it: with the pattern counts where the net weighs them.
    let hidden = heads.hidden(&net.value_pool(board.net_pool(), || board.raw_counts()));
    let value = f64::from(hidden.value) / f64::from(VALUE_ONE);
    let expected: f64 = f[3].parse().unwrap();
    assert!(
        (value - expected).abs() <= BOUND,
        "{line}: engine value {value}, trainer {expected}"
    );
    let weights = heads.policy_weights(&hidden.h1);
    for cell in &f[4..] {
        let (xy, logit) = cell.split_once(':').unwrap();
        let (x, y) = xy.split_once(',').unwrap();
        let p = Pos::new(x.parse().unwrap(), y.parse().unwrap());
        let got =
            f64::from(policy_logit(&board.net_activation(p), &weights)) / f64::from(POLICY_ONE);
        let want: f64 = logit.parse().unwrap();
        assert!(
            (got - want).abs() <= BOUND,
            "{line}: engine policy at {xy} {got}, trainer {want}"
        );
    }
}

#[test]
fn integer_inference_equals_the_trainers_model() {
    let mut checked = 0;
    for entry in std::fs::read_dir(data_dir()).expect("tests/data/net") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pnet") {
            continue;
        }
        let net = Arc::new(net::parse(&std::fs::read(&path).unwrap()).expect("a network"));
        let agree = path.with_extension("agree.txt");
        let text = std::fs::read_to_string(&agree).expect("an agreement file beside the network");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            check_line(&net, line);
            checked += 1;
        }
    }
    assert!(checked >= 24, "only {checked} positions checked");
}
