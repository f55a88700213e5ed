#!/usr/bin/env bash
# Builds bench-data/big.txt (git-ignored), about SIZE_MB megabytes (default
# 1000) of real URLs: the four URL corpora concatenated over and over.
#
#   scripts/make-big-file.sh            # ~1 GB
#   SIZE_MB=100 scripts/make-big-file.sh
#
# The corpora come from samples/corpora/ (copies of ../shared/corpora/, see
# samples/README.md), or from $CORPORA_DIR. kasztp.txt starts with a UTF-8
# byte order mark; it is removed here, since a BOM in the middle of a file
# is data, not a marker, and no real dump has one there.
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${SIZE_MB:-1000}
src=${CORPORA_DIR:-samples/corpora}
out=bench-data/big.txt
mkdir -p bench-data

chunk=$(mktemp bench-data/chunk.XXXXXX)
trap 'rm -f "$chunk"' EXIT
for f in weburls.txt kasztp.txt node_files.txt isaacs_files.txt; do
    # Drop a leading BOM; make sure each file ends with a newline.
    sed '1s/^\xEF\xBB\xBF//' "$src/$f" >> "$chunk"
    [ -z "$(tail -c1 "$chunk")" ] || echo >> "$chunk"
done

chunk_bytes=$(wc -c < "$chunk")
copies=$(( (size_mb * 1000000 + chunk_bytes - 1) / chunk_bytes ))
: > "$out"
for _ in $(seq "$copies"); do cat "$chunk"; done > "$out"
echo "$out: $(wc -c < "$out") bytes, $(wc -l < "$out") lines ($copies copies of $chunk_bytes bytes)"
