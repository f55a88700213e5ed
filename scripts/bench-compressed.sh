#!/usr/bin/env bash
# Times decoding the compressed forms of a file (see
# make-compressed-forms.sh) with the decoders' own CLIs and with normurl
# at -j 1 and -j 2, best of RUNS (default 3) wall-clock runs, output to
# /dev/null, with peak RSS of the last run (GNU time).
#
#   scripts/bench-compressed.sh /tmp/big.txt [path/to/normurl]
set -euo pipefail
in=$1
bin=${2:-target/release/normurl}
runs=${RUNS:-3}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

best() {
    local best=999999 t rss
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$tmp" "$@" > /dev/null 2> /dev/null || true
        t=$(tail -1 "$tmp")
        rss=${t#* }
        t=${t% *}
        best=$(echo "if ($t < $best) $t else $best" | bc)
    done
    printf "%8.2f s %8d KB\n" "$best" "$rss"
}

row() {
    local label=$1
    shift
    printf "%-34s" "$label"
    best "$@"
}

row "plain: normurl -j 2" "$bin" -j 2 "$in"
for form in gz members.gz frames.zst bz2 xz; do
    f="$in.$form"
    [ -f "$f" ] || continue
    case $form in
        *gz) row "$form: gzip -dc" gzip -dc "$f"
             command -v pigz > /dev/null && row "$form: pigz -dc" pigz -dc "$f"
             command -v igzip > /dev/null && row "$form: igzip -dc" igzip -dc "$f" ;;
        *zst) row "$form: zstd -dc" zstd -dc "$f" ;;
        bz2) row "$form: bzip2 -dc" bzip2 -dc "$f" ;;
        xz) row "$form: xz -dc" xz -dc "$f" ;;
    esac
    row "$form: normurl -j 1" "$bin" -j 1 "$f"
    row "$form: normurl -j 2" "$bin" -j 2 "$f"
done
