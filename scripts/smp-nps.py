#!/usr/bin/env python3
# Nodes per ms of one 3 s renju search with 1 and then 2 threads (the last MESSAGE line).
# Usage: scripts/smp-nps.py BINARY
import subprocess, time, sys
def H(m): return ord(m[0])-97, int(m[1:])-1
def run(binary, rule, moves, threads, ms):
    p=subprocess.Popen([binary],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
    mv=moves.split(); n=len(mv)
    cmds=["START 15",f"INFO rule {rule}",f"INFO timeout_turn {ms}","INFO timeout_match 0",f"INFO thread_num {threads}","INFO game_type 1","BOARD"]
    for i,m in enumerate(mv):
        x,y=H(m); cmds.append(f"{x},{y},{1 if (i%2)==(n%2) else 2}")
    cmds.append("DONE")
    p.stdin.write("\n".join(cmds)+"\n"); p.stdin.flush()
    last=''
    while True:
        l=p.stdout.readline().strip()
        if l.startswith("MESSAGE depth"): last=l
        if l and l[0].isdigit():
            p.stdin.write("END\n"); p.stdin.flush(); p.wait(); return l,last
for t in [1,2]:
    print(t, run(sys.argv[1], 4, "h8 i9 j10", t, 3000))
