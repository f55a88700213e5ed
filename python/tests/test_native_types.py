"""The caller's types in and out (pyarrow, Polars, pandas, lists, other
Arrow producers), dictionary and binary inputs, nulls for missing
components, the scalar methods and Normalizer equality (issue 46)."""

import math
import pickle

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import normurl
from conftest import command_lines, mixed_lines, read_lines, run_command

URLS = ["HTTP://www.Example.com/a/../b?utm_source=x&q=1#top", None, "not a url", "https://a.example/"]
WHATWG = ["http://www.example.com/b?utm_source=x&q=1#top", None, None, "https://a.example/"]


class Producer:
    """An Arrow producer that is neither pyarrow, Polars nor pandas (as a
    DuckDB column is): only the PyCapsule interface."""

    def __init__(self, array):
        self.array = array

    def __arrow_c_array__(self, requested_schema=None):
        return self.array.__arrow_c_array__(requested_schema)


def test_pyarrow_gives_pyarrow():
    array = pa.array(URLS)
    assert isinstance(normurl.normalize(array), pa.StringArray)
    assert normurl.normalize(array).to_pylist() == WHATWG
    keys = normurl.key_hash(array)
    assert keys.type == pa.binary(16) and keys.null_count == 2
    parts = normurl.components(array)
    assert isinstance(parts, pa.StructArray) and parts.type.names == list(normurl.COMPONENTS)
    chunked = pa.chunked_array([URLS[:1], URLS[1:]])
    result = normurl.normalize(chunked)
    assert isinstance(result, pa.ChunkedArray) and result.to_pylist() == WHATWG
    assert isinstance(normurl.key_hash(chunked), pa.ChunkedArray)
    table = normurl.components(chunked)
    assert isinstance(table, pa.Table) and table.column_names == list(normurl.COMPONENTS)
    assert table.column("hostname").to_pylist() == ["www.example.com", None, None, "a.example"]


def test_other_producers_give_pyarrow():
    result = normurl.normalize(Producer(pa.array(URLS)))
    assert isinstance(result, pa.Array) and result.to_pylist() == WHATWG
    assert isinstance(normurl.components(Producer(pa.array(URLS))), pa.StructArray)


def test_polars_gives_polars_with_the_name():
    series = pl.Series("link", URLS)
    result = normurl.normalize(series)
    assert isinstance(result, pl.Series)
    assert (result.name, result.dtype, result.to_list()) == ("link", pl.String, WHATWG)
    df = pl.DataFrame({"link": URLS})
    # Usable in with_columns as it comes.
    out = df.with_columns(normurl.normalize(df["link"], profile="aggressive").alias("norm"))
    assert out["norm"].to_list() == normurl.normalize(URLS, profile="aggressive")
    keys = normurl.key_hash(series)
    assert isinstance(keys, pl.Series) and keys.name == "link" and keys.null_count() == 2
    parts = normurl.components(series)
    assert isinstance(parts, pl.Series) and parts.dtype == pl.Struct and parts.name == "link"
    frame = parts.struct.unnest()
    assert frame.columns == list(normurl.COMPONENTS)
    assert frame["registered_domain"].to_list() == ["example.com", None, None, "a.example"]


def test_polars_categorical():
    series = pl.Series("u", URLS + URLS, dtype=pl.Categorical)
    result = normurl.normalize(series)
    assert result.to_list() == WHATWG + WHATWG and result.name == "u"


