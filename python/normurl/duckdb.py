"""normurl's functions for DuckDB SQL.

>>> import duckdb, normurl.duckdb
>>> con = normurl.duckdb.register(duckdb.connect())
>>> con.sql("select normurl_normalize('HTTP://www.A.example/?b=1&a=2#f', 'aggressive')").fetchall()
[('http://a.example/?a=2&b=1',)]

`register(con)` adds, as vectorized (Arrow) scalar functions:

- `normurl_normalize(url [, profile])`: the normalized URL (`normurl.normalize`);
- `normurl_get(url, component [, profile])`: one form or component
  (`normalize(get=component)`): `'registered_domain'`, `'hostname'`,
  `'surt'`...;
- `normurl_key(url [, profile])`: the 16-byte dedup key (`normurl.key_hash`)
  as a BLOB.

A NULL or invalid URL gives NULL; a NULL profile is the default one. The
profile and component are usually constants; a column of them works too
(one `Normalizer` per distinct value, kept). A bad profile or component
fails the query with the `Normalizer`'s message.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from . import _native

__all__ = ["register"]

# How many Normalizers `_normalizers` keeps (the oldest goes first).
_KEPT = 64
_normalizers: dict[tuple[str | None, str], _native.Normalizer] = {}


def _normalizer(profile: str | None, get: str) -> _native.Normalizer:
    """The Normalizer of (profile, get), made once and kept."""
    key = (profile, get)
    found = _normalizers.get(key)
    if found is None:
        found = _native.Normalizer(profile=profile, get=get)
        if len(_normalizers) >= _KEPT:
            del _normalizers[next(iter(_normalizers))]
        _normalizers[key] = found
    return found


def _as_arrow(result: Any) -> pa.Array:
    if isinstance(result, pa.Array):
        return result
    if isinstance(result, pa.ChunkedArray):
        return result.combine_chunks()
    return pa.array(result)


def _constant(column: pa.Array | pa.ChunkedArray, what: str) -> tuple[bool, str | None]:
    """Whether every entry of `column` is the same, and that value."""
    if len(column) == 0:
        return True, None
    unique = pc.unique(column)
    if len(unique) == 1:
        value = unique[0].as_py()
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{what}: expected text, got {type(value).__name__}")
        return True, value
    return False, None


def _run(
    urls: pa.Array | pa.ChunkedArray,
    profiles: pa.Array | pa.ChunkedArray | None,
    gets: pa.Array | pa.ChunkedArray | None,
    method: str,
    default_get: str = "url",
) -> pa.Array:
    """`method` of each URL with its row's profile and get: one call for
    the whole vector when they are constant (the usual case), else one
    call per distinct pair, put back in row order."""
    n = len(urls)
    same_profile, profile = (True, None) if profiles is None else _constant(profiles, "profile")
    same_get, get = (True, default_get) if gets is None else _constant(gets, "component")
    if same_profile and same_get:
        normalizer = _normalizer(profile, get if get is not None else default_get)
        return _as_arrow(getattr(normalizer, method)(urls))
    # Rows grouped by (profile, get); each group's results put back where
    # its rows were.
    table = pa.table(
        {
            "profile": profiles if profiles is not None else pa.nulls(n, pa.string()),
            "get": gets if gets is not None else pa.nulls(n, pa.string()),
        }
    ).append_column("row", pa.array(range(n), pa.int64()))
    groups = table.group_by(["profile", "get"], use_threads=False).aggregate([("row", "list")])
    parts, rows = [], []
    for profile, get, indices in zip(
        groups["profile"].to_pylist(), groups["get"].to_pylist(), groups["row_list"].to_pylist()
    ):
        normalizer = _normalizer(profile, get if get is not None else default_get)
        chosen = pa.array(indices, pa.int64())
        parts.append(_as_arrow(getattr(normalizer, method)(pc.take(urls, chosen))))
        rows.append(chosen)
    joined = pa.chunked_array(parts).combine_chunks() if parts else pa.array([], pa.string())
    order = pc.sort_indices(pa.chunked_array(rows).combine_chunks())
    return pc.take(joined, order)


def _keys(result: pa.Array) -> pa.Array:
    """16-byte keys as DuckDB's BLOB (Arrow binary)."""
    return result.cast(pa.binary())


def _normalize(urls: Any, profiles: Any = None) -> pa.Array:
    return _run(urls, profiles, None, "normalize")


def _get(urls: Any, components: Any, profiles: Any = None) -> pa.Array:
    return _run(urls, profiles, components, "normalize")


def _key(urls: Any, profiles: Any = None) -> pa.Array:
    return _keys(_run(urls, profiles, None, "key_hash"))


def register(con: duckdb.DuckDBPyConnection | None = None) -> duckdb.DuckDBPyConnection:
    """Registers `normurl_normalize`, `normurl_get` and `normurl_key` on
    `con` (None: DuckDB's default connection), and returns it.

    The functions are Arrow UDFs (one Python call per vector of rows,
    DuckDB's Arrow UDFs need numpy) under `__normurl_*` names, and macros
    of the public names with the profile optional."""
    if con is None:
        con = duckdb.default_connection()
    varchar, blob = duckdb.sqltypes.VARCHAR, duckdb.sqltypes.BLOB
    functions = [
        ("__normurl_normalize", _normalize, [varchar, varchar], varchar),
        ("__normurl_get", _get, [varchar, varchar, varchar], varchar),
        ("__normurl_key", _key, [varchar, varchar], blob),
    ]
    for name, function, parameters, returns in functions:
        try:
            con.remove_function(name)
        except (duckdb.InvalidInputException, duckdb.CatalogException):
            pass
        con.create_function(
            name,
            function,
            parameters,
            returns,
            type="arrow",
            null_handling="special",
            side_effects=False,
        )
    # Macros give the profile its default (NULL: the Normalizer's).
    con.execute(
        """
        create or replace temp macro normurl_normalize(url) as __normurl_normalize(url, NULL),
            (url, profile) as __normurl_normalize(url, profile);
        create or replace temp macro normurl_get(url, component) as __normurl_get(url, component, NULL),
            (url, component, profile) as __normurl_get(url, component, profile);
        create or replace temp macro normurl_key(url) as __normurl_key(url, NULL),
            (url, profile) as __normurl_key(url, profile);
        """
    )
    return con
