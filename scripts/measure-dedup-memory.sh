#!/usr/bin/env bash
# Peak RSS growth that --dedup-memory BUDGET causes: the maximum resident
# set size (GNU time -v) of `normurl -j 2 --dedup --dedup-memory BUDGET
# FILE` minus that of the same run without --dedup, for each budget, as a
# Markdown table. Needs a release build and /usr/bin/time (GNU time).
#
#   scripts/make-distinct-urls.sh
#   scripts/measure-dedup-memory.sh                       # 16M 32M 64M 1G
#   BIN=/tmp/normurl-old scripts/measure-dedup-memory.sh 16M
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${BIN:-target/release/normurl}
file=${FILE:-bench-data/distinct.txt}
[ $# -gt 0 ] || set -- 16M 32M 64M 1G

# Maximum resident set size in KiB of running the arguments; the output is
# counted, so that a wrong result shows.
max_rss() {
    local log lines
    log=$(mktemp)
    lines=$(/usr/bin/time -v "$@" 2> "$log" | wc -l)
    echo "$(awk '/Maximum resident set size/ { print $NF }' "$log") $lines"
    rm -f "$log"
}

bytes() {
    numfmt --from=iec "$1"
}

read -r base base_lines < <(max_rss "$bin" -j 2 "$file")
echo "without --dedup: $base KiB, $base_lines lines"
echo
echo "| budget | peak RSS KiB | growth KiB | growth / budget | lines out |"
echo "|---|--:|--:|--:|--:|"
for budget in "$@"; do
    read -r rss lines < <(max_rss "$bin" -j 2 --dedup --dedup-memory "$budget" "$file")
    growth=$((rss - base))
    ratio=$(awk -v g="$growth" -v b="$(bytes "$budget")" 'BEGIN { printf "%.2f", g * 1024 / b }')
    echo "| $budget | $rss | $growth | $ratio | $lines |"
done
