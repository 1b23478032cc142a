#!/usr/bin/env python3
"""GomocupJudge check: Pentad's Gomocup ZIP run by GomocupJudge's own client code under Wine.

Usage: tools/gui-check/gomocupjudge.py JUDGE_SRC GOMOCUP_ZIP LINUX_ENGINE OUTDIR [--games N]

  JUDGE_SRC     a checkout of github.com/Gomocup/GomocupJudge (the folder holding client/ and
                test_zip_rules.py)
  GOMOCUP_ZIP   target/dist/pbrain-pentad-<version>-gomocup.zip (`cargo xtask dist`)
  LINUX_ENGINE  the Linux pbrain-pentad the Windows build plays in part 2
  OUTDIR        scratch/output folder (its Wine prefix is rebuilt each run)

Fetches nothing. Needs python3 with psutil (GomocupJudge's one client dependency), Wine (the
64-bit loader /usr/lib/wine/wine64, or set WINE) and x86_64-w64-mingw32-gcc for the Wine-only
bcryptprimitives.dll (tools/wine/), which goes into the prefix's system32 as Windows 10/11
provide it: the ZIP is used exactly as built.

Part 1 is GomocupJudge's ZIP tester (test_zip_rules.py): it extracts the ZIP, picks the exe
the way the judge does, and checks each format's rule positions at the league time control
(30 s a move, 180 s a game). Its self-play game uses the fastgame control (5 s, 100 s) here
to keep the run short. Part 2 is GomocupJudge's game loop (`ai_match`, which
suspends the engine not on move, measures its USS memory and judges renju fouls): the
Windows build against the Linux build, colours alternating, at TURN_MS a move (default 1000)
and MATCH_MS a game (default 60000) with the judge's 1000 ms tolerance. The judge runs
engines with `subprocess.Popen(shlex.split(cmd))`; this script prefixes `.exe` commands with
the Wine loader and changes nothing else.

Writes OUTDIR/results.txt and OUTDIR/games/<n>.psq.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
import zipfile

FORMATS = [
    # name, rule, size, rule-check positions (test_zip_rules.py's own)
    ("Freestyle", 0, 20, [("h8h9i8i9j8j9k8k9", "all")]),
    ("Freestyle15", 0, 15, [("h8h9i8i9j8j9k8k9", "all")]),
    ("Standard", 1, 15, [("h8h9i8i9j8j9k8k9", "all"),
                         ("h8h9i8h10g8h11j13h12g14h14i15", "standard_specific")]),
    ("Renju", 4, 15, [("h8h9i8i9j8j9k8k9", "all"), ("h8h9i7i9h10i6i11i12", "renju_specific")]),
    ("Caro", 8, 15, [("h8h9i8i9j8j9k8k9", "all"), ("h8f8g8f9i8f7j8l8", "caro_specific")]),
]

# Part 2's games: rule, size, opening (GomocupJudge coordinates, letters are columns).
MATCH_OPENINGS = ["h8i9h10", "h8h9j9", "h8i8g9", "h8j10i7", "g7h8i10", "h8g10j7"]
MATCH_FORMATS = [("Freestyle", 0, 20), ("Renju", 4, 15), ("Standard", 1, 15), ("Caro", 8, 15)]

# ai_match's `endby`: 0 a five or a draw (result 0), 1 a renju foul, 2 time, 3 an illegal
# coordinate, 4 a crash (or memory over the limit).
ENDBY = {1: "foul", 2: "time", 3: "illegal", 4: "crash"}


def wine_loader():
    wine = os.environ.get("WINE", "/usr/lib/wine/wine64")
    if not os.access(wine, os.X_OK):
        wine = shutil.which("wine64") or shutil.which("wine")
    if not wine:
        sys.exit("gomocupjudge: no Wine loader (set WINE)")
    return wine


def prepare_prefix(out, here, wine):
    """A fresh Wine prefix with the bcryptprimitives.dll stand-in in its system32."""
    prefix = os.path.join(out, "wineprefix")
    shutil.rmtree(prefix, ignore_errors=True)
    os.environ.update(WINEPREFIX=prefix, WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    subprocess.run([wine, "wineboot", "-i"], check=True, capture_output=True)
    subprocess.run(["wineserver", "-w"], check=False)
    system32 = os.path.join(prefix, "drive_c", "windows", "system32")
    subprocess.run([os.path.join(here, "..", "wine", "build-shim.sh"), system32], check=True,
                   capture_output=True)
    # One persistent wineserver for the whole run: a Wine process started while no server
    # runs waits for one to start and load the prefix (a second or more), and the judge
    # counts start-up against the first move. Windows has no such cost.
    subprocess.Popen(["wineserver", "-p"])
    time.sleep(1)


def startup_ms(wine, exe, runs=3):
    """Median time from launching the engine to its `OK` for START (GomocupJudge counts it
    against the first move)."""
    times = []
    for _ in range(runs):
        t = time.time()
        p = subprocess.Popen([wine, exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, cwd=os.path.dirname(exe))
        p.stdin.write(b"START 15\r\n")
        p.stdin.flush()
        while (line := p.stdout.readline()) and line.strip() != b"OK":
            pass
        if not line:
            sys.exit("gomocupjudge: the engine exited before answering START")
        times.append((time.time() - t) * 1000)
        p.stdin.write(b"END\r\n")
        p.stdin.flush()
        p.wait()
    return sorted(times)[len(times) // 2]


def run_exe_under_wine(wine):
    """Makes every subprocess.Popen of an `.exe` go through the Wine loader."""
    real_popen = subprocess.Popen

    class WinePopen(real_popen):
        def __init__(self, args, *rest, **kw):
            if isinstance(args, list) and args and args[0].lower().endswith(".exe"):
                args = [wine] + args
            super().__init__(args, *rest, **kw)

    subprocess.Popen = WinePopen


def zip_checks(judge, zip_path, out, log):
    """Part 1: test_zip_rules.py's selection and rule checks, and a self-play game."""
    extracted = os.path.join(out, "extracted")
    shutil.rmtree(extracted, ignore_errors=True)
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        z.extractall(extracted)
    log(f"ZIP {os.path.basename(zip_path)}: {names}")
    ok = True
    for name, rule, size, checks in FORMATS:
        exe, protocol = judge.select_executable(extracted, rule, size, True)
        log(f"{name} (rule {rule}, {size}x{size}): judge selects {os.path.basename(exe)} "
            f"({protocol} protocol)")
        for seq, kind in checks:
            t = time.time()
            passed, msg = judge.run_rule_check(exe, protocol, rule, size, 30000, 180000,
                                               extracted, seq, kind)
            log(f"  rule check {seq} ({kind}): {'PASSED' if passed else 'FAILED'} {msg} "
                f"[{time.time() - t:.1f} s]")
            ok &= passed
        t = time.time()
        passed, msg = judge.run_self_play(exe, protocol, rule, size, 5000, 100000, extracted)
        log(f"  self-play (5 s/100 s): {'PASSED' if passed else 'FAILED'} {msg} "
            f"[{time.time() - t:.0f} s]")
        ok &= passed
    return ok, exe


