//! The web board in a real browser: headless Chromium over WebDriver plays a game to its end
//! by clicking, takes moves back and asks for a hint, saves an SGF and loads it back, tries
//! a renju forbidden point, sees an engine crash reported and restarts it, and opens arena
//! results in the viewer. With `PENTAD_WEB_SCREENSHOTS=DIR` it also saves the screenshots
//! shown in the README (`web-board.png`, `web-viewer.png`). The tests need Debian's `chromium`
//! and `chromium-driver`, so a plain `cargo test` builds them but skips them (`#[ignore]`);
//! `.ci/run` installs both and runs them: `cargo test --release --test browser
//! -- --ignored`.

mod support;

use std::path::Path;

use support::{pentad_engine, screenshot_dir, Browser};

/// Arena output (`pentad-arena --results` and `--sgf`) of a short match, for the viewer.
const ARENA_RESULTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/arena-results.jsonl"
);
const ARENA_SGF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arena-games.sgf");

fn engine() -> String {
    pentad_engine().display().to_string()
}

/// Points of a `size` board nearest the centre first: where the test person plays.
fn by_distance(size: usize) -> Vec<(usize, usize)> {
    let c = (size / 2) as i64;
    let mut v: Vec<(usize, usize)> = (0..size)
        .flat_map(|y| (0..size).map(move |x| (x, y)))
        .collect();
    v.sort_by_key(|&(x, y)| {
        let (dx, dy) = (x as i64 - c, y as i64 - c);
        (dx.abs().max(dy.abs()), dy, dx)
    });
    v
}

