#!/usr/bin/env bash
# Makes the compressed forms of a text file that the decoding benchmarks
# use (issue 32), next to it:
#   FILE.gz          one gzip member (gzip -6)
#   FILE.members.gz  independent gzip members of 1 MiB of text each, as
#                    bgzip and crawl archives (one member per record) have
#   FILE.frames.zst  zstd frames of 1 MiB of text each, as pzstd makes
#   FILE.bz2, FILE.xz
#
#   scripts/make-compressed-forms.sh /tmp/big.txt
set -euo pipefail
in=$1
gzip -6 -c "$in" > "$in.gz"
split -b 1M --filter='gzip -6 -c' "$in" > "$in.members.gz"
split -b 1M --filter='zstd -3 -q -c' "$in" > "$in.frames.zst"
bzip2 -9 -c "$in" > "$in.bz2"
xz -6 -T2 -c "$in" > "$in.xz"
ls -l "$in"*
