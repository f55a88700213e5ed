"""normurl's functions for DuckDB SQL: `register(con)` adds
`normurl_normalize(url [, profile])`, `normurl_get(url, component
[, profile])` and `normurl_key(url [, profile])`."""

import duckdb

__all__ = ["register"]

def register(con: duckdb.DuckDBPyConnection | None = None) -> duckdb.DuckDBPyConnection:
    """Registers the functions on `con` (None: DuckDB's default
    connection) and returns it."""