/// Clicks the free point nearest the centre and waits for the engine's answer.
async fn play_one(b: &Browser, order: &[(usize, usize)]) {
    let taken = b.occupied().await;
    let before = taken.len();
    let &(x, y) = order
        .iter()
        .find(|p| !taken.contains(p))
        .expect("a free point");
    b.click_point(x, y).await;
    b.wait_for(
        "the stone to appear",
        &format!("document.querySelectorAll('#board circle.stone:not(.pv)').length > {before}"),
    )
    .await;
    b.wait_my_turn().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn a_game_is_played_to_its_end_by_clicking() {
    let b = Browser::open(&engine()).await;
    b.new_game(15, "freestyle", "black", "instant").await;
    let order = by_distance(15);
    for _ in 0..100 {
        play_one(&b, &order).await;
        let n = b.stones().await;
        if n == 8 {
            if let Some(dir) = screenshot_dir() {
                b.click("#analyze").await;
                b.wait_for(
                    "an analysis report",
                    "document.getElementById('an-depth').textContent !== '–'",
                )
                .await;
                b.screenshot("play-view", &dir.join("web-board.png")).await;
                b.click("#analyze").await;
            }
        }
        if b.text("status").await.contains("wins") {
            break;
        }
    }
    let status = b.text("status").await;
    assert!(status.contains("wins by five"), "{status}");
    let five = b
        .eval("document.querySelectorAll('#board circle.win').length")
        .await;
    assert!(
        five.as_u64().unwrap() >= 5,
        "the winning five is highlighted: {five}"
    );
    // The board takes no more stones, and says why.
    let n = b.stones().await;
    b.click_point(0, 0).await;
    b.wait_for(
        "a refusal",
        "document.getElementById('error').textContent.length > 0",
    )
    .await;
    assert_eq!(b.stones().await, n);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn undo_takes_back_a_move_pair_and_hint_suggests_without_playing() {
    let b = Browser::open(&engine()).await;
    b.new_game(15, "freestyle", "black", "instant").await;
    let order = by_distance(15);
    play_one(&b, &order).await;
    play_one(&b, &order).await;
    assert_eq!(b.stones().await, 4);
    b.click("#undo").await;
    b.wait_for(
        "the undo",
        "document.querySelectorAll('#board circle.stone').length === 2",
    )
    .await;
    b.wait_my_turn().await;
    b.click("#redo").await;
    b.wait_for(
        "the redo",
        "document.querySelectorAll('#board circle.stone').length === 4",
    )
    .await;
    b.click("#hint").await;
    b.wait_for("the hint", "document.getElementById('hint-mark') !== null")
        .await;
    assert_eq!(b.stones().await, 4, "a hint is not played");
    let (hx, hy) = (
        b.eval("Number(document.getElementById('hint-mark').dataset.x)")
            .await,
        b.eval("Number(document.getElementById('hint-mark').dataset.y)")
            .await,
    );
    let hint = (hx.as_u64().unwrap() as usize, hy.as_u64().unwrap() as usize);
    assert!(
        !b.occupied().await.contains(&hint),
        "the hint is a free point"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn a_game_saved_as_sgf_loads_back() {
    let b = Browser::open(&engine()).await;
    b.new_game(15, "standard", "black", "instant").await;
    let order = by_distance(15);
    for _ in 0..3 {
        play_one(&b, &order).await;
    }
    let played = b.occupied().await;
    b.click("#save").await;
    let file = wait_download(&b.downloads).await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("(;FF[4]GM[4]") && text.contains("RU[standard]"),
        "{text}"
    );
    assert_eq!(
        text.matches(";B[").count() + text.matches(";W[").count(),
        6,
        "{text}"
    );

    b.new_game(15, "freestyle", "black", "instant").await;
    assert_eq!(b.stones().await, 0);
    b.upload("load-file", &file).await;
    b.wait_for(
        "the loaded game",
        "document.querySelectorAll('#board circle.stone').length === 6",
    )
    .await;
    let mut loaded = b.occupied().await;
    let mut expected = played.clone();
    loaded.sort();
    expected.sort();
    assert_eq!(loaded, expected);
    b.wait_my_turn().await;

    // A malformed file is explained, and the game stays.
    let bad = b.dir.join("bad.sgf");
    std::fs::write(&bad, "(;GM[4]SZ[15];B[hh];B[ii])").unwrap();
    b.upload("load-file", &bad).await;
    b.wait_for(
        "the error",
        "document.getElementById('error').textContent.includes('Cannot load')",
    )
    .await;
    assert!(b.text("error").await.contains("colours must alternate"));
    assert_eq!(b.stones().await, 6);
    b.close().await;
}

async fn wait_download(dir: &Path) -> std::path::PathBuf {
    let until = std::time::Instant::now() + support::WAIT;
    loop {
        let done = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "sgf"));
        if let Some(p) = done {
            return p;
        }
        assert!(std::time::Instant::now() < until, "no SGF downloaded");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn renju_forbidden_points_are_marked_and_refused() {
    let b = Browser::open(&engine()).await;
    // Black: three on row 8 (f8 g8 h8) and j6 j7 j9; White far away. j8 is a 4-4 for Black.
    let sgf = "(;GM[4]SZ[15]RU[renju];B[fh];W[aa];B[gh];W[ac];B[hh];W[ae];B[jf];W[ag];B[jg];W[ai];B[ji];W[ak])";
    let file = b.dir.join("renju.sgf");
    std::fs::write(&file, sgf).unwrap();
    b.upload("load-file", &file).await;
    b.wait_for(
        "the renju position",
        "document.querySelectorAll('#board circle.stone').length === 12",
    )
    .await;
    b.wait_for(
        "the forbidden mark",
        "document.querySelector('#board g.forbid[data-x=\"9\"][data-y=\"7\"]') !== null",
    )
    .await;
    b.click_point(9, 7).await;
    b.wait_for(
        "the refusal",
        "document.getElementById('error').textContent.includes('forbidden')",
    )
    .await;
    assert_eq!(b.stones().await, 12, "the forbidden point was not played");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn an_engine_crash_is_reported_and_a_restart_keeps_the_game() {
    // An engine that crashes on its first move, then (once restarted) is pbrain-pentad.
    let tmp = support::scratch_dir("crash");
    let dir = tmp.path();
    let script = dir.join("crash-once.sh");
    let marker = dir.join("crashed");
    std::fs::write(
        &script,
        format!(
            "if [ -e '{m}' ]; then exec '{e}'; fi\ntouch '{m}'\nwhile read l; do case \"$l\" in\n\
             START*) echo OK;; ABOUT*) echo 'name=\"crash-once\"';; BOARD*) exit 3;; esac; done\n",
            m = marker.display(),
            e = engine()
        ),
    )
    .unwrap();
    let b = Browser::open(&format!("sh '{}'", script.display())).await;
    b.new_game(15, "freestyle", "black", "instant").await;
    b.click_point(7, 7).await;
    b.wait_for(
        "the crash report",
        "!document.getElementById('engine-down').hidden",
    )
    .await;
    let why = b.text("engine-down-text").await;
    assert!(why.contains("crashed") && why.contains("exit"), "{why}");
    assert!(b.text("error").await.contains("Engine problem"));
    assert_eq!(b.stones().await, 1, "the game record stays");
    b.click("#restart").await;
    b.wait_for(
        "the engine's move after the restart",
        "document.querySelectorAll('#board circle.stone').length === 2",
    )
    .await;
    assert!(!b.visible("engine-down").await);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn the_viewer_shows_arena_results() {
    let b = Browser::open(&engine()).await;
    b.click("#tab-viewer").await;
    b.upload("results-file", Path::new(ARENA_RESULTS)).await;
    b.wait_for(
        "the table",
        "document.querySelectorAll('#games tbody tr').length > 0",
    )
    .await;
    let lines = std::fs::read_to_string(ARENA_RESULTS).unwrap();
    let games = lines.lines().filter(|l| !l.trim().is_empty()).count();
    let rows = b
        .eval("document.querySelectorAll('#games tbody tr').length")
        .await;
    assert_eq!(rows.as_u64().unwrap() as usize, games);
    let summary = b.text("summary").await;
    assert!(
        summary.contains("Elo") && summary.contains("score"),
        "{summary}"
    );
    let points = b
        .eval("document.getElementById('plot-line').getAttribute('points').split(' ').length")
        .await;
    assert_eq!(
        points.as_u64().unwrap() as usize,
        games + 1,
        "one plot point per game"
    );

    // Replay the second game move by move.
    b.click("#games tbody tr:nth-child(2)").await;
    let n: usize = serde_json::from_str::<serde_json::Value>(lines.lines().nth(1).unwrap())
        .unwrap()["moves"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(b.text("replay-pos").await, format!("move {n} / {n}"));
    b.click("#replay-first").await;
    assert_eq!(b.text("replay-pos").await, format!("move 0 / {n}"));
    b.click("#replay-next").await;
    b.click("#replay-next").await;
    assert_eq!(b.text("replay-pos").await, format!("move 2 / {n}"));
    let shown = b
        .eval("document.querySelectorAll('#replay-board circle.stone').length")
        .await;
    assert_eq!(shown.as_u64().unwrap(), 2);
    b.click("#replay-last").await;
    assert_eq!(b.text("replay-pos").await, format!("move {n} / {n}"));
    if let Some(dir) = screenshot_dir() {
        b.click("#games tbody tr:nth-child(4)").await;
        b.screenshot("viewer-view", &dir.join("web-viewer.png"))
            .await;
    }

    // The same match as SGF.
    b.upload("results-file", Path::new(ARENA_SGF)).await;
    b.wait_for(
        "the SGF table",
        "document.getElementById('replay-detail').textContent.startsWith('Game 1')",
    )
    .await;
    let rows = b
        .eval("document.querySelectorAll('#games tbody tr').length")
        .await;
    assert_eq!(rows.as_u64().unwrap() as usize, games);

    // A malformed file is explained; the table stays.
    let bad = b.dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"game\": 1, \"black\": \"x\"}\n").unwrap();
    b.upload("results-file", &bad).await;
    b.wait_for("the error", "document.getElementById('error').textContent.includes('Cannot read the results file: line 1')").await;
    let rows = b
        .eval("document.querySelectorAll('#games tbody tr').length")
        .await;
    assert_eq!(rows.as_u64().unwrap() as usize, games);
    b.close().await;
}

/// Starts a Swap2 game: `color` black, the person opens; white, the engine opens.
async fn new_swap2_game(b: &Browser, color: &str) {
    b.set("size", "15").await;
    b.set("rule", "freestyle").await;
    b.set("color", color).await;
    b.set("level", "instant").await;
    b.set("swap2", "true").await;
    b.click("#new-game").await;
}

/// Waits until the person moves or chooses a colour; takes White when asked.
async fn finish_swap2(b: &Browser) {
    b.wait_for(
        "the engine's Swap2 decision",
        "document.getElementById('status').textContent.startsWith('Your move') || !document.getElementById('swap2-choice').hidden",
    )
    .await;
    if b.visible("swap2-choice").await {
        b.click("#swap-white").await;
    }
    b.wait_my_turn().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn swap2_openings_with_the_engine() {
    let b = Browser::open(&engine()).await;
    // The person opens: three stones, then the engine decides.
    new_swap2_game(&b, "black").await;
    b.wait_for(
        "the Swap2 prompt",
        "document.getElementById('status').textContent.includes('place three')",
    )
    .await;
    for (x, y) in [(7, 7), (8, 7), (7, 8)] {
        b.click_point(x, y).await;
    }
    finish_swap2(&b).await;
    assert!(b.stones().await >= 3);

    // The engine opens; the person places two more stones; the engine picks its colour.
    new_swap2_game(&b, "white").await;
    b.wait_for(
        "the engine's three stones",
        "!document.getElementById('swap2-choice').hidden",
    )
    .await;
    assert_eq!(b.stones().await, 3);
    b.click("#swap-more").await;
    b.wait_for(
        "the prompt for two stones",
        "document.getElementById('status').textContent.includes('two more')",
    )
    .await;
    let order = by_distance(15);
    for _ in 0..2 {
        let taken = b.occupied().await;
        let &(x, y) = order.iter().find(|p| !taken.contains(p)).unwrap();
        b.click_point(x, y).await;
        b.wait_for(
            "the stone",
            &format!(
                "document.querySelectorAll('#board circle.stone').length > {}",
                taken.len()
            ),
        )
        .await;
    }
    finish_swap2(&b).await;
    assert!(b.stones().await >= 5);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver"]
async fn each_tab_has_its_own_engine_up_to_the_cap_and_closing_it_ends_the_engine() {
    // The engine records its process id, then becomes pbrain-pentad.
    let tmp = support::scratch_dir("tabs");
    let dir = tmp.path();
    let pids = dir.join("pids");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!("echo $$ >> '{}'\nexec '{}'\n", pids.display(), engine()),
    )
    .unwrap();
    let cmd = format!("sh '{}'", script.display());
    let b = Browser::open_with(&cmd, &["--max-engines", "1"]).await;
    b.new_game(15, "freestyle", "black", "instant").await;
    play_one(&b, &by_distance(15)).await;
    let pid = std::fs::read_to_string(&pids).unwrap().trim().to_string();
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
    assert!(proc_dir.exists(), "the first tab's engine runs");

    // A second tab is over the cap of one engine.
    let first = b.client.window().await.unwrap();
    let second = b.client.new_window(true).await.unwrap().handle;
    b.client.switch_to_window(second.clone()).await.unwrap();
    b.client.goto(&b.url).await.unwrap();
    b.wait_for(
        "the refusal",
        "document.getElementById('error').textContent.includes('Too many tabs')",
    )
    .await;

    // Closing the first tab ends its engine and frees its place.
    b.client.switch_to_window(first).await.unwrap();
    b.client.close_window().await.unwrap();
    b.client.switch_to_window(second).await.unwrap();
    let until = std::time::Instant::now() + support::WAIT;
    while proc_dir.exists() {
        assert!(
            std::time::Instant::now() < until,
            "the engine of the closed tab still runs"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    b.client.refresh().await.unwrap();
    b.wait_for(
        "the second tab's game",
        "document.getElementById('status').textContent.startsWith('Your move')",
    )
    .await;
    b.close().await;
}
