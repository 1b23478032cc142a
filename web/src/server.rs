//! The HTTP side: the page (HTML, CSS and JS compiled into the binary), and one WebSocket
//! per tab, each with its own session and engine process, up to a fixed number at once.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use pentad_arena::EngineSpec;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::levels::MAX_UPLOAD;
use crate::messages::{Reply, Request};
use crate::session::Session;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// What every connection shares: the engine command (fixed at start) and the engine cap.
pub struct App {
    spec: EngineSpec,
    engines: Arc<Semaphore>,
    max_engines: usize,
}

impl App {
    /// The shared state: every tab runs `spec`, at most `max_engines` at once.
    pub fn new(spec: EngineSpec, max_engines: usize) -> Arc<App> {
        Arc::new(App {
            spec,
            engines: Arc::new(Semaphore::new(max_engines)),
            max_engines,
        })
    }
}

/// The routes: `/` (the page), `/app.js`, `/style.css`, `/ws` (a tab's WebSocket).
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", APP_JS) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE_CSS) }))
        .route("/ws", get(upgrade))
        .with_state(app)
}

/// Serves until the process ends.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> std::io::Result<()> {
    axum::serve(listener, router(app)).await
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Refuses WebSockets opened by pages from other sites (which could otherwise start engines
/// on this machine): the `Origin`, when sent, must name the host the page was served from.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
    matches!((origin, host), (Some((_, o)), Some(h)) if o == h)
}

async fn upgrade(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(app): State<Arc<App>>,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    ws.max_message_size(MAX_UPLOAD)
        .on_upgrade(move |socket| run_tab(socket, app))
}

async fn send(socket: &mut WebSocket, replies: Vec<Reply>) -> bool {
    for r in replies {
        let text = serde_json::to_string(&r).unwrap_or_else(|_| "{}".into());
        if socket.send(Message::Text(text.into())).await.is_err() {
            return false;
        }
    }
    true
}

/// One tab, from its WebSocket's opening to its closing (which ends its engine).
async fn run_tab(mut socket: WebSocket, app: Arc<App>) {
    let Ok(place) = app.engines.clone().try_acquire_owned() else {
        let message = format!(
            "Too many tabs: this server runs at most {} engines at once. Close another tab and reload.",
            app.max_engines
        );
        send(&mut socket, vec![Reply::Error { message }]).await;
        return;
    };
    let (mut session, mut events) = Session::new(app.spec.clone(), place);
    if !send(&mut socket, session.greeting()).await {
        return;
    }
    loop {
        let replies = tokio::select! {
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => match serde_json::from_str::<Request>(&text) {
                    Ok(req) => session.request(req),
                    Err(e) => vec![Reply::Error { message: format!("bad request: {e}") }],
                },
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
            ev = events.recv() => match ev {
                Some(ev) => session.engine_event(ev),
                None => break,
            },
        };
        if !send(&mut socket, replies).await {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_same_origin_websockets() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!same_origin(&h));
    }
}
