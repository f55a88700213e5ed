#!/usr/bin/env bash
# normurl against ada on ada's own benchmark datasets (ada-url/url-various-
# datasets on GitHub: top100, wikipedia_100k, node_files, ...), with ada's
# fastest entry points: its C++ `ada::parse<ada::url_aggregator>` and
# `ada::can_parse` called from a C++ loop, as ada's benchmarks call them,
# besides the ada-url crate and the url crate. Prints a markdown table.
#
#   git clone --depth 1 <ada-url/url-various-datasets> bench-data/url-various-datasets
#   ROUNDS=3 RUNS=10 scripts/bench-ada-datasets.sh [DATASETS_DIR]
#
# The data is not in this repository (tens of MB, some of unknown
# licence). DATASETS_DIR defaults to bench-data/url-various-datasets;
# datasets missing from it are listed as missing. The script builds
# `--release --features peers` (a C++ compiler is needed for ada's C++
# rows). Each of ROUNDS rounds runs `normurl bench --cpu-time --runs RUNS
# -j 1` once per dataset, so datasets and rounds alternate; within a run
# the parsers alternate run by run. A cell is the best (lowest) of the
# rounds' medians. Times are the thread's CPU time: on a loaded machine
# wall time charges the slower parser for more of the other processes'
# slices. CLOCK=wall times by wall time instead. The load average is
# printed before and after.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-bench-data/url-various-datasets}
rounds=${ROUNDS:-3}
runs=${RUNS:-10}
clock_flag=(--cpu-time)
[ "${CLOCK:-cpu}" = wall ] && clock_flag=()
datasets=(top100/top100.txt wikipedia/wikipedia_100k.txt files/node_files.txt
  files/linux_files.txt files/isaacs_files.txt others/kasztp.txt others/userbait.txt)

nice cargo build --quiet --release --features peers --bin normurl
bin=target/release/normurl

present=()
for d in "${datasets[@]}"; do
  if [ -s "$dir/$d" ]; then present+=("$dir/$d"); else echo "missing: $dir/$d" >&2; fi
done
[ ${#present[@]} -gt 0 ] || { echo "no dataset found under $dir" >&2; exit 2; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= rounds; r++)); do
  for f in "${present[@]}"; do
    "$bin" bench --json "${clock_flag[@]}" --runs "$runs" -j 1 "$f" >> "$out"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "$(nproc) CPUs; load average before: $load_before, after: $load_after;" \
  "best of $rounds rounds of $runs alternating runs (median of each);" \
  "ns/URL on one thread, ${CLOCK:-cpu} time"
echo
jq -rs '
  def best($p): map(select(.parser == $p and .threads == 1)) | min_by(.ns_per_url);
  def ns($p): best($p) | if . == null then "–" else (.ns_per_url * 10 | round / 10 | tostring) end;
  def ratio($a; $b): (best($a).ns_per_url) as $x | (best($b).ns_per_url) as $y
    | if $x == null or $y == null then "–" else ($x / $y * 100 | round / 100 | tostring) end;
  def check: (best("ada-url href").href_bytes) as $crate
    | (best("ada C++ url_aggregator").href_bytes) as $cpp
    | if $cpp != null and $crate != $cpp
      then error("href lengths of ada through the crate (\($crate)) and through C++ (\($cpp)) differ")
      else . end;
  "| dataset | URLs | normurl | ada-url crate href | ada C++ url_aggregator | ada C++ can_parse | url crate | normurl / ada C++ url_aggregator | normurl / ada C++ can_parse |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
  (group_by(.file)[] | check
    | "| \(.[0].file | split("/") | last | rtrimstr(".txt")) | \(.[0].urls) | \(ns("normurl")) | \(ns("ada-url href")) | \(ns("ada C++ url_aggregator")) | \(ns("ada C++ can_parse")) | \(ns("url crate")) | \(ratio("normurl"; "ada C++ url_aggregator")) | \(ratio("normurl"; "ada C++ can_parse")) |")
' "$out"
