#!/usr/bin/env bash
# Times the whole command with two profiles on one file, alternating runs so
# that both see the same machine load: for each thread count, the best wall
# time of RUNS runs of each profile and their ratio.
#
#   cargo build --release --bin normurl
#   RUNS=5 scripts/compare-profiles.sh [FILE] [PROFILE_A] [PROFILE_B]
#   RUNS=5 ARGS="--field 4" scripts/compare-profiles.sh bench-data/crawl.log
#
# Defaults: bench-data/big.txt (scripts/make-big-file.sh), whatwg against
# aggressive. ARGS are more arguments for both runs (word-split), such as
# the column of a crawl log (scripts/make-crawl-log-file.sh builds one).
# Output goes to /dev/null. NORMURL_NO_AVX2=1 in the
# environment makes the canonicalizer scan with SSE2 instead of AVX2.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-bench-data/big.txt}
a=${2:-whatwg}
b=${3:-aggressive}
runs=${RUNS:-5}
read -r -a args <<< "${ARGS:-}"
bin=target/release/normurl
[ -x "$bin" ] || { echo "build first: cargo build --release --bin normurl" >&2; exit 2; }
[ -f "$file" ] || { echo "$file: missing; run scripts/make-big-file.sh" >&2; exit 2; }

echo "file: $file, $(wc -c < "$file") bytes; arguments: ${args[*]:-none}; $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$file" > /dev/null # warm the page cache

wall() {
    /usr/bin/time -f "%e" "$bin" "${args[@]}" --profile "$1" -j "$2" "$file" 2>&1 >/dev/null | tail -1
}

printf '| threads | %s s (runs) | %s s (runs) | best %s / best %s |\n' "$a" "$b" "$b" "$a"
printf '|--:|--|--|--:|\n'
for j in 1 2; do
    ta=() tb=()
    for _ in $(seq "$runs"); do
        ta+=("$(wall "$a" "$j")")
        tb+=("$(wall "$b" "$j")")
    done
    best_a=$(printf '%s\n' "${ta[@]}" | sort -n | head -1)
    best_b=$(printf '%s\n' "${tb[@]}" | sort -n | head -1)
    ratio=$(awk -v x="$best_b" -v y="$best_a" 'BEGIN { printf "%.2f", x / y }')
    printf '| %s | %s | %s | %s |\n' "$j" "${ta[*]}" "${tb[*]}" "$ratio"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
