"""normurl.duckdb: the SQL functions normurl_normalize, normurl_get and
normurl_key, with the answers of the `normurl` command on the corpora,
in GROUP BY and with NULLs; and the engine test's DuckDB SQL leg (the
docs' jobs: a normalized column, a registered-domain column, dedup
keeping the first row, counts per domain)."""

import doctest
import functools
from collections import Counter

import duckdb
import pyarrow as pa
import pytest

import normurl
import normurl.duckdb
from conftest import CORPORA, ODD, SAMPLES, command_lines, read_lines, run_command

URLS = ["HTTP://www.A.example/x/../?b=1&a=2#f", None, "nope", "https://b.example/%7e?utm_source=z"]
AGGRESSIVE = ["http://a.example/?a=2&b=1", None, None, "https://b.example/~"]


def command(binary, args, path):
    """The command's output lines; empty lines (invalid URLs under
    --on-invalid=empty, or an empty component) as None."""
    return list(_command(str(binary), tuple(args), str(path)))


@functools.lru_cache(maxsize=None)
def _command(binary, args, path):
    # Each distinct run once per session: the tests' binary is a debug
    # build.
    out = run_command(binary, ["--on-invalid=empty", *args, path]).stdout
    return tuple(l.decode("utf-8") or None for l in command_lines(out))


def dedup_command(binary, path):
    """`--profile aggressive --dedup --on-invalid=skip`'s output lines."""
    return list(_command(binary, ("--profile", "aggressive", "--dedup", "--on-invalid=skip"), str(path)))


def blank_is_null(values):
    return [v or None for v in values]


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    # Every 16th line of each corpus (the tests' command is a debug build),
    # samples/urls.txt and the odd lines.
    lines = []
    for path in CORPORA:
        lines += read_lines(path)[::16]
    lines += read_lines(SAMPLES / "urls.txt") + ODD
    path = tmp_path_factory.mktemp("duckdb") / "corpora.txt"
    path.write_bytes("".join(l + "\n" for l in lines).encode("utf-8"))
    return path


@pytest.fixture()
def con():
    con = duckdb.connect()
    normurl.duckdb.register(con)
    yield con
    con.close()


def load(con, lines, name="t"):
    """Table `name` (i, url): the lines in order."""
    table = pa.table({"i": pa.array(range(len(lines)), pa.int64()), "url": pa.array(lines, pa.string())})
    con.register("lines_arrow", table)
    con.execute(f"create or replace table {name} as select * from lines_arrow")
    con.unregister("lines_arrow")


def column(con, sql):
    return [row[0] for row in con.sql(sql).fetchall()]


def test_small_with_nulls(con):
    load(con, URLS)
    assert column(con, "select normurl_normalize(url, 'aggressive') from t order by i") == AGGRESSIVE
    assert column(con, "select normurl_normalize(url) from t order by i") == normurl.normalize(URLS)
    # NULL in, NULL out; invalid URLs are NULL too.
    assert column(con, "select count(*) from t where normurl_normalize(url) is null") == [2]
    assert column(con, "select normurl_normalize(NULL)") == [None]
    assert column(con, "select normurl_get(NULL, 'hostname')") == [None]
    assert column(con, "select normurl_key(NULL)") == [None]
    # A NULL profile is the default one.
    assert column(con, "select normurl_normalize(url, NULL) from t order by i") == normurl.normalize(URLS)


def test_types(con):
    types = con.sql(
        "select normurl_normalize('http://a.example/') a, normurl_get('http://a.example/', 'hostname') b, "
        "normurl_key('http://a.example/') c"
    ).types
    assert [str(t) for t in types] == ["VARCHAR", "VARCHAR", "BLOB"]


@pytest.mark.parametrize("profile", ["whatwg", "aggressive", "wayback"])
def test_normalize_equals_command_on_corpora(con, normurl_bin, corpus_file, profile):
    load(con, read_lines(corpus_file))
    expected = command(normurl_bin, ["--profile", profile], corpus_file)
    got = column(con, f"select normurl_normalize(url, '{profile}') from t order by i")
    assert got == expected
    assert None in got


@pytest.mark.parametrize("component", ["surt", "hostname", "registered_domain", "url_host_registered_domain"])
def test_get_equals_command_on_corpora(con, normurl_bin, corpus_file, component):
    load(con, read_lines(corpus_file))
    expected = command(normurl_bin, ["--get", component], corpus_file)
    got = column(con, f"select normurl_get(url, '{component}') from t order by i")
    assert blank_is_null(got) == expected
    got = column(con, f"select normurl_get(url, '{component}', 'aggressive') from t order by i")
    assert blank_is_null(got) == command(normurl_bin, ["--get", component, "--profile", "aggressive"], corpus_file)


def test_key_equals_key_hash(con, corpus_file):
    lines = read_lines(corpus_file)
    load(con, lines)
    got = column(con, "select normurl_key(url, 'aggressive') from t order by i")
    assert got == pa.array(normurl.key_hash(pa.array(lines), profile="aggressive")).to_pylist()
    assert column(con, "select normurl_key(url) from t order by i") == pa.array(normurl.key_hash(pa.array(lines))).to_pylist()


