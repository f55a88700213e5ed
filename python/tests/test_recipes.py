"""The recipes of docs/python.md, run as they are written there, with
exact answers from the `normurl` command on the same files."""

import gzip
import re
import subprocess

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import normurl
from conftest import ROOT, command_lines, read_lines, run_command

DOCS = ROOT / "docs" / "python.md"


def recipe(name):
    """Runs the code block after `<!-- recipe: NAME -->` in docs/python.md
    and returns what it defined."""
    text = DOCS.read_text()
    match = re.search(rf"<!-- recipe: {name} -->\n```python\n(.*?)```", text, re.S)
    assert match, f"no recipe {name} in {DOCS}"
    namespace = {"__name__": f"recipe_{name}"}
    exec(compile(match.group(1), f"{DOCS}:{name}", "exec"), namespace)
    return namespace


def test_polars_recipe():
    with_canonical = recipe("polars")["with_canonical"]
    df = pl.DataFrame({"url": ["HTTP://www.A.example/x/../?b=1&a=2#f", None, "nope"]})
    out = with_canonical(df)
    assert out["canonical"].to_list() == ["http://a.example/?a=2&b=1", None, None]
    assert out["hostname"].to_list() == ["a.example", None, None]
    assert out.columns == ["url", "canonical", *normurl.COMPONENTS]


def test_duckdb_recipe():
    con = duckdb.connect()
    recipe("duckdb")["register"](con)
    rows = con.execute(
        "select normurl(u) from (values (1, 'HTTP://www.A.example/?b=1&a=2'), (2, NULL), (3, 'nope')) v(i, u) order by i"
    ).fetchall()
    assert rows == [("http://a.example/?a=2&b=1",), (None,), (None,)]


@pytest.mark.parametrize("dtype", [object, "string", "string[pyarrow]", "large_string[pyarrow]"])
def test_pandas_recipe(normurl_bin, mixed_file, dtype):
    import collections

    import pandas as pd

    r = recipe("pandas")
    lines = read_lines(mixed_file)
    if dtype == "large_string[pyarrow]":
        dtype = pd.ArrowDtype(pa.large_string())
    index = list(range(1000, 1000 + 2 * len(lines), 2))
    df = pd.DataFrame({"url": pd.Series(lines, index=index, dtype=dtype)})

    def command_column(args):
        out = run_command(normurl_bin, ["--on-invalid=empty", *args, str(mixed_file)]).stdout
        return [l.decode() or None for l in command_lines(out)]

    out = r["add_columns"](df)
    assert out.index.tolist() == index and list(out.columns) == ["url", "canonical", "domain"]
    canonical = [None if pd.isna(v) else v for v in out["canonical"]]
    assert canonical == command_column(["--profile", "aggressive"])
    domains = command_column(["--profile", "aggressive", "--get", "registered_domain"])
    assert [None if pd.isna(v) else v for v in out["domain"]] == domains
    first = r["dedup_first"](df)
    expected = command_lines(
        run_command(normurl_bin, ["--profile", "aggressive", "--dedup", "--on-invalid=skip", "--original", str(mixed_file)]).stdout
    )
    assert first["url"].tolist() == [l.decode() for l in expected]
    assert len(first) < len(df) - 100, "the input has duplicates"
    counts = r["per_domain"](df)
    assert counts.to_dict() == dict(collections.Counter(d for d in command_column(["--get", "registered_domain"]) if d))


@pytest.fixture(scope="module")
def shards(tmp_path_factory, mixed_file):
    """The mixed lines as a plain file and two .gz shards."""
    lines = mixed_file.read_bytes().splitlines(keepends=True)
    d = tmp_path_factory.mktemp("shards")
    half = len(lines) // 2
    paths = []
    for i, part in enumerate([lines[:half], lines[half:]]):
        path = d / f"part-{i}.txt.gz"
        path.write_bytes(gzip.compress(b"".join(part)))
        paths.append(path)
    return paths


def command(binary, args, paths):
    out = run_command(binary, [*args, *map(str, paths)]).stdout
    return [l.decode() for l in command_lines(out)]


