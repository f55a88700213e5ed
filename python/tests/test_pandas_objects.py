"""pandas columns of Python objects (`object`, `string[python]`) without
Arrow (issue 46): `normalize` reads the Series' own `str` objects and
gives a Series of the same index, name and dtype back, each unchanged row
the input's very `str`. The answers are the pyarrow path's and the
command's; anything but str and missing values goes through Arrow as
before."""

import gc
import math
import subprocess
import sys
import tracemalloc

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import normurl
from conftest import CORPORA, PROFILES, command_lines, mixed_lines, read_lines, run_command

# The object dtypes: (dtype, what a null row of the result holds).
DTYPES = [
    pytest.param(object, None, id="object"),
    pytest.param("string[python]", pd.NA, id="string[python]"),
    pytest.param(pd.StringDtype("python", na_value=np.nan), np.nan, id="str[python]-nan"),
]


def corpora_lines():
    return [l for path in CORPORA for l in read_lines(path)]


def arrow_answers(lines, **kwargs):
    """The pyarrow path's answers, None for null."""
    return pa.array(normurl.normalize(pa.array(lines, type=pa.string(), from_pandas=True), **kwargs)).to_pylist()


def as_list(series, null):
    """The rows, with the dtype's null checked and made None."""
    out = []
    for value in series.tolist():
        if isinstance(value, str):
            out.append(value)
            continue
        if null is None:
            assert value is None
        elif null is pd.NA:
            assert value is pd.NA
        else:
            assert isinstance(value, float) and math.isnan(value)
        out.append(None)
    return out


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("dtype, null", DTYPES)
def test_corpora_equal_the_pyarrow_path(profile, dtype, null):
    lines = corpora_lines() + mixed_lines(count=2000)
    expected = arrow_answers(lines, profile=profile)
    series = pd.Series(lines, dtype=dtype)
    got = normurl.normalize(series, profile=profile)
    assert got.dtype == series.dtype
    assert as_list(got, null) == expected
    # Invalid lines are there to be found, not only valid ones.
    assert 0 < expected.count(None) < len(lines)


@pytest.mark.parametrize(
    "get", ["host", "registered_domain", "url_host_registered_domain", "surt", "search", "{query:q}", "{pathname:decoded}"]
)
@pytest.mark.parametrize("dtype, null", DTYPES[:2])
def test_components_equal_the_pyarrow_path(get, dtype, null):
    lines = mixed_lines(count=3000) + ["http://a.example/caf%C3%A9?q=%C3%BC+x"]
    n = normurl.Normalizer(profile="aggressive", get=get)
    expected = arrow_answers(lines, profile="aggressive", get=get)
    got = n.normalize(pd.Series(lines, dtype=dtype))
    assert as_list(got, null) == expected
    assert as_list(normurl.normalize(pd.Series(lines, dtype=dtype), profile="aggressive", get=get), null) == expected


def test_changed_rows_are_the_commands_and_unchanged_rows_the_inputs(normurl_bin):
    lines = corpora_lines()
    series = pd.Series(lines, dtype=object)
    data = "".join(l + "\n" for l in lines).encode("utf-8")
    out = run_command(normurl_bin, ["--on-invalid=empty", "--profile", "aggressive"], data).stdout
    expected = [l.decode("utf-8") or None for l in command_lines(out)]
    n = normurl.Normalizer(profile="aggressive")
    for got in (n.normalize(series), normurl.normalize(series, profile="aggressive")):
        assert got.tolist() == expected
        same = [a is b for a, b in zip(got.tolist(), series.tolist())]
        unchanged = [e == l for e, l in zip(expected, lines)]
        # Every row whose answer is its input is the input's object; the
        # others are new (an equal str cannot be the input's).
        assert same == unchanged
        assert 0 < sum(same) < len(lines)
        assert all(type(v) is str for v in got if v is not None)


@pytest.mark.parametrize("dtype, null", DTYPES)
@pytest.mark.parametrize("at", [0, 2, 5])
def test_nulls_of_every_kind(dtype, null, at):
    urls = ["http://A.example/", "http://b.example/", "nope", "", "http://c.example/x/../y", "http://d.example/"]
    kinds = [None, math.nan, np.float64("nan"), pd.NA, pd.NaT, np.nan]
    expected_base = arrow_answers(urls)
    for kind in kinds:
        # (A string Series holds its own NA, whichever kind it was given.)
        values = list(urls)
        values[at] = kind
        series = pd.Series(values, dtype=dtype)
        expected = list(expected_base)
        expected[at] = None
        got = normurl.normalize(series)
        assert as_list(got, null) == expected, kind
        if dtype is object:
            via_arrow = pa.Array.from_pandas(series)
            assert pa.array(normurl.normalize(via_arrow)).to_pylist() == expected


