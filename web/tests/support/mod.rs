//! The browser tests' harness: a `pentad-web` server, a `chromedriver`, and a headless
//! Chromium driven over WebDriver (fantoccini), with a fresh profile and download folder.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them) and the
//! `pbrain-pentad` of the same build (a workspace `cargo test --release` builds it).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::sync::{Mutex, MutexGuard};

const WEB: &str = env!("CARGO_BIN_EXE_pentad-web");
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "chromedriver";
/// The longest any wait in these tests may take.
pub const WAIT: Duration = Duration::from_secs(20);
/// Times a click is tried when the page keeps replacing the element under it.
const STALE_CLICK_ATTEMPTS: u32 = 5;

/// One browser at a time: the machine may have two cores only.
static ONE_BROWSER: Mutex<()> = Mutex::const_new(());

/// The `pbrain-pentad` beside `pentad-web` in the target directory.
pub fn pentad_engine() -> PathBuf {
    let name = format!("pbrain-pentad{}", std::env::consts::EXE_SUFFIX);
    let path = Path::new(WEB).with_file_name(name);
    assert!(
        path.exists(),
        "{} is missing: build the workspace (`cargo test --release` at the root builds it)",
        path.display()
    );
    path
}

/// A fresh scratch directory under the system's temp directory, removed when dropped.
pub fn scratch_dir(tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("pentad-web-{tag}-"))
        .tempdir()
        .expect("create a scratch directory")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Kills a child process when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A running server and browser; the page is open.
pub struct Browser {
    pub client: Client,
    pub url: String,
    pub downloads: PathBuf,
    pub dir: PathBuf,
    _driver: Guard,
    _server: Guard,
    /// Holds `dir`; after the driver and server, as fields drop in order, so the folder goes
    /// once nothing writes into it.
    _scratch: TempDir,
    _lock: MutexGuard<'static, ()>,
}

/// Starts `pentad-web --engine ENGINE` and reads the address it prints.
fn start_server(engine: &str, extra: &[&str]) -> (Guard, String) {
    let mut child = Command::new(WEB)
        .args(["--port", "0", "--engine", engine])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start pentad-web");
    let stdout = child.stdout.take().expect("stdout");
    let guard = Guard(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("pentad-web prints its address");
    let start = line.find("http://").expect("an http:// address");
    let url = line[start..].split_whitespace().next().unwrap().to_string();
    (guard, url)
}

fn start_driver() -> (Guard, u16) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {CHROMEDRIVER} ({e}): apt-get install chromium chromium-driver")
        });
    let guard = Guard(child);
    let until = Instant::now() + WAIT;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (guard, port)
}

impl Browser {
    /// Starts everything with `engine` as the server's engine command and opens the page.
    pub async fn open(engine: &str) -> Browser {
        Browser::open_with(engine, &[]).await
    }

