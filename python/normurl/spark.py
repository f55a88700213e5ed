"""normurl's column functions for PySpark.

>>> import normurl.spark as ns
>>> df = spark.createDataFrame([("HTTP://www.A.example/x/../?b=1&a=2#f",), ("nope",)], "url string")
>>> df.select(ns.normalize("url", profile="aggressive").alias("canonical")).collect()
[Row(canonical='http://a.example/?a=2&b=1'), Row(canonical=None)]

Each function takes a column (a name or a `Column`) and the arguments of
`normurl.Normalizer`, and returns a `Column`:

- `normalize(col, profile=..., get=...)`: the normalized URL (string);
- `get(col, component, profile=...)`: one form or component, e.g.
  `get("url", "registered_domain")` (string);
- `key_hash(col, profile=...)` (also `key`): the 16-byte dedup key
  (binary);
- `components(col, profile=...)`: a struct of the fields of
  `normurl.COMPONENTS` (strings); `select("c.*")` makes them columns.

A null or invalid URL gives null. The arguments are checked when the
column is made (a bad profile is the `ValueError` of `normurl.Normalizer`
there, before any Spark job). The functions are Spark's Arrow UDFs
(`pyspark.sql.functions.arrow_udf`, PySpark 4.1 and later): rows cross to
the Python worker as Arrow batches and normurl's pyarrow path runs on each
batch, with no conversion per row. The Normalizer travels pickled with
the function (its settings, with the text of any file they name).

`dedup_first(df, col, profile=...)` keeps the first row of each distinct
URL (the command's `--dedup`) in input order: the DataFrame's own row
order (`monotonically_increasing_id`: partition by partition, as
`collect()` gives it), or the order of `order_by` columns, ties broken by
that row order.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyspark
    from pyspark.sql import Column, DataFrame, Window
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
except ImportError as error:
    raise ImportError(
        f"normurl.spark needs PySpark 4.1 or later and pyarrow (pip install pyspark pyarrow): {error}"
    ) from error

if not hasattr(F, "arrow_udf"):
    raise ImportError(
        f"normurl.spark needs PySpark 4.1 or later (for pyspark.sql.functions.arrow_udf); "
        f"this is PySpark {pyspark.__version__}"
    )

from . import COMPONENTS, Normalizer

__all__ = ["components", "dedup_first", "get", "key", "key_hash", "normalize"]

ColumnOrName = Column | str

_STRING = T.StringType()
_BINARY = T.BinaryType()
_COMPONENTS = T.StructType([T.StructField(name, _STRING) for name in COMPONENTS])
_EXPLAINED = T.StructType(
    [T.StructField("url", _STRING), T.StructField("rules", T.ArrayType(_STRING))]
)


def _column(col: Any, what: str) -> Column:
    """`col` as a Column: a name, or a Column already."""
    if isinstance(col, str):
        return F.col(col)
    if isinstance(col, Column):
        return col
    raise TypeError(f"{what}: expected a column name (str) or a Column, got {type(col).__name__}")


def _per_row(
    base: Any, charset: Any, default_scheme: Any
) -> tuple[str | None, Column | None, Column | None]:
    """`base` as one URL (str) or a Column of one per row, and the
    `charset` Column; `default_scheme` with a Column of bases is refused
    here, when the column is made, as the package refuses it."""
    if default_scheme is not None and isinstance(base, Column):
        raise ValueError(
            "default_scheme: cannot be used with base (with a base, an input without a scheme "
            "is a relative reference)"
        )
    if charset is not None and not isinstance(charset, Column):
        raise TypeError(
            f"charset: expected a Column of one encoding label per row, got {type(charset).__name__} "
            "(one encoding for every URL is query_encoding=)"
        )
    if base is None or isinstance(base, str):
        return base, None, charset
    if isinstance(base, Column):
        return None, base, charset
    raise TypeError(f"base: expected one URL (str) or a Column of one per row, got {type(base).__name__}")


def _normalizer(given: Any, arguments: dict[str, Any]) -> Normalizer:
    """`given`, or the Normalizer of `arguments` (which raises on a bad
    one, now)."""
    if given is None:
        return Normalizer(**arguments)
    if not isinstance(given, Normalizer):
        raise TypeError(f"normalizer: expected a normurl.Normalizer, got {type(given).__name__}")
    defaults = {"get": "url"}
    extra = sorted(k for k, v in arguments.items() if v is not None and v != defaults.get(k))
    if extra:
        raise TypeError(f"normalizer: give either a Normalizer or its arguments, not both ({', '.join(extra)})")
    return given


def _apply(
    name: str,
    work: Callable[..., Any],
    returns: T.DataType,
    col: ColumnOrName,
    base: Column | None,
    charset: Column | None,
) -> Column:
    """The Arrow UDF `name` running `work(urls, base=, charset=)` on each
    batch, applied to `col` (and the per-row `base` and `charset`
    columns, which are more inputs of the same UDF)."""
    url_column = _column(col, "col")
    inputs = [url_column]
    names = []
    for what, column in (("base", base), ("charset", charset)):
        if column is not None:
            inputs.append(column)
            names.append(what)

    # Spark hands each batch's columns over as pyarrow Arrays, and
    # normurl gives pyarrow Arrays back (type hints: a scalar Arrow UDF).
    def run(urls: pa.Array, *rows: pa.Array) -> pa.Array:
        return work(urls, **dict(zip(names, rows)))

    run.__name__ = run.__qualname__ = name
    return F.arrow_udf(run, returns)(*inputs)


def _keys(result: pa.Array) -> pa.Array:
    """16-byte keys (fixed_size_binary) as Spark's binary."""
    return result.cast(pa.binary())


