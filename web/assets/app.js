// pentad-web's page: draws what the server sends and sends the person's requests.
// The server keeps the game and judges every move; this script holds no rules.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const letters = "abcdefghijklmnopqrstuvwxyzABCDEF";

let ws = null;
let state = null;        // the last State from the server
let stateAt = 0;         // when it arrived (for the running clock)
let hint = null;         // [x, y] of the last hint
let analysis = null;     // the last analysis report
let viewer = null;       // the results file being viewed
let replay = { game: null, ply: 0 };

function send(msg) {
  showError("");
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function showError(text) {
  const e = $("error");
  e.textContent = text;
  e.hidden = !text;
}

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { $("conn").textContent = "connected"; };
  ws.onclose = () => { $("conn").textContent = "disconnected (reload the page)"; };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
}

function onMessage(m) {
  switch (m.type) {
    case "levels": {
      const sel = $("level");
      sel.innerHTML = "";
      for (const n of m.names) {
        const o = document.createElement("option");
        o.value = n; o.textContent = n; o.selected = n === m.default;
        sel.appendChild(o);
      }
      break;
    }
    case "state":
      if (state && (m.moves.length !== state.moves.length || m.size !== state.size)) {
        hint = null; analysis = null;
      }
      state = m; stateAt = performance.now();
      render();
      break;
    case "hint": hint = [m.x, m.y]; render(); break;
    case "analysis": analysis = m; renderAnalysis(); drawBoard(); break;
    case "error": showError(m.message); break;
    case "sgf": download(m.name, m.text); break;
    case "results": viewer = m.data; replay = { game: null, ply: 0 }; renderViewer(); break;
  }
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// ---- drawing ----------------------------------------------------------------------------

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function human(x, y) { return letters[x] + (y + 1); }

// Draws an empty board of `size` into `svg`; returns the layer for stones.
function drawGrid(svg, size) {
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `-1.2 -1.2 ${size + 1.4} ${size + 1.4}`);
  el("rect", { class: "board-bg", x: -1.2, y: -1.2, width: size + 1.4, height: size + 1.4 }, svg);
  const g = el("g", { class: "grid" }, svg);
  for (let i = 0; i < size; i++) {
    el("line", { x1: 0, y1: i, x2: size - 1, y2: i }, g);
    el("line", { x1: i, y1: 0, x2: i, y2: size - 1 }, g);
    el("text", { class: "coord", x: i, y: -0.75 }, svg, letters[i]);
    el("text", { class: "coord", x: -0.75, y: i }, svg, String(i + 1));
  }
  const c = Math.floor(size / 2), d = size >= 13 ? 3 : 2;
  const stars = size >= 9 ? [[c, c], [d, d], [size - 1 - d, d], [d, size - 1 - d], [size - 1 - d, size - 1 - d]] : [[c, c]];
  for (const [x, y] of stars) el("circle", { class: "star", cx: x, cy: y, r: 0.1 }, svg);
  return el("g", { class: "stones" }, svg);
}

function drawStones(layer, moves, upto, numbers) {
  for (let i = 0; i < upto; i++) {
    const [x, y] = moves[i];
    const color = i % 2 === 0 ? "black" : "white";
    el("circle", { class: `stone ${color}`, cx: x, cy: y, r: 0.46, "data-x": x, "data-y": y, "data-n": i + 1 }, layer);
    if (numbers) el("text", { class: `num on-${color}`, x, y }, layer, String(i + 1));
  }
  if (upto > 0) {
    const [x, y] = moves[upto - 1];
    el("circle", { class: "last", cx: x, cy: y, r: 0.52 }, layer);
  }
}

