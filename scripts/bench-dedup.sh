#!/usr/bin/env bash
# Times exact dedup of a high-cardinality file (make it with
# examples/make_dedup_file.rs) by normurl --dedup, in memory and with a
# budget that forces spilling, next to plain normurl (no dedup: the floor),
# LC_ALL=C sort -u (with the same memory and with a large one), awk
# '!seen[$0]++', and huniq and runiq when they are on PATH or in
# ~/.cargo/bin (cargo install huniq runiq). Prints a Markdown table: wall
# seconds (best of RUNS, the tools alternating run by run), user and
# system CPU seconds and peak RSS of that run (GNU time), lines out, the
# most bytes normurl's spill directory held (sampled every 0.2 s: "-" if
# none was seen) and the 1-minute load average when that run started.
#
#   cargo build --release --bin normurl
#   cargo build --release --example make_dedup_file
#   target/release/examples/make_dedup_file    # bench-data/dedup.txt, ~1 GB
#   RUNS=3 BUDGETS="256M 64M" scripts/bench-dedup.sh [FILE]
#
# normurl normalizes as it dedups, the others compare bytes: the table also
# has normurl --dedup on already-normalized input (made first, into
# FILE.norm), the like-for-like comparison. sort -u does not keep the input
# order. Output goes through a pipe to wc -l (the lines out column).
# ONLY=REGEX keeps the rows whose label matches (e.g. ONLY='normurl|uniq'
# to leave out the slow sort and awk runs).
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-bench-data/dedup.txt}
runs=${RUNS:-2}
budgets=${BUDGETS:-256M}
big=${BIG:-8G}
bin=${BIN:-target/release/normurl}
jobs=${JOBS:-2}
spill=${SPILL_DIR:-bench-data/spill}
[ -x "$bin" ] || { echo "build first: cargo build --release --bin normurl" >&2; exit 2; }
[ -f "$file" ] || { echo "$file: missing; run target/release/examples/make_dedup_file" >&2; exit 2; }
PATH=$PATH:$HOME/.cargo/bin
mkdir -p "$spill"

norm=$file.norm
[ -s "$norm" ] || "$bin" -j "$jobs" -p whatwg "$file" > "$norm"

# Most bytes under $spill while the process $1 runs, or "-".
watch_spill() {
    local pid=$1 most=0 now
    while kill -0 "$pid" 2> /dev/null; do
        now=$(du -sb "$spill" 2> /dev/null | cut -f1)
        [ "${now:-0}" -le "$most" ] || most=$now
        sleep 0.2
    done
    # An empty directory is 4096 bytes.
    if [ "$most" -gt 4096 ]; then numfmt --to=iec "$most"; else echo -; fi
}

# One timed run of a command: "wall user sys rss_kib spill load".
once() {
    local load log spill_seen
    load=$(cut -d' ' -f1 /proc/loadavg)
    log=$(mktemp)
    /usr/bin/time -o "$log" -f "%e %U %S %M" "$@" | wc -l > "$log.lines" &
    spill_seen=$(watch_spill $!)
    wait $! || { echo "failed: $*" >&2; cat "$log" >&2; exit 1; }
    echo "$(tail -1 "$log") $spill_seen $load $(cat "$log.lines")"
    rm -f "$log" "$log.lines"
}

labels=()
commands=()
add() {
    [[ $1 =~ ${ONLY:-.} ]] || return 0
    labels+=("$1")
    shift
    commands+=("$(printf '%q ' "$@")")
}

dedup() {
    echo --dedup --dedup-memory "$1" -T "$spill"
}
add "normurl -p whatwg (no dedup)" "$bin" -j "$jobs" -p whatwg "$file"
add "normurl --dedup, in memory ($big)" "$bin" -j "$jobs" -p whatwg $(dedup "$big") "$file"
add "normurl --dedup, normalized input, in memory" "$bin" -j "$jobs" -p whatwg $(dedup "$big") "$norm"
for budget in $budgets; do
    add "normurl --dedup, $budget budget" "$bin" -j "$jobs" -p whatwg $(dedup "$budget") "$file"
    add "normurl --dedup, normalized input, $budget" "$bin" -j "$jobs" -p whatwg $(dedup "$budget") "$norm"
    add "LC_ALL=C sort -u -S $budget (not in order)" env LC_ALL=C sort -u -S "$budget" -T "$spill" "$file"
done
add "LC_ALL=C sort -u -S $big (not in order)" env LC_ALL=C sort -u -S "$big" -T "$spill" "$file"
add "awk '!seen[\$0]++'" awk '!seen[$0]++' "$file"
for tool in huniq runiq; do
    if command -v "$tool" > /dev/null; then
        add "$tool" sh -c "exec $tool < \"\$1\"" sh "$file"
    else
        echo "$tool: not installed (cargo install $tool); left out" >&2
    fi
done

echo "file: $file, $(wc -c < "$file") bytes, $(wc -l < "$file") lines; $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat "$file" "$norm" > /dev/null # warm the page cache

declare -A best
for run in $(seq "$runs"); do
    for i in "${!commands[@]}"; do
        line=$(eval "once ${commands[$i]}")
        echo "run $run: ${labels[$i]}: $line" >&2
        if [ -z "${best[$i]:-}" ] || awk -v a="${line%% *}" -v b="${best[$i]%% *}" 'BEGIN { exit !(a < b) }'; then
            best[$i]=$line
        fi
    done
done

echo
echo "| command | wall s | user s | sys s | peak RSS MiB | lines out | spill peak | load |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|"
for i in "${!commands[@]}"; do
    read -r wall user sys rss spill_seen load lines <<< "${best[$i]}"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "${labels[$i]}" "$wall" "$user" "$sys" \
        "$((rss / 1024))" "$lines" "$spill_seen" "$load"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
