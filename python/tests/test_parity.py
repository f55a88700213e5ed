"""The command's per-line options from Python: `base=` a column (the
command's --base-field), `resolve=` (--resolve), `charset=` a column
(--charset-field) and `explain=True` (--explain), checked against the
binary on TSV files made from samples/corpora, for list, pyarrow, Polars
and pandas inputs."""

import random

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import normurl
import normurl.polars  # noqa: F401  (registers Expr.normurl)
from conftest import CORPORA, read_lines, run_command

# References to resolve: relative ones of every kind, absolute ones, a
# scheme equal to the base's (`http:g`, which the modes resolve apart),
# queries with characters outside ASCII (which the charset encodes), and
# lines that are no URL.
REFERENCES = [
    "../img/a.png",
    "b?c#d",
    "//other.example/x",
    "?q=日本語",
    "#f",
    "./x/../y?q=ü&r=€",
    "/abs/path?q=%E3&s=ß",
    "g;x?y#s",
    "http:g",
    "https:/a/b",
    "HTTP:g?q=é",
    "?utm_source=x&b=2&a=1",
    "HTTP://WWW.Example.COM/A/./B?b=1&a=2#top",
    "https://www.example.com/?fbclid=1&q=ü",
    "mailto:x@Example.COM",
    "http://[::1",
    "not a url",
    "..",
    "",
]

# Bases: a None is the null of Python (an empty field for the command);
# `-` and "" are no base for both; some are no URL or relative.
BASES = [
    None,
    "-",
    "",
    "http://[::1",
    "/docs/guide/",
    "mailto:someone@example.com",
    "https://Example.com/dir/sub/page.html?x=1#y",
    "http://a.example/b/c/d;p?q",
    "HTTP://www.Bücher.de/straße/index.html",
]

# Encoding labels: known ones in any case and with spaces around, and
# ones that name nothing (which leave query_encoding).
CHARSETS = [None, "shift_jis", "EUC-JP", " gbk ", "windows-1252", "utf-8", "-", "", "bogus", "iso-8859-2"]


def corpus_urls():
    urls = []
    for path in CORPORA:
        urls += [l for l in read_lines(path) if "\t" not in l and "\r" not in l]
    return urls


def parity_rows(seed=46, count=4000):
    """(url, base, charset) rows: corpus URLs, their paths and the
    references above, against corpus URLs and the odd bases above."""
    rng = random.Random(seed)
    corpus = corpus_urls()
    rows = []
    for _ in range(count):
        page = rng.choice(corpus)
        roll = rng.random()
        if roll < 0.35:
            url = rng.choice(REFERENCES)
        elif roll < 0.55:
            # The path and query of a corpus URL: a relative reference.
            other = rng.choice(corpus)
            at = other.find("/", other.find("//") + 2) if "//" in other else -1
            url = other[at:] if at > 0 else other
        elif roll < 0.6:
            url = None
        else:
            url = rng.choice(corpus) + rng.choice(["", "?q=ü", "&x=日本"])
        base = rng.choice(BASES) if rng.random() < 0.3 else page
        charset = rng.choice(CHARSETS)
        rows.append((url, base, charset))
    return rows


ROWS = parity_rows()
URLS = [r[0] for r in ROWS]
BASE = [r[1] for r in ROWS]
CHARSET = [r[2] for r in ROWS]


@pytest.fixture(scope="module")
def tsv(tmp_path_factory):
    """The rows as the command reads them: url TAB base TAB charset, a
    null as an empty field."""
    path = tmp_path_factory.mktemp("parity") / "rows.tsv"
    text = "".join("\t".join(v or "" for v in row) + "\n" for row in ROWS)
    path.write_bytes(text.encode("utf-8"))
    return path