def _dedup_keys(normalizer: Normalizer, urls: pa.Array) -> pa.Array:
    """The key of each URL for dedup_first: `key_hash`, null for an
    invalid URL, and the empty binary (no 16-byte key is) for a valid URL
    without the component `get` names, which the command's `--dedup -g`
    keys as the empty value."""
    keys = _keys(normalizer.key_hash(urls))
    if keys.null_count == 0:
        return keys
    missing = keys.is_null()
    # The rows without a key that have a URL: their components are not
    # null (the components of an invalid URL are).
    has_url = normalizer.components(urls.filter(missing)).is_valid()
    empty = pc.sum(has_url).as_py() or 0
    if empty == 0:
        return keys
    mask = pc.replace_with_mask(missing, missing, has_url)
    return pc.replace_with_mask(keys, mask, pa.array([b""] * empty, pa.binary()))


def normalize(
    col: ColumnOrName,
    profile: str | None = None,
    get: str = "url",
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: Any = None,
    *,
    keep_params: Any = None,
    index_files: Any = None,
    query_separators: str | None = None,
    redirects: Any = None,
    param_rules: Any = None,
    rewrite: Any = None,
    psl: Any = None,
    invalid_utf8: str | None = None,
    idn: str | None = None,
    query_encoding: str | None = None,
    resolve: str | None = None,
    charset: Column | None = None,
    explain: bool = False,
    set: Any = None,
    append: Any = None,
    set_params: Any = None,
    delete_params: Any = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A string column: the normalized form of each URL of `col`
    (`normurl.normalize`), or the form or component `get` names; null
    where the URL is null or invalid.

    `base` is one URL (the command's --base) or a Column of one per row
    (--base-field); `charset` a Column of one encoding label per row
    (--charset-field). `explain=True` gives a struct of `url` and `rules`
    (an array of the names of what fired, the command's --explain).
    `normalizer=` uses a `normurl.Normalizer` already made (then give no
    other argument but the `base` and `charset` columns)."""
    base, base_column, charset = _per_row(base, charset, default_scheme)
    n = _normalizer(normalizer, _arguments(locals()))
    if explain:
        return _apply(
            "normurl_explain",
            lambda urls, **rows: n.normalize(urls, explain=True, **rows),
            _EXPLAINED,
            col,
            base_column,
            charset,
        )
    name = "normurl_normalize" if get == "url" else "normurl_get"
    return _apply(name, n.normalize, _STRING, col, base_column, charset)


def get(
    col: ColumnOrName,
    component: str,
    profile: str | None = None,
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: Any = None,
    *,
    keep_params: Any = None,
    index_files: Any = None,
    query_separators: str | None = None,
    redirects: Any = None,
    param_rules: Any = None,
    rewrite: Any = None,
    psl: Any = None,
    invalid_utf8: str | None = None,
    idn: str | None = None,
    query_encoding: str | None = None,
    resolve: str | None = None,
    charset: Column | None = None,
    set: Any = None,
    append: Any = None,
    set_params: Any = None,
    delete_params: Any = None,
) -> Column:
    """A string column: one form or component of each URL,
    `normalize(col, get=component)`: `get("url", "registered_domain")`,
    `get("url", "hostname")`, `get("url", "surt")`, or a template of the
    command's --get (`"{query:utm_source}"`). Null where the URL is
    invalid or has no such component."""
    arguments = {k: v for k, v in locals().items() if k not in ("col", "component")}
    return normalize(col, get=component, **arguments)


def key_hash(
    col: ColumnOrName,
    profile: str | None = None,
    get: str = "url",
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: Any = None,
    *,
    keep_params: Any = None,
    index_files: Any = None,
    query_separators: str | None = None,
    redirects: Any = None,
    param_rules: Any = None,
    rewrite: Any = None,
    psl: Any = None,
    invalid_utf8: str | None = None,
    idn: str | None = None,
    query_encoding: str | None = None,
    resolve: str | None = None,
    charset: Column | None = None,
    set: Any = None,
    append: Any = None,
    set_params: Any = None,
    delete_params: Any = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A binary column: the 16-byte dedup key of each URL
    (`normurl.key_hash`, the key the command's --dedup compares); null
    where the URL is null or invalid."""
    base, base_column, charset = _per_row(base, charset, default_scheme)
    n = _normalizer(normalizer, _arguments(locals()))
    return _apply(
        "normurl_key_hash", lambda urls, **rows: _keys(n.key_hash(urls, **rows)), _BINARY, col, base_column, charset
    )


key = key_hash


def components(
    col: ColumnOrName,
    profile: str | None = None,
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: Any = None,
    *,
    keep_params: Any = None,
    index_files: Any = None,
    query_separators: str | None = None,
    redirects: Any = None,
    param_rules: Any = None,
    rewrite: Any = None,
    psl: Any = None,
    invalid_utf8: str | None = None,
    idn: str | None = None,
    query_encoding: str | None = None,
    resolve: str | None = None,
    charset: Column | None = None,
    set: Any = None,
    append: Any = None,
    set_params: Any = None,
    delete_params: Any = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A struct column with the fields of `normurl.COMPONENTS` (strings;
    null for a component the URL does not have); null where the URL is
    null or invalid. `df.select(components("url").alias("c")).select("c.*")`
    makes them columns."""
    base, base_column, charset = _per_row(base, charset, default_scheme)
    n = _normalizer(normalizer, _arguments(locals()))
    # A rewrite file whose tests fail on URLs fails here, not in the job.
    n.components([])
    return _apply("normurl_components", n.components, _COMPONENTS, col, base_column, charset)


# Helper columns of dedup_first, dropped from its result.
_KEY, _ROW, _FIRST = "__normurl_key", "__normurl_row", "__normurl_first"


def dedup_first(
    df: DataFrame,
    col: ColumnOrName,
    profile: str | None = None,
    get: str = "url",
    *,
    order_by: ColumnOrName | Sequence[ColumnOrName] | None = None,
    on_invalid: str = "skip",
    normalizer: Normalizer | None = None,
) -> DataFrame:
    """The first row of `df` for each distinct URL of `col` (the same
    `key_hash`), in input order, with `df`'s columns: the command's
    `--dedup`. With `get` (or a `normalizer` made with one), the first row
    of each distinct form or component: `get="registered_domain"` keeps
    a row per site, as `--dedup -g registered_domain`, the URLs without
    one (IP addresses...) sharing the empty value.

    Input order is `df`'s own row order, as `df.collect()` gives it
    (partition by partition, `monotonically_increasing_id`), or the order
    of the `order_by` columns, ties broken by that row order; each is
    taken from `df` before any shuffle. For several files read at once,
    Spark's partitions are not in the order of the files' names:
    `order_by=F.input_file_name()` gives the command's order over the
    files sorted by name. Rows whose URL is null or invalid are dropped
    (`on_invalid="skip"`, `--on-invalid=skip`) or all kept in their place
    (`on_invalid="keep"`, the command's default)."""
    if on_invalid not in ("skip", "keep"):
        raise ValueError(f'on_invalid: expected "skip" or "keep", got {on_invalid!r}')
    if not isinstance(df, DataFrame):
        raise TypeError(f"df: expected a pyspark DataFrame, got {type(df).__name__}")
    n = _normalizer(normalizer, {"profile": profile, "get": get})
    if order_by is None:
        order_by = []
    elif isinstance(order_by, (str, Column)):
        order_by = [order_by]
    order_names = [f"__normurl_order{i}" for i in range(len(order_by))]
    helpers = [*order_names, _ROW, _KEY, _FIRST]
    taken = [c for c in helpers if c in df.columns]
    if taken:
        raise ValueError(f"dedup_first: df has a column named {taken[0]}, a name it uses for itself")
    # The order columns, then the row position, evaluated on df itself
    # (input_file_name() and the partition ids are the read's, not a
    # shuffle's).
    keyed = df.select(
        "*",
        *[_column(c, "order_by").alias(name) for c, name in zip(order_by, order_names)],
        F.monotonically_increasing_id().alias(_ROW),
        _apply("normurl_dedup_key", lambda urls: _dedup_keys(n, urls), _BINARY, col, None, None).alias(_KEY),
    )
    order = [*order_names, _ROW]
    if on_invalid == "skip":
        keyed = keyed.where(F.col(_KEY).isNotNull())
        groups = [F.col(_KEY)]
    else:
        # Each row without a key is a group of its own.
        groups = [F.col(_KEY), F.when(F.col(_KEY).isNull(), F.col(_ROW))]
    first = Window.partitionBy(*groups).orderBy(*order)
    return (
        keyed.withColumn(_FIRST, F.row_number().over(first))
        .where(F.col(_FIRST) == 1)
        .orderBy(*order)
        .drop(*helpers)
    )


# The Normalizer's arguments that the column functions take by the same
# names (`components` has no `get`: its Normalizer's is the default).
_ARGUMENTS = (
    "profile", "get", "rules", "base", "query_encoding", "resolve", "default_scheme",
    "strip_params", "keep_params", "index_files", "query_separators", "redirects",
    "param_rules", "rewrite", "psl", "invalid_utf8", "idn", "set", "append", "set_params",
    "delete_params",
)


def _arguments(given: dict[str, Any]) -> dict[str, Any]:
    """The Normalizer's arguments among a function's locals (`base` by
    then the scalar one: a base column goes to the UDF as an input)."""
    return {name: given[name] for name in _ARGUMENTS if name in given}
