#!/usr/bin/env bash
# Makes the compressed forms of a text file that the decoding benchmarks
# use (issue 32):
#   OUT.gz          one gzip member (level 6; pigz's if installed: still
#                   one member, made faster)
#   OUT.members.gz  independent gzip members of 1 MiB of text each, as
#                   bgzip and crawl archives (one member per record) have
#   OUT.frames.zst  zstd frames of 1 MiB of text each, as pzstd and
#                   `normurl -o x.zst` make
#   OUT.bz2, OUT.xz
# OUT is FILE unless given (the input can stay read-only); FORMS picks
# some of them (default: all five).
#
#   scripts/make-compressed-forms.sh /tmp/big.txt
#   FORMS="gz members.gz frames.zst" scripts/make-compressed-forms.sh big.txt /tmp/big
set -euo pipefail
in=$1
out=${2:-$1}
forms=${FORMS:-gz members.gz frames.zst bz2 xz}
gz="gzip -6 -c"
command -v pigz > /dev/null && gz="pigz -6 -c"
for form in $forms; do
    case $form in
        gz) $gz "$in" > "$out.gz" ;;
        members.gz) split -b 1M --filter='gzip -6 -c' "$in" > "$out.members.gz" ;;
        frames.zst) split -b 1M --filter='zstd -3 -q -c' "$in" > "$out.frames.zst" ;;
        bz2) bzip2 -9 -c "$in" > "$out.bz2" ;;
        xz) xz -6 -T2 -c "$in" > "$out.xz" ;;
        *) echo "unknown form: $form" >&2; exit 2 ;;
    esac
    ls -l "$out.$form"
done
