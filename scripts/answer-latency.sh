#!/usr/bin/env bash
# answer-latency.sh: replays positions from a pentad-arena --results file to pbrain-pentad and
# splits each answer's wall time (command written -> move read, as a manager measures it) into
# the search's own time (the last MESSAGE `tm`) and the rest (process wake-up, thread start,
# unwinding, pipes). Finds where an answer over its limit comes from. Not part of `cargo test`.
#
# Usage:
#   scripts/answer-latency.sh RESULTS.jsonl [GAME PLY]...   (default: the 10 slowest answers)
# Environment: ENGINE=target/release/pbrain-pentad  TURN_MS=200  MATCH_MS=0  LEFT_MS=
#   RULE=renju|freestyle|standard (default: from the record)  REPEAT=3
#   STDERR=FILE (append the engine's stderr there; with RUST_LOG=debug the engine logs when
#   the search returned and when the watchdog acted)
set -euo pipefail
cd "$(dirname "$0")/.."
export ENGINE=${ENGINE:-$(pwd)/target/release/pbrain-pentad}
export TURN_MS=${TURN_MS:-200} MATCH_MS=${MATCH_MS:-0} LEFT_MS=${LEFT_MS:-} REPEAT=${REPEAT:-3}
export RULE=${RULE:-}
python3 - "$@" <<'PY'
"""Replays recorded positions with BOARD and times the answers."""
import json, os, re, select, subprocess, sys, time

path, picks = sys.argv[1], sys.argv[2:]
RULES = {"freestyle": 0, "standard": 1, "renju": 4}
games = {}
with open(path) as fh:
    for line in fh:
        if line.strip():
            g = json.loads(line)
            games[g["game"]] = g
targets = []
if picks:
    targets = [(int(picks[i]), int(picks[i + 1])) for i in range(0, len(picks) - 1, 2)]
else:
    rows = []
    for g in games.values():
        for i, t in enumerate(g.get("times_ms") or []):
            if isinstance(t, (int, float)):
                rows.append((t, g["game"], g["opening_plies"] + i))
    rows.sort(reverse=True)
    targets = [(gm, ply) for _, gm, ply in rows[:10]]


ERR = open(os.environ["STDERR"], "a") if os.environ.get("STDERR") else subprocess.DEVNULL


def coord(s):
    """'h8' -> (7, 7)."""
    return ord(s[0]) - ord("a"), int(s[1:]) - 1


class Eng:
    def __init__(self):
        self.p = subprocess.Popen([os.environ["ENGINE"]], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=ERR)
        self.buf = b""

    def send(self, s):
        self.p.stdin.write((s + "\n").encode())
        self.p.stdin.flush()

    def line(self, timeout=10.0):
        end = time.perf_counter() + timeout
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.p.stdout], [], [], max(0, end - time.perf_counter()))
            if not r:
                raise TimeoutError
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        l, self.buf = self.buf.split(b"\n", 1)
        return l.decode().strip()


print(f"{'game':>5} {'ply':>4} {'recorded':>8} {'wall':>6} {'tm':>5} {'rest':>5}  last MESSAGE")
worst_rest = 0
for gm, ply in targets:
    g = games[gm]
    moves = [coord(m) for m in g["moves"][:ply]]
    w, h = g.get("width", 15), g.get("height", 15)
    rule = RULES.get(os.environ["RULE"] or g.get("rule", "freestyle"), 0)
    rec = g["times_ms"][ply - g["opening_plies"]] if ply >= g["opening_plies"] else None
    for _ in range(int(os.environ["REPEAT"])):
        e = Eng()
        e.send(f"START {w}" if w == h else f"RECTSTART {w},{h}")
        while not e.line().startswith("OK"):
            pass
        infos = [f"INFO rule {rule}", f"INFO timeout_match {os.environ['MATCH_MS']}"]
        if int(os.environ["TURN_MS"]) > 0:
            infos.append(f"INFO timeout_turn {os.environ['TURN_MS']}")
        left = os.environ["LEFT_MS"] or ("2147483647" if os.environ["MATCH_MS"] == "0" else os.environ["MATCH_MS"])
        infos.append(f"INFO time_left {left}")
        for s in infos:
            e.send(s)
        me = len(moves) % 2
        block = ["BOARD"] + [f"{x},{y},{1 if i % 2 == me else 2}" for i, (x, y) in enumerate(moves)] + ["DONE"]
        e.p.stdin.write(("\n".join(block[:-1]) + "\n").encode())
        e.p.stdin.flush()
        t0 = time.perf_counter()
        e.send("DONE")
        last = ""
        while True:
            l = e.line()
            if l.startswith("MESSAGE"):
                last = l
                continue
            if re.match(r"^\d+,\d+$", l):
                break
        wall = (time.perf_counter() - t0) * 1000
        m = re.search(r" tm (\d+)", last)
        tm = int(m.group(1)) if m else -1
        rest = wall - tm if tm >= 0 else float("nan")
        worst_rest = max(worst_rest, rest if tm >= 0 else 0)
        print(f"{gm:>5} {ply:>4} {rec if rec is not None else '-':>8} {wall:6.0f} {tm:5d} {rest:5.0f}  {last[8:70]}")
        e.send("END")
        e.p.wait(5)
print(f"largest wall - tm: {worst_rest:.0f} ms (tm is the last completed iteration, not the return)")
PY