def test_spark_map_in_arrow(spark, normurl_bin, mixed_file, shards):
    r = recipe("spark_normalize")
    for path in [mixed_file, shards[0]]:
        df = r["normalize_column"](spark.read.text(str(path), lineSep="\n"))
        rows = df.collect()
        data = path.read_bytes()
        lines = [l.decode() for l in command_lines(gzip.decompress(data) if path.suffix == ".gz" else data)]
        assert [row.value for row in rows] == lines
        expected = command(normurl_bin, ["--profile", "aggressive", "--on-invalid=empty"], [path])
        assert [row.url or "" for row in rows] == expected
        assert any(row.url is None for row in rows) and any(row.url for row in rows)
    parts = r["components_column"](spark.read.text(str(mixed_file), lineSep="\n")).collect()
    expected = command(normurl_bin, ["--get", "surt", "--on-invalid=empty"], [mixed_file])
    assert [p.parts.surt if p.parts else "" for p in parts] == expected
    expected = normurl.normalize(read_lines(mixed_file), get="hostname")
    assert [p.parts.hostname if p.parts else None for p in parts] == expected


@pytest.mark.parametrize("original", [False, True])
def test_spark_dedup_equals_the_command(spark, normurl_bin, mixed_file, shards, original):
    dedup_first = recipe("spark_dedup")["dedup_first"]
    args = ["--profile", "aggressive", "--dedup", "--on-invalid=skip"] + (["--original"] if original else [])
    for paths in [[mixed_file], shards]:
        df = spark.read.text([str(p) for p in paths], lineSep="\n")
        got = [row[0] for row in dedup_first(df, original=original).collect()]
        expected = command(normurl_bin, args, sorted(paths))
        assert got == expected
        assert len(got) < len(read_lines(mixed_file)) - 100, "the input has duplicates"
    # dropDuplicates would not do: it keeps some row per key, not the first.


def test_spark_per_file(spark, normurl_bin, shards, tmp_path):
    r = recipe("spark_per_file")
    out = tmp_path / "out"
    out.mkdir()
    result = r["normalize_files"](spark, str(normurl_bin), [str(p) for p in shards], str(out)).collect()
    assert [(row.status, row.error) for row in result] == [(0, ""), (0, "")]
    for path, row in zip(shards, result):
        args = ["--profile", "aggressive", "--dedup"]
        expected = run_command(normurl_bin, [*args, str(path)]).stdout
        assert (out / (path.name + ".txt")).read_bytes() == expected
        rejects = (out / (path.name + ".rejects.tsv")).read_text().splitlines()
        assert rejects and all(len(r.split("\t")) >= 3 for r in rejects)
        assert row.lines == len(command_lines(gzip.decompress(path.read_bytes())))
        assert row.output_lines == len(command_lines(expected))
    missing = r["normalize_files"](spark, str(normurl_bin), [str(tmp_path / "missing.gz")], str(out)).collect()
    assert missing[0].status == 2 and "missing.gz" in missing[0].error
    piped = r["pipe_lines"](spark, str(normurl_bin), str(shards[1])).collect()
    assert piped == command(normurl_bin, ["--profile", "aggressive"], [shards[1]])


def test_counts_recipe_matches_the_command(normurl_bin):
    """Each engine's counts are `normurl --count --on-invalid=skip`'s."""
    ns = recipe("counts")
    urls = ["http://b/", "HTTP://A:80/x", "nope", "http://b", None, "http://a/x", "http://c/", "http://b/"]
    lines = "".join(f"{u}\n" for u in urls if u is not None)
    out = run_command(normurl_bin, ["--count", "--on-invalid=skip"], lines.encode()).stdout
    pairs = [line.decode().split("\t") for line in command_lines(out)]
    expected = [(int(n), v) for n, v in pairs]
    assert expected == [(3, "http://b/"), (2, "http://a/x"), (1, "http://c/")]
    got = ns["counts_polars"](pl.Series(urls))
    assert list(got.iter_rows()) == expected
    import pandas as pd

    got = ns["counts_pandas"](pd.Series(urls))
    assert list(got.itertuples(index=False, name=None)) == expected
    con = duckdb.connect()
    con.execute("create table urls (url varchar)")
    con.executemany("insert into urls values (?)", [[u] for u in urls])
    assert ns["counts_duckdb"](con) == expected
