"""The `normurl` expression namespace of Polars (normurl.polars): each
expression in eager, lazy and streaming queries, in group_by and
unique(subset=...), with the answers of the `normurl` command on the
corpora; and the engine test's Polars legs (the docs' jobs: a normalized
column, a registered-domain column, dedup keeping the first row, counts
per domain)."""

import doctest
import functools
from collections import Counter

import polars as pl
import pyarrow as pa
import pytest

import normurl
import normurl.polars
from conftest import CORPORA, ODD, SAMPLES, command_lines, read_lines, run_command

MODES = ["eager", "lazy", "streaming"]

URLS = ["HTTP://www.A.example/x/../?b=1&a=2#f", None, "nope", "https://b.example/%7e?utm_source=z"]
AGGRESSIVE = ["http://a.example/?a=2&b=1", None, None, "https://b.example/~"]


def corpus_lines():
    """Every 16th line of each corpus (the tests' command is a debug
    build), samples/urls.txt and the odd lines, in order."""
    lines = []
    for path in CORPORA:
        lines += read_lines(path)[::16]
    return lines + read_lines(SAMPLES / "urls.txt") + ODD


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("polars") / "corpora.txt"
    path.write_bytes("".join(l + "\n" for l in corpus_lines()).encode("utf-8"))
    return path


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


def run(df, query, mode, streaming_chunk=None):
    """`query` on `df` in `mode`: eager on the DataFrame, or on its
    LazyFrame collected by the in-memory or the streaming engine."""
    if mode == "eager":
        return query(df)
    lazy = query(df.lazy())
    assert isinstance(lazy, pl.LazyFrame)
    if mode == "lazy":
        return lazy.collect()
    return lazy.collect(engine="streaming")


@pytest.mark.parametrize("mode", MODES)
def test_normalize_small(mode):
    df = pl.DataFrame({"url": URLS})
    out = run(df, lambda d: d.with_columns(c=pl.col("url").normurl.normalize(profile="aggressive")), mode)
    assert out["c"].to_list() == AGGRESSIVE
    assert out["c"].dtype == pl.String
    assert out["url"].to_list() == URLS


def test_result_keeps_the_input_name_and_dtype():
    df = pl.DataFrame({"url": URLS})
    out = df.select(
        pl.col("url").normurl.normalize(),
        pl.col("url").normurl.key_hash().alias("key"),
        pl.col("url").normurl.components().alias("parts"),
    )
    assert out.columns == ["url", "key", "parts"]
    assert out.schema["url"] == pl.String
    assert out.schema["key"] == pl.Binary
    assert out.schema["parts"] == pl.Struct({name: pl.String for name in normurl.COMPONENTS})
    # The lazy schema is the same, without running anything.
    assert df.lazy().select(pl.col("url").normurl.key_hash()).collect_schema()["url"] == pl.Binary


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("profile", "get"), [("whatwg", "url"), ("aggressive", "url"), (None, "surt"), ("semantic", "hostname")])
def test_normalize_equals_command_on_corpora(normurl_bin, corpus_file, mode, profile, get):
    args = ["--get", get] + (["--profile", profile] if profile else [])
    expected = command(normurl_bin, args, corpus_file)
    df = pl.DataFrame({"url": read_lines(corpus_file)})
    out = run(df, lambda d: d.select(pl.col("url").normurl.normalize(profile=profile, get=get)), mode)
    got = out["url"].to_list()
    assert len(got) == len(expected)
    if get == "hostname":
        # An empty component is an empty line to the command.
        got = blank_is_null(got)
    assert got == expected
    assert 0 < out["url"].null_count() < len(got)


@pytest.mark.parametrize("mode", MODES)
def test_registered_domain_equals_command_on_corpora(normurl_bin, corpus_file, mode):
    expected = command(normurl_bin, ["--get", "registered_domain"], corpus_file)
    df = pl.DataFrame({"url": read_lines(corpus_file)})
    out = run(df, lambda d: d.with_columns(domain=pl.col("url").normurl.get("registered_domain")), mode)
    assert blank_is_null(out["domain"].to_list()) == expected
    assert out["url"].to_list() == df["url"].to_list()


