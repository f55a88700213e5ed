"""The edits (`set`, `append`, `set_params`, `delete_params`) and the
templates of `get` (`{query:NAME}`, `{query-all:NAME}`,
`{pathname:decoded}`): each equal to the command's `--set`, `--append`,
`--set-param`, `--delete-param` and `--get TEMPLATE` on the same lines
(docs/editing.md), for lists, pyarrow and Polars."""

import pickle
from collections import Counter
from urllib.parse import parse_qsl, urlsplit

import polars as pl
import pyarrow as pa
import pytest

import normurl
import normurl.polars
from conftest import CORPORA, ODD, SAMPLES, read_lines, run_command

# The edits' inputs: the corpora, the samples, the odd lines (invalid
# ones, mailto:, file:, IP hosts, IDN) and URLs where setters refuse.
EXTRA = [
    "http://u:p@a.example:8080/p?q=1&utm_source=x&q=2&tag=a&tag=b%2Cc#f",
    "https://www.example.com/a%20b/?id=%7e&fbclid=z&utm_medium=m",
    "mailto:someone@example.com?subject=hi",
    "data:text/plain,hello",
    "file:///tmp/x?y",
    "foo://h/p?a=+b",
    "http://a.example/?a=%20&b",
    "http://a.example/?%75tm_source=1&q=caf%C3%A9+au+lait",
    "http://a.example/caf%C3%A9/%FF/a%2Fb",
]


