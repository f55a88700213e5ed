"""The `normurl` expression namespace of Polars, registered on import:
`pl.col("url").normurl.normalize(...)`, `.get(...)`, `.key_hash(...)`,
`.components(...)` (a Polars expression plugin)."""

from typing import Literal

import polars as pl

from . import (
    AppendEdits,
    Get,
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

__all__ = ["NormurlExpr"]

class NormurlExpr:
    """`pl.col(...).normurl`: normurl's functions as Polars expressions,
    with the arguments of `normurl.Normalizer`, checked when the
    expression is made."""

    def __init__(self, expr: pl.Expr) -> None: ...
    def normalize(
        self,
        profile: Profile | None = None,
        get: Get = "url",
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: Resolve | None = None,
        charset: pl.Expr | None = None,
        explain: bool = False,
        set: SetEdits | None = None,
        append: AppendEdits | None = None,
        set_params: ParamEdits | None = None,
        delete_params: NameList | None = None,
        normalizer: Normalizer | None = None,
    ) -> pl.Expr:
        """A String expression: the normalized URL, or the form or
        component `get` names; null where the URL is invalid. `base` is
        one URL or an expression of one per row, `charset` an expression
        of one encoding label per row; `explain=True` gives a Struct of
        `url` and `rules` (List of String)."""
    def get(
        self,
        component: Get,
        profile: Profile | None = None,
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: Resolve | None = None,
        charset: pl.Expr | None = None,
        set: SetEdits | None = None,
        append: AppendEdits | None = None,
        set_params: ParamEdits | None = None,
        delete_params: NameList | None = None,
    ) -> pl.Expr:
        """A String expression: `normalize(get=component)`."""
    def key_hash(
        self,
        profile: Profile | None = None,
        get: Get = "url",
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: Resolve | None = None,
        charset: pl.Expr | None = None,
        set: SetEdits | None = None,
        append: AppendEdits | None = None,
        set_params: ParamEdits | None = None,
        delete_params: NameList | None = None,
        normalizer: Normalizer | None = None,
    ) -> pl.Expr:
        """A Binary expression: the 16-byte dedup key of each URL."""
    def components(
        self,
        profile: Profile | None = None,
        rules: str | None = None,
        base: str | pl.Expr | None = None,
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
        query_encoding: str | None = None,
        resolve: Resolve | None = None,
        charset: pl.Expr | None = None,
        set: SetEdits | None = None,
        append: AppendEdits | None = None,
        set_params: ParamEdits | None = None,
        delete_params: NameList | None = None,
        normalizer: Normalizer | None = None,
    ) -> pl.Expr:
        """A Struct expression with the fields of `normurl.COMPONENTS`."""

