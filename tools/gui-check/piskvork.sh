#!/usr/bin/env bash
# Piskvork check: Pentad's Windows build against Piskvork's own sample brain, in every rule
# Piskvork offers, inside the real Piskvork (built from source) under Wine and Xvfb.
#
# Usage: tools/gui-check/piskvork.sh PISKVORK_SRC ENGINE_EXE OUTDIR
#   PISKVORK_SRC  a checkout of github.com/plastovicka/Piskvork (the folder holding source/, skins/)
#   ENGINE_EXE    the cross-built pbrain-pentad.exe (x86_64-pc-windows-gnu)
#   OUTDIR        scratch/output folder (rebuilt from scratch each run)
#
# Fetches nothing. Needs: x86_64-w64-mingw32-g++/-gcc/-windres, wine (64-bit loader
# /usr/lib/wine/wine64, or set WINE), Xvfb, x11-utils (xdpyinfo), ImageMagick (import, convert).
# Debian: apt-get install wine wine64 xvfb xauth imagemagick g++-mingw-w64-x86-64
#
# Environment knobs (defaults in brackets):
#   RULES ["0 1 2 8 9"]  Piskvork -rule values: 0 freestyle, 1 exact five, 2 renju,
#                        8 caro (overline wins), 9 caro exact five
#   GAMES [2]            games per rule; odd games Pentad is Black, even games White
#   TIMETURN [1000]      ms per move (-timeturn)      TIMEMATCH [120]  s per game (-timematch)
#   SIZES ["0:20 1:15 2:15 8:15 9:15"]  board size per rule (written to Piskvork's registry)
#   SHOT_GAME [1]        which game (1-based, in play order) to show in the screenshot
#
# Writes OUTDIR/results.txt (table), OUTDIR/games/<rule>-<n>/{game.psq,msg.txt,pipe.txt,stderr.txt},
# OUTDIR/piskvork-board.png (Piskvork's window with the finished board of SHOT_GAME).
#
# Piskvork's sources are copied to OUTDIR/src and patched there (never in PISKVORK_SRC) so that
# MinGW builds them: min/max macros (MSVC's headers define them), forward slashes in the .rc's
# bitmap path and the sample brain's include, the icon's file name case.
set -euo pipefail

