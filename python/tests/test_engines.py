"""The Polars and DuckDB recipes of docs/python.md, with exact answers."""

import duckdb
import polars as pl
import pyarrow as pa

import normurl

URLS = ["HTTP://www.A.example/x/../?b=1&a=2#f", None, "nope", "https://b.example/%7e?utm_source=z"]
AGGRESSIVE = ["http://a.example/?a=2&b=1", None, None, "https://b.example/~"]


def test_polars_map_batches_string_view():
    seen = []

    def normalize(urls: pl.Series) -> pl.Series:
        seen.append(pa.chunked_array(urls).type)
        return pl.Series(normurl.normalize(urls, profile="aggressive"))

    df = pl.DataFrame({"url": URLS})
    out = df.with_columns(
        pl.col("url").map_batches(normalize, return_dtype=pl.String).alias("canonical")
    )
    assert out["canonical"].to_list() == AGGRESSIVE
    assert out["url"].to_list() == URLS
    # Polars hands its strings over as string_view, and gets string_view
    # back (no conversion either way).
    assert seen == [pa.string_view()]
    # A Polars Series in, a Polars Series of the same name out.
    result = normurl.normalize(df["url"])
    assert isinstance(result, pl.Series) and result.name == "url" and result.dtype == pl.String


def test_polars_components_unnest():
    df = pl.DataFrame({"url": URLS})
    parts = df.select(
        pl.col("url")
        .map_batches(lambda s: pl.Series(normurl.components(s)), return_dtype=None)
        .alias("c")
    ).unnest("c")
    assert parts.columns == list(normurl.COMPONENTS)
    assert parts["hostname"].to_list() == ["www.a.example", None, None, "b.example"]
    # The SURT is the CDX key (the wayback profile, which drops www.), as
    # normalize(get="surt") without a profile.
    assert parts["surt"].to_list()[0] == "example,a)/?a=2&b=1"


def test_polars_key_hash_dedup_keeps_first_lines():
    urls = ["http://a.example/", "HTTP://A.example", "nope", "http://b.example/", "nope", "http://a.example/#x"]
    df = pl.DataFrame({"url": urls}).with_row_index("pos")
    df = df.with_columns(
        pl.col("url").map_batches(lambda s: pl.Series(normurl.key_hash(s, profile="aggressive")), return_dtype=pl.Binary).alias("key")
    )
    kept = df.filter(pl.col("key").is_not_null()).unique("key", keep="first", maintain_order=True)
    assert kept["url"].to_list() == ["http://a.example/", "http://b.example/"]


def test_duckdb_arrow_udf_with_nulls():
    con = duckdb.connect()
    con.create_function(
        "normurl",
        lambda urls: pa.array(normurl.normalize(urls, profile="aggressive")),
        [duckdb.sqltypes.VARCHAR],
        duckdb.sqltypes.VARCHAR,
        type="arrow",
        null_handling="special",
    )
    con.execute("create table t as select * from (values (1, ?), (2, ?), (3, ?), (4, ?)) v(i, url)", URLS)
    rows = con.sql("select normurl(url) from t order by i").fetchall()
    assert [r[0] for r in rows] == AGGRESSIVE
    # Invalid URLs are NULL, so SQL can count or drop them.
    assert con.execute("select count(*) from t where normurl(url) is null").fetchall() == [(2,)]


def test_duckdb_query_result_through_arrow():
    con = duckdb.connect()
    table = con.sql("select * from (values ('HTTP://X.example/a/./b'), (NULL)) v(url)").to_arrow_table()
    result = pa.array(normurl.normalize(table["url"]))
    assert result.to_pylist() == ["http://x.example/a/b", None]
