#!/usr/bin/env bash
# The project's whole test suite in one command: the Rust tests, then the
# Python package (python/) built into a virtual environment and its pytest
# suite, which compares the package's answers with the normurl binary.
#
#   scripts/test.sh                 # everything
#   NORMURL_SKIP_CARGO_TEST=1 scripts/test.sh   # only the Python part
#
# The virtual environment is made on first use in $NORMURL_VENV (default
# target/python-venv) with python3 (or $PYTHON, CPython >= 3.11); the
# wheel builds with the release profile (fat LTO) in python/target.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${NORMURL_SKIP_CARGO_TEST:-}" ]; then
    cargo test
else
    cargo build --bin normurl
fi
# cargo test built the debug binary; it writes the same bytes as a release
# build, and the Python tests only compare answers with it.
bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/normurl"

venv="${NORMURL_VENV:-target/python-venv}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -c 'import sys; assert sys.version_info >= (3, 11), "normurl needs CPython >= 3.11"'
    "$python" -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"
# maturin's build backend runs the maturin command: the venv's.
export PATH="$venv/bin:$PATH"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
# --no-build-isolation: build with the venv's pinned maturin instead of
# fetching one each run; --force-reinstall: a rebuilt wheel of the same
# version replaces the installed one.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./python

# -rs prints why a test was skipped (the Spark tests, without Java). With
# set -e, pytest's exit status 5 (no tests collected) fails the run too.
NORMURL_BIN="$bin" "$venv/bin/python" -m pytest -rs python/tests
