#!/usr/bin/env python3
"""Compares normurl's tool profiles with the tools they are named after, on
real URLs: the share of URLs for which `normurl --profile P` writes what the
tool writes.

    python3 -m venv target/compat-venv
    target/compat-venv/bin/pip install w3lib==2.5.0 urlcanon==0.3.1 surt==0.3.1
    cargo build --release --bin normurl
    target/compat-venv/bin/python scripts/compare-with-tools.py \\
        [--sample 40000] [--seed 1] [--show 5] [--out DIR] [FILE...]

FILEs (default: samples/corpora/kasztp.txt and weburls.txt, copies of
shared/corpora/) are read as one URL a line; their distinct http(s) lines
are the population, and --sample N of them (a seeded random sample; 0: all)
are compared. normalize-url runs under node from an npm install of the
pinned version in target/compat-npm (made on first use). A line that both
the tool and normurl reject (the tool raises, normurl lists it in
--rejects) counts as identical. Each profile's differences go to DIR/PROFILE.tsv (INPUT, TOOL, NORMURL) when --out is
given. python/tests/test_compat_tools.py runs the same comparison on a
committed sample and holds the rates.

The tools, pinned (the versions the profiles are documented against):
w3lib.url.canonicalize_url (w3lib 2.5.0), urlcanon.semantic,
.semantic_precise and .aggressive (urlcanon 0.3.1), surt.surt (surt 0.3.1,
against `--profile wayback --get surt`) and normalize-url 8.0.2 (npm).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NORMALIZE_URL_VERSION = "8.0.2"
DEFAULT_FILES = [
    ROOT / "samples" / "corpora" / "kasztp.txt",
    ROOT / "samples" / "corpora" / "weburls.txt",
]
HTTP = re.compile(r"^https?://", re.IGNORECASE)

# profile -> (tool name, extra normurl arguments)
PROFILES = {
    "w3lib": ("w3lib.url.canonicalize_url", []),
    "urlcanon-semantic": ("urlcanon.semantic", []),
    "urlcanon-semantic-precise": ("urlcanon.semantic_precise", []),
    "urlcanon-aggressive": ("urlcanon.aggressive", []),
    "wayback": ("surt.surt", ["--get", "surt"]),
    "normalize-url": (f"normalize-url {NORMALIZE_URL_VERSION} (node)", []),
}

NODE_SCRIPT = r"""
import normalizeUrl from 'normalize-url';
import fs from 'node:fs';
const out = [];
for (const line of fs.readFileSync(0, 'utf8').split('\n')) {
  if (line === '') continue;
  let r;
  try { r = normalizeUrl(JSON.parse(line)); } catch (e) { r = null; }
  out.push(JSON.stringify(r));
}
fs.writeSync(1, out.join('\n') + '\n');
"""


def read_urls(files):
    """The distinct http(s) lines of `files`, sorted (a BOM dropped)."""
    urls = set()
    for path in files:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                line = line.rstrip("\n").lstrip("\ufeff")
                if line.endswith("\r"):
                    line = line[:-1]
                if HTTP.match(line) and "\t" not in line:
                    urls.add(line)
    return sorted(urls)


def sample(urls, n, seed):
    if n <= 0 or n >= len(urls):
        return list(urls)
    return random.Random(seed).sample(urls, n)


def python_tool(profile):
    """The tool's function: URL string -> string (raises on failure)."""
    if profile == "w3lib":
        import w3lib.url

        return w3lib.url.canonicalize_url
    if profile.startswith("urlcanon-"):
        import urlcanon

        canon = {
            "urlcanon-semantic": urlcanon.semantic,
            "urlcanon-semantic-precise": urlcanon.semantic_precise,
            "urlcanon-aggressive": urlcanon.aggressive,
        }[profile]
        return lambda url: str(canon(url))
    if profile == "wayback":
        import surt

        return surt.surt
    raise KeyError(profile)


def npm_dir():
    """A directory with normalize-url installed, under target/."""
    d = ROOT / "target" / "compat-npm"
    marker = d / "node_modules" / "normalize-url" / "package.json"
    if marker.exists():
        if json.loads(marker.read_text())["version"] == NORMALIZE_URL_VERSION:
            return d
    d.mkdir(parents=True, exist_ok=True)
    (d / "package.json").write_text(
        '{"name": "normurl-compat", "private": true, "type": "module"}\n'
    )
    subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund",
         f"normalize-url@{NORMALIZE_URL_VERSION}"],
        cwd=d, check=True, capture_output=True, timeout=300,
    )
    return d