@pytest.fixture(scope="module")
def lines_file(tmp_path_factory):
    lines = []
    for path in CORPORA + [SAMPLES / "urls.txt"]:
        lines += read_lines(path)
    lines += EXTRA + ODD
    path = tmp_path_factory.mktemp("edits") / "lines.txt"
    path.write_bytes("".join(l + "\n" for l in lines).encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def lines(lines_file):
    return read_lines(lines_file)


def command_stdout(binary, args, path):
    return run_command(binary, ["--on-invalid=empty", *args, str(path)]).stdout


def as_stdout(values):
    """What the command writes for these answers under
    --on-invalid=empty: each value (None: nothing) and a newline. Compared
    whole, so that a decoded value holding a newline still lines up."""
    return "".join((v or "") + "\n" for v in values).encode("utf-8")


def check_same(binary, args, path, values):
    assert command_stdout(binary, args, path) == as_stdout(values)
    # The empty answers are nulls: an invalid line, or nothing to get.
    assert "" not in values


# (Python arguments, the equivalent command line).
EDITS = [
    ({"set": {"scheme": "https"}}, ["--set", "scheme=https"]),
    ({"set": {"protocol": "ftp:"}}, ["--set", "protocol=ftp:"]),
    ({"set": {"port": "", "fragment": None}}, ["--set", "port=", "--set", "fragment="]),
    ({"set": {"port": 8080}}, ["--set", "port=8080"]),
    ({"set": {"port": "x"}}, ["--set", "port=x"]),
    ({"set": {"username": "a b", "password": "p@ss"}}, ["--set", "username=a b", "--set", "password=p@ss"]),
    ({"set": {"host": "b.example:81"}}, ["--set", "host=b.example:81"]),
    ({"set": {"hostname": "Bücher.example"}}, ["--set", "hostname=Bücher.example"]),
    ({"set": [("path", "/x y/../z"), ("search", "a=b c")]}, ["--set", "path=/x y/../z", "--set", "search=a=b c"]),
    ({"set": {"query": "", "hash": "#top"}}, ["--set", "query=", "--set", "hash=#top"]),
    ({"append": {"query": "src=a b&c", "path": "seg/x"}}, ["--append", "query=src=a b&c", "--append", "path=seg/x"]),
    ({"append": [("query", "a=1"), ("query", "flag"), ("path", "%41/..")]},
     ["--append", "query=a=1", "--append", "query=flag", "--append", "path=%41/.."]),
    ({"set_params": {"lang": "en", "page": 2}}, ["--set-param", "lang=en", "--set-param", "page=2"]),
    ({"set_params": [("q", "x y+z"), ("q", "w")]}, ["--set-param", "q=x y+z", "--set-param", "q=w"]),
    ({"delete_params": "utm_*,fbclid"}, ["--delete-param", "utm_*,fbclid"]),
    ({"delete_params": ["utm_*", "q", "*_id"]}, ["--delete-param", "utm_*", "--delete-param", "q", "--delete-param", "*_id"]),
]


@pytest.fixture(scope="module")
def unedited(lines):
    return normurl.normalize(lines)


@pytest.mark.parametrize("kwargs, args", EDITS, ids=[" ".join(a) for _, a in EDITS])
def test_each_edit_is_the_commands(normurl_bin, lines_file, lines, unedited, kwargs, args):
    got = normurl.normalize(lines, **kwargs)
    check_same(normurl_bin, args, lines_file, got)
    if kwargs == {"set": {"port": "x"}}:
        # Refused on every URL: each row as it was, none dropped.
        assert got == unedited
    else:
        # The edit does something on these lines.
        assert got != unedited


# Every kind at once, in the documented order: set, append, set_params,
# delete_params, as the command line that gives them in that order.
ALL = {
    "set": {"scheme": "https", "fragment": ""},
    "append": {"query": "src=crawl"},
    "set_params": {"utm_source": "x", "lang": "en"},
    "delete_params": ["utm_*", "fbclid"],
}
ALL_ARGS = [
    "--set", "scheme=https", "--set", "fragment=",
    "--append", "query=src=crawl",
    "--set-param", "utm_source=x", "--set-param", "lang=en",
    "--delete-param", "utm_*", "--delete-param", "fbclid",
]


@pytest.mark.parametrize(
    "extra, extra_args",
    [
        ({}, []),
        ({"profile": "aggressive"}, ["--profile", "aggressive"]),
        ({"get": "surt"}, ["--get", "surt"]),
        ({"get": "hostname", "profile": "semantic"}, ["--get", "hostname", "--profile", "semantic"]),
        ({"get": "{query:lang}\\t{search}"}, ["--get", "{query:lang}\\t{search}"]),
    ],
)
def test_all_edits_in_the_documented_order(normurl_bin, lines_file, lines, extra, extra_args):
    got = normurl.normalize(lines, **ALL, **extra)
    check_same(normurl_bin, [*ALL_ARGS, *extra_args], lines_file, got)


def test_the_order_is_set_append_set_params_delete_params(normurl_bin, tmp_path):
    urls = ["http://a.example/p?utm_source=1&id=2", "http://b.example/?q"]
    path = tmp_path / "urls.txt"
    path.write_text("".join(u + "\n" for u in urls))
    # The parameter set is deleted after: delete_params comes last, as
    # --delete-param after --set-param.
    got = normurl.normalize(urls, delete_params="utm_*", set_params={"utm_source": "x"})
    assert got == ["http://a.example/p?id=2", "http://b.example/?q="]
    check_same(normurl_bin, ["--set-param", "utm_source=x", "--delete-param", "utm_*"], path, got)
    # The other order on the command line gives another answer, which no
    # Python call gives by its arguments' order.
    other = command_stdout(normurl_bin, ["--delete-param", "utm_*", "--set-param", "utm_source=x"], path)
    assert other != as_stdout(got)
    # set before append: the query set, then the pair appended.
    got = normurl.normalize(urls, append={"query": "b=2"}, set={"search": "a=1"})
    assert got == ["http://a.example/p?a=1&b=2", "http://b.example/?a=1&b=2"]


def test_refused_setters_keep_the_row():
    n = normurl.Normalizer(set={"scheme": "https", "port": "81"})
    assert n.normalize(["mailto:x@y.example", "http://a.example/", "file:///etc/x", "nope"]) == [
        "mailto:x@y.example",
        "https://a.example:81/",
        "file:///etc/x",
        None,
    ]
    assert n.normalize_one("data:text/plain,x") == "data:text/plain,x"
    assert normurl.normalize(["mailto:x@y"], set={"path": "/z", "hostname": "a"}) == ["mailto:x@y"]
    # Later edits still apply after a refused one.
    assert normurl.normalize(["http://a.example/"], set=[("port", "x"), ("port", "82")]) == ["http://a.example:82/"]


QUERY_URLS = [
    "http://a.example/?q=rust+url&tag=a&tag=b%2Cc&e=&f",
    "http://a.example/?q=%FF%20x&Q=up",
    "http://a.example/p%20q/caf%C3%A9%0Ax",
    "http://a.example/",
    "mailto:x@y?q=1",
    "nope",
    None,
]


@pytest.mark.parametrize(
    "get, expected",
    [
        ("{query:q}", ["rust url", "\ufffd x", None, None, "1", None, None]),
        ("query:q", ["rust url", "\ufffd x", None, None, "1", None, None]),
        ("{query-all:tag}", ["a,b,c", None, None, None, None, None, None]),
        ("{query:e}", [None] * 7),
        ("{pathname:decoded}", ["/", "/", "/p q/café\nx", "/", "x@y", None, None]),
        ("{hostname}\\t{query:Q}", ["a.example\t", "a.example\tup", "a.example\t", "a.example\t", "\t", None, None]),
        ("{hostname}", ["a.example", "a.example", "a.example", "a.example", None, None, None]),
    ],
)
def test_templates(get, expected):
    assert normurl.normalize(QUERY_URLS, get=get) == expected
    n = normurl.Normalizer(get=get)
    assert [n.normalize_one(u) for u in QUERY_URLS] == expected
    # A key exactly where there is a value.
    keys = normurl.key_hash(QUERY_URLS, get=get)
    assert [k is not None for k in keys] == [v is not None for v in expected]


def common_names(lines, count):
    names = Counter()
    for line in lines:
        if line.startswith(("http://", "https://")):
            try:
                names.update({n for n, _ in parse_qsl(urlsplit(line).query, keep_blank_values=True)})
            except ValueError:
                pass
    return [n for n, _ in names.most_common(count) if "}" not in n]


def test_templates_are_the_commands_on_the_corpora(normurl_bin, lines_file, lines):
    names = common_names(lines, 6)
    assert len(names) >= 4
    templates = [f"{{query:{n}}}" for n in names] + [f"{{query-all:{n}}}" for n in names[:3]]
    templates += ["{pathname:decoded}", "{search:decoded}", "{host}\\t{hash:decoded}", "{query:utm_source}"]
    for get in templates:
        got = normurl.normalize(lines, get=get)
        check_same(normurl_bin, ["--get", get], lines_file, got)
        assert any(v is not None for v in got), get
    # With a profile, the templates read the canonical URL.
    got = normurl.normalize(lines, get="{query:utm_source}", profile="aggressive")
    check_same(normurl_bin, ["--get", "{query:utm_source}", "--profile", "aggressive"], lines_file, got)
    assert all(v is None for v in got)


def test_query_param_is_parse_qs_first_value(lines):
    # Where both split on `&` alone (Python >= 3.10), {query:NAME} is
    # parse_qs's first value (keep_blank_values: an empty value is null
    # here, as an absent one).
    urls = [l for l in lines if l.startswith(("http://", "https://")) and "%" not in l and "#" not in l]
    name = common_names(urls, 1)[0]
    got = normurl.normalize(urls, get=f"{{query:{name}}}")
    expected = []
    for url in urls:
        try:
            query = urlsplit(url).query
        except ValueError:  # urlsplit's "Invalid IPv6 URL"
            query = ""
        values = [v for n, v in parse_qsl(query, keep_blank_values=True) if n == name]
        expected.append(values[0] if values and values[0] else None)
    valid = normurl.normalize(urls)
    pairs = [(g, e) for g, e, v in zip(got, expected, valid) if v is not None]
    assert sum(e is not None for _, e in pairs) > 10
    assert [g for g, _ in pairs] == [e for _, e in pairs]


@pytest.mark.parametrize(
    "kwargs, args",
    [
        ({"set": {"schema": "x"}}, ["--set", "schema=x"]),
        ({"set": [("fragment", "a"), ("frag", "b")]}, ["--set", "fragment=a", "--set", "frag=b"]),
        ({"append": {"host": "x"}}, ["--append", "host=x"]),
        ({"append": {"query": ""}}, ["--append", "query="]),
        ({"delete_params": ""}, ["--delete-param", ""]),
        ({"delete_params": ["a", "*"]}, ["--delete-param", "a", "--delete-param", "*"]),
        ({"get": "{query:q"}, ["--get", "{query:q"]),
        ({"get": "{nope}"}, ["--get", "{nope}"]),
        ({"get": "{host:decoded}"}, ["--get", "{host:decoded}"]),
    ],
)
def test_bad_edits_are_the_commands_usage_errors(normurl_bin, kwargs, args):
    done = run_command(normurl_bin, args, b"http://a.example/\n", check=False)
    assert done.returncode == 2
    message = done.stderr.decode().strip().removeprefix("normurl: ")
    assert "\n" not in message
    with pytest.raises(ValueError) as error:
        normurl.Normalizer(**kwargs)
    assert str(error.value) == message
    # The module's functions and Polars' expressions check when called or
    # made, before any row.
    with pytest.raises(ValueError):
        normurl.normalize([], **kwargs)
    with pytest.raises(ValueError):
        pl.col("url").normurl.normalize(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"set": ["scheme=https"]},
        {"set": "scheme=https"},
        {"set": {"scheme": 1.5}},
        {"set": {1: "x"}},
        {"append": {"query": None}},
        {"set_params": {"a": None}},
        {"set_params": [("a", "b", "c")]},
        {"delete_params": 3},
        {"set": {"port": True}},
    ],
)
def test_wrong_types_are_type_errors(kwargs):
    with pytest.raises(TypeError):
        normurl.Normalizer(**kwargs)