@pytest.mark.parametrize(
    "dtype, null",
    [
        (object, None),
        ("string", pd.NA),
        ("string[pyarrow]", pd.NA),
        (pd.ArrowDtype(pa.string()), pd.NA),
        (pd.ArrowDtype(pa.large_string()), pd.NA),
    ],
)
def test_pandas_gives_pandas(dtype, null):
    series = pd.Series(URLS, index=[10, 20, 30, 40], name="url", dtype=dtype)
    result = normurl.normalize(series)
    assert isinstance(result, pd.Series)
    assert list(result.index) == [10, 20, 30, 40] and result.name == "url"
    if dtype is object:
        assert result.dtype == object
    else:
        assert result.dtype == series.dtype
    values = result.tolist()
    assert [v for v in values if isinstance(v, str)] == [w for w in WHATWG if w]
    assert all(pd.isna(v) for v, w in zip(values, WHATWG) if w is None)
    # The assignment users write gives each row its own value.
    df = pd.DataFrame({"url": series})
    df["n"] = normurl.normalize(df["url"], profile="aggressive")
    assert df["n"].iloc[0] == "http://example.com/b?q=1"
    keys = normurl.key_hash(series)
    assert isinstance(keys, pd.Series) and list(keys.index) == [10, 20, 30, 40]
    assert len(keys.iloc[0]) == 16 and pd.isna(keys.iloc[1])
    frame = normurl.components(series)
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(normurl.COMPONENTS)
    assert list(frame.index) == [10, 20, 30, 40]
    assert frame["hostname"].iloc[3] == "a.example" and pd.isna(frame["hostname"].iloc[1])
    assert pd.isna(frame["search"].iloc[3])


def test_pandas_nulls_and_categorical():
    series = pd.Series(["http://A.example/", None, math.nan, "http://A.example/"], name="u")
    assert normurl.normalize(series).tolist() == ["http://a.example/", None, None, "http://a.example/"]
    cat = series.astype("category")
    assert normurl.normalize(cat).tolist() == ["http://a.example/", None, None, "http://a.example/"]
    # The groupby of the docs, with no conversion.
    df = pd.DataFrame({"url": ["http://a.example/x", "http://b.a.example/", "http://c.example/"]})
    counts = normurl.normalize(df["url"], get="registered_domain").value_counts()
    assert counts.to_dict() == {"a.example": 2, "c.example": 1}


def test_pandas_non_strings_are_type_errors():
    with pytest.raises(TypeError, match="expected strings, got int64"):
        normurl.normalize(pd.Series([1, 2]))
    with pytest.raises(TypeError, match="expected strings"):
        normurl.normalize(pd.Series(["http://a/", 3]))


def test_lists_give_lists_with_nan_as_null():
    assert normurl.normalize(["http://A.example/", None, math.nan, pd.NA]) == ["http://a.example/", None, None, None]
    assert normurl.key_hash((math.nan,)) == [None]
    with pytest.raises(TypeError, match=r"urls\[1\]: expected str or None, got int"):
        normurl.normalize(["http://a/", 1])


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view()])
@pytest.mark.parametrize("index", [pa.int8(), pa.int32(), pa.uint32()])
def test_dictionary_inputs(kind, index):
    dense = pa.array(URLS * 3, type=kind)
    dictionary = dense.dictionary_encode().cast(pa.dictionary(index, kind))
    assert normurl.normalize(dictionary).to_pylist() == WHATWG * 3
    assert normurl.key_hash(dictionary).to_pylist() == normurl.key_hash(dense).to_pylist()
    assert normurl.components(dictionary).to_pylist() == normurl.components(dense).to_pylist()
    # The result is the values' string type, decoded.
    assert normurl.normalize(dictionary).type == kind
    # Sliced, and with no values at all.
    assert normurl.normalize(dictionary[2:5]).to_pylist() == (WHATWG * 3)[2:5]
    empty = pa.DictionaryArray.from_arrays(pa.array([None, None], index), pa.array([], kind))
    assert normurl.normalize(empty).to_pylist() == [None, None]


BYTES = [b"http://a.example/caf\xe9", b"http://a.example/caf\xc3\xa9?x=\xff\xfe", None, b"", b"HTTP://B.example/ok"]


@pytest.mark.parametrize("policy", ["percent", "replace", "reject"])
def test_binary_inputs_as_the_command(normurl_bin, tmp_path, policy):
    lines = BYTES + [l.encode() for l in mixed_lines(count=500)]
    path = tmp_path / "lines.txt"
    path.write_bytes(b"".join((l or b"") + b"\n" for l in lines))
    out = run_command(normurl_bin, ["--on-invalid=empty", "--invalid-utf8", policy, str(path)]).stdout
    expected = [l.decode() or None for l in command_lines(out)]
    # Null inputs are the command's blank lines.
    for kind in (pa.binary(), pa.large_binary(), pa.binary_view()):
        got = normurl.normalize(pa.array(lines, type=kind), invalid_utf8=policy)
        assert got.to_pylist() == expected, kind
        assert got.type == {pa.binary(): pa.string(), pa.large_binary(): pa.large_string()}.get(kind, pa.string_view())
    n = normurl.Normalizer(invalid_utf8=policy)
    assert [n.normalize_one(l) for l in lines] == expected
    assert n == pickle.loads(pickle.dumps(n))
    assert pickle.loads(pickle.dumps(n)).normalize(pa.array(lines)).to_pylist() == expected
    # A dictionary of binary values.
    dictionary = pa.array(lines, pa.binary()).dictionary_encode()
    assert normurl.normalize(dictionary, invalid_utf8=policy).to_pylist() == expected


