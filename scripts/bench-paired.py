#!/usr/bin/env python3
"""Paired timing rounds: each round runs every command once on FILE (in
alternating order from round to round) and divides its wall and CPU time
by the first command's in the same round; prints the median ratio with
its quartiles. On a shared machine whose neighbours slow whole stretches
of time, ratios within a round vary less than the times themselves.

    scripts/bench-paired.py 20 "default|target/release/normurl -j 2" \\
        "domains|target/release/normurl -j 2 -g registered_domain"

FILE is bench-data/big.txt (scripts/make-big-file.sh) unless the FILE
environment variable names another; output goes to /dev/null.
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    path = os.environ.get("FILE", "bench-data/big.txt")
    specs = [arg.split("|", 1) for arg in sys.argv[2:]]
    wall = {label: [] for label, _ in specs}
    cpu = {label: [] for label, _ in specs}
    for r in range(rounds):
        for label, cmd in specs if r % 2 == 0 else specs[::-1]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd.split() + [path], stdout=subprocess.DEVNULL, check=True)
            wall[label].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[label].append(
                after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            )
    print("load", " ".join(open("/proc/loadavg").read().split()[:3]), "rounds", rounds)
    base = specs[0][0]

    def quartiles(values):
        v = sorted(values)
        return v[len(v) // 4], statistics.median(v), v[min(len(v) - 1, 3 * len(v) // 4)]

    for label, _ in specs:
        w = quartiles(a / b for a, b in zip(wall[label], wall[base]))
        c = quartiles(a / b for a, b in zip(cpu[label], cpu[base]))
        print(
            f"{label:12s} wall best {min(wall[label]):.3f} s median "
            f"{statistics.median(wall[label]):.3f} s, ratio {w[1]:.2f}x "
            f"({w[0]:.2f}-{w[2]:.2f}); cpu median {statistics.median(cpu[label]):.2f} s, "
            f"ratio {c[1]:.2f}x ({c[0]:.2f}-{c[2]:.2f})"
        )


if __name__ == "__main__":
    main()
