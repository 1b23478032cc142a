//! A tab's session against scripted engines, without a browser: an engine that cannot
//! start, and one that answers an occupied point, are reported with the reason; the game
//! record stays; a restart starts a fresh process.

use std::sync::Arc;
use std::time::Duration;

use pentad_arena::EngineSpec;
use pentad_web::messages::{Reply, Request};
use pentad_web::session::Session;
use serde_json::Value;
use tokio::sync::Semaphore;

fn session(
    program: &str,
    args: &[&str],
) -> (
    Session,
    tokio::sync::mpsc::UnboundedReceiver<pentad_web::worker::Event>,
) {
    let place = Arc::new(Semaphore::new(1)).try_acquire_owned().unwrap();
    let spec = EngineSpec {
        program: program.to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        ..Default::default()
    };
    Session::new(spec, place)
}

fn json(replies: &[Reply]) -> Vec<Value> {
    replies
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect()
}

fn new_game() -> Request {
    Request::New {
        size: 15,
        rule: "freestyle".into(),
        color: "black".into(),
        level: "instant".into(),
        swap2: false,
    }
}

/// Feeds engine events to the session until it reports an error; returns the replies.
async fn until_error(
    s: &mut Session,
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<pentad_web::worker::Event>,
) -> Vec<Value> {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("an engine event in time")
            .expect("the worker runs");
        let out = json(&s.engine_event(ev));
        if out.iter().any(|r| r["type"] == "error") {
            return out;
        }
    }
}

fn last_state(replies: &[Value]) -> &Value {
    replies
        .iter()
        .rev()
        .find(|r| r["type"] == "state")
        .expect("a state")
}

#[tokio::test]
async fn an_engine_that_cannot_start_is_reported() {
    let (mut s, mut rx) = session("/nonexistent/pbrain-nothing", &[]);
    s.request(new_game());
    s.request(Request::Play { x: 7, y: 7 });
    let out = until_error(&mut s, &mut rx).await;
    let state = last_state(&out);
    let down = state["engine_down"].as_str().unwrap();
    assert!(
        down.contains("failed to start") && down.contains("/nonexistent/pbrain-nothing"),
        "{down}"
    );
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        1,
        "the game stays"
    );
}

#[tokio::test]
async fn an_illegal_engine_move_is_reported_and_a_restart_goes_on() {
    let script = "while read l; do case \"$l\" in START*) echo OK;; ABOUT*) echo 'name=\"occupier\"';; DONE*) echo 7,7;; esac; done";
    let (mut s, mut rx) = session("sh", &["-c", script]);
    s.request(new_game());
    s.request(Request::Play { x: 7, y: 7 });
    let out = until_error(&mut s, &mut rx).await;
    let error = out.iter().find(|r| r["type"] == "error").unwrap();
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("illegal move") && message.contains("h8"),
        "{message}"
    );
    let state = last_state(&out);
    assert_eq!(
        state["moves"],
        serde_json::json!([[7, 7]]),
        "the game stays"
    );
    assert!(state["engine_down"].is_string());
    // The person cannot get a hint from a stopped engine; a restart asks it again.
    let hint = json(&s.request(Request::Hint));
    assert!(hint.iter().any(|r| r["type"] == "error"));
    let restarted = json(&s.request(Request::Restart));
    let state = last_state(&restarted);
    assert!(
        state["engine_down"].is_null() && state["thinking"] == true,
        "{state}"
    );
    let again = until_error(&mut s, &mut rx).await;
    assert!(last_state(&again)["engine_down"].is_string());
}