@pytest.mark.parametrize("dtype, null", DTYPES)
def test_all_null_and_empty_series(dtype, null):
    series = pd.Series([None, None, None], dtype=dtype, index=[3, 2, 1], name="u")
    got = normurl.normalize(series)
    assert as_list(got, null) == [None, None, None]
    assert got.dtype == series.dtype and list(got.index) == [3, 2, 1] and got.name == "u"
    empty = pd.Series([], dtype=dtype, name="e", index=pd.Index([], dtype="int64", name="i"))
    got = normurl.normalize(empty, profile="aggressive")
    assert len(got) == 0 and got.dtype == empty.dtype and got.name == "e"
    assert got.index.equals(empty.index) and got.index.name == "i"


@pytest.mark.parametrize("dtype, null", DTYPES)
def test_index_name_and_dtype_kept(dtype, null):
    index = pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1)], names=["k", "n"])
    series = pd.Series(["HTTP://X.example/", None, "http://x.example/"], index=index, name=("url", 0), dtype=dtype)
    got = normurl.normalize(series)
    assert got.index.equals(index) and got.name == ("url", 0) and got.dtype == series.dtype
    assert as_list(got, null) == ["http://x.example/", None, "http://x.example/"]
    # A column of a DataFrame, assigned back as users write it.
    df = pd.DataFrame({"url": series, "n": [1, 2, 3]}, index=index)
    df["norm"] = normurl.normalize(df["url"], profile="aggressive")
    assert df["norm"].iloc[0] == "http://x.example/" and df["norm"].dtype == series.dtype


def test_strided_and_reversed_views():
    lines = mixed_lines(count=500)
    series = pd.Series(lines, dtype=object)
    for view in (series.iloc[::3], series.iloc[::-1], series.iloc[7:400:5]):
        # A view of the Series' array, not a contiguous copy.
        assert np.asarray(view.array).strides[0] in (24, -8, 40)
        expected = arrow_answers(view.tolist())
        got = normurl.normalize(view)
        assert got.tolist() == expected and got.index.equals(view.index)


def test_threads_and_per_row_arguments():
    lines = mixed_lines(count=40_000)  # over the parallel threshold
    series = pd.Series(lines, dtype=object)
    expected = arrow_answers(lines, profile="aggressive")
    n = normurl.Normalizer(profile="aggressive")
    assert n.normalize(series, threads=2).tolist() == expected
    assert normurl.normalize(series, profile="aggressive", threads=-1).tolist() == expected
    urls = pd.Series(["../a", "b", "http://c.example/", "?q=é", None], dtype="string[python]")
    bases = pd.Series(["http://x.example/p/q", None, "-", "http://y.example/", "http://z.example/"])
    charsets = pd.Series(["utf-8", None, None, "windows-1252", None])
    expected = arrow_answers(urls.tolist(), base=pa.array(bases), charset=pa.array(charsets))
    got = normurl.normalize(urls, base=bases, charset=charsets)
    assert as_list(got, pd.NA) == expected
    assert expected[0] == "http://x.example/a" and expected[3] == "http://y.example/?q=%E9"
    with pytest.raises(ValueError, match="base: 2 values for 5 URLs"):
        normurl.normalize(urls, base=bases[:2])


def test_per_row_arguments_across_blocks():
    """An object column is run in blocks of 65,536 rows, each written while
    the next one runs: every row keeps its own base and place."""
    n = 140_000
    urls = pd.Series([f"p{i}" if i % 7 else None for i in range(n)], dtype=object)
    bases = pd.Series([f"http://h{i}.example/d/" for i in range(n)])
    expected = [f"http://h{i}.example/d/p{i}" if i % 7 else None for i in range(n)]
    for threads in [1, 2]:
        assert normurl.normalize(urls, base=bases, threads=threads).tolist() == expected


def test_edits_and_options_as_the_pyarrow_path():
    lines = mixed_lines(count=2000)
    kwargs = dict(
        profile="aggressive",
        set={"scheme": "https"},
        delete_params="utm_*",
        query_encoding="windows-1252",
        idn="unicode",
    )
    assert normurl.normalize(pd.Series(lines, dtype=object), **kwargs).tolist() == arrow_answers(lines, **kwargs)


