#!/usr/bin/env bash
# Times `normurl --json-field url` on bench-data/index.cdxj next to plain
# normurl on bench-data/index-urls.txt, the same URLs one per line (make
# both with scripts/make-cdxj-file.sh), interleaved so that both see the
# same load: best wall seconds of RUNS for each, with -j 1 and -j 2, output
# to /dev/null. Prints the ratios the issue asks about: seconds for the
# CDXJ file over seconds for the URL file (the same records), and the MB/s
# of each.
#
#   cargo build --release --bin normurl
#   RUNS=3 scripts/bench-json-field.sh
#
# On a loaded machine absolute figures drift; the ratios of interleaved
# runs hold better. The load average is printed before and after.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/normurl
cdxj=bench-data/index.cdxj
urls=bench-data/index-urls.txt
runs=${RUNS:-3}
[ -x "$bin" ] || { echo "build first: cargo build --release --bin normurl" >&2; exit 2; }
[ -f "$cdxj" ] && [ -f "$urls" ] || { echo "run scripts/make-cdxj-file.sh first" >&2; exit 2; }

echo "$cdxj: $(wc -c < "$cdxj") bytes; $urls: $(wc -c < "$urls") bytes; $(wc -l < "$urls") lines each"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$cdxj" "$urls" > /dev/null # warm the page cache

wall() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

for j in 1 2; do
    best_cdxj="" best_urls=""
    for _ in $(seq "$runs"); do
        best_urls=$(min "$(wall "$bin" -j "$j" "$urls")" "$best_urls")
        best_cdxj=$(min "$(wall "$bin" -j "$j" --json-field url "$cdxj")" "$best_cdxj")
    done
    awk -v j="$j" -v u="$best_urls" -v c="$best_cdxj" \
        -v ub="$(wc -c < "$urls")" -v cb="$(wc -c < "$cdxj")" 'BEGIN {
        printf "-j %s  urls: %6.2f s %7.1f MB/s   --json-field url: %6.2f s %7.1f MB/s   time ratio %.2f\n",
            j, u, ub / u / 1e6, c, cb / c / 1e6, c / u
    }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
