"""The docstrings' examples run, and the type stubs (normurl/__init__.pyi) name the
same parameters, with the same defaults, as the module."""

import ast
import doctest
import inspect
from pathlib import Path

import pyarrow as pa
import pytest

import normurl

STUBS = Path(__file__).resolve().parents[1] / "normurl" / "__init__.pyi"

RUNTIME_DOCS = {
    "normalize": normurl.normalize,
    "key_hash": normurl.key_hash,
    "components": normurl.components,
    "Normalizer": normurl.Normalizer,
    "Normalizer.normalize_one": normurl.Normalizer.normalize_one,
}


def run_examples(name, text):
    test = doctest.DocTestParser().get_doctest(text, {"normurl": normurl, "pa": pa}, name, None, 0)
    assert test.examples, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} example(s) failed (output above)"


@pytest.mark.parametrize("name", RUNTIME_DOCS)
def test_runtime_docstring_examples(name):
    run_examples(name, RUNTIME_DOCS[name].__doc__ or "")


def stub_docstrings():
    tree = ast.parse(STUBS.read_text())
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node)
            if doc and ">>>" in doc:
                found[node.name] = doc
    return found


def test_stub_docstring_examples():
    docs = stub_docstrings()
    assert {"normalize", "key_hash", "components", "Normalizer", "normalize_one", "Array"} <= set(docs)
    for name, doc in docs.items():
        run_examples(f"normurl.pyi:{name}", doc)


def stub_parameters():
    """Each stubbed function's parameters: name -> [(name, default)]."""
    tree = ast.parse(STUBS.read_text())
    params = {}
    for node in tree.body:
        targets = [(node.name, node)] if isinstance(node, ast.FunctionDef) else []
        if isinstance(node, ast.ClassDef):
            targets = [(f"{node.name}.{f.name}", f) for f in node.body if isinstance(f, ast.FunctionDef)]
        for name, f in targets:
            args = f.args.args
            defaults = [None] * (len(args) - len(f.args.defaults)) + f.args.defaults
            # Keyword-only parameters (after `*`) too.
            args += f.args.kwonlyargs
            defaults += f.args.kw_defaults
            params[name] = [
                (a.arg, ast.literal_eval(d) if d is not None else inspect.Parameter.empty)
                for a, d in zip(args, defaults)
                if a.arg != "self"
            ]
    return params


@pytest.mark.parametrize(
    "name, obj",
    [
        ("normalize", normurl.normalize),
        ("key_hash", normurl.key_hash),
        ("components", normurl.components),
        ("Normalizer.__init__", normurl.Normalizer),
        ("Normalizer.normalize", normurl.Normalizer.normalize),
        ("Normalizer.key_hash", normurl.Normalizer.key_hash),
        ("Normalizer.components", normurl.Normalizer.components),
        ("Normalizer.normalize_one", normurl.Normalizer.normalize_one),
        ("Normalizer.key_hash_one", normurl.Normalizer.key_hash_one),
        ("Normalizer.components_one", normurl.Normalizer.components_one),
    ],
)
def test_stubs_match_the_module(name, obj):
    runtime = [
        (p.name, p.default)
        for p in inspect.signature(obj).parameters.values()
        if p.name != "self"
    ]
    assert stub_parameters()[name] == runtime
