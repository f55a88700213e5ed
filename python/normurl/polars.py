"""The `normurl` expression namespace of Polars, registered on import.

>>> import polars as pl
>>> import normurl.polars  # registers `Expr.normurl`
>>> df = pl.DataFrame({"url": ["HTTP://www.A.example/x/../?b=1&a=2#f", "nope"]})
>>> df.select(pl.col("url").normurl.normalize(profile="aggressive"))["url"].to_list()
['http://a.example/?a=2&b=1', None]

Each method is an expression plugin of the native module: Polars' engine
calls normurl's compiled code on each batch, with no Python call, in eager,
lazy and streaming queries, inside `group_by`, `over` and `unique(subset=)`.
The methods take the arguments of `normurl.Normalizer` (the edits `set`,
`append`, `set_params`, `delete_params` included) and check them when
the expression is made (a bad profile is a `ValueError` there, not when the
query runs). The configuration is built once per process for each distinct
expression, not once per batch.

Results are Polars' own types: `normalize` and `get` a String column,
`key_hash` a Binary column of 16-byte keys, `components` a Struct with the
fields of `normurl.COMPONENTS`. A null or invalid URL gives null. The input
must be a String column (or Null); cast a Categorical first
(`pl.col("url").cast(pl.String)`).

`base` is one URL (a str, the command's `--base`) or an expression of one
base per row (`base=pl.col("referrer")`, the command's `--base-field`);
`charset=pl.col("charset")` is one encoding label per row (the command's
`--charset-field`). Those columns are more inputs of the same plugin call,
so the query stays in Polars' engine. `normalize(explain=True)` gives a
Struct of `url` and `rules` (a List of the rules that fired).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
from polars.plugins import register_plugin_function

from . import _native

__all__ = ["NormurlExpr"]

# The plugin functions are in the native module itself.
_LIBRARY = Path(_native.__file__)


def _settings(normalizer: _native.Normalizer) -> dict[str, Any]:
    """The plugin's kwargs: the normalizer's pickle state (its arguments,
    with the text of every file they name)."""
    _, state = normalizer.__reduce__()
    plain, rules, _reprs, psl, _policy, idn, query_encoding, resolve, edits = state[:9]
    return {
        "plain": plain,
        "state": rules,
        "psl": psl,
        "idn": idn,
        "query_encoding": query_encoding,
        "resolve": resolve,
        "edits": edits,
    }


def _call(
    expr: pl.Expr,
    function: str,
    normalizer: _native.Normalizer,
    base: pl.Expr | None = None,
    charset: pl.Expr | None = None,
) -> pl.Expr:
    """The plugin call of `function` on `expr`, with the per-row `base`
    and `charset` expressions as more inputs (the settings name them)."""
    kwargs = _settings(normalizer)
    args = [expr]
    kwargs["inputs"] = []
    for name, column in (("base", base), ("charset", charset)):
        if column is not None:
            args.append(column)
            kwargs["inputs"].append(name)
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name=function,
        args=args,
        kwargs=kwargs,
        is_elementwise=True,
    )


def _per_row(base: Any, charset: Any) -> tuple[str | None, pl.Expr | None, pl.Expr | None]:
    """`base` as one URL or a column of them, and the `charset` column."""
    if charset is not None and not isinstance(charset, pl.Expr):
        raise TypeError(
            f"charset: expected an expression of one encoding label per row, got {type(charset).__name__} "
            "(one encoding for every URL is query_encoding=)"
        )
    if base is None or isinstance(base, str):
        return base, None, charset
    if isinstance(base, pl.Expr):
        return None, base, charset
    raise TypeError(f"base: expected one URL (str) or an expression of one per row, got {type(base).__name__}")


@pl.api.register_expr_namespace("normurl")
class NormurlExpr:
    """`pl.col(...).normurl`: normurl's functions as Polars expressions."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def normalize(
        self,
        profile: str | None = None,
        get: str = "url",
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: str | None = None,
        charset: pl.Expr | None = None,
        explain: bool = False,
        set: Any = None,
        append: Any = None,
        set_params: Any = None,
        delete_params: Any = None,
        normalizer: _native.Normalizer | None = None,
    ) -> pl.Expr:
        """The normalized form of each URL (`normurl.normalize`), or the
        form or component `get` names; null where the URL is invalid.
        With `explain=True`, a Struct of `url` and `rules` (the names of
        the rules that fired; null where the row has no URL).

        `normalizer=` uses a `normurl.Normalizer` already made (then give
        no other argument but `base` and `charset` expressions)."""
        base, base_column, charset = _per_row(base, charset)
        if default_scheme is not None and base_column is not None:
            raise ValueError(
                "default_scheme: cannot be used with base (with a base, an input without a scheme "
                "is a relative reference)"
            )
        n = _normalizer(normalizer, **_arguments(locals()))
        function = "normurl_normalize_explain" if explain else "normurl_normalize"
        return _call(self._expr, function, n, base_column, charset)

    def get(
        self,
        component: str,
        profile: str | None = None,
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: str | None = None,
        charset: pl.Expr | None = None,
        set: Any = None,
        append: Any = None,
        set_params: Any = None,
        delete_params: Any = None,
    ) -> pl.Expr:
        """One form or component of each URL: `normalize(get=component)`,
        e.g. `get("registered_domain")`, `get("hostname")`, `get("surt")`,
        or a template of the command's --get: `get("{query:utm_source}")`."""
        return self.normalize(
            profile=profile,
            get=component,
            rules=rules,
            base=base,
            default_scheme=default_scheme,
            strip_params=strip_params,
            keep_params=keep_params,
            index_files=index_files,
            query_separators=query_separators,
            redirects=redirects,
            param_rules=param_rules,
            rewrite=rewrite,
            psl=psl,
            query_encoding=query_encoding,
            resolve=resolve,
            charset=charset,
            set=set,
            append=append,
            set_params=set_params,
            delete_params=delete_params,
        )

    def key_hash(
        self,
        profile: str | None = None,
        get: str = "url",
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: str | None = None,
        charset: pl.Expr | None = None,
        set: Any = None,
        append: Any = None,
        set_params: Any = None,
        delete_params: Any = None,
        normalizer: _native.Normalizer | None = None,
    ) -> pl.Expr:
        """The dedup key of each URL (`normurl.key_hash`): 16 bytes, the
        key the command's `--dedup` compares; null where the URL is
        invalid."""
        base, base_column, charset = _per_row(base, charset)
        n = _normalizer(normalizer, **_arguments(locals()))
        return _call(self._expr, "normurl_key_hash", n, base_column, charset)

    def components(
        self,
        profile: str | None = None,
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: str | None = None,
        charset: pl.Expr | None = None,
        set: Any = None,
        append: Any = None,
        set_params: Any = None,
        delete_params: Any = None,
        normalizer: _native.Normalizer | None = None,
    ) -> pl.Expr:
        """The components of each URL (`normurl.components`): a Struct
        with the fields of `normurl.COMPONENTS`; `.struct.unnest()` makes
        them columns. Null where the URL is invalid."""
        base, base_column, charset = _per_row(base, charset)
        n = _normalizer(normalizer, **_arguments(locals()))
        # A rewrite file whose tests fail on URLs fails here, not in the
        # query.
        n.components([])
        return _call(self._expr, "normurl_components", n, base_column, charset)