    /// As [`Browser::open`], with more `pentad-web` options.
    pub async fn open_with(engine: &str, extra: &[&str]) -> Browser {
        let lock = ONE_BROWSER.lock().await;
        let scratch = scratch_dir("browser");
        let dir = scratch.path().to_path_buf();
        let downloads = dir.join("downloads");
        std::fs::create_dir_all(&downloads).unwrap();
        let (server, url) = start_server(engine, extra);
        let (driver, port) = start_driver();
        let caps = json!({
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    "--window-size=1100,760",
                    format!("--user-data-dir={}", dir.join("profile").display()),
                ],
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                },
            }
        });
        let caps = match caps {
            Value::Object(m) => m,
            _ => unreachable!(),
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session with headless Chromium");
        client.goto(&url).await.expect("open the page");
        let b = Browser {
            client,
            url,
            downloads,
            dir,
            _driver: driver,
            _server: server,
            _scratch: scratch,
            _lock: lock,
        };
        b.wait_for(
            "the first state",
            "document.getElementById('status').textContent.startsWith('Your move')",
        )
        .await;
        b
    }

    /// Runs `script` (a JS expression) in the page and returns its value.
    pub async fn eval(&self, expr: &str) -> Value {
        self.client
            .execute(&format!("return ({expr});"), vec![])
            .await
            .unwrap_or_else(|e| panic!("script {expr}: {e}"))
    }

    /// Waits until the JS expression is truthy.
    pub async fn wait_for(&self, what: &str, expr: &str) {
        let until = Instant::now() + WAIT;
        loop {
            let v = self.eval(expr).await;
            if v.as_bool() == Some(true) {
                return;
            }
            if Instant::now() > until {
                let status = self.text("status").await;
                let error = self.text("error").await;
                panic!("timed out waiting for {what} ({expr}); status {status:?}, error {error:?}");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// The text of the element with this id.
    pub async fn text(&self, id: &str) -> String {
        let v = self
            .eval(&format!("document.getElementById('{id}').textContent"))
            .await;
        v.as_str().unwrap_or_default().to_string()
    }

    /// Is the element with this id shown?
    pub async fn visible(&self, id: &str) -> bool {
        self.eval(&format!("!document.getElementById('{id}').hidden"))
            .await
            .as_bool()
            .unwrap_or(false)
    }

    /// Clicks the element `css` selects. The page may redraw it between the look-up and
    /// the click (the board is redrawn after every move): a stale element is looked up again.
    pub async fn click(&self, css: &str) {
        for attempt in 1.. {
            let element = self
                .client
                .find(Locator::Css(css))
                .await
                .unwrap_or_else(|e| panic!("find {css}: {e}"));
            match element.click().await {
                Ok(()) => return,
                Err(e) if e.is_stale_element_reference() && attempt < STALE_CLICK_ATTEMPTS => {
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    /// Clicks the board point (x, y).
    pub async fn click_point(&self, x: usize, y: usize) {
        self.click(&format!("#pt-{x}-{y}")).await;
    }

    /// Sets a form field's value (an input or a select).
    pub async fn set(&self, id: &str, value: &str) {
        self.client
            .execute(
                "const e = document.getElementById(arguments[0]); if (e.type === 'checkbox') e.checked = arguments[1] === 'true'; else e.value = arguments[1];",
                vec![json!(id), json!(value)],
            )
            .await
            .expect("set a field");
    }

    /// Gives a file to a file input.
    pub async fn upload(&self, id: &str, path: &Path) {
        self.client
            .find(Locator::Id(id))
            .await
            .expect("file input")
            .send_keys(&path.display().to_string())
            .await
            .expect("upload a file");
    }

    /// Number of stones on the playing board.
    pub async fn stones(&self) -> usize {
        self.eval("document.querySelectorAll('#board circle.stone:not(.pv)').length")
            .await
            .as_u64()
            .unwrap_or(0) as usize
    }

    /// The occupied points of the playing board.
    pub async fn occupied(&self) -> Vec<(usize, usize)> {
        let v = self
            .eval("Array.from(document.querySelectorAll('#board circle.stone:not(.pv)')).map(c => [Number(c.dataset.x), Number(c.dataset.y)])")
            .await;
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_u64().unwrap() as usize,
                    p[1].as_u64().unwrap() as usize,
                )
            })
            .collect()
    }

    /// Starts a new game from the form.
    pub async fn new_game(&self, size: usize, rule: &str, color: &str, level: &str) {
        self.set("size", &size.to_string()).await;
        self.set("rule", rule).await;
        self.set("color", color).await;
        self.set("level", level).await;
        self.set("swap2", "false").await;
        self.click("#new-game").await;
        self.wait_for(
            "a new game",
            &format!("document.querySelectorAll('#board .pt').length === {} && document.querySelectorAll('#board circle.stone').length <= 1", size * size),
        )
        .await;
    }

    /// Waits until it is the person's move or the game is over.
    pub async fn wait_my_turn(&self) {
        self.wait_for(
            "the person's turn",
            "(() => { const s = document.getElementById('status').textContent; return s.startsWith('Your move') || s.includes('wins') || s.startsWith('Draw'); })()",
        )
        .await;
    }

    /// Saves a PNG of the element with this id to `path`.
    pub async fn screenshot(&self, id: &str, path: &Path) {
        let png = self
            .client
            .find(Locator::Id(id))
            .await
            .expect("element to shoot")
            .screenshot()
            .await
            .expect("a screenshot");
        std::fs::write(path, png).expect("write the screenshot");
    }

    /// Ends the browser session; dropping `self` then stops the processes and removes `dir`.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// Where screenshots go when `PENTAD_WEB_SCREENSHOTS` names a directory (none otherwise).
pub fn screenshot_dir() -> Option<PathBuf> {
    std::env::var_os("PENTAD_WEB_SCREENSHOTS").map(PathBuf::from)
}