def test_non_strings_go_through_arrow_as_before():
    # The message of the pyarrow path (pyarrow's words after the column's).
    for values, detail in [
        (["http://a.example/", 3], "Expected bytes, got a 'int' object"),
        (["http://a.example/", None, 1.5], "Expected bytes, got a 'float' object"),
        (["http://a.example/", np.float32("nan")], "Expected bytes, got a 'numpy.float32' object"),
    ]:
        with pytest.raises(TypeError) as e:
            normurl.normalize(pd.Series(values, dtype=object))
        assert str(e.value) == f"urls: expected strings, got a pandas column of object: {detail}"
    # Bytes are a binary column, with invalid_utf8 as the command's.
    values = pd.Series([b"http://A.example/\xff", "http://b.example/", None], dtype=object)
    for policy in ["percent", "replace", "reject"]:
        expected = pa.array(normurl.normalize(pa.array([b"http://A.example/\xff", b"http://b.example/", None]), invalid_utf8=policy))
        assert normurl.normalize(values, invalid_utf8=policy).tolist() == expected.to_pylist()
    assert normurl.normalize(values).tolist()[0] == "http://a.example/%FF"
    # key_hash, components and explain stay on the Arrow path.
    series = pd.Series(["http://A.example/#f", None], dtype=object)
    assert normurl.key_hash(series).tolist()[0] == normurl.Normalizer().key_hash_one("http://a.example/#f")
    frame = normurl.normalize(series, profile="aggressive", explain=True)
    assert frame["url"].tolist() == ["http://a.example/", None]
    assert frame["rules"].tolist()[0] == ["drop-fragment"]


def test_strings_that_are_not_unicode_and_subclasses():
    # A lone surrogate cannot be UTF-8 (no line of the command holds
    # one): null, as in a list.
    series = pd.Series(["http://a.example/\ud800", "http://b.example/"], dtype=object)
    assert normurl.normalize(series).tolist() == [None, "http://b.example/"]
    assert normurl.normalize(series.tolist()) == [None, "http://b.example/"]
    # A str subclass is read as its text; the answer is a plain str.
    sub = pd.Series([np.str_("http://a.example/"), np.str_("HTTP://B.example")], dtype=object)
    got = normurl.normalize(sub).tolist()
    assert got == ["http://a.example/", "http://b.example/"]
    assert all(type(v) is str for v in got)
    # Non-ASCII rows, read from Python's UTF-8 form.
    uni = pd.Series(["http://bücher.de/straße?x=ü", "http://例え.テスト/パス"], dtype=object)
    assert normurl.normalize(uni).tolist() == arrow_answers(uni.tolist())


def test_references_are_balanced():
    # Strings made at run time, so that their counts are ours alone.
    lines = [f"http://a{i}.example/{'x' if i % 2 else 'Y/../z'}" for i in range(2000)] + [None]
    series = pd.Series(lines, dtype=object)
    probe = [series.iloc[0], series.iloc[1]]  # changed, unchanged
    before = [sys.getrefcount(p) for p in probe]
    null_before = sys.getrefcount(None)
    result = normurl.normalize(series)
    assert result.iloc[1] is probe[1] and result.iloc[0] is not probe[0]
    # The unchanged row's str is referenced by the result too.
    assert sys.getrefcount(probe[1]) == before[1] + 1
    assert sys.getrefcount(probe[0]) == before[0]
    del result
    gc.collect()
    assert [sys.getrefcount(p) for p in probe] == before
    # The result's array starts as None in every row, each replaced (and
    # released); a leak would be a reference a row. (None is immortal from
    # Python 3.12, its count then fixed.)
    assert abs(sys.getrefcount(None) - null_before) < len(lines) // 2


def test_memory_stays_flat_over_repeated_calls():
    series = pd.Series(mixed_lines(count=5000), dtype="string[python]")
    n = normurl.Normalizer(profile="aggressive")
    for _ in range(3):
        n.normalize(series)
    gc.collect()
    tracemalloc.start()
    try:
        first = None
        for i in range(30):
            n.normalize(series)
            gc.collect()
            current, _ = tracemalloc.get_traced_memory()
            if i == 4:
                first = current
        # A leak of one str per row would be 5,000 objects a call.
        assert current - first < 64 * 1024, (first, current)
    finally:
        tracemalloc.stop()


def test_private_column_type_checks_its_argument():
    from normurl._native import _ObjectColumn

    with pytest.raises(TypeError, match="one-dimensional numpy array of dtype object"):
        _ObjectColumn(np.array(["a"]), None)
    with pytest.raises(TypeError, match="one-dimensional numpy array of dtype object"):
        _ObjectColumn(np.empty((2, 2), dtype=object), None)
    with pytest.raises(TypeError, match="one-dimensional numpy array of dtype object"):
        _ObjectColumn(["a"], None)
    with pytest.raises(TypeError, match="normalize without explain only"):
        normurl.key_hash(_ObjectColumn(np.array(["a"], dtype=object), None))


def test_without_pyarrow():
    # The object path needs no pyarrow.
    code = (
        "import sys\n"
        "class NoPyarrow:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] == 'pyarrow':\n"
        "            raise ImportError('no pyarrow here')\n"
        "sys.meta_path.insert(0, NoPyarrow())\n"
        "import pandas as pd, normurl\n"
        "s = pd.Series(['HTTP://A.example/', None, 'http://b.example/'], dtype='string[python]', name='u')\n"
        "r = normurl.normalize(s)\n"
        "assert 'pyarrow' not in sys.modules\n"
        "print(r.dtype, r.name, r.tolist())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "string u ['http://a.example/', <NA>, 'http://b.example/']"
