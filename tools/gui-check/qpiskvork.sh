#!/usr/bin/env bash
# qpiskvork check: one engine-vs-engine game of Pentad (Linux build) against itself inside
# qpiskvork (a Qt gomoku manager, github.com/Joker2770/qpiskvork) under Xvfb, with screenshots.
#
# Usage: tools/gui-check/qpiskvork.sh QPISKVORK_SRC ENGINE OUTDIR
#   QPISKVORK_SRC  a checkout of Joker2770/qpiskvork (built here with cmake into OUTDIR/build;
#                  an existing OUTDIR/build/qpiskvork is reused)
#   ENGINE         the Linux pbrain-pentad (target/release/pbrain-pentad)
#   OUTDIR         output folder
#
# Fetches nothing. Needs: cmake, a C++ compiler, Qt 5 or 6 (Debian: qtbase5-dev), Xvfb,
# xdotool, x11-utils (xwininfo, xdpyinfo), ImageMagick (import).
#
# qpiskvork takes its engines only from its "Player Setting" dialog (no command line, no config
# key), so the script drives the GUI with xdotool: clicks at fixed offsets inside the dialog and
# the menus, measured on qpiskvork 0.9 (Qt 5.15, Debian 12, default fonts). If a later version
# moves its widgets, look at OUTDIR/step-*.png to see where it stopped.
# Board size and time limits go through qpiskvork's own settings file (XDG_CONFIG_HOME).
#
# Environment knobs: RULE [0] (0 freestyle, 1 standard, 4 renju, 8 caro: qpiskvork's menu items),
#   SIZE [15], TURN_MS [1000], MATCH_MS [120000], MAX_WAIT [900] seconds for the game.
# Writes OUTDIR/qpiskvork-board.png (the finished board), OUTDIR/qpiskvork-gameover.png (with
# qpiskvork's result box), OUTDIR/qpiskvork.log (its debug output: every command and answer),
# OUTDIR/result.txt.
set -euo pipefail

src=${1:?usage: qpiskvork.sh QPISKVORK_SRC ENGINE OUTDIR}
engine=${2:?usage: qpiskvork.sh QPISKVORK_SRC ENGINE OUTDIR}
out=${3:?usage: qpiskvork.sh QPISKVORK_SRC ENGINE OUTDIR}
RULE=${RULE:-0}
SIZE=${SIZE:-15}
TURN_MS=${TURN_MS:-1000}
MATCH_MS=${MATCH_MS:-120000}
MAX_WAIT=${MAX_WAIT:-900}

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(cd "$src" && pwd)
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
[ -x "$engine" ] || { echo "no engine at $engine" >&2; exit 2; }

# ---------------------------------------------------------------- build
if [ ! -x "$out/build/qpiskvork" ]; then
  echo "== building qpiskvork from $src"
  cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1
  cmake --build "$out/build" -j1 >>"$out/build.log" 2>&1
fi

# ---------------------------------------------------------------- settings, Xvfb
rm -rf "$out/config" "$out/runtime"
mkdir -p "$out/config" "$out/runtime"
chmod 700 "$out/runtime"
cat >"$out/config/qpiskvork.ini" <<EOF
[Board]
size=$SIZE
[Time]
match_timeout=$MATCH_MS
turn_timeout=$TURN_MS
EOF
export XDG_CONFIG_HOME=$out/config XDG_RUNTIME_DIR=$out/runtime QT_QPA_PLATFORM=xcb

dnum=${XDISPLAY_NUM:-90}
while [ -e "/tmp/.X$dnum-lock" ] || [ -e "/tmp/.X11-unix/X$dnum" ]; do dnum=$((dnum + 1)); done
Xvfb ":$dnum" -screen 0 1024x768x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do xdpyinfo -display ":$dnum" >/dev/null 2>&1 && break; sleep 0.1; done
export DISPLAY=:$dnum
qp_pid=
cleanup() { if [ -n "$qp_pid" ]; then kill "$qp_pid" 2>/dev/null || true; fi; kill "$xvfb_pid" 2>/dev/null || true; }
trap cleanup EXIT

