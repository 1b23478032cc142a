//! Runs the deterministic search bench (`cargo test --release --test tactics_bench -- --ignored --nocapture`)
//! and checks that its node count does not depend on the run.

#[test]
#[ignore]
fn bench_prints_summary() {
    let mut out = Vec::new();
    pentad::search::bench::run(&mut out).expect("bench");
    let text = String::from_utf8(out).expect("utf8");
    print!("{text}");
    let last = text.lines().last().expect("output");
    assert!(last.ends_with(" nps") && last.contains(" nodes "), "{last}");
}
