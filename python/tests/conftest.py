"""Shared fixtures: the `normurl` command to compare with, and inputs.

The command is found in $NORMURL_BIN (scripts/test.sh sets it), else the
newest of target/debug/normurl and target/release/normurl; tests that need
it fail, not skip, when it is missing.
"""

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CORPORA = sorted((SAMPLES / "corpora").glob("*.txt"))
PROFILES = ["whatwg", "semantic", "aggressive", "safe-browsing", "wayback"]
FORMS = ["url", "surt", "ssurt"]


def find_binary():
    env = os.environ.get("NORMURL_BIN")
    if env:
        return Path(env)
    found = [ROOT / "target" / kind / "normurl" for kind in ("debug", "release")]
    found = [p for p in found if p.exists()]
    if not found:
        raise RuntimeError(
            "no normurl binary: set NORMURL_BIN or build it (cargo build)"
        )
    return max(found, key=lambda p: p.stat().st_mtime)


@pytest.fixture(scope="session")
def normurl_bin():
    return find_binary()


def run_command(binary, args, stdin=b"", check=True):
    """Runs the command; returns the CompletedProcess (bytes)."""
    done = subprocess.run(
        [str(binary), *args], input=stdin, capture_output=True, timeout=300
    )
    if check and done.returncode != 0:
        raise AssertionError(f"normurl {args} failed: {done.stderr.decode()}")
    return done


def command_lines(data):
    """The lines the command reads from `data`: a leading BOM dropped,
    split at \\n, the \\r of \\r\\n dropped, no line after a final \\n."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in lines]


def read_lines(path):
    return [l.decode("utf-8") for l in command_lines(Path(path).read_bytes())]


# Lines that are not plain canonical URLs: case, dot segments, escapes,
# tracking parameters, fragments, IDN, IP forms, invalid lines, relative
# references, whitespace the parser strips, a \r inside a line.
ODD = [
    "HTTP://WWW.Example.COM:80/a/./b/../c?utm_source=x&b=2&a=1#frag",
    "https://www.example.com/a//b/?b=&a=1&fbclid=zz",
    "http://example.com/%7euser/%2f?q=%41%62",
    "http://bücher.de/straße?x=ü",
    "http://xn--bcher-kva.de/",
    "http://0x7f.1/",
    "http://[::FFFF:1.2.3.4]:8080/",
    "  http://spaces.example/ \t",
    "http://a.example/x\ry",
    "http://a.example/tab\there",
    "mailto:Someone@Example.com",
    "javascript:alert(1)",
    "file:///C:/dir/../file.txt",
    "HTTPS://user:pass@Example.com:443/;jsessionid=ABC?PHPSESSID=1&q",
    "http://www.github.io/",
    "http://www3.example.co.uk/index.html?",
    "dns:www.example.com",
    "ws://Example.com:80/chat",
    "not a url",
    "http://",
    "http://[::1",
    "//no-scheme.example/path",
    "../relative/path",
    "?query-only",
    "",
    "   ",
    "http://exa mple.com/",
    "https://example.com/%zz%",
]


def mixed_lines(seed=28, count=6000):
    """urls.txt with variants (case, www., tracking parameters,
    fragments) spliced in, and the odd lines, deterministic."""
    base = read_lines(SAMPLES / "urls.txt")
    rng = random.Random(seed)
    out = []
    for i in range(count):
        url = base[i % len(base)]
        roll = rng.random()
        if roll < 0.1:
            url = url.upper()
        elif roll < 0.2:
            url = url.replace("://www.", "://", 1) if "://www." in url else url.replace("://", "://www.", 1)
        elif roll < 0.3:
            url += ("&" if "?" in url else "?") + "utm_medium=mail&ref=x"
        elif roll < 0.35:
            url += "#section"
        elif roll < 0.4:
            url = ODD[rng.randrange(len(ODD))]
        out.append(url)
    return out + ODD


@pytest.fixture(scope="session")
def mixed_file(tmp_path_factory):
    """A file of mixed lines (with duplicates under most profiles)."""
    path = tmp_path_factory.mktemp("data") / "mixed.txt"
    path.write_bytes("".join(l + "\n" for l in mixed_lines()).encode("utf-8"))
    return path


def java_missing():
    """Why Spark cannot start here (None when a Java runtime is found)."""
    if os.environ.get("JAVA_HOME") and os.path.exists(os.path.join(os.environ["JAVA_HOME"], "bin", "java")):
        return None
    if shutil.which("java"):
        return None
    return "no Java runtime (java not on PATH, no JAVA_HOME): Spark cannot start"


@pytest.fixture(scope="session")
def spark():
    """One local[2] SparkSession for every Spark test (test_recipes.py,
    test_spark_engine.py); the tests skip, with the reason, when no Java
    runtime is found."""
    reason = java_missing()
    if reason:
        print(f"\nSKIPPED Spark tests: {reason}", file=sys.stderr)
        pytest.skip(reason)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("normurl-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        # Small splits, so that a test file is read by several tasks and
        # the order across partitions is tested.
        .config("spark.sql.files.maxPartitionBytes", "65536")
        .getOrCreate()
    )
    yield session
    session.stop()
