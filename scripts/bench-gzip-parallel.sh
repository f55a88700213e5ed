#!/usr/bin/env bash
# Issue 44's figures for one gzip member, in one run:
#   - at -j 2, wall time of FILE plain and as one gzip member (goal: the
#     member at most 2.5x the plain file), RUNS rounds taking turns, best
#     of each;
#   - at -j 8, the busiest thread's share of the process's CPU time on the
#     one member (goal: at most 20%), from /proc/PID/task/*/stat read just
#     before the process exits (it is stopped there by a FIFO reader that
#     does not read the last byte until the tasks are sampled).
# FILE defaults to bench-data/big.txt (scripts/make-big-file.sh; SIZE_MB=300
# for a machine under load); FILE.gz is made with `gzip -6` if missing.
# The command decodes the member on several threads (its default
# `parallel-gzip` feature):
#   cargo build --release
#
#   scripts/bench-gzip-parallel.sh [FILE] [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
in=${1:-bench-data/big.txt}
bin=${2:-target/release/normurl}
runs=${RUNS:-3}
[ -f "$in.gz" ] || gzip -6 -c "$in" > "$in.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $in ($(stat -c %s "$in") bytes), $in.gz ($(stat -c %s "$in.gz") bytes)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
best_plain=999999
best_gz=999999
for _ in $(seq "$runs"); do
    for form in plain gz; do
        f=$in
        [ $form = gz ] && f=$in.gz
        /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$bin" -j 2 "$f" > /dev/null
        read -r t u s < "$tmp/t"
        echo "run: -j 2 $form: $t s wall, $u s user, $s s sys" >&2
        if [ $form = plain ]; then
            best_plain=$(echo "if ($t < $best_plain) $t else $best_plain" | bc)
        else
            best_gz=$(echo "if ($t < $best_gz) $t else $best_gz" | bc)
        fi
    done
done

# -j 8 on the member, per-thread CPU at the end: the output goes to a FIFO
# whose reader stops before the end, so the process is alive (blocked on
# its last writes) once every line is decoded; the tasks are read then.
mkfifo "$tmp/out"
# The output's size, not the input's: normalizing changes lengths.
size=$("$bin" -j 2 "$in" | wc -c)
"$bin" -j 8 "$in.gz" > "$tmp/out" &
pid=$!
# The read end stays open on descriptor 3 until the end (a reader that
# exits would end the process with EPIPE). Read all but the last 8 MiB
# (more than the pipe and the output buffer hold, so the process is
# still blocked writing), sample, then drain.
exec 3< "$tmp/out"
head -c $((size - 8388608)) <&3 > /dev/null
sleep 0.5
for task in /proc/$pid/task/*; do
    # Fields 14 and 15 of stat: utime and stime in clock ticks; the name
    # (field 2) is in parentheses and has no spaces for these threads.
    name=$(cat "$task/comm")
    awk -v n="$name" '{print $14 + $15, n}' "$task/stat"
done | sort -rn > "$tmp/tasks"
cat <&3 > /dev/null
exec 3<&-
wait $pid
total=$(awk '{s += $1} END {print s}' "$tmp/tasks")
read -r top top_name < "$tmp/tasks"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| measure | figure | goal |"
echo "|---|--:|--:|"
printf "| plain, -j 2 (best of %d) | %.2f s | |\n" "$runs" "$best_plain"
printf "| one gzip member, -j 2 (best of %d) | %.2f s | |\n" "$runs" "$best_gz"
printf "| member / plain | %.2fx | at most 2.5x |\n" "$(echo "scale=3; $best_gz / $best_plain" | bc)"
printf "| busiest thread at -j 8 (%s) | %.1f%% of %.2f CPU s | at most 20%% |\n" \
    "$top_name" "$(echo "scale=3; 100 * $top / $total" | bc)" "$(echo "scale=2; $total / $(getconf CLK_TCK)" | bc)"
echo
echo "threads at -j 8 (CPU ticks, name):"
cat "$tmp/tasks"
