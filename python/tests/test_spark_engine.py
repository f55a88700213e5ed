"""normurl.spark: the engine test's PySpark leg (the docs' jobs: a
normalized column, a registered-domain column, dedup keeping the first
row, counts per domain), each equal to the `normurl` command's output on
the same lines, with Spark's own column functions and no conversion code;
then the per-row options, binary columns, and argument errors.

A null row in Spark is an empty line for the command (an invalid URL):
both give null / an empty line under --on-invalid=empty, and both are
dropped under --on-invalid=skip.
"""

import doctest
import functools
import gzip
import random
import re
import subprocess
import sys
from collections import Counter

import pyarrow as pa
import pytest

import normurl
from conftest import CORPORA, ROOT, command_lines, mixed_lines, read_lines, run_command


@pytest.fixture(scope="module")
def ns():
    import normurl.spark

    return normurl.spark


@pytest.fixture(scope="module")
def F():
    from pyspark.sql import functions

    return functions


@pytest.fixture(scope="module")
def rows():
    """Every 64th line of each corpus, urls.txt with variants and the odd
    lines, then 800 of those again (duplicates), with a null every 101
    rows."""
    lines = []
    for path in CORPORA:
        lines += read_lines(path)[::64]
    lines += mixed_lines(seed=46, count=1500)
    lines += random.Random(46).sample(lines, 800)
    return [None if i % 101 == 50 else line for i, line in enumerate(lines)]