@pytest.mark.parametrize("mode", MODES)
def test_key_hash_equals_the_arrow_path(mode):
    lines = corpus_lines()
    df = pl.DataFrame({"url": lines})
    out = run(df, lambda d: d.select(pl.col("url").normurl.key_hash(profile="aggressive")), mode)
    expected = pa.array(normurl.key_hash(pa.array(lines), profile="aggressive")).to_pylist()
    assert out["url"].to_list() == expected
    assert all(k is None or len(k) == 16 for k in out["url"].to_list())


@pytest.mark.parametrize("mode", MODES)
def test_components_equal_the_arrow_path(mode):
    lines = read_lines(SAMPLES / "urls.txt") + [u for u in URLS if u is not None]
    df = pl.DataFrame({"url": lines})
    out = run(df, lambda d: d.select(pl.col("url").normurl.components(profile="aggressive")).unnest("url"), mode)
    assert out.columns == list(normurl.COMPONENTS)
    expected = pa.array(normurl.components(pa.array(lines), profile="aggressive"))
    for name in normurl.COMPONENTS:
        assert out[name].to_list() == expected.field(name).to_pylist(), name


@pytest.mark.parametrize("mode", MODES)
def test_dedup_with_unique_subset_equals_command(normurl_bin, corpus_file, mode):
    expected = dedup_command(normurl_bin, corpus_file)
    df = pl.DataFrame({"url": read_lines(corpus_file)})

    def query(d):
        return (
            d.with_columns(
                canonical=pl.col("url").normurl.normalize(profile="aggressive"),
                key=pl.col("url").normurl.key_hash(profile="aggressive"),
            )
            .drop_nulls("key")
            .unique(subset=["key"], keep="first", maintain_order=True)
        )

    out = run(df, query, mode)
    assert out["canonical"].to_list() == expected
    # Dedup did something.
    assert len(expected) < len(df)


@pytest.mark.parametrize("mode", MODES)
def test_group_by_domain_counts_equal_command(normurl_bin, corpus_file, mode):
    domains = command(normurl_bin, ["--get", "registered_domain", "--profile", "aggressive"], corpus_file)
    expected = Counter(domains)
    df = pl.DataFrame({"url": read_lines(corpus_file)})
    out = run(
        df,
        lambda d: d.group_by(pl.col("url").normurl.get("registered_domain", profile="aggressive").alias("domain")).len(),
        mode,
    )
    got = Counter()
    for domain, n in out.iter_rows():
        got[domain or None] += n
    assert got == expected


@pytest.mark.parametrize("mode", MODES)
def test_in_group_by_aggregation(mode):
    df = pl.DataFrame({"g": [1, 1, 2, 2], "url": URLS})
    out = run(
        df,
        lambda d: d.group_by("g", maintain_order=True).agg(pl.col("url").normurl.normalize(profile="aggressive")),
        mode,
    )
    assert out.rows() == [(1, AGGRESSIVE[:2]), (2, AGGRESSIVE[2:])]


def test_many_batches_in_streaming():
    # Many small morsels through one expression: every one gives the
    # Arrow path's answer.
    lines = corpus_lines()[:30000]
    lf = pl.LazyFrame({"url": lines})
    expected = pa.array(normurl.normalize(pa.array(lines), get="surt")).to_pylist()
    with pl.Config(streaming_chunk_size=500):
        out = lf.select(pl.col("url").normurl.normalize(get="surt")).collect(engine="streaming")
    assert out["url"].to_list() == expected


