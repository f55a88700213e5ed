"""Normalize URLs in bulk over Apache Arrow, with the answers of the
`normurl` command. See docs/python.md.

The work is the native module's (`normurl._native`, built from
python/src); this package gives its answers in the caller's types
(`_convert`: pyarrow in, pyarrow out; Polars, pandas, lists) and is where
Python-side integrations (engines' own types, namespaces) live beside it.
"""

from __future__ import annotations

from typing import Any

from . import _native
from ._convert import call
from ._native import COMPONENTS, Array, __version__

__all__ = [
    "COMPONENTS",
    "Array",
    "Normalizer",
    "__version__",
    "components",
    "key_hash",
    "normalize",
]


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

    def normalize(self, urls: Any, threads: int | None = None) -> Any:
        return call(lambda u: self._native.normalize(u, threads), urls, "strings")

    def key_hash(self, urls: Any, threads: int | None = None) -> Any:
        return call(lambda u: self._native.key_hash(u, threads), urls, "keys")

    def components(self, urls: Any, threads: int | None = None) -> Any:
        return call(lambda u: self._native.components(u, threads), urls, "struct")

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


def normalize(urls: Any, *args: Any, **kwargs: Any) -> Any:
    return call(lambda u: _native.normalize(u, *args, **kwargs), urls, "strings")


def key_hash(urls: Any, *args: Any, **kwargs: Any) -> Any:
    return call(lambda u: _native.key_hash(u, *args, **kwargs), urls, "keys")


def components(urls: Any, *args: Any, **kwargs: Any) -> Any:
    return call(lambda u: _native.components(u, *args, **kwargs), urls, "struct")


normalize.__doc__ = _native.normalize.__doc__
key_hash.__doc__ = _native.key_hash.__doc__
components.__doc__ = _native.components.__doc__
for _name in ("normalize", "key_hash", "components", "normalize_one", "key_hash_one", "components_one"):
    getattr(Normalizer, _name).__doc__ = getattr(_native.Normalizer, _name).__doc__
del _name
