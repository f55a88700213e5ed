#!/usr/bin/env bash
# Times normurl on bench-data/big.txt (make it with scripts/make-big-file.sh)
# next to cat and wc -l, writing to /dev/null, and with --get host, --get
# registered_domain and --dedup (issue 29 bounds the first two at 1.3x
# the plain run): wall seconds (best of RUNS),
# user and system CPU seconds and peak RSS of that run (GNU time), as a
# Markdown table. Also the pipeline with an identity record function
# (examples/pipeline_ceiling.rs), to show the pipeline's own ceiling.
#
#   cargo build --release --bin normurl --example pipeline_ceiling
#   RUNS=5 scripts/bench-big-file.sh [FILE]
#
# Timings are only meaningful on an otherwise idle machine: the load average
# is printed before and after, check it.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-bench-data/big.txt}
runs=${RUNS:-3}
bin=target/release/normurl
ceiling=target/release/examples/pipeline_ceiling
[ -x "$bin" ] && [ -x "$ceiling" ] || {
    echo "build first: cargo build --release --bin normurl --example pipeline_ceiling" >&2
    exit 2
}
[ -f "$file" ] || { echo "$file: missing; run scripts/make-big-file.sh" >&2; exit 2; }

echo "file: $file, $(wc -c < "$file") bytes; $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$file" > /dev/null # warm the page cache

measure() {
    local label=$1
    shift
    local best="" line
    for _ in $(seq "$runs"); do
        line=$(/usr/bin/time -f "%e %U %S %M" "$@" 2>&1 >/dev/null | tail -1)
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
    done
    read -r wall user sys rss <<< "$best"
    printf '| %-34s | %6s | %6s | %6s | %8s |\n' "$label" "$wall" "$user" "$sys" "$(( rss / 1024 ))"
}

echo
echo "| command (output to /dev/null)      | wall s | user s |  sys s | RSS MiB |"
echo "|------------------------------------|-------:|-------:|-------:|--------:|"
measure "cat" cat "$file"
measure "wc -l" wc -l "$file"
measure "pipeline, identity, -j 1" "$ceiling" "$file" 1
measure "pipeline, identity, -j 2" "$ceiling" "$file" 2
measure "normurl -j 1" "$bin" -j 1 "$file"
measure "normurl -j 2" "$bin" -j 2 "$file"
measure "normurl -j 2 -g host" "$bin" -j 2 -g host "$file"
measure "normurl -j 2 -g registered_domain" "$bin" -j 2 -g registered_domain "$file"
measure "normurl -j 2 --dedup" "$bin" -j 2 --dedup "$file"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