def test_pickle_repr_and_equality():
    n = normurl.Normalizer(profile="aggressive", set={"scheme": "https"}, set_params=[("lang", "en")], delete_params="ref")
    copy = pickle.loads(pickle.dumps(n))
    assert copy == n and hash(copy) == hash(n)
    urls = ["http://www.a.example/x?ref=1&b=2", "mailto:x@y"]
    assert copy.normalize(urls) == n.normalize(urls) == ["https://a.example/x?b=2&lang=en", "mailto:x@y?lang=en"]
    assert n != normurl.Normalizer(profile="aggressive", set={"scheme": "https"}, set_params=[("lang", "fr")], delete_params="ref")
    assert n != normurl.Normalizer(profile="aggressive")
    assert "set={'scheme': 'https'}" in repr(n) and "delete_params='ref'" in repr(n)
    # The same edits however spelled: equal.
    assert normurl.Normalizer(set={"port": None}) == normurl.Normalizer(set=[("port", "")])


def test_components_and_keys_are_of_the_edited_url():
    urls = ["http://a.example/x?utm_source=1&id=2#f", "http://a.example/x?id=2"]
    kwargs = {"set": {"host": "b.example", "hash": None}, "delete_params": "utm_*"}
    rows = normurl.components(urls, **kwargs)
    assert [r["href"] for r in rows] == ["http://b.example/x?id=2"] * 2
    assert rows[0]["hostname"] == "b.example" and rows[0]["hash"] is None
    assert normurl.Normalizer(**kwargs).components_one(urls[0]) == rows[0]
    keys = normurl.key_hash(urls, **kwargs)
    assert keys[0] == keys[1] == normurl.key_hash(["http://b.example/x?id=2"])[0]
    assert normurl.key_hash(urls)[0] != keys[0]


