#!/usr/bin/env bash
# Builds bench-data/distinct.txt (git-ignored): COUNT distinct URLs
# (default 2,500,000), then the first COUNT/5 of them again, so that a
# --dedup run keeps COUNT lines and drops COUNT/5, some while the key set
# is in memory and some after it spilled. For measuring --dedup-memory
# (scripts/measure-dedup-memory.sh).
#
#   scripts/make-distinct-urls.sh
#   COUNT=100000 scripts/make-distinct-urls.sh
set -euo pipefail
cd "$(dirname "$0")/.."

count=${COUNT:-2500000}
out=bench-data/distinct.txt
mkdir -p bench-data
awk -v n="$count" 'BEGIN {
    for (i = 0; i < n; i++)
        printf "https://www.host%d.example.com/section/%d/page.html?id=%d\n", i % 50000, i % 997, i
    for (i = 0; i < n / 5; i++)
        printf "https://www.host%d.example.com/section/%d/page.html?id=%d\n", i % 50000, i % 997, i
}' > "$out"
echo "$out: $(wc -c < "$out") bytes, $(wc -l < "$out") lines, $count distinct"
