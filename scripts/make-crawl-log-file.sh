#!/usr/bin/env bash
# Builds bench-data/crawl.log (git-ignored), about SIZE_MB megabytes
# (default 1000) of real Heritrix crawl-log lines: the crawl logs in
# LOG_DIR concatenated over and over, for timing the column mode
# (`--field 4`) on the input crawl engineers run normurl on.
#
#   scripts/make-crawl-log-file.sh
#   LOG_DIR=/path/to/logs SIZE_MB=100 scripts/make-crawl-log-file.sh
#
# LOG_DIR defaults to ../shared/formats/reference-only/heritrix-crawl-log,
# the netarchivesuite test fixtures (see their PROVENANCE.txt). They are
# read here, not copied into the repository; any directory of *.log files
# in Heritrix's format will do.
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${SIZE_MB:-1000}
src=${LOG_DIR:-../shared/formats/reference-only/heritrix-crawl-log}
out=bench-data/crawl.log
mkdir -p bench-data
compgen -G "$src/*.log" > /dev/null || { echo "$src: no *.log files; set LOG_DIR" >&2; exit 2; }

chunk=$(mktemp bench-data/chunk.XXXXXX)
trap 'rm -f "$chunk"' EXIT
for f in "$src"/*.log; do
    cat "$f" >> "$chunk"
    [ -z "$(tail -c1 "$chunk")" ] || echo >> "$chunk"
done

chunk_bytes=$(wc -c < "$chunk")
copies=$(( (size_mb * 1000000 + chunk_bytes - 1) / chunk_bytes ))
for _ in $(seq "$copies"); do cat "$chunk"; done > "$out"
echo "$out: $(wc -c < "$out") bytes, $(wc -l < "$out") lines ($copies copies of $chunk_bytes bytes)"
