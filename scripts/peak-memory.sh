#!/usr/bin/env bash
# peak-memory.sh: measures pbrain-pentad from outside (Linux /proc): peak resident memory
# (VmHWM) while searching on 20x20 with 2 threads under INFO max_memory limits, and the
# START latency (process start to OK). Not part of `cargo test`.
#
# Usage:
#   scripts/peak-memory.sh [--no-build]
# Environment (all optional):
#   ENGINE=target/release/pbrain-pentad  LIMITS_MB="64 200" (1 MB = 10^6 bytes, the stricter
#   reading)  THREADS=2  BOARD=20  TURN_MS=3000  MOVES=6 (engine moves per limit)
#   LATENCY_RUNS=20  TINY=1 (also measure with the smallest hash: INFO hash_size 1024, to
#   estimate the fixed overhead that src/search/memory.rs assumes)
#   EXTRA=1 (also: thread_num 4 under the first limit; hash_size 1 GiB under the first limit;
#   and no max_memory sent at all, checked against the 350 MB default)
# Exit status: 0 when every peak is under its limit and every answer came within its turn
# limit, 1 otherwise, 2 on usage/build errors.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)

if [[ "${1:-}" != "--no-build" ]]; then
    cargo build --release --bin pbrain-pentad
fi
ENGINE=${ENGINE:-$ROOT/target/release/pbrain-pentad}
[[ -x "$ENGINE" ]] || { echo "missing executable: $ENGINE" >&2; exit 2; }
[[ -r /proc/self/status ]] || { echo "needs Linux /proc" >&2; exit 2; }

export ENGINE
export LIMITS_MB=${LIMITS_MB:-"64 200"}
export THREADS=${THREADS:-2}
export BOARD=${BOARD:-20}
export TURN_MS=${TURN_MS:-3000}
export MOVES=${MOVES:-6}
export LATENCY_RUNS=${LATENCY_RUNS:-20}
export TINY=${TINY:-1}
export EXTRA=${EXTRA:-1}

python3 - <<'PY'
"""Drives the engine over pipes, samples /proc/<pid>/status, prints peak vs limit and the
START latency."""
import os, re, select, statistics, subprocess, sys, threading, time

ENGINE = os.environ["ENGINE"]
LIMITS_MB = [float(x) for x in os.environ["LIMITS_MB"].split()]
THREADS = int(os.environ["THREADS"])
BOARD = int(os.environ["BOARD"])
TURN_MS = int(os.environ["TURN_MS"])
MOVES = int(os.environ["MOVES"])
LATENCY_RUNS = int(os.environ["LATENCY_RUNS"])
TINY = os.environ["TINY"] == "1"
EXTRA = os.environ["EXTRA"] == "1"
DEFAULT_LIMIT = 350_000_000
MOVE_RE = re.compile(r"^\d+,\d+$")