function drawBoard() {
  if (!state) return;
  const svg = $("board");
  const size = state.size;
  const layer = drawGrid(svg, size);
  drawStones(layer, state.moves, state.moves.length, true);
  if (state.outcome) {
    for (const [x, y] of state.outcome.five) el("circle", { class: "win", cx: x, cy: y, r: 0.5 }, layer);
  }
  for (const [x, y] of state.forbidden) {
    const g = el("g", { class: "forbid", "data-x": x, "data-y": y }, layer);
    el("line", { x1: x - 0.22, y1: y - 0.22, x2: x + 0.22, y2: y + 0.22 }, g);
    el("line", { x1: x - 0.22, y1: y + 0.22, x2: x + 0.22, y2: y - 0.22 }, g);
  }
  if (state.analyzing && analysis && analysis.pv && !state.outcome) {
    let color = state.moves.length % 2 === 0 ? "black" : "white";
    analysis.pv.slice(0, 8).forEach(([x, y], i) => {
      el("circle", { class: `stone pv ${color}`, cx: x, cy: y, r: 0.4 }, layer);
      el("text", { class: "pv-num", x, y }, layer, String(i + 1));
      color = color === "black" ? "white" : "black";
    });
  }
  if (hint) el("circle", { class: "hint", id: "hint-mark", cx: hint[0], cy: hint[1], r: 0.45, "data-x": hint[0], "data-y": hint[1] }, layer);
  // Click targets on top of everything.
  const pts = el("g", { class: "points" }, svg);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = el("rect", { class: "pt", id: `pt-${x}-${y}`, x: x - 0.5, y: y - 0.5, width: 1, height: 1, "data-x": x, "data-y": y }, pts);
      el("title", {}, r, human(x, y));
    }
  }
}

function fmtClock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  if (!state) return;
  const c = state.clock;
  const extra = c.running ? performance.now() - stateAt : 0;
  $("clock-black").textContent = fmtClock(c.black_ms + (c.running === "black" ? extra : 0));
  $("clock-white").textContent = fmtClock(c.white_ms + (c.running === "white" ? extra : 0));
  $("clock-black-box").classList.toggle("running", c.running === "black");
  $("clock-white-box").classList.toggle("running", c.running === "white");
}

function renderAnalysis() {
  const a = analysis || {};
  $("analysis").hidden = !(state && state.analyzing);
  $("an-best").textContent = a.pv && a.pv.length ? human(a.pv[0][0], a.pv[0][1]) : "–";
  $("an-eval").textContent = a.eval ?? "–";
  $("an-winrate").textContent = a.winrate != null ? a.winrate.toFixed(1) + "%" : "–";
  $("an-depth").textContent = a.depth ?? "–";
  $("an-nodes").textContent = a.nodes ?? "–";
  $("an-pv").textContent = a.pv && a.pv.length ? a.pv.map(([x, y]) => human(x, y)).join(" ") : "–";
}

function render() {
  drawBoard();
  renderClock();
  renderAnalysis();
  $("status").textContent = state.status;
  $("engine-name").textContent = "engine: " + state.engine;
  $("engine-down").hidden = !state.engine_down;
  $("engine-down-text").textContent = state.engine_down ? "Engine stopped: " + state.engine_down : "";
  const choosing = state.swap2 === "choose3" || state.swap2 === "choose5";
  $("swap2-choice").hidden = !choosing;
  $("swap-more").hidden = state.swap2 !== "choose3";
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("resign").disabled = !!state.outcome;
  $("hint").disabled = !!state.outcome || state.to_move !== state.human || !!state.swap2;
  $("analyze").checked = state.analyzing;
  const list = $("moves");
  list.innerHTML = "";
  for (const [x, y] of state.moves) {
    const li = document.createElement("li");
    li.textContent = human(x, y);
    list.appendChild(li);
  }
}

// ---- viewer -----------------------------------------------------------------------------

function renderViewer() {
  const v = viewer;
  const elo = v.elo ? `Elo ${fmtSigned(v.elo[0])} [${fmtSigned(v.elo[1])}, ${fmtSigned(v.elo[2])}]` : "Elo –";
  $("summary").textContent =
    `${v.player} vs ${v.opponents}: +${v.wins} -${v.losses} =${v.draws}, ` +
    `score ${(100 * v.score).toFixed(1)}%, ${elo}`;
  drawPlot(v.running);
  const body = $("games").querySelector("tbody");
  body.innerHTML = "";
  v.games.forEach((g, i) => {
    const tr = document.createElement("tr");
    tr.dataset.index = i;
    for (const t of [g.game, g.black, g.white, g.result, g.reason, g.plies]) {
      const td = document.createElement("td");
      td.textContent = t;
      tr.appendChild(td);
    }
    tr.title = g.detail;
    tr.onclick = () => { replay = { game: i, ply: g.moves.length }; renderReplay(); };
    body.appendChild(tr);
  });
  replay = { game: 0, ply: v.games[0].moves.length };
  renderReplay();
}

function fmtSigned(x) { return (x >= 0 ? "+" : "") + x.toFixed(0); }

