#!/usr/bin/env bash
# normurl warc --cdxj and --cdx against pywb's cdxj-indexer on the same
# WARC in the same run (docs/performance.md has the table): wall time of
# each, best of RUNS, and a check that the outputs are identical.
#
#   scripts/bench-cdxj.sh [MEGABYTES] [RUNS]     # default 100 MB, 3 runs
#
# The WARC is made by scripts/make-bench-warc.py in target/bench-cdxj/;
# cdxj-indexer (the version python/requirements-test.txt pins) goes into
# the virtual environment target/cdxj-venv; normurl is the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-100}"
runs="${2:-3}"
dir=target/bench-cdxj
mkdir -p "$dir"
venv=target/cdxj-venv
if [ ! -x "$venv/bin/cdxj-indexer" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "$(grep '^cdxj-indexer==' python/requirements-test.txt)" \
        "$(grep '^warcio==' python/requirements-test.txt)"
fi
warc="$dir/bench-$megabytes.warc.gz"
[ -f "$warc" ] || "$venv/bin/python" scripts/make-bench-warc.py "$warc" "$megabytes"
cargo build --release --quiet --bin normurl
normurl=target/release/normurl

# Best wall time of $runs runs of a command, in seconds.
best() {
    local best=""
    for _ in $(seq "$runs"); do
        local start end t
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

"$venv/bin/cdxj-indexer" "$warc" >"$dir/ref.cdxj"
"$normurl" warc --cdxj "$warc" >"$dir/ours.cdxj"
cmp "$dir/ref.cdxj" "$dir/ours.cdxj"
echo "outputs identical: $(wc -l <"$dir/ours.cdxj") lines, $(du -m "$warc" | cut -f1) MB gzip WARC"
ref=$(best "$venv/bin/cdxj-indexer" "$warc")
cdxj=$(best "$normurl" warc --cdxj "$warc")
cdx=$(best "$normurl" warc --cdx "$warc")
printf '| tool | seconds | ratio |\n|---|---:|---:|\n'
printf '| cdxj-indexer | %.2f | 1 |\n' "$ref"
printf '| normurl warc --cdxj | %.2f | %.1fx |\n' "$cdxj" "$(echo "$ref / $cdxj" | bc -l)"
printf '| normurl warc --cdx | %.2f | %.1fx |\n' "$cdx" "$(echo "$ref / $cdx" | bc -l)"
