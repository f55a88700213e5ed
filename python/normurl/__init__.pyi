"""Normalize URLs in bulk over Apache Arrow, with the answers of the
`normurl` command. See docs/python.md."""

import os
from typing import Any, Literal, Mapping, Protocol, Sequence, overload

__version__: str

Component = Literal[
    "href",
    "protocol",
    "scheme",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
    "origin",
    "host_type",
    "public_suffix",
    "registered_domain",
    "subdomain",
    "reversed_host",
    "surt",
    "ssurt",
    "url_surtkey",
    "url_host_name",
    "url_host_tld",
    "url_host_2nd_last_part",
    "url_host_3rd_last_part",
    "url_host_4th_last_part",
    "url_host_5th_last_part",
    "url_host_registry_suffix",
    "url_host_registered_domain",
    "url_host_private_suffix",
    "url_host_private_domain",
    "url_host_name_reversed",
    "url_protocol",
    "url_port",
    "url_path",
    "url_query",
]
"""A name of COMPONENTS."""

COMPONENTS: tuple[Component, ...]
"""The fields of `components()`, in order: the command's components
(`normurl rules` lists them; `--json` writes them in this order): the URL
API's getters, host_type, public_suffix, registered_domain, subdomain,
reversed_host, surt, ssurt and Common Crawl's url_* columns."""

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
Get = Literal["url"] | Component | str
"""`url`, `surt`, `ssurt`, a name of COMPONENTS, or a template of the
command's --get: `{query:NAME}`, `{query-all:NAME}`, `{pathname:decoded}`,
`{host}\t{pathname}` (docs/editing.md)."""

Resolve = Literal["whatwg", "legacy", "generic"]
"""How a relative URL is resolved against its base (the command's
--resolve): as browsers do (the default), RFC 3986 non-strict (Python's
urljoin), or RFC 3986 strict."""

InvalidUtf8 = Literal["percent", "replace", "reject"]
"""What bytes that are not UTF-8 in a binary column become (the command's
--invalid-utf8): `%XX` (the default), U+FFFD, or a null row."""

Threads = int | None
"""None: the calling thread; 0 or -1: one thread per core; -2: all but
one (joblib's n_jobs); N > 0: N threads."""

Url = str | bytes | None
"""One URL: a str, bytes (read with invalid_utf8), or None (also NaN)."""

Components = dict[str, str | None]
"""One URL's components: a name of COMPONENTS to its value, None for one
the URL does not have."""

class ArrowArrayExportable(Protocol):
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

class ArrowStreamExportable(Protocol):
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

ArrowStrings = ArrowArrayExportable | ArrowStreamExportable
"""A column of string, large_string or string_view (or the null type):
a pyarrow Array or ChunkedArray, a polars Series, a DuckDB column..."""

Column = Any
"""A column of URLs: a pyarrow Array or ChunkedArray, a Polars Series, a
pandas Series, or any Arrow producer (ArrowStrings), of strings, binary
(read with invalid_utf8) or a dictionary of them. The result is of the
caller's type: pyarrow for pyarrow (and other Arrow producers, when
pyarrow can be imported), Polars for Polars, pandas for pandas (a
DataFrame for components())."""

StripParams = str | Sequence[str]
"""Names of more tracking parameters: "a,b", "@FILE" (one name a line),
or a list of names; `prefix*` names a prefix."""

NameList = str | Sequence[str]
"""Names, as the command's list options take them: "a,b", "@FILE" (the
file's names, `#` comments skipped), or a list of names."""

StrPath = str | os.PathLike[str]
"""A file's path."""

Paths = StrPath | Sequence[StrPath]
"""A file's path, or several (the command's option repeated)."""

PerRow = Sequence[str | None] | Column
"""One value per URL, matched by position: a list, or a column of the
kinds `urls` takes (the command's --base-field, --charset-field)."""

Explained = tuple[str | None, list[str] | None]
"""A row of normalize(explain=True) on a list: the answer and the names
of what fired, as the command's --explain lists them (`edit`,
`edit-refused`, the rules, `rewrite`; [] for none; None where the row has
no URL)."""

SetEdits = Mapping[str, str | int | None] | Sequence[tuple[str, str | int | None]]
"""`set=`: component to value (the command's --set COMPONENT=VALUE), a
dict or (component, value) pairs in order; None or "" clears."""

AppendEdits = Mapping[str, str] | Sequence[tuple[str, str]]
"""`append=`: {"query": "NAME=VALUE", "path": "SEGMENT"} (the command's
--append), or pairs in order to append several."""

ParamEdits = Mapping[str, str | int] | Sequence[tuple[str, str | int]]
"""`set_params=`: parameter name to value (the command's --set-param), a
dict or pairs in order."""

