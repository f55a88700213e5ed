#!/usr/bin/env python3
"""Import cycles among the modules of each crate of the workspace.

Draws the graph of `use crate::...`, `use super::...` and inline
`crate::a::b` paths between the files of each crate (a file is a module;
`foo/mod.rs` is `foo`), then reports every cycle: between folders (a
folder's files taken together) and between the files of one folder.
Test modules (`tests.rs`, `*_tests.rs`, `#[cfg(test)]` blocks at the end
of a file) are left out: a test may use anything. Exit status 1 when a
cycle is found, other than those allowed.

    scripts/import-cycles.py            # every crate
    scripts/import-cycles.py --allow 'normurl-python: in (root): config <-> psl_arg'
    scripts/import-cycles.py --crate demo=path/to/src   # these crates instead

--allow takes a cycle exactly as the script reports it (may be repeated):
it is still printed, marked allowed, and does not fail the run.
"""

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRATES = {
    "normurl": ROOT / "src",
    "normurl-url": ROOT / "crates/normurl-url/src",
    "normurl-canon": ROOT / "crates/normurl-canon/src",
    "normurl-pipeline": ROOT / "crates/normurl-pipeline/src",
    "normurl-python": ROOT / "python/src",
}


def module_of(src, path):
    rel = path.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_tests(text):
    # Everything from the first `#[cfg(test)]` that opens a module on.
    m = re.search(r"#\[cfg\(test\)\]\s*\n\s*(pub(\(crate\))?\s+)?mod\s+\w+\s*\{", text)
    return text[: m.start()] if m else text


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())


def paths_in(text):
    """Every path that starts with crate:: or super::, with braces expanded
    one level (`crate::a::{b, c::d}`)."""
    out = []
    for m in re.finditer(r"\b(crate|super(?:::super)*)::([A-Za-z_][\w:]*)(::\{([^}]*)\})?", text):
        head, path, _, group = m.groups()
        base = path.split("::")
        if group is not None:
            for item in group.split(","):
                item = item.strip()
                if item:
                    out.append((head, base + item.split("::")))
        else:
            out.append((head, base))
    return out


def resolve(modules, current, is_mod_file, head, segs):
    """The longest module prefix the path names."""
    if head == "crate":
        base = ()
    else:
        ups = head.count("super")
        here = current if is_mod_file else current[:-1]
        # `super` from a file `a/b.rs` (module a::b) is `a`; from a/mod.rs (module a) is root.
        base = here[: len(here) - ups] if ups <= len(here) else ()
        if not is_mod_file:
            base = current[: len(current) - ups]
    best = None
    for k in range(len(segs), -1, -1):
        cand = base + tuple(segs[:k])
        if cand in modules:
            best = cand
            break
    return best


def folder(module, modules):
    """The folder of a module: its parent, or itself when it is a folder
    (has children)."""
    if any(len(m) > len(module) and m[: len(module)] == module for m in modules):
        return module
    return module[:-1]


def cycles(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "(root)"


def main():
    parser = argparse.ArgumentParser(description="Import cycles among the modules of each crate.")
    parser.add_argument("--allow", action="append", default=[], metavar="CYCLE",
                        help="a cycle, as reported, that does not fail the run")
    parser.add_argument("--crate", action="append", default=[], metavar="NAME=SRC",
                        help="check this crate's source folder instead of the workspace's")
    opts = parser.parse_args()
    crates = CRATES
    if opts.crate:
        crates = {}
        for spec in opts.crate:
            crate, sep, src = spec.partition("=")
            if not sep:
                parser.error(f"--crate {spec!r}: expected NAME=SRC")
            if not Path(src).is_dir():
                parser.error(f"--crate {spec!r}: {src} is not a folder")
            crates[crate] = Path(src)
    allowed = set(opts.allow)
    found = 0
    tolerated = 0

    def report(line):
        nonlocal found, tolerated
        if line in allowed:
            tolerated += 1
            print(f"{line} (allowed)")
        else:
            found += 1
            print(line)

    for crate, src in crates.items():
        if not src.exists():
            continue
        files = {}
        for path in sorted(src.rglob("*.rs")):
            if path.name == "tests.rs" or path.name.endswith("_tests.rs"):
                continue
            files[module_of(src, path)] = path
        modules = set(files)
        edges = set()
        for mod, path in files.items():
            text = strip_comments(strip_tests(path.read_text()))
            is_mod_file = path.name in ("mod.rs", "lib.rs", "main.rs")
            for head, segs in paths_in(text):
                target = resolve(modules, mod, is_mod_file, head, segs)
                if target is not None and target != mod and target != ():
                    edges.add((mod, target))
        # Between folders.
        fgraph = {}
        for a, b in edges:
            fa, fb = folder(a, modules), folder(b, modules)
            if fa != fb and not (fb[: len(fa)] == fa or fa[: len(fb)] == fb):
                fgraph.setdefault(fa, set()).add(fb)
        for comp in cycles(fgraph):
            report(f"{crate}: folders {' <-> '.join(name(c) for c in comp)}")
        # Between the files of one folder (a folder's mod.rs counts as its own
        # file; edges to submodules of a sibling count as edges to the sibling).
        by_folder = {}
        for a, b in edges:
            fa = a[:-1]
            if len(b) > len(fa) and b[: len(fa)] == fa:
                sib = b[: len(fa) + 1]
                if sib != a:
                    by_folder.setdefault(fa, {}).setdefault(a, set()).add(sib)
        for fa, graph in by_folder.items():
            for comp in cycles(graph):
                report(f"{crate}: in {name(fa)}: {' <-> '.join(name(c) for c in comp)}")
    if found:
        sys.exit(1)
    print("no import cycles" + (f" other than the {tolerated} allowed" if tolerated else ""))


if __name__ == "__main__":
    main()