def command(binary, path, *args, explain=False):
    """The command's answer for the URL field of each line (None where
    invalid), and with `explain` the rules it lists (None for a line
    without a URL, [] for `-`)."""
    fields = ["-d", "\t", "--field", "1", "--base-field", "2", "--charset-field", "3", "--only-field"]
    extra = ["--explain"] if explain else []
    out = run_command(binary, ["--on-invalid=empty", *fields, *extra, *args, str(path)]).stdout
    lines = out.decode("utf-8").split("\n")
    assert lines.pop() == ""
    # A null or empty URL is no URL in Python (an empty line is blank for
    # the command), where the command resolves an empty field against the
    # base field (RFC 3986's same-document reference).
    lines = [l if url else "\tinvalid:no-url" if explain else "" for l, url in zip(lines, URLS)]
    if not explain:
        return [l or None for l in lines]
    got = []
    for line in lines:
        url, rules = line.rsplit("\t", 1)
        if rules.startswith("invalid:"):
            got.append((None, None))
        else:
            got.append((url or None, [] if rules == "-" else rules.split(",")))
    return got


def as_input(kind, values):
    """`values` as a column of `kind`."""
    if kind == "list":
        return list(values)
    if kind == "pyarrow":
        return pa.array(values, pa.string())
    if kind == "chunked":
        # Chunks that do not line up with the other columns'.
        cut = len(values) // 3 + len(kind)
        return pa.chunked_array([values[:cut], values[cut:]], pa.string())
    if kind == "polars":
        return pl.Series("col", values, dtype=pl.String)
    if kind == "pandas":
        return pd.Series(values, dtype=object, index=range(10, 10 + len(values)))
    if kind == "categorical":
        return pd.Series(values, dtype="category")
    raise AssertionError(kind)


def to_list(result):
    """A normalize() result of any kind as a list (None for null)."""
    if isinstance(result, list):
        return result
    if isinstance(result, pd.Series):
        return [None if v is None or v is pd.NA else v for v in result.tolist()]
    return result.to_list() if isinstance(result, pl.Series) else result.to_pylist()