class Engine:
    def __init__(self):
        self.t_spawn = time.perf_counter()
        self.p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd="/")
        self.buf = b""

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()

    def readline(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no answer in time")
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                chunk = os.read(self.p.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError("engine closed its stdout")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def expect(self, pattern, timeout_s):
        """Next line that is not MESSAGE/DEBUG; must match `pattern`."""
        deadline = time.perf_counter() + timeout_s
        while True:
            line = self.readline(deadline)
            if line.startswith(("MESSAGE", "DEBUG")) or not line:
                continue
            if not re.match(pattern, line):
                raise RuntimeError(f"unexpected answer {line!r}")
            return line

    def status(self):
        out = {}
        try:
            with open(f"/proc/{self.p.pid}/status") as fh:
                for line in fh:
                    k, _, v = line.partition(":")
                    if k in ("VmHWM", "VmRSS", "VmPeak", "Threads"):
                        out[k] = int(v.split()[0])
        except OSError:
            pass
        return out

    def end(self, timeout_s=2.0):
        t0 = time.perf_counter()
        try:
            self.send("END")
            self.p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self.p.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None
        return (time.perf_counter() - t0) * 1000


def pick_reply(occupied, last):
    """A free cell next to `last`, else the free cell nearest the centre."""
    x, y = last
    for dx, dy in ((1, 1), (-1, 1), (1, 0), (0, 1), (-1, 0), (0, -1), (1, -1), (-1, -1),
                   (2, 0), (0, 2), (-2, 0), (0, -2), (2, 2), (-2, -2)):
        c = (x + dx, y + dy)
        if 0 <= c[0] < BOARD and 0 <= c[1] < BOARD and c not in occupied:
            return c
    c0 = BOARD // 2
    free = [(i, j) for i in range(BOARD) for j in range(BOARD) if (i, j) not in occupied]
    return min(free, key=lambda c: (c[0] - c0) ** 2 + (c[1] - c0) ** 2)


def memory_run(limit_bytes, extra_infos=(), label=None, threads=None, send_limit=True):
    eng = Engine()
    peak = {"VmRSS": 0}
    stop = threading.Event()

    def sampler():
        while not stop.is_set():
            s = eng.status()
            peak["VmRSS"] = max(peak["VmRSS"], s.get("VmRSS", 0))
            peak["Threads"] = max(peak.get("Threads", 0), s.get("Threads", 0))
            stop.wait(0.02)

    th = threading.Thread(target=sampler, daemon=True)
    th.start()
    slowest = 0.0
    over = 0
    ok = True
    try:
        eng.send(f"START {BOARD}")
        eng.expect(r"^OK", 5)
        infos = [f"INFO max_memory {limit_bytes}"] if send_limit else []
        infos += [f"INFO thread_num {threads or THREADS}", f"INFO timeout_turn {TURN_MS}",
                  "INFO timeout_match 0", "INFO time_left 2147483647", "INFO rule 0",
                  *extra_infos]
        for line in infos:
            eng.send(line)
        occupied = set()
        cmd = "BEGIN"
        for _ in range(MOVES):
            t0 = time.perf_counter()
            eng.send(cmd)
            mv = eng.expect(r"^\d+,\d+$", TURN_MS / 1000 + 5)
            ms = (time.perf_counter() - t0) * 1000
            slowest = max(slowest, ms)
            if ms > TURN_MS:
                over += 1
            x, y = map(int, mv.split(","))
            if (x, y) in occupied or not (0 <= x < BOARD and 0 <= y < BOARD):
                raise RuntimeError(f"illegal engine move {mv}")
            occupied.add((x, y))
            if len(occupied) >= BOARD * BOARD:
                break
            r = pick_reply(occupied, (x, y))
            occupied.add(r)
            cmd = f"TURN {r[0]},{r[1]}"
    except Exception as e:  # report and go on with the other limits
        print(f"  run failed: {e}")
        ok = False
    final = eng.status()
    stop.set()
    th.join()
    end_ms = eng.end()
    hwm = final.get("VmHWM", 0) * 1024
    name = label or f"max_memory {limit_bytes / 1e6:.0f} MB ({limit_bytes} B)"
    verdict = "OK" if hwm < limit_bytes else "OVER LIMIT"
    if not ok:
        verdict = "FAILED"
    print(f"  {name}: peak VmHWM {hwm / 1e6:.1f} MB = {100 * hwm / limit_bytes:.1f} % of limit"
          f" [{verdict}]; max sampled VmRSS {peak['VmRSS'] * 1024 / 1e6:.1f} MB,"
          f" VmPeak (virtual) {final.get('VmPeak', 0) * 1024 / 1e6:.1f} MB,"
          f" threads {peak.get('Threads', 0)}")
    print(f"    {MOVES} moves at timeout_turn {TURN_MS} ms: slowest answer {slowest:.0f} ms,"
          f" over the limit: {over}; END -> exit "
          + ("killed (no exit within 2 s)" if end_ms is None else f"{end_ms:.0f} ms"))
    return ok and hwm < limit_bytes and over == 0 and end_ms is not None, hwm


def latency():
    lat, ends = [], []
    for _ in range(LATENCY_RUNS):
        eng = Engine()
        try:
            eng.send(f"START {BOARD}")
            eng.expect(r"^OK", 5)
            lat.append((time.perf_counter() - eng.t_spawn) * 1000)
        except Exception as e:
            print(f"  START failed: {e}")
        e = eng.end()
        if e is not None:
            ends.append(e)
    if lat:
        lat.sort()
        print(f"  process start -> OK after START {BOARD}, {len(lat)} runs: min {lat[0]:.1f} ms,"
              f" median {statistics.median(lat):.1f} ms, max {lat[-1]:.1f} ms")
    if ends:
        print(f"  END -> exit (idle): median {statistics.median(ends):.1f} ms, max {max(ends):.1f} ms")
    return bool(lat) and max(lat) < 100 and len(ends) == LATENCY_RUNS


print(f"engine {ENGINE}: {BOARD}x{BOARD}, thread_num {THREADS}, timeout_turn {TURN_MS} ms")
all_ok = True
if TINY:
    ok, hwm = memory_run(int(1e9), ("INFO hash_size 1024",),
                         label="overhead (hash_size 1024 KiB, max_memory 1 GB)")
    print(f"    => fixed overhead with {THREADS} threads and a 1 MiB hash: about "
          f"{(hwm - (1 << 20)) / 2**20:.1f} MiB")
for mb in LIMITS_MB:
    ok, _ = memory_run(int(mb * 1_000_000))
    all_ok &= ok
if EXTRA:
    first = int(LIMITS_MB[0] * 1_000_000)
    ok, _ = memory_run(first, label=f"max_memory {first / 1e6:.0f} MB, thread_num 4",
                       threads=4)
    all_ok &= ok
    ok, _ = memory_run(first, ("INFO hash_size 1048576",),
                       label=f"max_memory {first / 1e6:.0f} MB, hash_size 1048576 KiB (1 GiB)")
    all_ok &= ok
    ok, _ = memory_run(DEFAULT_LIMIT, label="no max_memory sent (default 350 MB)",
                       send_limit=False)
    all_ok &= ok
print("START latency:")
all_ok &= latency()
print("peak-memory: " + ("OK" if all_ok else "FAILED"))
sys.exit(0 if all_ok else 1)
PY
