#!/usr/bin/env bash
# Peak RSS of plain runs on compressed inputs of any compression ratio
# (issue 44: under 64 MiB at -j 2, as for plain input). Makes, in
# bench-data/memory/ (git-ignored; 1.2 MB in all):
#   bomb16.gz     16 gzip members, each 64 MiB of one byte (1 GiB out)
#   bomb1.gz      the same 1 GiB as one gzip member
#   lines8.gz     320 MB of short lines in 8 gzip members
#   bomb16.zst    16 zstd frames of 64 MiB of one byte
# and runs `normurl -j J FILE > /dev/null` on each under /usr/bin/time -v.
#
#   scripts/check-memory.sh                  # target/release/normurl, -j 2
#   BIN=target/debug/normurl J=8 scripts/check-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/normurl}
j=${J:-2}
dir=bench-data/memory
mkdir -p "$dir"

one_byte() { head -c $((64 << 20)) /dev/zero | tr '\0' a; }
[ -s "$dir/bomb16.gz" ] || for _ in $(seq 16); do one_byte | gzip -c; done > "$dir/bomb16.gz"
[ -s "$dir/bomb1.gz" ] || for _ in $(seq 16); do one_byte; done | gzip -c > "$dir/bomb1.gz"
[ -s "$dir/lines8.gz" ] || for i in $(seq 8); do
    yes "http://host$i.example/a/path?q=$i" | head -c 40000000 | gzip -c
done > "$dir/lines8.gz"
[ -s "$dir/bomb16.zst" ] || for _ in $(seq 16); do one_byte | zstd -q -c; done > "$dir/bomb16.zst"

printf '%-12s %12s %12s %10s\n' input compressed 'peak RSS' wall
for f in bomb16.gz bomb1.gz lines8.gz bomb16.zst; do
    log=$(mktemp)
    /usr/bin/time -v "$bin" -j "$j" "$dir/$f" > /dev/null 2> "$log" || { cat "$log"; exit 1; }
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    wall=$(awk -F'): ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
    printf '%-12s %12s %9d MiB %10s\n' "$f" "$(stat -c %s "$dir/$f")" $((rss / 1024)) "$wall"
    rm -f "$log"
done