src=${1:?usage: piskvork.sh PISKVORK_SRC ENGINE_EXE OUTDIR}
engine=${2:?usage: piskvork.sh PISKVORK_SRC ENGINE_EXE OUTDIR}
out=${3:?usage: piskvork.sh PISKVORK_SRC ENGINE_EXE OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
RULES=${RULES:-"0 1 2 8 9"}
GAMES=${GAMES:-2}
TIMETURN=${TIMETURN:-1000}
TIMEMATCH=${TIMEMATCH:-120}
SIZES=${SIZES:-"0:20 1:15 2:15 8:15 9:15"}
SHOT_GAME=${SHOT_GAME:-1}
WINE=${WINE:-/usr/lib/wine/wine64}
CXX=x86_64-w64-mingw32-g++
[ -x "$WINE" ] || WINE=$(command -v wine64 || command -v wine)

mkdir -p "$out"
out=$(cd "$out" && pwd)
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
rm -rf "$out/src" "$out/bin" "$out/games" "$out/wineprefix"
mkdir -p "$out/bin" "$out/games"

# ---------------------------------------------------------------- build Piskvork + sample brain
echo "== building Piskvork from $src"
cp -r "$src" "$out/src"
s=$out/src/source
minmax='#ifndef min\n#define min(a,b) (((a)<(b))?(a):(b))\n#endif\n#ifndef max\n#define max(a,b) (((a)>(b))?(a):(b))\n#endif'
sed -i "/#include <shobjidl.h>/a $minmax" "$s/hdr.h"
sed -i 's|"[^"]*skins[\\/]*pisq\.bmp"|"../skins/pisq.bmp"|' "$s/piskvork.rc"
ico=$(cd "$s" && ls | grep -i '^piskvork\.ico$' | head -1)
sed -i "s|\"piskvork\\.ico\"|\"$ico\"|I" "$s/piskvork.rc"
(
  cd "$s"
  x86_64-w64-mingw32-windres piskvork.rc -O coff -o rc.o
  for f in game lang netgame nettur PISKVORK protocol renju taskbarprogress; do
    $CXX -O2 -w -fpermissive -c "$f.cpp" -o "$f.o"
  done
  $CXX -static -mwindows -o "$out/bin/piskvork.exe" game.o lang.o netgame.o nettur.o PISKVORK.o \
    protocol.o renju.o taskbarprogress.o rc.o \
    -lcomctl32 -lwinmm -lwsock32 -lws2_32 -lmswsock -lversion -lole32 -lgdi32 -lcomdlg32 \
    -lshell32 -luuid
)
echo "== building the sample brain (source/pbrain, named pbrain-pela.exe as its README says)"
sed -i 's|\.\.\\skelet_CPP\\pisqpipe\.h|../skelet_CPP/pisqpipe.h|' "$s/pbrain/board.h"
sed -i "/#include \"..\/skelet_CPP\/pisqpipe.h\"/a $minmax" "$s/pbrain/board.h"
(
  cd "$s/pbrain"
  for f in alfabeta piskcomp pisktur ../skelet_CPP/pisqpipe; do
    $CXX -O2 -w -fpermissive -DNDEBUG -D_CONSOLE -c "$f.cpp" -o "$(basename "$f").o"
  done
  $CXX -static -o "$out/bin/pbrain-pela.exe" alfabeta.o piskcomp.o pisktur.o pisqpipe.o
)
cp -r "$out/src/skins" "$out/bin/" 2>/dev/null || true
cp "$engine" "$out/bin/pbrain-pentad.exe"
"$here/../wine/build-shim.sh" "$out/bin" >/dev/null   # Wine 8 lacks bcryptprimitives.dll

# ---------------------------------------------------------------- Wine + Xvfb
export WINEPREFIX=$out/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
dnum=${XDISPLAY_NUM:-90}
while [ -e "/tmp/.X$dnum-lock" ] || [ -e "/tmp/.X11-unix/X$dnum" ]; do dnum=$((dnum + 1)); done
Xvfb ":$dnum" -screen 0 1024x768x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do xdpyinfo -display ":$dnum" >/dev/null 2>&1 && break; sleep 0.1; done
export DISPLAY=:$dnum
# wineboot after Xvfb: a prefix booted without DISPLAY keeps a display-less desktop process.
"$WINE" wineboot -i >/dev/null 2>&1 || true
cleanup() { kill "$xvfb_pid" 2>/dev/null || true; "${WINE%/*}/wineserver" -k 2>/dev/null || wineserver -k 2>/dev/null || true; }
trap cleanup EXIT
winpath() { "$WINE" winepath -w "$1" 2>/dev/null | tr -d '\r'; }
reg_set() { "$WINE" reg add 'HKCU\Software\Petr Lastovicka\piskvorky' /v "$1" /t REG_DWORD /d "$2" /f >/dev/null 2>&1; }

echo "== engine sanity check under Wine (ABOUT / START 15 / BEGIN)"
sanity=$(cd "$out/bin" && { printf 'ABOUT\nSTART 15\nINFO timeout_turn 1000\nBEGIN\n'; sleep 3; printf 'END\n'; } \
         | timeout 60 "$WINE" pbrain-pentad.exe 2>&1 | tr -d '\r' | grep -v '^MESSAGE' || true)
echo "$sanity" | tee "$out/sanity.txt"

bin_w=$(winpath "$out/bin")
pentad_w="$bin_w\\pbrain-pentad.exe"
pela_w="$bin_w\\pbrain-pela.exe"

rule_name() { case $1 in 0) echo freestyle;; 1) echo exact-five;; 2) echo renju;; 8) echo caro;; 9) echo caro-exact5;; *) echo "rule$1";; esac; }
size_of() { for kv in $SIZES; do [ "${kv%%:*}" = "$1" ] && { echo "${kv#*:}"; return; }; done; echo 20; }

