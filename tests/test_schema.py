"""The JSON report's schema: schemas/report.schema.json describes what `check --format json` prints, and every
report the tests can make validates against it (a small validator for the subset of JSON Schema 2020-12 the file
uses, written here: type, enum, const, required, properties, additionalProperties, items, minimum, maximum,
exclusiveMinimum/Maximum, pattern, anyOf, allOf, $ref)."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.builders import as_samples, valid_ledger
from tests.support import ROOT, GateCase

SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return type(value) is int
    if name == "number":
        return type(value) in (int, float)
    return type(value) is TYPES[name]


def errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every way value breaks schema, as 'path: what'."""
    out: list[str] = []
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        out += errors(value, SCHEMA["$defs"][name], path)
    for sub in schema.get("allOf", []):
        out += errors(value, sub, path)
    if "anyOf" in schema and all(errors(value, sub, path) for sub in schema["anyOf"]):
        out.append(f"{path}: matches none of anyOf")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, n) for n in names):
            return [*out, f"{path}: expected {names}, got {type(value).__name__}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: expected {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} not in {schema['enum']}")
    if type(value) in (int, float):
        for key, test in (("minimum", lambda v, b: v >= b), ("maximum", lambda v, b: v <= b),
                          ("exclusiveMinimum", lambda v, b: v > b), ("exclusiveMaximum", lambda v, b: v < b)):
            if key in schema and not test(value, schema[key]):
                out.append(f"{path}: {value!r} breaks {key} {schema[key]}")
    if isinstance(value, str) and "pattern" in schema and re.search(schema["pattern"], value) is None:
        out.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{path}: {key} is required" for key in schema.get("required", []) if key not in value]
        for key, item in value.items():
            if key in props:
                out += errors(item, props[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False and "$ref" not in schema and "allOf" not in schema:
                out.append(f"{path}: {key} is not in the schema")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += errors(item, schema["additionalProperties"], f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += errors(item, schema["items"], f"{path}[{i}]")
    return out


class ReportSchema(GateCase):
    def assertValid(self, report: dict[str, Any]) -> None:
        problems = errors(report, SCHEMA)
        self.assertEqual(problems, [], "\n".join(problems[:10]))

    def test_the_validator_can_fail(self) -> None:
        """The validator rejects a report with a renamed key, a wrong type, a missing field and an out-of-range value."""
        _, report = self.run_json("--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl"))
        self.assertValid(report)
        for change in ({"verdict": "MAYBE"}, {"schema_version": 2}, {"headlne": {}}, {"confidence": 1.5}):
            broken = dict(report, **change)
            with self.subTest(change=change):
                self.assertTrue(errors(broken, SCHEMA))
        broken = json.loads(json.dumps(report))
        del broken["ledger"]["records"]
        self.assertIn("$.ledger: records is required", errors(broken, SCHEMA))
        broken["headline"]["ci_high"] = 1.2
        self.assertTrue(any("ci_high" in e for e in errors(broken, SCHEMA)))

    def run_json(self, *argv: str) -> tuple[int, dict[str, Any]]:
        code, out, err = self.run_gate(*argv, "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def test_every_shipped_example_validates(self) -> None:
        """The shipped example, the card example (strata, control runs, cost), a SWE-bench entry (clusters) and a
        samples-mode ledger validate, as do the reports compare embeds and a BLOCKED report with findings."""
        cases = [("bench.manifest.json", "runs.jsonl"), ("examples/card/bench.manifest.json", "examples/card/runs.jsonl"),
                 ("examples/rank/systems/01-claude-4-5-opus-medium-20251101.manifest.json",
                  "examples/rank/systems/01-claude-4-5-opus-medium-20251101.jsonl"),
                 ("examples/compare-samples/a.manifest.json", "examples/compare-samples/a.jsonl")]
        for manifest, runs in cases:
            with self.subTest(manifest=manifest):
                _, report = self.run_json("--manifest", str(ROOT / manifest), "--runs", str(ROOT / runs), "--claim", "50%")
                self.assertEqual(report["schema_version"], 1)
                self.assertValid(report)
        manifest, records = valid_ledger()
        records[0]["outcome"] = "maybe"
        _, report = self.check_json(manifest, records)
        self.assertTrue(report["findings"])
        self.assertValid(report)
        samples = as_samples(*valid_ledger(passes=3, fails=2, unscoreable=()), 3)
        self.assertValid(self.check_json(*samples)[1])
        files = [str(ROOT / "examples" / "compare" / name) for name in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl")]
        _code, out, _ = self.run_gate("compare", "--manifest", files[0], "--runs", files[1], "--against-manifest", files[2],
                                     "--against-runs", files[3], "--format", "json")
        comparison = json.loads(out)
        self.assertEqual(comparison["schema_version"], 1)
        for side in ("a", "b"):
            self.assertValid(comparison[side])