// The player's running score (points) against the expected half point per game.
function drawPlot(running) {
  const svg = $("plot");
  svg.innerHTML = "";
  const w = 400, h = 150, pad = 24;
  const n = running.length;
  const max = Math.max(1, n);
  el("line", { class: "axis", x1: pad, y1: h - pad, x2: w - 4, y2: h - pad }, svg);
  el("line", { class: "axis", x1: pad, y1: 4, x2: pad, y2: h - pad }, svg);
  const px = (i) => pad + (w - pad - 6) * i / max;
  const py = (s) => h - pad - (h - pad - 6) * s / max;
  el("line", { class: "axis", x1: px(0), y1: py(0), x2: px(n), y2: py(n / 2), "stroke-dasharray": "4 3" }, svg);
  const pts = [[0, 0], ...running.map((s, i) => [i + 1, s])].map(([i, s]) => `${px(i)},${py(s)}`);
  el("polyline", { class: "line", id: "plot-line", points: pts.join(" ") }, svg);
  el("text", { x: pad + 4, y: 12 }, svg, `score ${running[n - 1] ?? 0} / ${n} games (dashed: 50%)`);
  el("text", { x: w - 60, y: h - 8 }, svg, `game ${n}`);
}

function renderReplay() {
  if (!viewer || replay.game === null) return;
  const g = viewer.games[replay.game];
  for (const tr of $("games").querySelectorAll("tbody tr")) {
    tr.classList.toggle("selected", Number(tr.dataset.index) === replay.game);
  }
  const layer = drawGrid($("replay-board"), g.size);
  drawStones(layer, g.moves, replay.ply, true);
  $("replay-pos").textContent = `move ${replay.ply} / ${g.moves.length}`;
  $("replay-detail").textContent = `Game ${g.game}: ${g.black} – ${g.white}, ${g.result} (${g.detail || g.reason})`;
}

function step(delta) {
  if (!viewer || replay.game === null) return;
  const n = viewer.games[replay.game].moves.length;
  replay.ply = Math.max(0, Math.min(n, replay.ply + delta));
  renderReplay();
}

// ---- controls ---------------------------------------------------------------------------

function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  const r = new FileReader();
  r.onload = () => { then(String(r.result)); input.value = ""; };
  r.onerror = () => showError("Cannot read the file: " + r.error);
  r.readAsText(f);
}

function showTab(play) {
  $("play-view").hidden = !play;
  $("viewer-view").hidden = play;
  $("tab-play").classList.toggle("active", play);
  $("tab-viewer").classList.toggle("active", !play);
}

function setup() {
  $("board").addEventListener("click", (ev) => {
    const t = ev.target.closest(".pt");
    if (t) send({ type: "play", x: Number(t.dataset.x), y: Number(t.dataset.y) });
  });
  $("new-game").onclick = () => {
    hint = null; analysis = null;
    send({
      type: "new", size: Number($("size").value), rule: $("rule").value,
      color: $("color").value, level: $("level").value, swap2: $("swap2").checked,
    });
  };
  $("undo").onclick = () => send({ type: "undo" });
  $("redo").onclick = () => send({ type: "redo" });
  $("hint").onclick = () => send({ type: "hint" });
  $("resign").onclick = () => send({ type: "resign" });
  $("analyze").onchange = () => { analysis = null; send({ type: "analyze", on: $("analyze").checked }); };
  $("restart").onclick = () => send({ type: "restart" });
  $("save").onclick = () => send({ type: "save" });
  $("load-file").onchange = () => readFile($("load-file"), (text) => send({ type: "load", text }));
  $("swap-black").onclick = () => send({ type: "swap2", choice: "black" });
  $("swap-white").onclick = () => send({ type: "swap2", choice: "white" });
  $("swap-more").onclick = () => send({ type: "swap2", choice: "more" });
  $("tab-play").onclick = () => showTab(true);
  $("tab-viewer").onclick = () => showTab(false);
  $("results-file").onchange = () => readFile($("results-file"), (text) => send({ type: "results", text }));
  $("replay-first").onclick = () => step(-1e9);
  $("replay-prev").onclick = () => step(-1);
  $("replay-next").onclick = () => step(1);
  $("replay-last").onclick = () => step(1e9);
  setInterval(renderClock, 250);
  connect();
}

setup();