# The Normalizer's arguments that the expression methods take by the same
# names (`components` has no `get`: its Normalizer's is the default).
_ARGUMENTS = (
    "profile", "get", "rules", "base", "query_encoding", "resolve", "default_scheme",
    "strip_params", "keep_params", "index_files", "query_separators", "redirects",
    "param_rules", "rewrite", "psl", "set", "append", "set_params", "delete_params",
)


def _arguments(given: dict[str, Any]) -> dict[str, Any]:
    """The Normalizer's arguments among a method's locals (`base` by then
    the scalar one: a base column goes to the plugin as an input)."""
    return {name: given[name] for name in _ARGUMENTS if name in given}


def _normalizer(given: _native.Normalizer | None, **arguments: Any) -> _native.Normalizer:
    """`given`, or the Normalizer of `arguments` (which raises on a bad
    one, now)."""
    if given is None:
        return _native.Normalizer(**arguments)
    # normurl.Normalizer is a Python class over the native one.
    given = getattr(given, "_native", given)
    if not isinstance(given, _native.Normalizer):
        raise TypeError(f"normalizer: expected a normurl.Normalizer, got {type(given).__name__}")
    defaults = {"get": "url"}
    extra = sorted(k for k, v in arguments.items() if v is not None and v != defaults.get(k))
    if extra:
        raise TypeError(f"normalizer: give either a Normalizer or its arguments, not both ({', '.join(extra)})")
    return given