def node_tool_outputs(urls):
    """normalize-url's outputs for `urls` (None where it throws)."""
    d = npm_dir()
    script = d / "run.mjs"
    script.write_text(NODE_SCRIPT)
    data = "".join(json.dumps(u) + "\n" for u in urls).encode()
    done = subprocess.run(
        ["node", str(script)], input=data, capture_output=True, check=True,
        timeout=300, cwd=d,
    )
    out = [json.loads(l) for l in done.stdout.decode().split("\n") if l]
    assert len(out) == len(urls), (len(out), len(urls))
    return out


def tool_outputs(profile, urls):
    if profile == "normalize-url":
        return node_tool_outputs(urls)
    fn = python_tool(profile)
    out = []
    for url in urls:
        try:
            out.append(fn(url))
        except Exception:  # a tool that raises gives no answer: a difference
            out.append(None)
    return out


def normurl_outputs(binary, profile, urls):
    """`normurl --profile PROFILE` on `urls`, one output per input: None
    for a line it rejects as no URL (listed by --rejects), as a tool that
    raises gives None."""
    with tempfile.TemporaryDirectory() as tmp:
        rejects = Path(tmp) / "rejects.tsv"
        args = [str(binary), "--profile", profile, "--on-invalid=keep",
                "--rejects", str(rejects), "--default-scheme", "http",
                *PROFILES[profile][1]]
        data = "".join(u + "\n" for u in urls).encode("utf-8", "surrogateescape")
        done = subprocess.run(args, input=data, capture_output=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {done.stderr.decode()}")
        rejected = {int(l.split(b"\t", 1)[0]) for l in rejects.read_bytes().splitlines()}
    out = done.stdout.decode("utf-8", "surrogateescape").split("\n")
    assert out[-1] == "", "no final newline"
    out.pop()
    assert len(out) == len(urls), (len(out), len(urls))
    return [None if i + 1 in rejected else o for i, o in enumerate(out)]


def compare(binary, profile, urls):
    """(identical count, differences as (input, tool, normurl)): the same
    output, or no output from either (both take the line for no URL)."""
    tool = tool_outputs(profile, urls)
    ours = normurl_outputs(binary, profile, urls)
    diffs = [(u, t, o) for u, t, o in zip(urls, tool, ours) if t != o]
    return len(urls) - len(diffs), diffs


def find_binary():
    env = os.environ.get("NORMURL_BIN")
    if env:
        return Path(env)
    found = [ROOT / "target" / k / "normurl" for k in ("release", "debug")]
    found = [p for p in found if p.exists()]
    if not found:
        sys.exit("no normurl binary: set NORMURL_BIN or cargo build")
    return max(found, key=lambda p: p.stat().st_mtime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    ap.add_argument("--sample", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=5,
                    help="differences to print per profile")
    ap.add_argument("--out", type=Path, help="write DIR/PROFILE.tsv")
    ap.add_argument("--profiles", default=",".join(PROFILES))
    args = ap.parse_args()
    if shutil.which("node") is None:
        sys.exit("node is needed for normalize-url")
    binary = find_binary()
    urls = sample(read_urls(args.files), args.sample, args.seed)
    print(f"{len(urls)} distinct http(s) URLs; normurl: {binary}")
    print("| profile | tool | identical | rate |")
    print("|---|---|--:|--:|")
    report = []
    for profile in args.profiles.split(","):
        same, diffs = compare(binary, profile, urls)
        print(f"| {profile} | {PROFILES[profile][0]} | {same} / {len(urls)} "
              f"| {100 * same / len(urls):.2f}% |", flush=True)
        report.append((profile, diffs))
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            with open(args.out / f"{profile}.tsv", "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                for u, t, o in diffs:
                    f.write(f"{json.dumps(u)}\t{json.dumps(t)}\t{json.dumps(o)}\n")
    for profile, diffs in report:
        for u, t, o in diffs[: args.show]:
            print(f"{profile}\t{u}\n  tool:    {t}\n  normurl: {o}")


if __name__ == "__main__":
    main()