def match_games(judge_client, exe, linux_engine, out, games, log):
    """Part 2: the judge's game loop, Windows build against the Linux build."""
    from utility import str_to_pos, pos_to_str

    turn = int(os.environ.get("TURN_MS", "1000"))
    match = int(os.environ.get("MATCH_MS", "60000"))
    games_dir = os.path.join(out, "games")
    os.makedirs(games_dir, exist_ok=True)
    log(f"\nai_match: Windows {os.path.basename(exe)} against Linux {linux_engine}, "
        f"{turn} ms a move, {match} ms a game, tolerance 1000 ms")
    log(f"{'game':>4} {'format':<10} {'opening':<8} {'black':<8} {'winner':<8} {'end':<7} "
        f"{'moves':>5} {'win ms avg/max':>15} {'win MB':>7}")
    tally = {"windows": 0, "linux": 0, "draw": 0}
    bad = 0
    for g in range(games):
        name, rule, size = MATCH_FORMATS[(g // 2) % len(MATCH_FORMATS)]
        opening_str = MATCH_OPENINGS[(g // (2 * len(MATCH_FORMATS))) % len(MATCH_OPENINGS)]
        opening = str_to_pos(opening_str)
        # The judge's engine 1 moves first after the opening; with an odd opening that is White.
        windows_first = g % 2 == 0
        cmds = [exe, linux_engine] if windows_first else [linux_engine, exe]
        dirs = []
        for i in (1, 2):
            d = os.path.join(out, "folders", f"{g}-{i}")
            os.makedirs(d, exist_ok=True)
            dirs.append(d)
        game = judge_client.ai_match(
            board_size=size, opening=opening, cmd_1=cmds[0], cmd_2=cmds[1],
            protocol_1="new", protocol_2="new", timeout_turn_1=turn, timeout_turn_2=turn,
            timeout_match_1=match, timeout_match_2=match, max_memory_1=350 << 20,
            max_memory_2=350 << 20, game_type=1, rule=rule, folder_1=dirs[0], folder_2=dirs[1],
            working_dir_1=os.path.dirname(cmds[0]), working_dir_2=os.path.dirname(cmds[1]),
            tolerance=1000, settings={}, special_rule="")
        msg, psq, result, endby = game.play()
        with open(os.path.join(games_dir, f"{g + 1}.psq"), "w") as f:
            f.write(f"{name} {size}x{size} opening {opening_str}\n{msg}\n")
            for x, y, t in psq:
                f.write(f"{x + 1},{y + 1},{t}\n")
        # psq rows are (x, y, the mover's cumulative ms), the opening's stones not included.
        moves = psq
        win_idx = 0 if windows_first else 1
        win_times = []
        prev = [0, 0]
        for k, (_, _, t) in enumerate(moves):
            side = k % 2
            if side == win_idx:
                win_times.append(t - prev[side])
            prev[side] = t
        # result is the winner's colour: 1 Black, 2 White, 0 a draw. Engine 1 moves first
        # after the opening, so with an odd opening it plays White.
        black = "windows" if (len(opening) % 2 == 0) == windows_first else "linux"
        white = "linux" if black == "windows" else "windows"
        winner = {0: "draw", 1: black, 2: white}[result]
        tally[winner] += 1
        end = ENDBY.get(endby, "draw" if result == 0 else "five")
        bad += end not in ("five", "draw")
        avg = sum(win_times) / max(1, len(win_times))
        windows_engine = game.engine_1 if windows_first else game.engine_2
        mem = windows_engine.vms_memory if windows_engine else 0
        log(f"{g + 1:>4} {name:<10} {opening_str:<8} {black:<8} {winner:<8} {end:<7} "
            f"{len(moves):>5} {avg:>8.0f}/{max(win_times, default=0):<6} {mem / 2**20:>7.1f}")
    log(f"\nWindows build {tally['windows']} wins, Linux build {tally['linux']}, "
        f"draws {tally['draw']}; games not ended by a five or a draw: {bad}")
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("judge_src")
    ap.add_argument("zip")
    ap.add_argument("linux_engine")
    ap.add_argument("outdir")
    ap.add_argument("--games", type=int, default=24)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.abspath(args.outdir)
    os.makedirs(out, exist_ok=True)
    results = open(os.path.join(out, "results.txt"), "w")

    def log(line):
        print(line, flush=True)
        results.write(line + "\n")
        results.flush()

    wine = wine_loader()
    prepare_prefix(out, here, wine)
    judge_src = os.path.abspath(args.judge_src)
    sys.path[:0] = [judge_src, os.path.join(judge_src, "client")]
    run_exe_under_wine(wine)
    import test_zip_rules as judge  # noqa: E402  (GomocupJudge's tester, from judge_src)
    import ai_match as judge_client  # noqa: E402

    ok, exe = zip_checks(judge, os.path.abspath(args.zip), out, log)
    log(f"\nstart-up to OK (median of 3): Windows build under Wine "
        f"{startup_ms(wine, exe):.0f} ms")
    ok &= match_games(judge_client, exe, os.path.abspath(args.linux_engine), out, args.games, log)
    log("ALL PASSED" if ok else "SOME FAILED")
    subprocess.run(["wineserver", "-k"], check=False)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
