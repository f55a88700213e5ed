#!/usr/bin/env python3
"""Where a run's CPU goes: per job, the wall time at -j 1 and -j 2, the CPU
seconds per stage (--stats-json's cpu_seconds, at -j 2), the busiest
thread's share of all CPU at -j 8 (from /proc/PID/task/*/stat, sampled
every 50 ms, each thread's last sample), and the Amdahl ceiling that share
sets for 16 and 64 cores (speedup over one core when the busiest thread's
work is serial: 1 / (s + (1 - s) / n)). Prints a Markdown table per job
for docs/performance.md. Linux only (reads /proc).

    cargo build --release --bin normurl --example make_dedup_file
    target/release/examples/make_dedup_file --lines 4000000 -o bench-data/dedup-4m.txt
    scripts/bench-stages.py bench-data/dedup-4m.txt [BIG_FILE]

The jobs: plain and -u on the first file (the high-cardinality one), and
--count -g registered_domain on the second (default: the first); when
BIG_FILE.gz exists (one member: `gzip -6 -c BIG_FILE > BIG_FILE.gz`),
also plain on BIG_FILE, and plain and -u on BIG_FILE.gz. Output
goes to /dev/null. The 1-minute load average is printed with each run.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("NORMURL", "target/release/normurl")
TICK = os.sysconf("SC_CLK_TCK")


def thread_ticks(pid):
    ticks = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return ticks
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            # utime and stime are fields 14 and 15 (after the name: 12, 13).
            ticks[tid] = int(fields[11]) + int(fields[12])
        except (FileNotFoundError, IndexError, ProcessLookupError):
            pass
    return ticks


def run(args, file):
    """Wall seconds, --stats-json, and each thread's last CPU ticks."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "s.json")
        load = os.getloadavg()[0]
        start = time.monotonic()
        p = subprocess.Popen(
            [BIN, *args, "--stats-json", stats, file],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        last = {}
        while p.poll() is None:
            last.update(thread_ticks(p.pid))
            time.sleep(0.05)
        wall = time.monotonic() - start
        if p.returncode != 0:
            sys.exit(f"{args}: {p.stderr.read().decode()}")
        with open(stats) as f:
            return wall, json.load(f), last, load


def amdahl(s, n):
    return 1 / (s + (1 - s) / n)


def job(name, args, file):
    w1, _, _, l1 = run([*args, "-j", "1"], file)
    w2, s2, _, l2 = run([*args, "-j", "2"], file)
    _, s8, ticks, l8 = run([*args, "-j", "8"], file)
    total = sum(ticks.values()) or 1
    share = max(ticks.values(), default=0) / total
    cpu = s2["cpu_seconds"]
    print(f"\n**{name}** (`normurl {' '.join(args)}` on {os.path.basename(file)}; load {l1:.1f} / {l2:.1f} / {l8:.1f})\n")
    print("| -j 1 wall s | -j 2 wall s | read | workers | dedup | write | other | total CPU s (-j 2) | busiest thread at -j 8 | Amdahl 16 | Amdahl 64 |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    stages = " | ".join(f"{cpu[k]:.2f}" for k in ["read", "workers", "dedup", "write", "other"])
    print(
        f"| {w1:.2f} | {w2:.2f} | {stages} | {cpu['total']:.2f} | {share:.0%} "
        f"| {amdahl(share, 16):.1f}x | {amdahl(share, 64):.1f}x |"
    )
    print(f"\n(-j 8: {len(ticks)} threads, {total / TICK:.2f} CPU s; output lines {s8['output_lines']:,})")
    return w2


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    distinct = sys.argv[1]
    big = sys.argv[2] if len(sys.argv) > 2 else distinct
    plain = job("plain", ["-p", "whatwg"], distinct)
    dedup = job("-u, high cardinality", ["-u"], distinct)
    job("--count -g registered_domain", ["--count", "-g", "registered_domain"], big)
    print(f"\n-u over plain at -j 2: {dedup / plain:.2f}x")
    member = big + ".gz"
    if os.path.exists(member):
        big_plain = job("plain", ["-p", "whatwg"], big)
        big_member = job("one gzip member", ["-p", "whatwg"], member)
        job("-u, one gzip member", ["-u"], member)
        print(f"\none gzip member over plain at -j 2: {big_member / big_plain:.2f}x")


if __name__ == "__main__":
    main()