# A top-level window's id by its exact title ("" if none).
win() { xwininfo -root -tree | grep -F "\"$1\": (\"" | awk '{print $1}' | head -1 || true; }
wait_win() { local w; for _ in $(seq "$2"); do w=$(win "$1"); [ -n "$w" ] && { echo $((w)); return; }; sleep 1; done; return 1; }
click() { xdotool mousemove --window "$1" "$2" "$3" click 1; sleep 0.4; }
shot() { import -window root "$out/step-$1.png"; }

"$out/build/qpiskvork" >"$out/qpiskvork.log" 2>&1 &
qp_pid=$!
main=$(wait_win qpiskvork 30) || { echo "qpiskvork window did not appear" >&2; exit 1; }
sleep 1
shot 1-start

# ---------------------------------------------------------------- players: AI, AI = Pentad
click "$main" 145 10; click "$main" 171 34      # Player > Setting
dlg=$(wait_win "Player Setting" 10) || { shot 2-noplayerdialog; echo "no Player Setting dialog" >&2; exit 1; }
sleep 0.5
click "$dlg" 235 62;  click "$dlg" 179 99;  xdotool key ctrl+a; xdotool type --delay 5 "$engine"
click "$dlg" 235 189; click "$dlg" 179 226; xdotool key ctrl+a; xdotool type --delay 5 "$engine"
shot 2-players
click "$dlg" 312 276                            # OK

# ---------------------------------------------------------------- rule (Setting menu)
case $RULE in
  0) ;;
  1) click "$main" 86 10; click "$main" 140 161 ;;
  4) click "$main" 86 10; click "$main" 140 211 ;;
  8) click "$main" 86 10; click "$main" 140 236 ;;
  *) echo "RULE must be 0, 1, 4 or 8" >&2; exit 2 ;;
esac

# ---------------------------------------------------------------- start: Game > Start
click "$main" 29 10; click "$main" 50 34
sleep 5
shot 3-playing

# ---------------------------------------------------------------- wait for the result box
t0=$(date +%s); end=
while [ $(($(date +%s) - t0)) -lt "$MAX_WAIT" ]; do
  for title in "game over!" "Game Over"; do
    w=$(win "$title"); [ -n "$w" ] && { end=$((w)); endtitle=$title; break 2; }
  done
  sleep 2
done
[ -n "$end" ] || { shot 4-timeout; echo "no result box after $MAX_WAIT s" >&2; exit 1; }
sleep 1
# Root capture cropped to the main window: the result box is a separate top-level window.
crop=$(xwininfo -id "$main" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF}
  /Width:/ {w=$NF} /Height:/ {h=$NF} END {printf "%dx%d+%d+%d", w, h, x, y}')
import -window root -crop "$crop" +repage "$out/qpiskvork-gameover.png"
geo=$(xdotool getwindowgeometry "$end" | awk '/Geometry/ {print $2}')
click "$end" $((${geo%x*} - 51)) $((${geo#*x} - 24))   # the box's OK button
sleep 1
import -window "$main" "$out/qpiskvork-board.png"

moves=$(grep -cE '^"[0-9]+,[0-9]+\\n"$' "$out/qpiskvork.log" || true)
errors=$(grep -ciE '^"?(ERROR|UNKNOWN)' "$out/qpiskvork.log" || true)
last=$([ $((moves % 2)) = 1 ] && echo black || echo white)
{
  echo "qpiskvork: Pentad vs Pentad, rule $RULE, ${SIZE}x$SIZE, turn ${TURN_MS} ms, match ${MATCH_MS} ms"
  echo "engine: $engine"
  echo "result box: \"$endtitle\" (\"game over!\" = a five; \"Game Over\" = draw or timeout)"
  echo "moves: $moves (last move by $last), ERROR/UNKNOWN answers: $errors"
} | tee "$out/result.txt"