@pytest.fixture(scope="module")
def rows_file(tmp_path_factory, rows):
    """The rows as the command reads them: a null is an empty line."""
    path = tmp_path_factory.mktemp("spark") / "rows.txt"
    path.write_bytes("".join((r or "") + "\n" for r in rows).encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def df(spark, rows):
    """(i, url): the rows in order, from a pyarrow table."""
    table = pa.table({"i": pa.array(range(len(rows)), pa.int64()), "url": pa.array(rows, pa.string())})
    return spark.createDataFrame(table)


def command(binary, args, path):
    """The command's output lines, empty ones as None."""
    return list(_command(str(binary), tuple(args), str(path)))


@functools.lru_cache(maxsize=None)
def _command(binary, args, path):
    out = run_command(binary, [*args, path]).stdout
    return tuple(l.decode("utf-8") or None for l in command_lines(out))


def counts(binary, args, path):
    """`--count`'s output as {value: count} ('' for an empty value)."""
    found = {}
    for line in command(binary, ["--count", "--on-invalid=skip", *args], path):
        n, value = line.split("\t", 1)
        assert value not in found
        found[value] = int(n)
    return found


@pytest.fixture(scope="module")
def columns(ns, df):
    """One Spark job for the column tests: the normalized URL, the
    registered domain, the key and the components of each row."""
    out = df.select(
        "i",
        ns.normalize("url", profile="aggressive").alias("canonical"),
        ns.get("url", "registered_domain", profile="aggressive").alias("domain"),
        ns.get("url", "url_host_registered_domain").alias("cc_domain"),
        ns.key_hash(df.url, profile="aggressive").alias("key"),
        ns.components("url").alias("parts"),
    )
    return out.collect()


# The four jobs.


def test_normalized_column_equals_the_command(normurl_bin, rows, rows_file, columns):
    assert [r.i for r in columns] == list(range(len(rows))), "input order"
    got = [r.canonical for r in columns]
    assert got == command(normurl_bin, ["-p", "aggressive", "--on-invalid=empty"], rows_file)
    # Nulls and invalid URLs are null; the others are not.
    assert got.count(None) > rows.count(None) > 10 and got.count(None) < len(rows) // 4


def test_registered_domain_column_equals_the_command(normurl_bin, rows_file, columns):
    expected = command(normurl_bin, ["-p", "aggressive", "-g", "registered_domain", "--on-invalid=empty"], rows_file)
    assert [r.domain for r in columns] == expected
    assert len(set(expected)) > 100
    expected = command(normurl_bin, ["-g", "url_host_registered_domain", "--on-invalid=empty"], rows_file)
    assert [r.cc_domain for r in columns] == expected


@pytest.mark.parametrize("on_invalid", ["skip", "keep"])
def test_dedup_first_equals_the_command(ns, normurl_bin, rows, rows_file, df, on_invalid):
    first = ns.dedup_first(df, "url", profile="aggressive", on_invalid=on_invalid)
    assert first.columns == ["i", "url"]
    got = first.select("i", "url", ns.normalize("url", profile="aggressive").alias("canonical")).collect()
    # The first row of each URL, in input order.
    indices = [r.i for r in got]
    assert indices == sorted(indices) and len(indices) < len(rows) - 500, "the input has duplicates"
    assert all(rows[r.i] == r.url for r in got)
    args = ["-p", "aggressive", "-u", f"--on-invalid={on_invalid}"]
    # A null row is the command's empty line.
    assert [r.url or None for r in got] == command(normurl_bin, [*args, "--original"], rows_file)
    if on_invalid == "skip":
        assert [r.canonical for r in got] == command(normurl_bin, args, rows_file)
    else:
        # Invalid rows are all kept, in their place.
        canonical = normurl.normalize(rows, profile="aggressive")
        assert [r.url for r in got if r.canonical is None] == [r for r, c in zip(rows, canonical) if c is None]


@pytest.mark.parametrize("on_invalid", ["skip", "keep"])
def test_dedup_first_by_component_equals_the_command(ns, normurl_bin, rows_file, df, on_invalid):
    # One row per registered domain; the URLs without one (IP addresses,
    # mailto:) share the empty value, as the command's -u -g.
    first = ns.dedup_first(df, "url", profile="aggressive", get="registered_domain", on_invalid=on_invalid)
    got = [r.url or None for r in first.collect()]
    args = ["-p", "aggressive", "-g", "registered_domain", "-u", f"--on-invalid={on_invalid}", "--original"]
    assert got == command(normurl_bin, args, rows_file)
    assert 100 < len(got) < 2000


def test_counts_per_domain_equal_the_command(ns, F, normurl_bin, rows_file, df):
    # The command counts the lines with a URL (invalid ones are not
    # counted): the rows with a null domain are the valid URLs without
    # one (IP addresses, mailto:...), the command's empty value.
    for profile, get in [("aggressive", "registered_domain"), (None, "url_host_registered_domain")]:
        valid = df.where(ns.normalize("url", profile=profile).isNotNull())
        got = {d or "": n for d, n in valid.groupBy(ns.get("url", get, profile=profile)).count().collect()}
        args = ["-g", get] + (["-p", profile] if profile else [])
        assert got == counts(normurl_bin, args, rows_file)
        assert "" in got and len(got) > 100


def test_key_hash_equals_the_pyarrow_path(ns, rows, columns):
    expected = pa.array(normurl.key_hash(pa.array(rows, pa.string()), profile="aggressive")).cast(pa.binary())
    assert [r.key for r in columns] == expected.to_pylist()
    assert ns.key is ns.key_hash


def test_components_struct(normurl_bin, rows, rows_file, columns, df, ns):
    schema = df.select(ns.components("url").alias("c")).select("c.*").schema
    assert schema.names == list(normurl.COMPONENTS)
    assert {f.dataType.simpleString() for f in schema.fields} == {"string"}
    expected = normurl.components(pa.array(rows, pa.string())).to_pylist()
    assert [r.parts.asDict() if r.parts else None for r in columns] == expected
    surt = command(normurl_bin, ["-g", "surt", "--on-invalid=empty"], rows_file)
    assert [r.parts.surt if r.parts else None for r in columns] == surt


def test_dedup_first_over_files_in_read_order(spark, ns, F, normurl_bin, rows, tmp_path):
    # A plain file read in several splits (maxPartitionBytes is 64 KiB):
    # the DataFrame's row order is the file's.
    lines = [r for r in rows if r is not None]
    plain = tmp_path / "lines.txt"
    plain.write_bytes("".join(l + "\n" for l in lines).encode())
    df = spark.read.text(str(plain), lineSep="\n")
    assert df.rdd.getNumPartitions() > 2
    args = ["-p", "aggressive", "-u", "--on-invalid=skip", "--original"]
    got = [r.value for r in ns.dedup_first(df, "value", profile="aggressive").collect()]
    assert got == command(normurl_bin, args, plain)
    # Two .gz files read at once: Spark's partitions are not in the
    # files' order; order_by=input_file_name() gives the command's order
    # over the files sorted by name.
    half = len(lines) // 2
    shards = []
    for i, part in enumerate([lines[half:], lines[:half]]):
        path = tmp_path / f"part-{i}.txt.gz"
        path.write_bytes(gzip.compress("".join(l + "\n" for l in part).encode()))
        shards.append(path)
    df = spark.read.text([str(p) for p in reversed(shards)], lineSep="\n")
    got = [r.value for r in ns.dedup_first(df, "value", profile="aggressive", order_by=F.input_file_name()).collect()]
    expected = [l.decode() for l in command_lines(run_command(normurl_bin, [*args, *map(str, shards)]).stdout)]
    assert got == expected


# The command's per-line options, binary columns, explain.


def test_per_row_base_charset_and_explain(spark, ns, F):
    rows = [
        ("../img/a.png", "https://a.example/pages/x.html", None),
        ("http://b.example/", None, None),
        ("/?q=日本", "http://a.example/", "shift_jis"),
        ("/?q=日本", "http://a.example/", "utf-8"),
        ("g", "nope", None),
        (None, "http://a.example/", None),
    ]
    df = spark.createDataFrame(rows, "url string, base string, charset string")
    urls, bases, charsets = (list(c) for c in zip(*rows))
    got = df.select(
        ns.normalize("url", base=F.col("base"), charset=F.col("charset")).alias("n"),
        ns.get("url", "hostname", base=F.col("base")).alias("h"),
        ns.normalize("url", base="http://c.example/d/", resolve="generic").alias("one_base"),
        ns.normalize(F.col("url"), profile="aggressive", base=F.col("base"), explain=True).alias("e"),
    ).collect()
    assert [r.n for r in got] == normurl.normalize(urls, base=bases, charset=charsets)
    assert [r.h for r in got] == normurl.normalize(urls, base=bases, get="hostname")
    assert [r.one_base for r in got] == normurl.normalize(urls, base="http://c.example/d/", resolve="generic")
    explained = normurl.normalize(urls, profile="aggressive", base=bases, explain=True)
    assert [(r.e.url, r.e.rules) for r in got] == explained
    assert got[0].n == "https://a.example/img/a.png" and got[2].n != got[3].n


@pytest.mark.parametrize("policy", ["percent", "replace", "reject"])
def test_binary_column_equals_the_command(spark, ns, normurl_bin, tmp_path, policy):
    lines = [b"http://a.example/\xff\xfe?q=\xe9", b"http://B.example/ok", b"\xffnope", b"http://c.example/caf\xc3\xa9"]
    path = tmp_path / "bytes.txt"
    path.write_bytes(b"".join(l + b"\n" for l in lines))
    df = spark.createDataFrame([(bytearray(l),) for l in lines] + [(None,)], "u binary")
    got = [r[0] for r in df.select(ns.normalize("u", invalid_utf8=policy)).collect()]
    expected = command(normurl_bin, [f"--invalid-utf8={policy}", "--on-invalid=empty"], path)
    assert got == expected + [None]
    assert got[1] == "http://b.example/ok"


def test_null_column_and_wrong_type(spark, ns, F):
    df = spark.range(3)
    assert [r[0] for r in df.select(ns.normalize(F.lit(None))).collect()] == [None] * 3
    with pytest.raises(Exception, match="expected strings, got int64"):
        df.select(ns.normalize("id")).collect()


def test_column_names(spark, ns):
    df = spark.createDataFrame([("http://a.example/",)], "url string")
    out = df.select(ns.normalize("url"), ns.get("url", "hostname"), ns.key_hash("url"), ns.components("url"))
    assert out.columns == ["normurl_normalize(url)", "normurl_get(url)", "normurl_key_hash(url)", "normurl_components(url)"]


# Arguments are checked when the column is made.


def test_argument_errors_at_call_time(ns):
    with pytest.raises(ValueError) as direct:
        normurl.Normalizer(profile="nope")
    for function in (ns.normalize, ns.key_hash, ns.components):
        with pytest.raises(ValueError) as spark_error:
            function("url", profile="nope")
        assert str(spark_error.value) == str(direct.value)
    with pytest.raises(ValueError, match="unknown output form"):
        ns.get("url", "registered-domain")
    with pytest.raises(ValueError, match="invalid-utf8"):
        ns.normalize("url", invalid_utf8="lossy")
    with pytest.raises(TypeError, match="charset: expected a Column"):
        ns.normalize("url", charset="shift_jis")
    with pytest.raises(TypeError, match="base: expected one URL"):
        ns.normalize("url", base=3)
    with pytest.raises(TypeError, match="col: expected a column name"):
        ns.normalize(3)
    with pytest.raises(TypeError, match="not both"):
        ns.key_hash("url", profile="aggressive", normalizer=normurl.Normalizer())


def test_default_scheme_with_a_base_column_is_refused_by_every_function(spark, ns):
    from pyspark.sql import functions as F

    for function in (ns.normalize, ns.key_hash, ns.components):
        with pytest.raises(ValueError, match="default_scheme: cannot be used with base"):
            function("url", default_scheme="http", base=F.col("base"))


def test_dedup_first_argument_errors(spark, ns):
    df = spark.createDataFrame([("http://a.example/",)], "url string")
    with pytest.raises(ValueError, match="on_invalid"):
        ns.dedup_first(df, "url", on_invalid="fail")
    with pytest.raises(ValueError, match="unknown profile"):
        ns.dedup_first(df, "url", profile="nope")
    with pytest.raises(TypeError, match="df: expected a pyspark DataFrame"):
        ns.dedup_first([], "url")
    taken = df.withColumnRenamed("url", "__normurl_key")
    with pytest.raises(ValueError, match="__normurl_key"):
        ns.dedup_first(taken, "__normurl_key")


def test_module_docstring_example(spark, ns):
    test = doctest.DocTestParser().get_doctest(ns.__doc__, {"spark": spark}, "normurl.spark", None, 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


def test_docs_recipe(spark, normurl_bin, rows_file, df):
    text = (ROOT / "docs" / "python.md").read_text()
    match = re.search(r"<!-- recipe: spark_functions -->\n```python\n(.*?)```", text, re.S)
    assert match
    namespace = {"__name__": "recipe_spark_functions"}
    exec(compile(match.group(1), "docs/python.md:spark_functions", "exec"), namespace)
    columns, first, per_domain = namespace["jobs"](df)
    got = columns.collect()
    assert [r.canonical for r in got] == command(normurl_bin, ["-p", "aggressive", "--on-invalid=empty"], rows_file)
    expected = command(normurl_bin, ["-p", "aggressive", "-g", "registered_domain", "--on-invalid=empty"], rows_file)
    assert [r.domain for r in got] == expected
    expected = command(normurl_bin, ["-p", "aggressive", "-u", "--on-invalid=skip", "--original"], rows_file)
    assert [r.url for r in first.collect()] == expected
    got = {d or "": n for d, n in per_domain.collect()}
    assert got == counts(normurl_bin, ["-p", "aggressive", "-g", "registered_domain"], rows_file)


def test_stubs_match_the_module(ns):
    """normurl/spark.pyi names the same parameters, with the same
    defaults, as the module."""
    import ast
    import inspect

    tree = ast.parse((ROOT / "python" / "normurl" / "spark.pyi").read_text())
    stubbed = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            defaults = [None] * (len(a.args) - len(a.defaults)) + a.defaults + a.kw_defaults
            stubbed[node.name] = [
                (p.arg, inspect.Parameter.empty if d is None else ast.literal_eval(d))
                for p, d in zip(a.args + a.kwonlyargs, defaults)
            ]
    assert set(stubbed) == set(ns.__all__) - {"key"}
    for name, params in stubbed.items():
        runtime = [(p.name, p.default) for p in inspect.signature(getattr(ns, name)).parameters.values()]
        assert params == runtime, name


# Imports.


def run_python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_pyspark_is_imported_only_by_normurl_spark():
    done = run_python("import sys, normurl, normurl.duckdb; print('pyspark' in sys.modules)")
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr


def test_import_error_without_pyspark():
    # A finder that refuses pyspark, as if it were not installed.
    code = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name == "pyspark" or name.startswith("pyspark."):
            raise ImportError(f"No module named {name!r}")
sys.meta_path.insert(0, Refuse())
try:
    import normurl.spark
except ImportError as error:
    print(error)
"""
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert "normurl.spark needs PySpark 4.1 or later" in done.stdout and "pyspark" in done.stdout