def test_binary_default_is_percent():
    assert normurl.normalize(pa.array([b"http://a.example/caf\xe9"])).to_pylist() == ["http://a.example/caf%E9"]
    with pytest.raises(ValueError, match='--invalid-utf8: unknown policy "lossy"; the policies are: percent, replace, reject'):
        normurl.normalize(pa.array([b"x"]), invalid_utf8="lossy")


@pytest.mark.parametrize(
    "urls, needle",
    [
        (pa.array([1, 2]), "urls: expected strings, got int64"),
        (pa.array([True]), "urls: expected strings, got bool"),
        (pa.array([1.5], pa.float32()), "urls: expected strings, got float"),
        (pl.Series([1, 2]), "urls: expected strings, got int64"),
        (pa.array([b"x"], pa.binary(1)), "urls: expected strings, got fixed_size_binary[1]"),
    ],
)
def test_messages_in_pythons_words(urls, needle):
    with pytest.raises(TypeError) as e:
        normurl.normalize(urls)
    assert str(e.value) == needle


def test_missing_components_are_null(normurl_bin, tmp_path):
    lines = ["http://1.2.3.4/", "mailto:a@b", "http://a.example/?", "http://x.github.io/", "file:///p"]
    path = tmp_path / "lines.txt"
    path.write_text("".join(l + "\n" for l in lines))
    table = normurl.components(pa.array(lines))
    for name in normurl.COMPONENTS:
        out = run_command(normurl_bin, ["--get", name, str(path)]).stdout
        # The command writes an empty line for a component the URL does
        # not have; the Arrow result has a null.
        expected = [l.decode() or None for l in command_lines(out)]
        assert table.field(name).to_pylist() == expected, name
        assert normurl.normalize(pa.array(lines), get=name).to_pylist() == expected, name
    assert table.field("registered_domain").null_count == 3
    assert table.null_count == 0


def test_scalars():
    n = normurl.Normalizer(profile="aggressive")
    assert n.normalize_one(None) is None
    assert n.normalize_one(math.nan) is None
    assert n.normalize_one(b"HTTP://A.example/caf\xe9") == "http://a.example/caf%E9"
    with pytest.raises(TypeError, match="url: expected str, bytes or None, got int"):
        n.normalize_one(3)
    lines = mixed_lines(count=300)
    keys = n.key_hash(lines)
    assert [n.key_hash_one(l) for l in lines] == keys
    assert n.key_hash_one(None) is None
    assert [n.components_one(l) for l in lines] == n.components(lines)
    one = n.components_one("https://www.Example.com:8443/a?q#f")
    assert one["port"] == "8443" and one["username"] is None and list(one) == list(normurl.COMPONENTS)
    assert n.components_one("nope") is None and n.components_one(None) is None
    assert normurl.Normalizer(get="port").normalize_one("http://a.example/") is None


def test_normalizer_equality_and_hash(tmp_path):
    a = normurl.Normalizer(profile="aggressive", strip_params="a,b")
    b = normurl.Normalizer(profile="aggressive", strip_params=["a", "b"])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != normurl.Normalizer(profile="aggressive")
    assert a != normurl.Normalizer(profile="whatwg", strip_params="a,b")
    assert normurl.Normalizer() != normurl.Normalizer(get="surt")
    assert normurl.Normalizer() != "normurl.Normalizer()"
    assert pickle.loads(pickle.dumps(a)) == a
    # A file's text is a setting.
    path = tmp_path / "params.txt"
    path.write_text("x\n")
    first = normurl.Normalizer(strip_params=f"@{path}")
    path.write_text("y\n")
    assert first != normurl.Normalizer(strip_params=f"@{path}")


