#!/usr/bin/env bash
# The Python package's speed (scripts/bench-python.py): normurl.normalize
# against the command and against w3lib and surt, and the Spark dedup
# recipe against normurl --dedup. w3lib and surt are installed in this
# benchmark's own virtual environment only, never as dependencies.
#
#   scripts/bench-python.sh [ARGS for bench-python.py, e.g. --runs 3 --no-spark]
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --bin normurl
venv="${NORMURL_BENCH_VENV:-target/python-bench-venv}"
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"
export PATH="$venv/bin:$PATH"
pip() { "$venv/bin/python" -m pip --disable-pip-version-check "$@"; }
pip install --quiet -r python/requirements-test.txt w3lib surt
pip install --quiet --no-build-isolation --force-reinstall --no-deps ./python
# numpy's OpenBLAS threads spin on a core of their own once imported.
export OPENBLAS_NUM_THREADS=1
"$venv/bin/python" scripts/bench-python.py --binary target/release/normurl "$@"