def test_arrow_and_polars_in_and_out(normurl_bin, lines_file, lines):
    sample = lines[::7]
    kwargs = {"set": {"scheme": "https"}, "delete_params": "utm_*"}
    expected = normurl.normalize(sample, **kwargs)
    for column in (pa.array(sample), pa.chunked_array([sample[:100], sample[100:]]), pa.array(sample, pa.large_string())):
        out = normurl.normalize(column, **kwargs)
        assert type(out) is type(column) and out.type == column.type
        assert out.to_pylist() == expected
    series = pl.Series("url", sample)
    out = normurl.normalize(series, **kwargs)
    assert isinstance(out, pl.Series) and out.name == "url" and out.to_list() == expected
    template = normurl.normalize(series, get="{query:q}")
    assert template.to_list() == normurl.normalize(sample, get="{query:q}")

    df = pl.DataFrame({"url": sample})
    for frame in (df, df.lazy()):
        got = frame.select(
            pl.col("url").normurl.normalize(**kwargs).alias("n"),
            pl.col("url").normurl.get("{query:q}", set_params={"q": "x y"}).alias("q"),
            pl.col("url").normurl.key_hash(**kwargs).alias("k"),
            pl.col("url").normurl.components(set={"hostname": "c.example"}).struct.field("host").alias("h"),
        )
        if isinstance(got, pl.LazyFrame):
            got = got.collect()
        assert got["n"].to_list() == expected
        assert got["q"].to_list() == normurl.normalize(sample, get="{query:q}", set_params={"q": "x y"})
        assert got["k"].to_list() == normurl.key_hash(sample, **kwargs)
        assert got["h"].to_list() == normurl.normalize(sample, get="host", set={"hostname": "c.example"})
    # The Polars answers are the command's too.
    check_same(normurl_bin, ["--set", "scheme=https", "--delete-param", "utm_*"], lines_file, normurl.normalize(lines, **kwargs))
    # A Normalizer with edits passes as one.
    n = normurl.Normalizer(**kwargs)
    assert df.select(pl.col("url").normurl.normalize(normalizer=n))["url"].to_list() == expected


def test_duckdb_get_takes_templates():
    duckdb = pytest.importorskip("duckdb")
    import normurl.duckdb

    con = normurl.duckdb.register(duckdb.connect())
    rows = con.sql(
        "select normurl_get(u, '{query:q}') from (values ('http://a.example/?q=a+b'), ('http://a.example/'), ('nope')) t(u)"
    ).fetchall()
    assert rows == [("a b",), (None,), (None,)]
