"""Normalize URLs in bulk over Apache Arrow, with the answers of the
`normurl` command. See docs/python.md.

The functions and classes are the native module's (`normurl._native`,
built from python/src); this package is where Python-side integrations
(engines' own types, namespaces) live beside them.
"""

from ._native import (
    COMPONENTS,
    Array,
    Normalizer,
    __version__,
    _normalizer,
    components,
    key_hash,
    normalize,
)

__all__ = [
    "COMPONENTS",
    "Array",
    "Normalizer",
    "__version__",
    "components",
    "key_hash",
    "normalize",
]