def test_group_by_registered_domain(con, normurl_bin, corpus_file):
    load(con, read_lines(corpus_file))
    expected = Counter(command(normurl_bin, ["--get", "registered_domain"], corpus_file))
    rows = con.sql("select normurl_get(url, 'registered_domain'), count(*) from t group by 1").fetchall()
    got = Counter()
    for domain, n in rows:
        got[domain or None] += n
    assert got == expected
    assert len(rows) > 100


def test_profile_and_component_columns(con):
    # Not constants: each row with its own settings, in row order.
    rows = [
        ("HTTP://www.A.example/x/../?b=1&a=2#f", "aggressive", "hostname"),
        ("HTTP://www.A.example/x/../?b=1&a=2#f", "whatwg", "surt"),
        ("https://b.example/%7e?utm_source=z", None, "registered_domain"),
        (None, "aggressive", "hostname"),
        ("https://www.c.example/", "aggressive", None),
        ("https://www.c.example/", "whatwg", "hostname"),
    ]
    con.execute("create table s (i int, url varchar, profile varchar, component varchar)")
    con.executemany("insert into s values (?, ?, ?, ?)", [(i, *r) for i, r in enumerate(rows)])
    got = column(con, "select normurl_normalize(url, profile) from s order by i")
    assert got == [normurl.normalize([u], profile=p)[0] for u, p, _ in rows]
    got = column(con, "select normurl_get(url, component, profile) from s order by i")
    expected = [normurl.normalize([u], profile=p, get=c or "url")[0] for u, p, c in rows]
    assert got == expected
    assert got[0] == "a.example" and got[1] == "example,a,www)/?b=1&a=2#f" and got[5] == "www.c.example"


def test_bad_settings_fail_with_the_normalizers_message(con):
    with pytest.raises(ValueError) as direct:
        normurl.Normalizer(profile="nope")
    with pytest.raises(duckdb.Error) as sql:
        con.sql("select normurl_normalize('http://a.example/', 'nope')").fetchall()
    assert str(direct.value) in str(sql.value)
    with pytest.raises(duckdb.Error, match="unknown output form"):
        con.sql("select normurl_get('http://a.example/', 'registered-domain')").fetchall()


def test_register_twice_and_default_connection():
    con = duckdb.connect()
    assert normurl.duckdb.register(con) is con
    normurl.duckdb.register(con)
    assert column(con, "select normurl_normalize('HTTP://A.example')") == ["http://a.example/"]
    default = normurl.duckdb.register()
    assert default.sql("select normurl_get('https://x.a.example/', 'hostname')").fetchall() == [("x.a.example",)]


def test_module_docstring_example():
    test = doctest.DocTestParser().get_doctest(normurl.duckdb.__doc__, {}, "normurl.duckdb", None, 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


# The engine test's DuckDB SQL leg: the docs' jobs in SQL, equal to the
# command's output. (The pandas, pyarrow and PySpark legs are in the other
# engines' tests.)


def test_engine_jobs_duckdb_sql(con, normurl_bin, corpus_file):
    load(con, read_lines(corpus_file))
    profile = ["--profile", "aggressive"]

    # A normalized column.
    got = column(con, "select normurl_normalize(url, 'aggressive') as canonical from t order by i")
    assert got == command(normurl_bin, profile, corpus_file)

    # A registered-domain column.
    expected_domains = command(normurl_bin, [*profile, "--get", "registered_domain"], corpus_file)
    got = column(con, "select normurl_get(url, 'registered_domain', 'aggressive') as domain from t order by i")
    assert blank_is_null(got) == expected_domains

    # Dedup keeping the first row.
    got = column(
        con,
        """
        select normurl_normalize(url, 'aggressive') from t
        where normurl_key(url, 'aggressive') is not null
        qualify row_number() over (partition by normurl_key(url, 'aggressive') order by i) = 1
        order by i
        """,
    )
    assert got == dedup_command(normurl_bin, corpus_file)

    # Counts per domain.
    rows = con.sql("select normurl_get(url, 'registered_domain', 'aggressive') d, count(*) from t group by 1").fetchall()
    counts = Counter()
    for domain, n in rows:
        counts[domain or None] += n
    assert counts == Counter(expected_domains)


def test_docs_recipe(normurl_bin, corpus_file):
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "python.md").read_text()
    match = re.search(r"<!-- recipe: duckdb_functions -->\n```python\n(.*?)```", text, re.S)
    assert match
    namespace = {"__name__": "recipe_duckdb_functions"}
    exec(compile(match.group(1), "docs/python.md:duckdb_functions", "exec"), namespace)
    con = duckdb.connect()
    load(con, read_lines(corpus_file))
    rows = namespace["domains"](con).fetchall()
    expected = Counter(command(normurl_bin, ["--get", "registered_domain"], corpus_file))
    got = Counter()
    for domain, n in rows:
        got[domain or None] += n
    assert got == expected
    # Most rows first.
    assert [n for _, n in rows] == sorted((n for _, n in rows), reverse=True)
