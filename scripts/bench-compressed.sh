#!/usr/bin/env bash
# Times decoding the compressed forms of a file (see
# make-compressed-forms.sh) with the decoders' own CLIs, with normurl's
# decoding alone (examples/decode_only.rs: the pipeline's decoders,
# chunking and threads, output thrown away) and with normurl at -j 1 and
# -j 2, output to /dev/null. The commands take turns, RUNS rounds
# (default 3), best wall-clock time of each, so that a loaded machine
# slows them alike; the load average is printed before and after. The
# last column is normurl's time over decode-only's at the same -j.
#
#   scripts/bench-compressed.sh FILE [FORMS_PREFIX] [BIN] [DECODE_ONLY]
#   scripts/bench-compressed.sh big.txt /tmp/big
set -euo pipefail
in=$1
prefix=${2:-$1}
bin=${3:-target/release/normurl}
decode=${4:-target/release/examples/decode_only}
runs=${RUNS:-3}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

labels=()
cmds=()
add() {
    labels+=("$1")
    cmds+=("$2")
}
add "plain: normurl -j 1" "$bin -j 1 $in"
add "plain: normurl -j 2" "$bin -j 2 $in"
for form in gz members.gz frames.zst bz2 xz; do
    f="$prefix.$form"
    [ -f "$f" ] || continue
    case $form in
        *gz) add "$form: gzip -dc" "gzip -dc $f"
             command -v pigz > /dev/null && add "$form: pigz -dc" "pigz -dc $f"
             command -v igzip > /dev/null && add "$form: igzip -dc" "igzip -dc $f" ;;
        *zst) add "$form: zstd -dc" "zstd -dc $f" ;;
        bz2) add "$form: bzip2 -dc" "bzip2 -dc $f" ;;
        xz) add "$form: xz -dc" "xz -dc $f" ;;
    esac
    if [ -x "$decode" ]; then
        add "$form: decode-only -j 1" "$decode $f 1"
        add "$form: decode-only -j 2" "$decode $f 2"
    fi
    add "$form: normurl -j 1" "$bin -j 1 $f"
    add "$form: normurl -j 2" "$bin -j 2 $f"
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
best=()
for _ in $(seq "$runs"); do
    for i in "${!cmds[@]}"; do
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e" -o "$tmp" ${cmds[$i]} > /dev/null 2> /dev/null || true
        t=$(tail -1 "$tmp")
        b=${best[$i]:-999999}
        best[i]=$(echo "if ($t < $b) $t else $b" | bc)
        # Each run as it ends, for a run cut short.
        echo "run: ${labels[$i]}: $t s" >&2
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "| input and command | best of $runs | normurl / decode-only |"
echo "|---|---:|---:|"
for i in "${!cmds[@]}"; do
    label=${labels[$i]}
    ratio=""
    case $label in
        *"normurl -j "*)
            base="${label%%: *}: decode-only -j ${label##* }"
            for k in "${!labels[@]}"; do
                if [ "${labels[$k]}" = "$base" ]; then
                    ratio=$(echo "scale=2; ${best[$i]} / ${best[$k]}" | bc)x
                fi
            done ;;
    esac
    printf "| %s | %.2f s | %s |\n" "$label" "${best[$i]}" "$ratio"
done
