#!/usr/bin/env bash
# Instructions per line of each edit option (issue 45), with callgrind:
# `-j 1 -p whatwg` over LINES (a file of URLs, one a line), each option on
# its own, and the default run without edits first. Prints one row per
# run and leaves each run's output in OUT/<name>, so that two builds'
# outputs can be compared with `cmp`.
#
#   scripts/bench-edits.sh BIN LINES [OUT]
#   head -n 1000000 bench-data/big.txt > /tmp/1m.txt
#   scripts/bench-edits.sh target/release/normurl /tmp/1m.txt /tmp/edits-new
set -euo pipefail
bin=$1
lines=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
n=$(wc -l < "$lines")
run() {
    local name=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" \
        "$bin" -j 1 -p whatwg "$@" < "$lines" > "$out/$name" 2> "$out/$name.valgrind"
    local refs
    refs=$(grep -o 'refs: *[0-9,]*' "$out/$name.valgrind" | tr -d ', refs:')
    printf '%-10s %6d instructions a line\n' "$name" $((refs / n))
}
run none
run scheme --set scheme=https
run username --set username=u
run host --set host=example.org
run port --set port=8080
run path --set path=/x
run query --set query=a=1
run hash --set hash=top
run append-q --append query=a=b
run append-p --append path=x
run set-param --set-param x=1
run del-param --delete-param 'utm_*'
echo "outputs in $out"
