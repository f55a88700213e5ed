"""Calls that the stubs must reject (test_typing.py expects mypy to
report each line marked `# E:` with that error code)."""

import normurl
import normurl.spark

normurl.normalize(["x"], profile="agressive")  # E: call-overload
normurl.normalize(["x"], set=["scheme=https"])  # E: list-item
normurl.Normalizer(set_params={"a": None})  # E: dict-item
normurl.normalize(["x"], invalid_utf8="lossy")  # E: call-overload
normurl.normalize(["x"], threads="2")  # E: call-overload
normurl.Normalizer(nope=1)  # E: call-arg
normurl.Normalizer().normalize_one(3)  # E: arg-type
normurl.normalize(["x"], resolve="browser")  # E: call-overload
normurl.spark.normalize("url", profile="agressive")  # E: arg-type
normurl.spark.dedup_first(None, "url")  # E: arg-type
normurl.spark.get("url", "hostname", on_invalid="skip")  # E: call-arg