def test_arguments_reach_the_plugin(tmp_path):
    lines = [
        "https://www.a.example/p/?ref=x&id=1&src_mail=2&b=2",
        "../rel/x?ref=1",
        "https://a.example/index.html?id=1;x=2",
    ]
    params = tmp_path / "params.txt"
    params.write_text("ref\nsrc_*\n")
    kwargs = [
        dict(profile="aggressive", strip_params=["ref", "src_*"]),
        dict(profile="aggressive", strip_params=f"@{params}"),
        dict(profile="whatwg", base="https://base.example/dir/"),
        dict(profile="semantic", rules="+lowercase-path", keep_params="id", query_separators="&;"),
        dict(profile="aggressive", index_files=["index.html"]),
    ]
    df = pl.DataFrame({"url": lines})
    for kw in kwargs:
        got = df.lazy().select(pl.col("url").normurl.normalize(**kw)).collect()["url"].to_list()
        assert got == normurl.normalize(lines, **kw), kw
        keys = df.select(pl.col("url").normurl.key_hash(**kw))["url"].to_list()
        assert keys == normurl.key_hash(lines, **kw), kw
    # The settings make a difference (the test can fail).
    plain = df.select(pl.col("url").normurl.normalize(profile="aggressive"))["url"].to_list()
    assert plain != normurl.normalize(lines, **kwargs[0])


def test_a_normalizer_object():
    n = normurl.Normalizer(profile="aggressive", get="ssurt")
    df = pl.DataFrame({"url": URLS})
    out = df.select(pl.col("url").normurl.normalize(normalizer=n))
    assert out["url"].to_list() == normurl.normalize(URLS, profile="aggressive", get="ssurt")
    with pytest.raises(TypeError, match="not both"):
        pl.col("url").normurl.normalize(normalizer=n, profile="whatwg")
    with pytest.raises(TypeError, match="expected a normurl.Normalizer"):
        pl.col("url").normurl.normalize(normalizer="aggressive")


def test_bad_arguments_fail_when_the_expression_is_made():
    with pytest.raises(ValueError) as made:
        pl.col("url").normurl.normalize(profile="nope")
    with pytest.raises(ValueError) as direct:
        normurl.Normalizer(profile="nope")
    assert str(made.value) == str(direct.value)
    with pytest.raises(ValueError, match="unknown output form"):
        pl.col("url").normurl.get("registered-domain")
    with pytest.raises(ValueError, match="default_scheme"):
        pl.col("url").normurl.key_hash(base="http://a.example/", default_scheme="http")


def test_non_string_column_is_an_error_at_plan_time():
    lf = pl.LazyFrame({"n": [1, 2]})
    expr = pl.col("n").normurl.normalize()
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings, got Int64"):
        lf.select(expr).collect_schema()
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings, got Int64"):
        pl.DataFrame({"n": [1, 2]}).select(expr)


def test_categorical_after_cast():
    df = pl.DataFrame({"url": URLS}, schema={"url": pl.Categorical})
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings"):
        df.select(pl.col("url").normurl.normalize())
    out = df.select(pl.col("url").cast(pl.String).normurl.normalize(profile="aggressive"))
    assert out["url"].to_list() == AGGRESSIVE


def test_nulls_and_empty_frames():
    df = pl.DataFrame({"url": [None, None]}, schema={"url": pl.String})
    assert df.select(pl.col("url").normurl.normalize())["url"].to_list() == [None, None]
    assert df.select(pl.col("url").normurl.components())["url"].to_list() == [None, None]
    empty = pl.DataFrame({"url": []}, schema={"url": pl.String})
    for expr in [pl.col("url").normurl.normalize(), pl.col("url").normurl.key_hash(), pl.col("url").normurl.components()]:
        assert empty.select(expr).height == 0
    # A column of the Null type is a column of nulls.
    nulls = pl.DataFrame({"url": [None, None]})
    assert nulls.select(pl.col("url").normurl.normalize())["url"].to_list() == [None, None]


