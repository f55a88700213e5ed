"""The stubs under `mypy --strict`: the docs' examples (every python
block of docs/python.md) and typecheck/calls.py (every argument) pass,
typecheck/wrong.py fails where marked; calls.py also runs."""

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

HERE = Path(__file__).resolve().parent / "typecheck"


def mypy(paths, cache):
    # --ignore-missing-imports: pyarrow and pandas ship no types (their
    # values are Any); normurl's stubs and Polars', DuckDB's and
    # PySpark's are checked.
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-error-summary",
         "--show-error-codes", f"--cache-dir={cache}", *map(str, paths)],
        capture_output=True, text=True, timeout=600,
    )
    return done.returncode, done.stdout + done.stderr


def test_docs_and_calls_pass_mypy_strict(tmp_path):
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    paths = [HERE / "calls.py"]
    for i, block in enumerate(blocks):
        path = tmp_path / f"docs_python_md_block{i}.py"
        path.write_text(block)
        paths.append(path)
    status, out = mypy(paths, tmp_path / "cache")
    # Polars adds `Expr.normurl` when normurl.polars is imported: a
    # namespace registered at run time, which mypy cannot see.
    errors = [
        line
        for line in out.splitlines()
        if line.strip() and '"Expr" has no attribute "normurl"' not in line
    ]
    assert not errors, out


def test_wrong_calls_fail_mypy(tmp_path):
    status, out = mypy([HERE / "wrong.py"], tmp_path / "cache")
    assert status == 1
    source = (HERE / "wrong.py").read_text().splitlines()
    expected = {(i + 1, m.group(1)) for i, l in enumerate(source) if (m := re.search(r"# E: (\S+)", l))}
    found = {(int(m.group(1)), m.group(2)) for m in re.finditer(r"wrong\.py:(\d+): error: .*\[([\w-]+)\]", out)}
    assert expected and expected <= found, out


def test_calls_run(tmp_path):
    sys.path.insert(0, str(HERE))
    try:
        import calls
    finally:
        sys.path.remove(str(HERE))
    calls.calls(tmp_path)