def test_threads_negative_counts_from_the_cores():
    lines = pa.array(mixed_lines(count=40000))
    one = normurl.normalize(lines, profile="aggressive")
    for threads in (-1, -2, -1000, 2):
        assert normurl.normalize(lines, profile="aggressive", threads=threads).equals(one)
    assert normurl.Normalizer().normalize(lines, threads=-1).equals(normurl.normalize(lines))


def test_get_error_lists_each_name_once():
    with pytest.raises(ValueError) as e:
        normurl.normalize(["http://a/"], get="nope")
    names = str(e.value).split("the forms are: ")[1].split(", ")
    assert len(names) == len(set(names))
    assert set(names) == {"url"} | set(normurl.COMPONENTS)


def test_corpora_through_pandas_equal_pyarrow():
    from conftest import CORPORA

    lines = [l for path in CORPORA for l in read_lines(path)]
    arrow = normurl.normalize(pa.array(lines), profile="aggressive").to_pylist()
    series = pd.Series(lines, dtype=object)
    assert normurl.normalize(series, profile="aggressive").tolist() == arrow


IDN_LINES = ["http://xn--bcher-kva.de/a", "https://BÜCHER.de/", "http://xn--n3h.example/", "http://a.example/", "http://xn--a.example/"]


@pytest.mark.parametrize("form", ["url", "surt"])
@pytest.mark.parametrize("idn", ["ascii", "unicode"])
def test_idn_as_the_command(normurl_bin, tmp_path, idn, form):
    lines = IDN_LINES + mixed_lines(count=300)
    path = tmp_path / "lines.txt"
    path.write_text("".join(l + "\n" for l in lines))
    out = run_command(normurl_bin, ["--on-invalid=empty", "--idn", idn, "--get", form, str(path)]).stdout
    expected = [l.decode() or None for l in command_lines(out)]
    assert normurl.normalize(pa.array(lines), idn=idn, get=form).to_pylist() == expected
    n = normurl.Normalizer(idn=idn, get=form)
    assert [n.normalize_one(l) for l in lines] == expected
    assert pickle.loads(pickle.dumps(n)) == n
    if idn == "unicode" and form == "url":
        assert expected[0] == "http://bücher.de/a"
        assert n != normurl.Normalizer(get=form) and "idn=" in repr(n)


def test_idn_error_is_the_commands():
    with pytest.raises(ValueError, match="--idn: "):
        normurl.Normalizer(idn="punycode")


ENCODED_LINES = [
    "http://a.example/?q=café",
    "http://a.example/?q=日本語&x=☃",
    "https://b.example/path/é?é#é",
    "ws://c.example/?q=é",
    "mailto:x@y?subject=é",
    "?q=é",
    "http://a.example/plain",
]


@pytest.mark.parametrize("label", ["shift_jis", "windows-1252", "EUC-JP", "utf-8"])
@pytest.mark.parametrize("extra", [[], ["--base", "http://base.example/d/"], ["--default-scheme", "https"], ["--profile", "aggressive"]])
def test_query_encoding_as_the_command(normurl_bin, tmp_path, label, extra):
    lines = ENCODED_LINES + mixed_lines(count=200)
    path = tmp_path / "lines.txt"
    path.write_text("".join(l + "\n" for l in lines))
    out = run_command(normurl_bin, ["--on-invalid=empty", "--query-encoding", label, *extra, str(path)]).stdout
    expected = [l.decode() or None for l in command_lines(out)]
    kwargs = {e[2:].replace("-", "_"): v for e, v in zip(extra[::2], extra[1::2])}
    assert normurl.normalize(pa.array(lines), query_encoding=label, **kwargs).to_pylist() == expected
    n = normurl.Normalizer(query_encoding=label, **kwargs)
    assert [n.normalize_one(l) for l in lines] == expected
    assert pickle.loads(pickle.dumps(n)) == n
    if label == "shift_jis" and not extra:
        assert expected[1] == "http://a.example/?q=%93%FA%96{%8C%EA&x=%26%239731%3B"
        assert n != normurl.Normalizer() and 'query_encoding="shift_jis"' in repr(n)


def test_query_encoding_error():
    with pytest.raises(ValueError, match="--query-encoding: "):
        normurl.Normalizer(query_encoding="klingon")
