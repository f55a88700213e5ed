"""normurl's column functions for PySpark: `normalize(col, ...)`,
`get(col, component, ...)`, `key_hash(col, ...)` (also `key`) and
`components(col, ...)` return a `Column` (Spark's Arrow UDFs over
normurl's pyarrow path); `dedup_first(df, col, ...)` keeps the first row
of each distinct URL in input order."""

from typing import Literal, Sequence

from pyspark.sql import Column, DataFrame

from . import (
    AppendEdits,
    Get,
    InvalidUtf8,
    NameList,
    Normalizer,
    ParamEdits,
    Paths,
    Profile,
    Resolve,
    SetEdits,
    StripParams,
    StrPath,
)

__all__ = ["components", "dedup_first", "get", "key", "key_hash", "normalize"]

ColumnOrName = Column | str
"""A column: its name, or a Column."""

def normalize(
    col: ColumnOrName,
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    *,
    keep_params: NameList | None = None,
    index_files: NameList | None = None,
    query_separators: Literal["&", "&;", ";"] | None = None,
    redirects: Paths | None = None,
    param_rules: Paths | None = None,
    rewrite: StrPath | None = None,
    psl: StrPath | None = None,
    invalid_utf8: InvalidUtf8 | None = None,
    idn: Literal["ascii", "unicode"] | None = None,
    query_encoding: str | None = None,
    resolve: Resolve | None = None,
    charset: Column | None = None,
    explain: bool = False,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A string column: the normalized URL, or the form or component
    `get` names; null where the URL is null or invalid. `base` is one URL
    or a Column of one per row, `charset` a Column of one encoding label
    per row; `explain=True` gives a struct of `url` and `rules` (array of
    string)."""

def get(
    col: ColumnOrName,
    component: Get,
    profile: Profile | None = None,
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    *,
    keep_params: NameList | None = None,
    index_files: NameList | None = None,
    query_separators: Literal["&", "&;", ";"] | None = None,
    redirects: Paths | None = None,
    param_rules: Paths | None = None,
    rewrite: StrPath | None = None,
    psl: StrPath | None = None,
    invalid_utf8: InvalidUtf8 | None = None,
    idn: Literal["ascii", "unicode"] | None = None,
    query_encoding: str | None = None,
    resolve: Resolve | None = None,
    charset: Column | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> Column:
    """A string column: `normalize(col, get=component)`, e.g.
    `get("url", "registered_domain")`."""

def key_hash(
    col: ColumnOrName,
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    *,
    keep_params: NameList | None = None,
    index_files: NameList | None = None,
    query_separators: Literal["&", "&;", ";"] | None = None,
    redirects: Paths | None = None,
    param_rules: Paths | None = None,
    rewrite: StrPath | None = None,
    psl: StrPath | None = None,
    invalid_utf8: InvalidUtf8 | None = None,
    idn: Literal["ascii", "unicode"] | None = None,
    query_encoding: str | None = None,
    resolve: Resolve | None = None,
    charset: Column | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A binary column: the 16-byte dedup key of each URL."""

key = key_hash

def components(
    col: ColumnOrName,
    profile: Profile | None = None,
    rules: str | None = None,
    base: str | Column | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    *,
    keep_params: NameList | None = None,
    index_files: NameList | None = None,
    query_separators: Literal["&", "&;", ";"] | None = None,
    redirects: Paths | None = None,
    param_rules: Paths | None = None,
    rewrite: StrPath | None = None,
    psl: StrPath | None = None,
    invalid_utf8: InvalidUtf8 | None = None,
    idn: Literal["ascii", "unicode"] | None = None,
    query_encoding: str | None = None,
    resolve: Resolve | None = None,
    charset: Column | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
    normalizer: Normalizer | None = None,
) -> Column:
    """A struct column with the fields of `normurl.COMPONENTS`."""

def dedup_first(
    df: DataFrame,
    col: ColumnOrName,
    profile: Profile | None = None,
    get: Get = "url",
    *,
    order_by: ColumnOrName | Sequence[ColumnOrName] | None = None,
    on_invalid: Literal["skip", "keep"] = "skip",
    normalizer: Normalizer | None = None,
) -> DataFrame:
    """The first row of `df` for each distinct URL of `col` (or form or
    component, with `get`), in input order (`df`'s row order, or
    `order_by`'s, ties broken by the row order), with `df`'s columns;
    rows without a valid URL dropped (`on_invalid="skip"`) or kept in
    place (`"keep"`)."""