screenshot() {  # $1 = game dir: reopen its .psq in Piskvork's window and capture it
  local d=$1 pid
  (cd "$out/bin" && exec "$WINE" piskvork.exe "$(winpath "$d/game.psq")") >/dev/null 2>&1 &
  pid=$!
  sleep 10
  import -window root "$out/.root.png"
  convert "$out/.root.png" -trim +repage "$out/piskvork-board.png"
  kill "$pid" 2>/dev/null || true
  sleep 2
}

res=$out/results.txt
fmt='%-15s %-5s %-7s %-7s %-7s %-8s %-6s %-5s %-16s %s\n'
printf "$fmt" rule size black white winner how moves exit "pentad ms avg/max" errors > "$res"
n=0
for rule in $RULES; do
  size=$(size_of "$rule")
  for g in $(seq "$GAMES"); do
    n=$((n + 1))
    d=$out/games/$(rule_name "$rule")-$g
    mkdir -p "$d"
    if [ $((g % 2)) = 1 ]; then b=pentad; w=pela; bw=$pentad_w; ww=$pela_w
    else b=pela; w=pentad; bw=$pela_w; ww=$pentad_w; fi
    # Board size, timeouts enforced (Piskvork's default is not to check them), 1 s tolerance.
    reg_set sirka "$size"; reg_set height "$size"; reg_set checkTimeOut 1; reg_set tolerance 1000
    echo "== game $n: $(rule_name "$rule") ${size}x$size, black $b, white $w"
    set +e
    (cd "$out/bin" && timeout $((TIMEMATCH * 2 + 120)) "$WINE" piskvork.exe -p "$bw" "$ww" \
        -rule "$rule" -timeturn "$TIMETURN" -timematch "$TIMEMATCH" -opening -1 \
        -outfile "$(winpath "$d")\\game.psq" -logmsg "$(winpath "$d")\\msg.txt" \
        -logpipe "$(winpath "$d")\\pipe.txt") > "$d/stderr.txt" 2>&1
    rc=$?
    set -e
    # -p A B: A moves first (Black). Exit code: 1 = A won, 2 = B won, 3 = no winner.
    case $rc in 1) win=$b;; 2) win=$w;; 3) win=draw;; *) win="?(rc=$rc)";; esac
    moves=$(grep -cE '^[0-9]+,[0-9]+,[0-9]+' "$d/game.psq" 2>/dev/null || echo 0)
    errs=$( { cat "$d/stderr.txt"; grep -ihE 'timeout|error|crash|forbid|foul|illegal|not found|can.t' "$d/msg.txt" 2>/dev/null; } \
            | tr -d '\r' | grep -v '^$' | tr '\n' ';' | cut -c1-120 || true)
    # How it ended: the winner made the last move = a five; renju White winning on Black's move
    # = Black's forbidden move; Piskvork calls a draw at width*height-25 stones.
    last=$([ $((moves % 2)) = 1 ] && echo "$b" || echo "$w")
    case $win in
      draw) how=draw;; "$last") how=five;;
      "$w") how=$([ "$rule" = 2 ] && echo foul || echo other);; *) how=other;;
    esac
    # Pentad's thinking time per move as Piskvork measured it (third field of the .psq lines).
    pms=$(grep -E '^[0-9]+,[0-9]+,[0-9]+' "$d/game.psq" 2>/dev/null | tr -d '\r' | awk -F, -v par=$([ "$b" = pentad ] && echo 1 || echo 0) \
          'NR % 2 == par { n++; s += $3; if ($3 > m) m = $3 } END { if (n) printf "%d/%d", s / n, m; else print "-" }')
    printf "$fmt" "$(rule_name "$rule")($rule)" "$size" "$b" "$w" "$win" "$how" "$moves" "$rc" "$pms" \
        "${errs:--}" | tee -a "$res"
    if [ "$n" = "$SHOT_GAME" ]; then screenshot "$d"; fi
  done
done
echo "== results in $res; screenshot $out/piskvork-board.png"
