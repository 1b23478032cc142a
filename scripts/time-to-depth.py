#!/usr/bin/env python3
# Time to depth: wall time for pbrain-pentad to finish a fixed-depth search on 9 positions,
# for each thread count. Usage: scripts/time-to-depth.py BINARY DEPTH THREADS (e.g. 11 1,2).
import subprocess, sys, time
POS = [
 (1, "h8 i9 i7 g9 j8"), (1, "h8 h9 i8 g8 j9 i10 g7 f6 j7"), (1, "h8 i8 h9 h10 g10 f11 i9 j9 g9 f9 g8 g7"),
 (4, "h8 i9 j10"), (4, "h8 h9 j8 i8 i7 g9"), (4, "h8 i7 j6 i8 i9 h9 g10 j8"), (4, "h8 g7 i9 j10 g9 f9 h10 h9 i10 i11"),
 (0, "h8 i9 j8 i8 i7"), (0, "h8 g9 h10 h9 i9 g8 g10 f10"),
]
def H(m): return ord(m[0])-97, int(m[1:])-1
def run(binary, rule, moves, threads, depth):
    p=subprocess.Popen([binary],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
    ms=moves.split(); n=len(ms)
    cmds=["START 15",f"INFO rule {rule}","INFO timeout_turn 1000000","INFO timeout_match 0",f"INFO thread_num {threads}",f"INFO max_depth {depth}","INFO game_type 1","BOARD"]
    for i,m in enumerate(ms):
        x,y=H(m); cmds.append(f"{x},{y},{1 if (i%2)==(n%2) else 2}")
    cmds.append("DONE")
    p.stdin.write("\n".join(cmds[:-1])+"\n"); p.stdin.flush()
    time.sleep(0.05)
    t=time.time(); p.stdin.write("DONE\n"); p.stdin.flush()
    last=''
    while True:
        l=p.stdout.readline().strip()
        if l.startswith("MESSAGE depth"): last=l
        if l and l[0].isdigit():
            el=time.time()-t; p.stdin.write("END\n"); p.stdin.flush(); p.wait(); return el, l, last
binary=sys.argv[1]; depth=int(sys.argv[2]); threads=[int(x) for x in sys.argv[3].split(',')]
tot={t:0.0 for t in threads}
for rule,moves in POS:
    row=[]
    for t in threads:
        el,mv,msg=run(binary,rule,moves,t,depth)
        tot[t]+=el; row.append(f"{t}T {el*1000:7.0f}ms {mv:6}")
    print(rule, moves[:24].ljust(24), ' | '.join(row))
print('total', {t: round(v,2) for t,v in tot.items()})
