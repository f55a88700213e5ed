#!/usr/bin/env bash
# Builds bench-data/index.cdxj (git-ignored), about SIZE_MB megabytes
# (default 1000) of Common Crawl index lines ("urlkey timestamp {json}",
# the fields and sizes of tests/data/formats/cc-index-derived.cdxj), one
# per URL of the URL corpora, over and over; and bench-data/index-urls.txt,
# the same URLs one per line: the plain file that --json-field url is
# timed against (scripts/bench-json-field.sh).
#
#   scripts/make-cdxj-file.sh
#   SIZE_MB=100 scripts/make-cdxj-file.sh
#
# The urlkey is a rough SURT (host labels reversed, then the path): its
# bytes are skipped, never parsed. URLs holding a control character (a
# few corpus lines) are left out, so that every line is valid JSON; `"`
# and `\` are escaped.
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb=${SIZE_MB:-1000}
src=${CORPORA_DIR:-samples/corpora}
mkdir -p bench-data
chunk=$(mktemp bench-data/chunk.XXXXXX)
urls=$(mktemp bench-data/urls.XXXXXX)
trap 'rm -f "$chunk" "$urls"' EXIT
for f in weburls.txt kasztp.txt node_files.txt isaacs_files.txt; do
    sed '1s/^\xEF\xBB\xBF//' "$src/$f" | LC_ALL=C grep -v '[[:cntrl:]]' >> "$urls" || true
done

LC_ALL=C awk '
{
    url = $0
    host = url; sub(/^[A-Za-z][A-Za-z0-9+.-]*:\/*/, "", host)
    path = host; sub(/^[^\/?#]*/, "", path); sub(/[\/?#].*$/, "", host)
    n = split(tolower(host), label, ".")
    key = label[n]; for (i = n - 1; i >= 1; i--) key = key "," label[i]
    key = key ")" (path == "" ? "/" : path); gsub(/[ \t]/, "%20", key)
    gsub(/\\/, "&&", url); gsub(/"/, "\\\\&", url)
    printf "%s 2025080%d%06d {\"url\": \"%s\", \"mime\": \"text/html\", \"mime-detected\": \"text/html\", \"status\": \"200\", \"digest\": \"JI6OR3QR4CI526JD6TMMNZNV4QPMPQCH\", \"length\": \"%d\", \"offset\": \"%d\", \"filename\": \"crawl-data/CC-MAIN-2025-33/segments/1754151279521.11/warc/CC-MAIN-20250802220907-20250803010907-00970.warc.gz\", \"languages\": \"eng\", \"encoding\": \"UTF-8\"}\n", key, NR % 10, NR % 1000000, url, 500 + NR % 9000, NR * 4099
}' "$urls" > "$chunk"

chunk_bytes=$(wc -c < "$chunk")
copies=$(( (size_mb * 1000000 + chunk_bytes - 1) / chunk_bytes ))
: > bench-data/index.cdxj
: > bench-data/index-urls.txt
for _ in $(seq "$copies"); do
    cat "$chunk" >> bench-data/index.cdxj
    cat "$urls" >> bench-data/index-urls.txt
done
for f in bench-data/index.cdxj bench-data/index-urls.txt; do
    echo "$f: $(wc -c < "$f") bytes, $(wc -l < "$f") lines"
done
