#!/usr/bin/env bash
# time-harness.sh: plays many fast self-play games of pbrain-pentad with pentad-arena and
# reports forfeits on time and the slowest answer against its limit. Not part of `cargo test`.
#
# Runs, by default (about 15-20 minutes on 2 cores):
#   (a) renju 15x15, 0.2 s a move, no game clock     (--tc 0/0.2), GAMES_A games
#   (b) freestyle 15x15, 5 s for the whole game       (--tc 5/0),   GAMES_B games
# both with --concurrency 2, openings played twice with colours swapped (--repeat).
#
# Usage:
#   scripts/time-harness.sh                 build release, run (a) and (b), summarize
#   scripts/time-harness.sh --no-build      same without `cargo build --release`
#   scripts/time-harness.sh --summarize RESULTS.jsonl TURN_MS MATCH_MS [TOLERANCE_MS]
#                                           only summarize an existing --results file
# Environment (all optional):
#   GAMES_A=104 GAMES_B=104 CONCURRENCY=2 OUT_DIR=target/time-harness OPENINGS=<file>
#   ENGINE=target/release/pbrain-pentad ARENA=target/release/pentad-arena
#   ARENA_ARGS="..." (extra arena flags, e.g. --tolerance 1)  TIMES_UNIT=ms|s (auto)
# Exit status: 0 when no game was lost on time (or crash/illegal) in any run, 1 otherwise.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)

summarize() { # RESULTS TURN_MS MATCH_MS [TOLERANCE_MS]
    python3 - "$@" <<'PY'
"""Summarizes pentad-arena --results JSON lines: games, reasons, forfeits by time, and the
slowest answer against its limit (min(turn, time left) of that side at that move)."""
import json, os, sys

path, turn_ms, match_ms = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
tol_ms = float(sys.argv[4]) if len(sys.argv) > 4 else 1000.0
unit_override = os.environ.get("TIMES_UNIT", "")
TIME_KEYS = ("times_ms", "move_times_ms", "time_ms", "times", "move_times", "time")
MOVE_TIME_KEYS = ("time_ms", "ms", "time", "t")

def to_ms(values, key):
    vals = [v for v in values if isinstance(v, (int, float))]
    unit = unit_override
    if not unit:
        if "ms" in key:
            unit = "ms"
        elif key.endswith("_s") or "sec" in key:
            unit = "s"
        elif vals and max(vals) <= 60 and any(float(v) != int(v) for v in vals):
            unit = "s"
        else:
            unit = "ms"
    f = 1000.0 if unit == "s" else 1.0
    return [None if not isinstance(v, (int, float)) else float(v) * f for v in values]

def move_times(game):
    """(list of times in ms or None, number of opening plies before the first timed move)."""
    moves = game.get("moves") or []
    for k in TIME_KEYS:
        if isinstance(game.get(k), list):
            times = to_ms(game[k], k)
            if isinstance(game.get("opening_plies"), int):
                offset = game["opening_plies"]
            elif len(times) == len(moves):
                offset = 0  # opening entries are expected to be null
            else:
                offset = max(0, len(moves) - len(times))
                # An illegal/late last answer may be timed but not in `moves`.
                if len(times) > len(moves):
                    offset = 0
            return times, offset
    if moves and isinstance(moves[0], dict):
        for k in MOVE_TIME_KEYS:
            if any(k in m for m in moves):
                return to_ms([m.get(k) for m in moves], k), 0
    return None, 0

games = 0
reasons, results = {}, {}
abnormal = []
timed_moves = 0
over_limit = 0
over_tol = 0
worst = None      # (ratio, time, limit, game index, ply)
slowest = None    # (time, limit, game index, ply)
ratios = []
no_times = 0
with open(path) as fh:
    for lineno, line in enumerate(fh, 1):
        line = line.strip()
        if not line:
            continue
        try:
            g = json.loads(line)
        except json.JSONDecodeError as e:
            print(f"line {lineno}: not JSON ({e})", file=sys.stderr)
            continue
        games += 1
        reason = str(g.get("reason", "?"))
        reasons[reason] = reasons.get(reason, 0) + 1
        res = str(g.get("result", "?"))
        results[res] = results.get(res, 0) + 1
        if reason in ("time", "crash", "illegal"):
            abnormal.append((games, reason, g.get("black"), g.get("white"), g.get("detail", "")))
        times, offset = move_times(g)
        if times is None:
            no_times += 1
            continue
        left = [match_ms, match_ms]
        for i, t in enumerate(times):
            ply = offset + i
            if t is None:
                continue
            side = ply % 2
            limit = float("inf")
            if turn_ms > 0:
                limit = turn_ms
            if match_ms > 0:
                limit = min(limit, left[side])
                left[side] -= t
            timed_moves += 1
            if limit != float("inf"):
                ratio = t / limit if limit > 0 else float("inf")
                ratios.append(ratio)
                if t > limit:
                    over_limit += 1
                if t > max(limit, 0) + tol_ms:
                    over_tol += 1
                if worst is None or ratio > worst[0]:
                    worst = (ratio, t, limit, games, ply)
            if slowest is None or t > slowest[0]:
                slowest = (t, limit, games, ply)

print(f"results file      : {path}")
print(f"limits            : turn {turn_ms:.0f} ms, match {match_ms:.0f} ms (0 = none), "
      f"manager tolerance {tol_ms:.0f} ms")
print(f"games             : {games}  results {dict(sorted(results.items()))}")
print(f"end reasons       : {dict(sorted(reasons.items()))}")
print(f"forfeits by time  : {reasons.get('time', 0)}")
print(f"crash / illegal   : {reasons.get('crash', 0)} / {reasons.get('illegal', 0)}")
print(f"timed moves       : {timed_moves}" + (f"  (games without times: {no_times})" if no_times else ""))
if slowest:
    lim = "none" if slowest[1] == float("inf") else f"{slowest[1]:.0f} ms"
    print(f"slowest answer    : {slowest[0]:.0f} ms (its limit {lim}; game {slowest[2]}, ply {slowest[3]})")
if worst:
    print(f"worst time/limit  : {worst[1]:.0f} ms of {worst[2]:.0f} ms = {100 * worst[0]:.1f} % "
          f"(game {worst[3]}, ply {worst[4]})")
if ratios:
    ratios.sort()
    q = lambda p: ratios[min(len(ratios) - 1, int(p * len(ratios)))]
    print(f"time/limit median : {100 * q(0.5):.1f} %   p99 {100 * q(0.99):.1f} %   max {100 * ratios[-1]:.1f} %")
print(f"answers over limit: {over_limit} (over limit + tolerance: {over_tol})")
for a in abnormal[:20]:
    print(f"  abnormal game {a[0]}: {a[1]} ({a[2]} vs {a[3]}) {a[4]}")
sys.exit(1 if abnormal or games == 0 else 0)
PY
}