def test_module_docstring_example():
    test = doctest.DocTestParser().get_doctest(normurl.polars.__doc__, {}, "normurl.polars", None, 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


# The engine test's Polars legs: each of the docs' jobs, eager, lazy and
# streaming, with no conversion code, equal to the command's output. (The
# pandas, pyarrow and PySpark legs are in the other engines' tests.)


@pytest.mark.parametrize("mode", MODES)
def test_engine_jobs_polars(normurl_bin, corpus_file, mode):
    lines = read_lines(corpus_file)
    df = pl.DataFrame({"url": lines})
    profile = ["--profile", "aggressive"]

    # A normalized column.
    normalized = run(df, lambda d: d.with_columns(canonical=pl.col("url").normurl.normalize(profile="aggressive")), mode)
    assert normalized["canonical"].to_list() == command(normurl_bin, profile, corpus_file)

    # A registered-domain column.
    domains = run(df, lambda d: d.with_columns(domain=pl.col("url").normurl.get("registered_domain", profile="aggressive")), mode)
    expected_domains = command(normurl_bin, [*profile, "--get", "registered_domain"], corpus_file)
    assert blank_is_null(domains["domain"].to_list()) == expected_domains

    # Dedup keeping the first row: the first line of each distinct URL.
    first = run(
        df,
        lambda d: d.with_columns(key=pl.col("url").normurl.key_hash(profile="aggressive"))
        .filter(pl.col("key").is_not_null())
        .unique(subset="key", keep="first", maintain_order=True)
        .select(pl.col("url").normurl.normalize(profile="aggressive")),
        mode,
    )
    assert first["url"].to_list() == dedup_command(normurl_bin, corpus_file)

    # Counts per domain.
    counts = run(
        df,
        lambda d: d.group_by(domain=pl.col("url").normurl.get("registered_domain", profile="aggressive")).len(),
        mode,
    )
    got = Counter()
    for domain, n in counts.iter_rows():
        got[domain or None] += n
    assert got == Counter(expected_domains)


def docs_recipe(name):
    """Runs the code block after `<!-- recipe: NAME -->` in docs/python.md
    and returns what it defined."""
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "python.md").read_text()
    match = re.search(rf"<!-- recipe: {name} -->\n```python\n(.*?)```", text, re.S)
    assert match, f"no recipe {name}"
    namespace = {"__name__": f"recipe_{name}"}
    exec(compile(match.group(1), f"docs/python.md:{name}", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("mode", ["lazy", "streaming"])
def test_docs_recipe(normurl_bin, corpus_file, mode):
    jobs = docs_recipe("polars_expr")["jobs"]
    first, per_domain = jobs(pl.LazyFrame({"url": read_lines(corpus_file)}))
    engine = "streaming" if mode == "streaming" else "in-memory"
    first, per_domain = first.collect(engine=engine), per_domain.collect(engine=engine)
    assert first["canonical"].to_list() == dedup_command(normurl_bin, corpus_file)
    domains = command(normurl_bin, ["--get", "registered_domain"], corpus_file)
    got = Counter()
    for domain, n in per_domain.select("domain", "len").iter_rows():
        got[domain or None] += n
    assert got == Counter(domains)


def test_chunked_and_sliced_inputs():
    # Several chunks in one call, and chunks that start at an offset.
    lines = read_lines(SAMPLES / "urls.txt")[:300] + URLS
    parts = [pl.DataFrame({"url": lines[i : i + 70]}) for i in range(0, len(lines), 70)]
    df = pl.concat(parts, rechunk=False)
    assert df.n_chunks() > 1
    expected = normurl.normalize(lines, profile="aggressive")
    assert df.select(pl.col("url").normurl.normalize(profile="aggressive"))["url"].to_list() == expected
    sliced = df.slice(65, 20)
    got = sliced.select(pl.col("url").normurl.key_hash())["url"].to_list()
    assert got == normurl.key_hash(lines[65:85])
    got = sliced.select(pl.col("url").normurl.components())["url"].struct.field("hostname").to_list()
    assert got == [c and c["hostname"] for c in normurl.components(lines[65:85])]
