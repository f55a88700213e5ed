"""Normalize URLs in bulk over Apache Arrow, with the answers of the
`normurl` command. See docs/python.md.

The work is the native module's (`normurl._native`, built from
python/src); this package gives its answers in the caller's types
(`_convert`: pyarrow in, pyarrow out; Polars, pandas, lists) and is where
Python-side integrations (engines' own types, namespaces) live beside it.
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

from . import _native
from ._convert import call, column
from ._native import COMPONENTS, Array, __version__, in_scope

__all__ = [
    "COMPONENTS",
    "Array",
    "Explained",
    "InvalidUtf8",
    "Normalizer",
    "Profile",
    "Resolve",
    "__version__",
    "components",
    "in_scope",
    "key_hash",
    "normalize",
]

Profile = Literal[
    "whatwg",
    "semantic",
    "aggressive",
    "google",
    "safe-browsing",
    "wayback",
    "urlcanon-semantic",
    "urlcanon-semantic-precise",
    "urlcanon-aggressive",
    "w3lib",
    "normalize-url",
]
"""The names `profile=` takes (the command's --profile), for annotations."""

InvalidUtf8 = Literal["percent", "replace", "reject"]
"""The policies `invalid_utf8=` takes (the command's --invalid-utf8)."""

Resolve = Literal["whatwg", "legacy", "generic"]
"""The modes `resolve=` takes (the command's --resolve)."""

Explained = tuple[str | None, list[str] | None]
"""A row of `normalize(list, explain=True)`: the answer and the names of
the rules that fired (None where the row has no URL)."""


class Normalizer:
    """A parsed configuration, for calling many times: the same arguments
    and methods as the module's functions, plus the scalar methods
    `normalize_one`, `key_hash_one` and `components_one`. Equal (and of
    equal hash) when made with the same settings.

    >>> n = normurl.Normalizer(profile="aggressive")
    >>> n.normalize_one("HTTP://www.Example.com/a/?utm_source=x&b=1#top")
    'http://example.com/a?b=1'
    >>> n.normalize(["http://a.example/./b", "not a url"])
    ['http://a.example/b', None]
    """

    __slots__ = ("_native",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._native = _native.Normalizer(*args, **kwargs)

    @classmethod
    def _of(cls, native: Any) -> Normalizer:
        self = cls.__new__(cls)
        self._native = native
        return self

    def normalize(
        self, urls: Any, threads: int | None = None, *, base: Any = None, charset: Any = None, explain: bool = False
    ) -> Any:
        rows = _rows(base=base, charset=charset)
        kind = "explain" if explain else "strings"
        return call(lambda u: self._native.normalize(u, threads, explain=explain, **rows), urls, kind)

    def key_hash(self, urls: Any, threads: int | None = None, *, base: Any = None, charset: Any = None) -> Any:
        rows = _rows(base=base, charset=charset)
        return call(lambda u: self._native.key_hash(u, threads, **rows), urls, "keys")

    def components(self, urls: Any, threads: int | None = None, *, base: Any = None, charset: Any = None) -> Any:
        rows = _rows(base=base, charset=charset)
        return call(lambda u: self._native.components(u, threads, **rows), urls, "struct")

    def normalize_one(self, url: Any) -> Any:
        return self._native.normalize_one(url)

    def key_hash_one(self, url: Any) -> Any:
        return self._native.key_hash_one(url)

    def components_one(self, url: Any) -> Any:
        return self._native.components_one(url)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Normalizer):
            return NotImplemented
        return bool(self._native == other._native)

    def __hash__(self) -> int:
        return hash(self._native)

    def __repr__(self) -> str:
        return repr(self._native)

    def __reduce__(self) -> Any:
        # The native pickle: its rebuilding function is this package's
        # `_normalizer`, which gives this class back.
        return self._native.__reduce__()


def _normalizer(*args: Any) -> Normalizer:
    """Rebuilds a pickled Normalizer (see the native `__reduce__`)."""
    return Normalizer._of(_native._normalizer(*args))


def _rows(**arguments: Any) -> dict[str, Any]:
    """The per-row arguments (`base` when not one URL, `charset`) as the
    native module takes them (see `_convert.column`)."""
    return {k: v if v is None or isinstance(v, str) else column(v) for k, v in arguments.items()}


def _bind(function: Any, urls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> inspect.BoundArguments:
    """The arguments of a call of the native `function`, with its per-row
    ones converted."""
    bound = inspect.signature(function).bind(urls, *args, **kwargs)
    bound.arguments.update(_rows(**{k: v for k, v in bound.arguments.items() if k in ("base", "charset")}))
    return bound


def normalize(urls: Any, *args: Any, **kwargs: Any) -> Any:
    bound = _bind(_native.normalize, urls, args, kwargs)
    kind = "explain" if bound.arguments.get("explain") else "strings"
    return call(lambda u: _native.normalize(u, *bound.args[1:], **bound.kwargs), urls, kind)


def key_hash(urls: Any, *args: Any, **kwargs: Any) -> Any:
    bound = _bind(_native.key_hash, urls, args, kwargs)
    return call(lambda u: _native.key_hash(u, *bound.args[1:], **bound.kwargs), urls, "keys")


def components(urls: Any, *args: Any, **kwargs: Any) -> Any:
    bound = _bind(_native.components, urls, args, kwargs)
    return call(lambda u: _native.components(u, *bound.args[1:], **bound.kwargs), urls, "struct")


# The native functions' signatures and docstrings, for help() and
# inspect (the wrappers pass their arguments through).
for _wrapper, _of in ((normalize, _native.normalize), (key_hash, _native.key_hash), (components, _native.components)):
    _wrapper.__doc__ = _of.__doc__
    _wrapper.__signature__ = inspect.signature(_of)  # type: ignore[attr-defined]
Normalizer.__signature__ = inspect.signature(_native.Normalizer)  # type: ignore[attr-defined]
del _wrapper, _of
for _name in ("normalize", "key_hash", "components", "normalize_one", "key_hash_one", "components_one"):
    getattr(Normalizer, _name).__doc__ = getattr(_native.Normalizer, _name).__doc__
del _name