class Array:
    """An Arrow array that normurl returned: pass it to `pyarrow.array()`,
    `polars.Series()` or any Arrow library (PyCapsule interface, no copy).

    >>> a = normurl.normalize(pa.array(["HTTP://A.example/", "nope"]))
    >>> pa.array(a).to_pylist()
    ['http://a.example/', None]
    """

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __len__(self) -> int: ...
    @property
    def null_count(self) -> int:
        """Entries that are null: inputs that are null or not valid URLs."""
    @property
    def type(self) -> str:
        """The Arrow type as pyarrow names it: string, large_string,
        string_view, fixed_size_binary[16], struct<...>."""
    def to_pylist(self) -> list[Any]:
        """The entries as str, bytes or dict, None for nulls."""

def _normalizer(*args: Any) -> Normalizer: ...

class Normalizer:
    """A parsed configuration for many calls; the arguments are those of
    `normalize()`.

    >>> n = normurl.Normalizer(profile="aggressive")
    >>> n.normalize_one("HTTP://www.Example.com/a/?utm_source=x&b=1#top")
    'http://example.com/a?b=1'
    """

    def __init__(
        self,
        profile: Profile | None = None,
        get: Get = "url",
        rules: str | None = None,
        base: str | None = None,
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
        set: SetEdits | None = None,
        append: AppendEdits | None = None,
        set_params: ParamEdits | None = None,
        delete_params: NameList | None = None,
    ) -> None: ...
    @overload
    def normalize(
        self,
        urls: Sequence[str | None],
        threads: Threads = None,
        *,
        base: PerRow | None = None,
        charset: PerRow | None = None,
        explain: Literal[False] = False,
    ) -> list[str | None]: ...
    @overload
    def normalize(
        self,
        urls: Sequence[str | None],
        threads: Threads = None,
        *,
        base: PerRow | None = None,
        charset: PerRow | None = None,
        explain: Literal[True],
    ) -> list[Explained]: ...
    @overload
    def normalize(
        self,
        urls: Column,
        threads: Threads = None,
        *,
        base: PerRow | None = None,
        charset: PerRow | None = None,
        explain: bool = False,
    ) -> Any: ...
    @overload
    def key_hash(
        self,
        urls: Sequence[str | None],
        threads: Threads = None,
        *,
        base: PerRow | None = None,
        charset: PerRow | None = None,
    ) -> list[bytes | None]: ...
    @overload
    def key_hash(
        self, urls: Column, threads: Threads = None, *, base: PerRow | None = None, charset: PerRow | None = None
    ) -> Any: ...
    @overload
    def components(
        self,
        urls: Sequence[str | None],
        threads: Threads = None,
        *,
        base: PerRow | None = None,
        charset: PerRow | None = None,
    ) -> list[Components | None]: ...
    @overload
    def components(
        self, urls: Column, threads: Threads = None, *, base: PerRow | None = None, charset: PerRow | None = None
    ) -> Any: ...
    def normalize_one(self, url: Url) -> str | None:
        """The normalized form of one URL, None when it is None or not
        valid (or, for a component, the URL does not have it).

        >>> normurl.Normalizer(get="surt").normalize_one("https://www.example.com/a?b=1")
        'com,example)/a?b=1'
        """
    def key_hash_one(self, url: Url) -> bytes | None:
        """The 16-byte dedup key of one URL, None when it is not valid."""
    def components_one(self, url: Url) -> Components | None:
        """The components of one URL as a dict, None when it is not valid."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@overload
def normalize(
    urls: Sequence[str | None],
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    explain: Literal[False] = False,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> list[str | None]: ...
@overload
def normalize(
    urls: Sequence[str | None],
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    explain: Literal[True],
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> list[Explained]: ...
@overload
def normalize(
    urls: Column,
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    explain: bool = False,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> Any:
    """Normalizes every URL as the `normurl` command normalizes a line:
    one entry per input, None/null where it is not a valid URL (or null,
    empty, holds a newline, or is over 1 MiB).

    profile, rules, strip_params, base: the command's --profile, --rules,
    --strip-params, --base. get: url, surt or ssurt (the command's
    --get), or a component of the canonical URL. keep_params,
    index_files, query_separators, redirects, param_rules, rewrite: the
    command's options of the same names (keyword only), read and applied
    in its order; a Normalizer keeps the files' text (pickles need not
    find them). psl: a Public Suffix List file (publicsuffix.org's
    public_suffix_list.dat format) instead of the bundled one, for the
    list's components (registered_domain, public_suffix, ...) and the
    strip-www rule's guard (the command's --psl). Without a profile,
    whatwg, or wayback for get="surt". default_scheme: parse inputs
    without a scheme as that scheme + "://" + input. base may also be a
    column of one base per URL (the command's --base-field: a null, empty
    or "-" base, or one that is no URL, leaves only absolute URLs valid).
    resolve: how relative URLs are resolved against a base (whatwg,
    legacy, generic; the command's --resolve). charset: one encoding label
    per URL (the command's --charset-field), the query's encoding over
    query_encoding where it names one. explain=True: each row's answer
    and the rules that fired on it (a struct of url and rules; a list of
    (url, rules) tuples for a list). threads: split
    batches of 16,384 URLs or more across that many threads (0: one per
    core); None runs on the calling thread. The GIL is released.

    Raises ValueError (bad option, with the command's message), OSError
    (a list's "@FILE" or a file unreadable), TypeError (not a column of
    strings, or an argument of the wrong type).

    >>> normurl.normalize(["HTTP://Example.COM/a/../b", "nope", None])
    ['http://example.com/b', None, None]
    >>> normurl.normalize(["https://www.example.com/?b=2&a=1#x"], profile="aggressive")
    ['https://example.com/?a=1&b=2']
    >>> normurl.normalize(["https://www.example.com/a"], get="surt")
    ['com,example)/a']
    >>> normurl.normalize(["https://a.example/?id=1&x=2;y=3"], keep_params=["id", "y"], query_separators="&;")
    ['https://a.example/?id=1&y=3']

    set, append, set_params, delete_params (keyword only): the command's
    --set, --append, --set-param, --delete-param, applied to each parsed
    URL before the profile's rules, in that order (docs/editing.md); a
    value a setter refuses leaves the URL as it was. get also takes the
    command's templates: "{query:NAME}", "{query-all:NAME}",
    "{pathname:decoded}".

    >>> normurl.normalize(["http://a.example/?utm_source=x&id=1"], set={"scheme": "https"}, delete_params="utm_*")
    ['https://a.example/?id=1']
    >>> normurl.normalize(["http://a.example/?q=rust+url"], get="{query:q}")
    ['rust url']
    """

@overload
def key_hash(
    urls: Sequence[str | None],
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> list[bytes | None]: ...
@overload
def key_hash(
    urls: Column,
    profile: Profile | None = None,
    get: Get = "url",
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> Any:
    """The dedup key of every URL (fixed_size_binary[16]): MurmurHash3
    x64_128 of what normalize() gives with the same arguments, the key the
    command's --dedup compares; null for invalid URLs.

    >>> keys = normurl.key_hash(["http://a.example/", "HTTP://A.example"])
    >>> keys[0] == keys[1], len(keys[0])
    (True, 16)
    """

@overload
def components(
    urls: Sequence[str | None],
    profile: Profile | None = None,
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> list[Components | None]: ...
@overload
def components(
    urls: Column,
    profile: Profile | None = None,
    rules: str | None = None,
    base: str | PerRow | None = None,
    default_scheme: str | None = None,
    strip_params: StripParams | None = None,
    threads: Threads = None,
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
    charset: PerRow | None = None,
    set: SetEdits | None = None,
    append: AppendEdits | None = None,
    set_params: ParamEdits | None = None,
    delete_params: NameList | None = None,
) -> Any:
    """The components of every URL's canonical form, as a struct (or dict)
    with the fields of COMPONENTS; each field equals normalize(urls,
    get=field) with the same arguments. Null for invalid URLs.

    >>> normurl.components(["https://u@www.example.com:8443/a?q#f"])[0]["reversed_host"]
    'com,example,www'
    """

@overload
def in_scope(
    urls: Sequence[str | None],
    keep_if: Sequence[str] | None = None,
    drop_if: Sequence[str] | None = None,
    *,
    scope: Sequence[tuple[Literal["keep", "drop"], str]] | None = None,
    profile: Profile | None = None,
    rules: str | None = None,
) -> list[bool | None]: ...
@overload
def in_scope(
    urls: ArrowStrings,
    keep_if: Sequence[str] | None = None,
    drop_if: Sequence[str] | None = None,
    *,
    scope: Sequence[tuple[Literal["keep", "drop"], str]] | None = None,
    profile: Profile | None = None,
    rules: str | None = None,
) -> Array:
    """Whether each URL is in the scope of the rules, as the command's
    `--keep-if`/`--drop-if` decide on the URL normalized with `profile`
    and `rules` (docs/scope.md): True where the line would be written,
    False where it would be dropped, None where the input is no URL. The
    `keep_if` rules come before the `drop_if` ones, the last matching rule
    deciding; `scope=[("keep", RULE), ("drop", RULE)]` gives any order.
    An Arrow input gives a boolean Array.

    >>> normurl.in_scope(["https://a.example.org/", "http://example.net/", "nope"], keep_if=["domain:example.org"])
    [True, False, None]
    """