KINDS = ["list", "pyarrow", "chunked", "polars", "pandas"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("resolve", ["whatwg", "legacy", "generic"])
def test_base_and_charset_columns_are_base_field_and_charset_field(normurl_bin, tsv, kind, resolve):
    expected = command(normurl_bin, tsv, "--resolve", resolve, "--profile", "aggressive")
    got = normurl.normalize(
        as_input(kind, URLS),
        profile="aggressive",
        base=as_input(kind, BASE),
        charset=as_input(kind, CHARSET),
        resolve=resolve,
    )
    assert to_list(got) == expected
    # The rows exercise what they are there for: nulls, relative URLs
    # resolved, and the modes differing.
    assert expected.count(None) > 300 and len(set(expected)) > 2000
    if resolve != "whatwg" and kind == "list":
        assert expected != command(normurl_bin, tsv, "--profile", "aggressive")


def test_resolve_modes_differ_where_rfc_3986_does():
    # RFC 3986 section 5.4.2: `http:g` is `http:g` for a strict parser,
    # `http://a/b/c/g` for a non-strict one (and for browsers).
    base = ["http://a.example/b/c/d;p?q"] * 2
    urls = ["http:g", "../g"]
    assert normurl.normalize(urls, base=base) == ["http://a.example/b/c/g", "http://a.example/b/g"]
    assert normurl.normalize(urls, base=base, resolve="legacy") == ["http://a.example/b/c/g", "http://a.example/b/g"]
    assert normurl.normalize(urls, base=base, resolve="generic") == ["http://g/", "http://a.example/b/g"]


@pytest.mark.parametrize("resolve", ["whatwg", "legacy", "generic"])
def test_scalar_base_with_resolve_is_the_commands(normurl_bin, tmp_path, resolve):
    path = tmp_path / "refs.txt"
    lines = [r for r in REFERENCES if r]
    path.write_text("".join(l + "\n" for l in lines))
    base = "http://a.example/b/c/d;p?q"
    out = run_command(normurl_bin, ["--on-invalid=empty", "--base", base, "--resolve", resolve, str(path)]).stdout
    expected = [l or None for l in out.decode().split("\n")[:-1]]
    assert normurl.normalize(lines, base=base, resolve=resolve) == expected
    assert normurl.Normalizer(base=base, resolve=resolve).normalize(pa.array(lines)).to_pylist() == expected


@pytest.mark.parametrize("kind", ["list", "pyarrow", "polars"])
def test_normalizer_base_is_the_base_of_the_base_column(normurl_bin, tsv, kind):
    # The command's --base with --base-field: the field is resolved
    # against --base (so "/docs/guide/" is a base), not replaced by it.
    root = "https://root.example/a/b"
    expected = command(normurl_bin, tsv, "--base", root)
    n = normurl.Normalizer(base=root)
    got = n.normalize(as_input(kind, URLS), base=as_input(kind, BASE), charset=as_input(kind, CHARSET))
    assert to_list(got) == expected
    assert expected != command(normurl_bin, tsv)


def test_null_dash_and_empty_bases_are_no_base():
    urls = ["../x", "http://abs.example/y", None, "../x", "../x", "../x"]
    bases = [None, None, "http://a.example/p/q", "-", "", "http://a.example/p/q"]
    assert normurl.normalize(urls, base=bases) == [
        None,
        "http://abs.example/y",
        None,
        None,
        None,
        "http://a.example/x",
    ]
    # An invalid base leaves only absolute URLs valid, as a missing one.
    assert normurl.normalize(["x", "http://b.example/"], base=["http://[::1", "http://[::1"]) == [
        None,
        "http://b.example/",
    ]


@pytest.mark.parametrize("kind", ["list", "pyarrow", "polars", "pandas", "categorical"])
def test_charset_column_over_query_encoding(normurl_bin, tsv, kind):
    # Where the row's label names no encoding, query_encoding applies.
    expected = command(normurl_bin, tsv, "--query-encoding", "euc-kr")
    urls = URLS if kind != "categorical" else as_input("pandas", URLS)
    got = normurl.normalize(
        as_input(kind, URLS) if kind != "categorical" else urls,
        base=as_input("list", BASE),
        charset=as_input(kind, CHARSET),
        query_encoding="euc-kr",
    )
    assert to_list(got) == expected
    assert expected != command(normurl_bin, tsv)


def test_charset_encodes_the_query():
    urls = ["http://a.example/?q=日本", "http://a.example/?q=日本", "http://a.example/?q=日本"]
    got = normurl.normalize(urls, charset=["shift_jis", "bogus", None])
    assert got == [
        "http://a.example/?q=%93%FA%96{",
        "http://a.example/?q=%E6%97%A5%E6%9C%AC",
        "http://a.example/?q=%E6%97%A5%E6%9C%AC",
    ]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("profile", ["whatwg", "aggressive", "wayback"])
def test_explain_lists_the_rules_the_command_does(normurl_bin, tsv, kind, profile):
    expected = command(normurl_bin, tsv, "--profile", profile, explain=True)
    got = normurl.normalize(
        as_input(kind, URLS),
        profile=profile,
        base=as_input(kind, BASE),
        charset=as_input(kind, CHARSET),
        explain=True,
    )
    if kind == "list":
        rows = got
    elif kind == "pandas":
        assert list(got.columns) == ["url", "rules"]
        assert list(got.index) == list(range(10, 10 + len(URLS)))
        rows = [
            (None if u is None else u, r) for u, r in zip(got["url"].tolist(), got["rules"].tolist())
        ]
    elif kind == "polars":
        assert got.name == "col" and got.dtype == pl.Struct({"url": pl.String, "rules": pl.List(pl.String)})
        rows = [(r["url"], r["rules"]) for r in got.to_list()]
    elif kind == "chunked":
        assert isinstance(got, pa.Table) and got.column_names == ["url", "rules"]
        rows = list(zip(got.column("url").to_pylist(), got.column("rules").to_pylist()))
    else:
        assert isinstance(got, pa.StructArray)
        rows = [(r["url"], r["rules"]) for r in got.to_pylist()]
    assert rows == expected
    if profile == "aggressive":
        fired = {name for _, rules in rows for name in rules or []}
        assert {"strip-www", "sort-query", "drop-fragment"} <= fired


def test_explain_shapes():
    urls = ["HTTP://www.A.example/x/../?b=1&a=2#f", "nope", None, "http://a.example/"]
    rows = normurl.normalize(urls, profile="aggressive", explain=True)
    assert rows[1:] == [(None, None), (None, None), ("http://a.example/", [])]
    assert rows[0][0] == "http://a.example/?a=2&b=1"
    assert "sort-query" in rows[0][1] and "drop-fragment" in rows[0][1]
    n = normurl.Normalizer(profile="aggressive")
    assert n.normalize(urls, explain=True) == rows
    assert pa.array(n.normalize(pa.array(urls), explain=True)).type == pa.struct(
        [("url", pa.string()), ("rules", pa.list_(pa.string()))]
    )
    # A large_string input gives large types; pandas' string dtype keeps
    # its dtype for the URL.
    large = n.normalize(pa.array(urls, pa.large_string()), explain=True)
    assert large.type == pa.struct([("url", pa.large_string()), ("rules", pa.large_list(pa.large_string()))])
    frame = n.normalize(pd.Series(urls, dtype="string"), explain=True)
    assert frame["url"].dtype == pd.StringDtype() and frame["url"].isna().tolist() == [False, True, True, False]


def test_explain_of_a_component_and_a_rewrite(tmp_path):
    # A missing component is null, its URL's rules still listed.
    rows = normurl.normalize(["http://[::1]/", "https://www.a.example/"], get="registered_domain", explain=True)
    assert rows == [(None, []), ("a.example", [])]
    rewrite = tmp_path / "rewrite.txt"
    rewrite.write_text("s|^http://a\\.example/old|http://a.example/new|\n")
    rows = normurl.normalize(["http://a.example/old", "http://a.example/x"], rewrite=rewrite, explain=True)
    assert rows == [("http://a.example/new", ["rewrite"]), ("http://a.example/x", [])]


@pytest.mark.parametrize("kind", ["list", "pyarrow", "polars", "pandas"])
def test_length_mismatch_names_both_lengths(kind):
    urls = as_input(kind, ["http://a.example/", "b", "c"])
    for argument in ("base", "charset"):
        with pytest.raises(ValueError, match=rf"^{argument}: 2 values for 3 URLs"):
            normurl.normalize(urls, **{argument: as_input(kind, ["http://x.example/", None])})
        with pytest.raises(ValueError, match=r"4 values for 3 URLs"):
            normurl.Normalizer().key_hash(urls, **{argument: as_input(kind, ["a", "b", "c", "d"])})


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"^--resolve: unknown mode \"bogus\""):
        normurl.normalize(["a"], resolve="bogus")
    with pytest.raises(TypeError, match="^base: a Normalizer's base is one URL"):
        normurl.Normalizer(base=["http://a.example/"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^base: expected one base per URL"):
        normurl.Normalizer().normalize(["a"], base="http://a.example/")
    with pytest.raises(TypeError, match="query_encoding="):
        normurl.normalize(["a"], charset="shift_jis")
    with pytest.raises(TypeError, match=r"^base\[1\]: expected str or None, got int"):
        normurl.normalize(["a", "b"], base=["http://a.example/", 3])
    with pytest.raises(TypeError, match="^charset: expected strings, got int64"):
        normurl.normalize(pa.array(["a"]), charset=pa.array([1]))
    with pytest.raises(ValueError, match="^default_scheme: cannot be used with base"):
        normurl.normalize(["a"], base=["http://a.example/"], default_scheme="http")


def test_key_hash_and_components_use_the_row_bases():
    base = pa.array(BASE)
    urls = pa.array(URLS)
    resolved = normurl.normalize(urls, base=base, charset=CHARSET)
    assert normurl.key_hash(urls, base=base, charset=CHARSET) == normurl.key_hash(resolved)
    parts = normurl.components(urls, base=base, charset=CHARSET)
    assert parts.field("href").to_pylist() == resolved.to_pylist()


def test_threads_and_chunks_keep_each_row_with_its_base():
    # Batches of 16,384 rows or more are split across threads: each part
    # must read its own rows of the base column.
    urls = (URLS * 6)[:20000]
    bases = (BASE * 6)[:20000]
    one = normurl.normalize(urls, base=bases, charset=(CHARSET * 6)[:20000])
    cut = 7001
    chunked = pa.chunked_array([urls[:cut], urls[cut:]], pa.string())
    split = pa.chunked_array([bases[:100], bases[100:15000], bases[15000:]], pa.string())
    got = normurl.normalize(chunked, base=split, charset=(CHARSET * 6)[:20000], threads=4)
    assert got.to_pylist() == one


def test_pickled_normalizer_keeps_resolve():
    import pickle

    n = normurl.Normalizer(base="http://a.example/b/c/d;p?q", resolve="generic")
    copy = pickle.loads(pickle.dumps(n))
    assert copy == n and hash(copy) == hash(n)
    assert copy.normalize(["http:g"]) == ["http://g/"]
    assert n != normurl.Normalizer(base="http://a.example/b/c/d;p?q")
    assert "resolve='generic'" in repr(n) or 'resolve="generic"' in repr(n)


def test_polars_expression_with_base_and_charset_columns(normurl_bin, tsv):
    expected = command(normurl_bin, tsv, "--resolve", "legacy", "--profile", "aggressive")
    df = pl.DataFrame({"url": URLS, "base": BASE, "charset": CHARSET}, schema=dict.fromkeys(["url", "base", "charset"], pl.String))
    expr = pl.col("url").normurl.normalize(
        profile="aggressive", base=pl.col("base"), charset=pl.col("charset"), resolve="legacy"
    )
    assert df.select(expr)["url"].to_list() == expected
    lazy = df.lazy().with_columns(n=expr).collect(engine="streaming")
    assert lazy["n"].to_list() == expected
    # A literal is one base for every row.
    one = df.select(pl.col("url").normurl.normalize(base=pl.lit("http://a.example/p/q")))["url"].to_list()
    assert one == normurl.normalize(URLS, base="http://a.example/p/q")


def test_polars_expression_explain(normurl_bin, tsv):
    expected = command(normurl_bin, tsv, "--profile", "aggressive", explain=True)
    df = pl.DataFrame({"url": URLS, "base": BASE, "charset": CHARSET}, schema=dict.fromkeys(["url", "base", "charset"], pl.String))
    got = df.select(
        pl.col("url").normurl.normalize(
            profile="aggressive", base=pl.col("base"), charset=pl.col("charset"), explain=True
        )
    ).unnest("url")
    assert list(zip(got["url"].to_list(), got["rules"].to_list())) == expected
    # get() and key_hash() take the columns too.
    keys = df.select(pl.col("url").normurl.key_hash(base=pl.col("base")))["url"].to_list()
    assert keys == normurl.key_hash(URLS, base=BASE)
    hosts = df.select(pl.col("url").normurl.get("hostname", base=pl.col("base")))["url"].to_list()
    assert hosts == normurl.normalize(URLS, get="hostname", base=BASE)


def test_polars_expression_bad_arguments():
    with pytest.raises(TypeError, match="query_encoding="):
        pl.col("url").normurl.normalize(charset="shift_jis")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^--resolve: unknown mode"):
        pl.col("url").normurl.normalize(resolve="bogus")  # type: ignore[arg-type]
    df = pl.DataFrame({"url": ["a", "b"], "base": [1, 2]})
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings, got Int64"):
        df.select(pl.col("url").normurl.normalize(base=pl.col("base")))


# The edits (`set=` ... , the command's --set ...) with the per-row
# columns: each row's URL is parsed against its own base, then edited,
# then canonicalized, as the command does with --base-field.
# (Python arguments, the equivalent command line).
ROW_EDITS = [
    ({"set": {"scheme": "https", "hash": "h"}}, ["--set", "scheme=https", "--set", "hash=h"]),
    ({"set": {"port": "x"}}, ["--set", "port=x"]),
    ({"set": {"host": "b.example"}, "append": {"path": "seg"}}, ["--set", "host=b.example", "--append", "path=seg"]),
    (
        {"set_params": {"lang": "ü"}, "delete_params": "utm_*,q"},
        ["--set-param", "lang=ü", "--delete-param", "utm_*,q"],
    ),
]


@pytest.mark.parametrize("kwargs, args", ROW_EDITS, ids=[" ".join(a) for _, a in ROW_EDITS])
@pytest.mark.parametrize("kind", ["list", "chunked", "polars"])
def test_edits_with_base_and_charset_columns_are_the_commands(normurl_bin, tsv, kind, kwargs, args):
    expected = command(normurl_bin, tsv, "--resolve", "legacy", "--profile", "aggressive", *args)
    got = normurl.normalize(
        as_input(kind, URLS),
        profile="aggressive",
        base=as_input(kind, BASE),
        charset=as_input(kind, CHARSET),
        resolve="legacy",
        **kwargs,
    )
    got = got if kind == "list" else got.to_pylist() if kind == "chunked" else got.to_list()
    assert got == expected
    unedited = normurl.normalize(URLS, profile="aggressive", base=BASE, charset=CHARSET, resolve="legacy")
    if args == ["--set", "port=x"]:
        # A refused setter leaves every URL as it was.
        assert got == unedited
    else:
        # The edits did something on these rows (the check can fail).
        assert got != unedited


@pytest.mark.parametrize("kwargs, args", ROW_EDITS, ids=[" ".join(a) for _, a in ROW_EDITS])
def test_explain_lists_the_edits_as_the_command_does(normurl_bin, tsv, kwargs, args):
    expected = command(normurl_bin, tsv, "--profile", "aggressive", *args, explain=True)
    got = normurl.normalize(URLS, profile="aggressive", base=BASE, charset=CHARSET, explain=True, **kwargs)
    assert got == expected
    fired = {name for _, rules in got for name in rules or []}
    assert ("edit-refused" if args == ["--set", "port=x"] else "edit") in fired
    # The edits come first, as they ran.
    for _, rules in got:
        if rules and "edit" in rules:
            assert rules.index("edit") == 0


def test_polars_expression_with_edits_and_columns(normurl_bin, tsv):
    kwargs, args = ROW_EDITS[0]
    expected = command(normurl_bin, tsv, "--profile", "aggressive", *args)
    df = pl.DataFrame({"url": URLS, "base": BASE, "charset": CHARSET}, schema=dict.fromkeys(["url", "base", "charset"], pl.String))
    expr = pl.col("url").normurl.normalize(
        profile="aggressive", base=pl.col("base"), charset=pl.col("charset"), **kwargs
    )
    assert df.select(expr)["url"].to_list() == expected
    explained = command(normurl_bin, tsv, "--profile", "aggressive", *args, explain=True)
    got = df.select(
        pl.col("url").normurl.normalize(
            profile="aggressive", base=pl.col("base"), charset=pl.col("charset"), explain=True, **kwargs
        )
    ).unnest("url")
    assert list(zip(got["url"].to_list(), got["rules"].to_list())) == explained
    # A Normalizer with both resolve= and edits, given whole.
    n = normurl.Normalizer(profile="aggressive", resolve="generic", **kwargs)
    by_normalizer = df.select(pl.col("url").normurl.normalize(normalizer=n, base=pl.col("base")))["url"].to_list()
    assert by_normalizer == n.normalize(URLS, base=BASE)


def test_pickles_keep_resolve_and_edits_and_old_ones_load():
    import pickle

    n = normurl.Normalizer(base="http://a.example/b/c/d;p?q", resolve="generic", set={"hash": "h"}, delete_params="q")
    copy = pickle.loads(pickle.dumps(n))
    assert copy == n and hash(copy) == hash(n)
    assert copy.normalize(["http:g", "g?q=1&r=2"]) == ["http://g/#h", "http://a.example/b/c/g?r=2#h"]
    assert n != normurl.Normalizer(base="http://a.example/b/c/d;p?q", set={"hash": "h"}, delete_params="q")
    assert n != normurl.Normalizer(base="http://a.example/b/c/d;p?q", resolve="generic")
    # The pickle's arguments: resolve, then the edits, last.
    restore, args = n.__reduce__()
    assert args[7] == "generic" and len(args) == 9
    # Pickles made before resolve= (7 arguments) and before the edits (8)
    # still load, with neither or no edits.
    old = restore(*args[:7])
    assert old.normalize(["http:g"]) == ["http://a.example/b/c/g"]
    older = restore(*args[:8])
    assert older.normalize(["http:g"]) == ["http://g/"]