if [[ "${1:-}" == "--summarize" ]]; then
    shift
    if [[ $# -lt 3 ]]; then
        echo "usage: $0 --summarize RESULTS.jsonl TURN_MS MATCH_MS [TOLERANCE_MS]" >&2
        exit 2
    fi
    summarize "$@"
    exit $?
fi

BUILD=1
if [[ "${1:-}" == "--no-build" ]]; then
    BUILD=0
    shift
fi

GAMES_A=${GAMES_A:-104}
GAMES_B=${GAMES_B:-104}
CONCURRENCY=${CONCURRENCY:-2}
OUT_DIR=${OUT_DIR:-$ROOT/target/time-harness}
ENGINE=${ENGINE:-$ROOT/target/release/pbrain-pentad}
ARENA=${ARENA:-$ROOT/target/release/pentad-arena}
ARENA_ARGS=${ARENA_ARGS:-}
TOLERANCE_MS=${TOLERANCE_MS:-1000}

if [[ $BUILD == 1 ]]; then
    cargo build --release --bins
fi
for f in "$ENGINE" "$ARENA"; do
    [[ -x "$f" ]] || { echo "missing executable: $f" >&2; exit 2; }
done
mkdir -p "$OUT_DIR"

# Openings: $OPENINGS, else the 26 canonical renju openings (offset format, relative to the
# centre), written here so the script needs no file outside the repository.
if [[ -z "${OPENINGS:-}" ]]; then
    OPENINGS=$OUT_DIR/openings-26.txt
    {
        for third in -2,-2 -2,-1 -2,0 -2,1 -2,2 -1,-2 -1,-1 -1,0 -1,1 -1,2 0,-2 0,1 0,2; do
            echo "0,0, 0,-1, $third"
        done
        for third in -2,-2 -2,-1 -2,0 -2,1 -2,2 -1,-2 -1,-1 -1,0 -1,1 0,-2 0,-1 1,-2 2,-2; do
            echo "0,0, 1,-1, $third"
        done
    } >"$OPENINGS"
fi

run() { # NAME RULE TC GAMES TURN_MS MATCH_MS
    local name=$1 rule=$2 tc=$3 games=$4 turn_ms=$5 match_ms=$6
    local results=$OUT_DIR/$name.jsonl log=$OUT_DIR/$name.log
    rm -f "$results"
    echo "== $name: rule $rule, 15x15, --tc $tc, $games games, concurrency $CONCURRENCY"
    local start=$SECONDS
    # shellcheck disable=SC2086
    "$ARENA" --engine "name=pentad-a $ENGINE" --engine "name=pentad-b $ENGINE" \
        --rule "$rule" --size 15 --tc "$tc" --games "$games" --concurrency "$CONCURRENCY" \
        --openings "$OPENINGS" --repeat --results "$results" $ARENA_ARGS \
        >"$log" 2>&1 || echo "(arena exited with status $?; see $log)"
    echo "   wall time $((SECONDS - start)) s; arena summary:"
    grep -E '^(Score of|Elo|Finished game .*(time|crash|illegal))' "$log" | head -20 | sed 's/^/   | /' || true
    if [[ ! -s "$results" ]]; then
        echo "   no results written ($results); last lines of the log:" >&2
        tail -5 "$log" >&2
        return 1
    fi
    summarize "$results" "$turn_ms" "$match_ms" "$TOLERANCE_MS"
}

status=0
run renju-0.2s-move renju 0/0.2 "$GAMES_A" 200 0 || status=1
echo
run freestyle-5s-game freestyle 5/0 "$GAMES_B" 0 5000 || status=1
echo
if [[ $status == 0 ]]; then
    echo "time-harness: OK (no time forfeits, crashes or illegal moves)"
else
    echo "time-harness: FAILED (see above)"
fi
exit $status
