"""The caller's types in and out.

The native functions take an Arrow column (any object with the Arrow
PyCapsule interface) or a list, and give a `normurl.Array` or a list.
`call` hands them the caller's column and gives back the caller's type:

- a pyarrow Array gives a pyarrow Array (a StructArray for components),
  a ChunkedArray a ChunkedArray (a Table for components);
- a Polars Series gives a Polars Series of the same name (a struct Series
  for components);
- a pandas Series (object, `string`, ArrowDtype or categorical; None, NaN
  and NA are null) gives a pandas Series with its index and name, of the
  input's kind of dtype (a DataFrame for components);
- a list or tuple gives a list;
- any other Arrow producer (DuckDB...) gives pyarrow when it can be
  imported, else the `normurl.Array`.

Each conversion is a call of pyarrow, Polars or pandas on the whole
column (zero-copy where the types allow): no Python work per row. A
library is imported only when the input came from it (pyarrow for
pandas, which converts through Arrow). `normalize` of a pandas column of
Python objects (`object`, `string[python]`) skips Arrow: the native
module reads the Series' numpy array of `str` and gives one back (see
`_objects`).
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Literal

Kind = Literal["strings", "keys", "struct", "explain"]
"""What the native function returns: strings (normalize), 16-byte keys
(key_hash), a struct of strings (components), or the struct of a string
and a list of strings (normalize with explain=True)."""


def _pyarrow() -> Any:
    """pyarrow if it can be imported, else None."""
    try:
        import pyarrow
    except ImportError:
        return None
    return pyarrow


def _root(obj: object) -> str:
    return (type(obj).__module__ or "").split(".", 1)[0]


def column(values: Any) -> Any:
    """A per-row argument (`base=`, `charset=`) as the native module takes
    it: a pandas Series through pyarrow (or a list without it), a numpy
    array as a list; Arrow producers, Polars Series and lists as they are.
    Rows are matched by position, as the URLs' (not by a pandas index)."""
    root = _root(values)
    name = type(values).__name__
    if root == "pandas" and name == "Series":
        pa = _pyarrow()
        if pa is None:
            return values.tolist()
        try:
            return pa.Array.from_pandas(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
            raise TypeError(f"expected strings, got a pandas column of {values.dtype}: {e}") from None
    if root == "numpy" and name == "ndarray":
        return values.tolist()
    return values


def call(native: Callable[[Any], Any], urls: Any, kind: Kind) -> Any:
    """`native(urls)` with the input and the result in the caller's types."""
    if isinstance(urls, (list, tuple)):
        return native(urls)
    root = _root(urls)
    name = type(urls).__name__
    if root == "pandas" and name == "Series":
        return _pandas(native, urls, kind)
    if root == "polars" and name == "Series":
        return _polars(native(urls), urls.name, kind)
    if root == "pyarrow" and "pyarrow" in sys.modules:
        pa = sys.modules["pyarrow"]
        if isinstance(urls, pa.ChunkedArray):
            result = pa.array(native(urls))
            if kind in ("struct", "explain"):
                return pa.Table.from_struct_array(result)
            return pa.chunked_array([result], type=result.type)
        if isinstance(urls, pa.Array):
            return pa.array(native(urls))
    result = native(urls)
    if hasattr(urls, "__arrow_c_array__") or hasattr(urls, "__arrow_c_stream__"):
        pa = _pyarrow()
        if pa is not None:
            return pa.array(result)
    return result


def _polars(result: Any, name: str, kind: Kind) -> Any:
    import polars as pl

    return pl.Series(result).alias(name)


def _pandas(native: Callable[[Any], Any], series: Any, kind: Kind) -> Any:
    import pandas as pd

    if kind == "strings":
        out = _objects(native, series, pd)
        if out is not None:
            return out
    pa = _pyarrow()
    if pa is None:
        # Without pyarrow: through a list (None and NaN are null there).
        values = native(series.tolist())
        if kind == "explain":
            return pd.DataFrame.from_records(values, index=series.index, columns=["url", "rules"])
        if kind == "struct":
            rows = [row if row is not None else {} for row in values]
            frame = pd.DataFrame.from_records(rows, index=series.index, columns=_components())
            return frame.astype(object).where(frame.notna(), None)
        return pd.Series(values, index=series.index, name=series.name, dtype=object)
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        # A dictionary column in; the result has the categories' kind.
        dtype = dtype.categories.dtype
    try:
        column = pa.Array.from_pandas(series)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        raise TypeError(f"urls: expected strings, got a pandas column of {series.dtype}: {e}") from None
    result = pa.array(native(column))
    if kind in ("struct", "explain"):
        table = pa.Table.from_struct_array(result)
        frame = table.to_pandas(types_mapper=_mapper(pd, pa, dtype))
        frame.index = series.index
        if kind == "explain" and frame["rules"].dtype == object:
            # pandas makes a list column numpy arrays; lists as a list
            # input gives (None where the row has no URL).
            frame["rules"] = pd.Series(table.column("rules").to_pylist(), index=series.index, dtype=object)
        return frame
    out = result.to_pandas(types_mapper=_mapper(pd, pa, dtype))
    out.index = series.index
    out.name = series.name
    return out


def _objects(native: Callable[[Any], Any], series: Any, pd: Any) -> Any:
    """`normalize` of an `object` or `string[python]` Series without
    Arrow: the native module takes the Series' own numpy array of objects
    (no copy) and gives a numpy array of the answers, each unchanged row
    the input's own `str`, each null row None (`object`) or the dtype's
    NA. None when the Series is of another dtype, or holds anything but
    str and missing values (None, NaN, NA, NaT): the caller then goes
    through Arrow as before (bytes as binary; other objects rejected)."""
    dtype = series.dtype
    if dtype == object:
        null = None
    elif isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
        null = dtype.na_value
    else:
        return None
    import numpy as np

    from ._native import _ObjectColumn

    values = native(_ObjectColumn(np.asarray(series.array), null))
    if values is None:
        return None
    if dtype == object:
        return pd.Series(values, index=series.index, name=series.name, dtype=object, copy=False)
    # The input's own array type and dtype (NA included) around the array,
    # without the constructor's checks of every row (they are str or the
    # dtype's NA by construction); the public constructor where pandas
    # lacks that method.
    array = series.array
    try:
        result = array._from_backing_data(values)
    except AttributeError:
        result = type(array)(values)
    return pd.Series(result, index=series.index, name=series.name, copy=False)


def _mapper(pd: Any, pa: Any, dtype: Any) -> Callable[[Any], Any]:
    """The pandas dtype of a result column of Arrow type `t` for an input
    of pandas dtype `dtype`: ArrowDtype for ArrowDtype; the input's own
    string dtype for strings of a `string` input (its storage and NA);
    else (object) object."""
    arrow_backed = isinstance(dtype, pd.ArrowDtype) or (
        isinstance(dtype, pd.StringDtype) and dtype.storage.startswith("pyarrow")
    )

    def mapper(t: Any) -> Any:
        if isinstance(dtype, pd.ArrowDtype):
            return pd.ArrowDtype(t)
        if isinstance(dtype, pd.StringDtype) and (pa.types.is_string(t) or pa.types.is_large_string(t)):
            return dtype
        if arrow_backed:
            return pd.ArrowDtype(t)
        return None

    return mapper


def _components() -> list[str]:
    from ._native import COMPONENTS

    return list(COMPONENTS)
