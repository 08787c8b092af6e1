"""A manifest's listed task IDs are lifted out of its text before it is parsed (PERF: 10^6 IDs are never 10^6
strings): whatever the listing, what load_manifest reads, refuses and says is what the whole parse gives, and a
sorted ledger of the declared tasks is checked against the lifted text without a set of the IDs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable
from unittest import mock

import gate
from tests.builders import make_manifest
from tests.oracles import ids_digest
from tests.support import GateCase

IDS = ["neg-01", "pos-01", "t-001", "t-002", "t-003"]


def spaced(ids: list[str]) -> dict[str, Any]:
    return make_manifest(ids)


# Each a manifest's text: the listings import and init write (lifted), and every other form (parsed whole)
LISTINGS: dict[str, Callable[[], str]] = {
    "indent 2 (as import writes it)": lambda: json.dumps(spaced(IDS), indent=2),
    "compact": lambda: json.dumps(spaced(IDS), separators=(",", ":")),
    "one line, default separators": lambda: json.dumps(spaced(IDS)),
    "one id": lambda: json.dumps(make_manifest(["t-1"], controls=[])),
    "non-ASCII ids": lambda: json.dumps(make_manifest(["t-\u00e9", "t-\u00ea", "t-z"]), ensure_ascii=False, indent=1),
    "unsorted": lambda: json.dumps(spaced(IDS)).replace('"t-001", "t-002"', '"t-002", "t-001"'),
    "listed twice": lambda: json.dumps(spaced(IDS)).replace('"t-002", "t-003"', '"t-002", "t-002"'),
    "escaped id": lambda: json.dumps(spaced(IDS)).replace('"t-003"', '"t-\\u0030"'),
    "empty id first": lambda: json.dumps(spaced(IDS)).replace('"neg-01", ', '"", "neg-01", ', 1),
    "empty id last": lambda: json.dumps(spaced(IDS)).replace('"t-003"]', '"t-003", ""]', 1),
    "empty id between": lambda: json.dumps(spaced(IDS)).replace('"t-001", ', '"t-001", "", ', 1),
    "only an empty id": lambda: json.dumps(make_manifest([""], controls=[])),
    "surrounding space": lambda: json.dumps(spaced(IDS)).replace('"t-003"', '"t-003 "'),
    "leading space, first": lambda: json.dumps(spaced(IDS)).replace('"neg-01", ', '" neg-01", ', 1),
    "a tab inside": lambda: json.dumps(spaced(IDS)).replace('"t-003"', '"t-\t003"'),
    "mixed separators": lambda: json.dumps(spaced(IDS)).replace('"t-001", "t-002"', '"t-001","t-002"'),
    "a form feed between (not JSON)": lambda: json.dumps(spaced(IDS)).replace('"t-001", "t-002"', '"t-001",\f"t-002"'),
    "quotes without a comma (not JSON)": lambda: json.dumps(spaced(IDS)).replace('"t-001", "t-002"', '"t-001""t-002"'),
    "an id between ids (not JSON)": lambda: json.dumps(spaced(IDS)).replace('"t-001", "t-002"', '"t-001"x"t-002"'),
    "one id, two strings (not JSON)": lambda: json.dumps(make_manifest(["a"], controls=[])).replace('["a"]', '["a"b"c"]'),
    "a number among them": lambda: json.dumps(spaced(IDS)).replace('"t-003"', "3"),
    # a raw newline inside a string is not JSON; lifted, it would read as two IDs (the digest still right)
    "a newline inside an id (not JSON)": lambda: json.dumps(spaced(IDS), indent=2).replace(
        '"t-002",\n      "t-003"', '"t-002\nt-003"'),
    "a newline inside the one id (not JSON)": lambda: json.dumps(make_manifest(["a"], controls=[])).replace(
        '["a"]', '["a\nb"]'),
    "notes list task_ids first": lambda: json.dumps({"notes": {"task_ids": ["x", "y"]}, **spaced(IDS)}),
    "task_ids in notes only": lambda: json.dumps({"notes": {"task_ids": ["x"]}, **make_manifest(IDS, with_ids=False)}),
    "the marker spelled in a note": lambda: json.dumps({**spaced(IDS), "notes": "\x1fbenchgate: dataset.task_ids"}),
    "the marker as the list, another spelling": lambda: json.dumps(
        {"notes": {"task_ids": ["x"]}, **make_manifest(IDS, with_ids=False)}).replace(
        '"task_ids_sha256"', '"task_ids": "\\u001Fbenchgate: dataset.task_ids", "task_ids_sha256"'),
    "task_ids twice": lambda: json.dumps(spaced(IDS)).replace('"task_ids_sha256"', '"task_ids": ["a"], "task_ids_sha256"'),
    "a count that disagrees": lambda: json.dumps(spaced(IDS)).replace('"task_count": 5', '"task_count": 6'),
    "truncated after the list": lambda: json.dumps(spaced(IDS))[:-30],
}
def read(path: Path) -> tuple[str, Any]:
    """What load_manifest gives: ("ok", the fields that differ by listing) or ("error", the message)."""
    try:
        m = gate.load_manifest(path)
    except gate.GateError as exc:
        return "error", str(exc)
    return "ok", (m.sha256, m.task_count, None if m.task_ids is None else (list(m.task_ids), len(m.task_ids),
                                                                          m.task_ids.digest()))


class Lifted(GateCase):
    def load_both(self, text: str) -> tuple[tuple[str, Any], tuple[str, Any], bool]:
        path = self.write_text("m.json", text.encode("utf-8"))
        calls: list[bool] = []
        real = gate._lifted_json

        def noted(*args: Any) -> Any:
            parsed = real(*args)
            calls.append(parsed is not None)
            return parsed

        with mock.patch.object(gate, "_lifted_json", noted):
            fast = read(path)
        with mock.patch.object(gate, "_lift_task_ids", lambda raw: None):
            whole = read(path)
        return fast, whole, any(calls)

    def test_every_listing_reads_as_the_whole_parse_reads_it(self) -> None:
        """Each listing: the same IDs (sorted), count, digest and sha256, or the same error, lifted or not; the
        listings import and init write are lifted, and no other form is."""
        lifted = set()
        for name, make in LISTINGS.items():
            with self.subTest(name):
                fast, whole, was_lifted = self.load_both(make())
                self.assertEqual(fast, whole)
                if was_lifted:
                    lifted.add(name)
        self.assertEqual(lifted, {"indent 2 (as import writes it)", "compact", "one line, default separators",
                                  "one id", "non-ASCII ids", "a count that disagrees"})

    def test_the_lifted_ids_are_the_listed_ones(self) -> None:
        """Against an independent reading: json.loads's list, sorted; the digest is ids_digest's."""
        text = LISTINGS["non-ASCII ids"]()
        ok, (_, count, (ids, n, digest)) = self.load_both(text)[0]
        listed = json.loads(text)["dataset"]["task_ids"]
        self.assertEqual((ok, ids, n, count, digest), ("ok", sorted(listed), 3, 3, gate.ids_digest(listed)))

    def test_the_digest_of_ids_past_one_slice_is_the_digest_of_them_all(self) -> None:
        """DeclaredIds hashes its text a MiB at a time: at 1 MiB of IDs and either side, and past two slices, its
        digest is the definition's (tests/oracles.py) of all of them (a slice boundary may fall inside an ID)."""
        step = 1 << 20
        for size in (step - 9, step, step + 9, 2 * step + 5):
            ids = [f"t-{n:07d}" for n in range(size // 10 + 1)]  # 9 characters and a newline each
            with self.subTest(bytes=len("\n".join(ids))):
                self.assertEqual(gate.DeclaredIds.of(ids).digest(), ids_digest(ids))

    def test_the_digest_copies_at_most_a_mib_at_a_time(self) -> None:
        """The IDs are hashed in slices of 1 MiB (2.5 MiB of them: three updates, each at most 1 MiB): the
        text is never copied whole to bytes, so a manifest of 10^6 IDs costs its text once."""
        ids = [f"t-{n:07d}" for n in range((5 << 19) // 10)]  # 9 characters and a newline each
        sizes: list[int] = []
        real = gate.hashlib.sha256

        class Counted:
            def __init__(self) -> None:
                self.inner = real()

            def update(self, data: bytes) -> None:
                sizes.append(len(data))
                self.inner.update(data)

            def hexdigest(self) -> str:
                return self.inner.hexdigest()

        declared = gate.DeclaredIds.of(ids)
        with mock.patch.object(gate.hashlib, "sha256", Counted):
            digest = declared.digest()
        self.assertEqual(digest, ids_digest(ids))
        self.assertEqual(sizes[:2], [1 << 20, 1 << 20])
        self.assertEqual(len(sizes), 3)
        self.assertEqual(sum(sizes), len("\n".join(ids)))

    def test_a_slice_boundary_falls_between_ids(self) -> None:
        """With slices of a few bytes, every ID is still read whole and in order, and an unsorted pair, a repeat or
        an empty last ID across a boundary is still found (the whole parse then reads an unsorted list, and names
        the repeat or the empty ID)."""
        ids = [f"t-{n:04d}" for n in range(300)]
        text = json.dumps(make_manifest(ids, controls=[]), indent=2)
        for step in (1, 7, 64, 1 << 20):
            with self.subTest(step=step), mock.patch.object(gate, "_LIFT_STEP", step):
                fast, whole, was_lifted = self.load_both(text)
                self.assertEqual((fast, was_lifted), (whole, True))
                self.assertEqual(fast[1][2][0], ids)
                ended = make_manifest(ids, controls=[])
                ended["dataset"]["task_ids"].append("")  # an empty ID last, after a slice's separator
                fast, whole, was_lifted = self.load_both(json.dumps(ended, indent=2))
                self.assertEqual((fast, was_lifted, fast[0]), (whole, False, "error"))
                for at, other in ((150, 151), (150, 149)):  # two IDs swapped, one listed twice
                    edited = make_manifest(ids, controls=[])
                    edited["dataset"]["task_ids"][at] = ids[other]
                    edited["dataset"]["task_ids"][other] = ids[at] if other > at else ids[other]
                    fast, whole, was_lifted = self.load_both(json.dumps(edited, indent=2))
                    self.assertEqual((fast, was_lifted), (whole, False))
                    self.assertEqual(fast[0], "ok" if other > at else "error")


class StreamedAgainstTheText(GateCase):
    def test_a_sorted_ledger_is_checked_without_a_set_of_the_ids(self) -> None:
        """A check of a sorted ledger of the declared tasks builds no set of the declared IDs (DeclaredIds.ids);
        one task in place of another (the count still right) is found all the same, by the per-task table."""
        from tests.builders import valid_ledger

        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        text = "".join(json.dumps(r) + "\n" for r in sorted(records, key=lambda r: (r["task_id"], r["attempt"])))
        sets: list[int] = []
        real = gate.DeclaredIds.ids

        def counted(self_: gate.DeclaredIds) -> frozenset[str]:
            sets.append(len(self_))
            return real(self_)

        with mock.patch.object(gate, "_FAST_MIN_BYTES", 0), mock.patch.object(gate.DeclaredIds, "ids", counted):
            r = self.write_text("runs.jsonl", text.encode("utf-8"))
            code, out, _ = self.run_gate("--manifest", str(m), "--runs", str(r))
            self.assertEqual((code, sets), (0, []))
            last = records[-1]["task_id"]
            r = self.write_text("runs.jsonl", text.replace(f'"{last}"', '"zz-other"').encode("utf-8"))
            code, out, _ = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual(code, 1)
        self.assertIn("never_started", out)
        self.assertIn("unexpected_task", out)
        self.assertEqual(len(sets), 1)


class EditedListings(GateCase):
    def test_random_edits_of_a_listing_read_as_the_whole_parse_reads_them(self) -> None:
        """400 seeded listings, each a valid one (any indent, separators, ID alphabet) with up to three characters
        inserted or deleted inside the list (quotes, backslashes, commas, brackets, blanks, newlines, NUL, U+2028,
        non-ASCII), read in slices of 1 byte to 1 MiB: lifted or not, load_manifest gives what the whole parse
        gives."""
        rnd = random.Random(39)
        alphabet = ['"', "\\", ",", "]", "[", " ", "\n", "\t", "\r", "\f", "\x00", "\u2028", "\u00e9", "x", "0"]
        lifted = 0
        for case in range(400):
            letters = "ab-0\u00e9" + rnd.choice(["", "", "", "]", " ", ","])
            ids = sorted({"".join(rnd.choice(letters) for _ in range(rnd.randint(1, 4))) for _ in range(6)}
                         | set(rnd.choice([[], [], [], [""], [" a"], ["b "]])))  # (the last three refused)
            ids += [""] * (rnd.random() < 0.1)  # an empty ID last (refused), where a slice may end before it
            indent = rnd.choice([None, 0, 2])
            separators = rnd.choice([None, (",", ":"), (", ", ": ")]) if indent is None else None
            text = json.dumps(make_manifest(ids, controls=[]), indent=indent, separators=separators,
                              ensure_ascii=rnd.random() < 0.3)
            start = text.index('"task_ids"')
            end = text.index("]", text.index("[", start))
            for _ in range(rnd.randint(0, 3)):
                at = rnd.randint(start + 12, end)
                text = text[:at] + rnd.choice(alphabet) + text[at:] if rnd.random() < 0.7 else text[:at] + text[at + 1:]
            step = rnd.choice([1, 5, 64, 1 << 20])  # slices of a few bytes: their edges fall everywhere
            with self.subTest(case=case, step=step, text=text[start:end + 20]), \
                    mock.patch.object(gate, "_LIFT_STEP", step):
                fast, whole, was_lifted = Lifted.load_both(self, text)
                self.assertEqual(fast, whole)
                lifted += was_lifted
        self.assertGreater(lifted, 12, lifted)  # (the valid listings among them are lifted)


class ControlsOutsideTheList(GateCase):
    def test_a_control_the_list_does_not_hold_is_outside_the_dataset_at_any_size(self) -> None:
        """A positive control naming a task the listed IDs do not hold (and no record names) is
        control_outside_dataset whether the ledger is read by the sorted stream (5,000 tasks: the lifted list's
        text answers membership, no set built) or by the per-task table (40 tasks), never control_missing."""
        for tasks in (40, 5000):
            ids = [f"t-{i:05d}" for i in range(tasks)]
            manifest = make_manifest(ids, claim_id="c", name="suite")
            manifest["controls"] = [{"task_id": "t-00001", "role": "negative", "expected": "fail"},
                                    {"task_id": "zzz-ctl", "role": "positive", "expected": "pass"}]
            records = [{"run_id": "r", "task_id": t, "attempt": 1, "outcome": "pass" if i % 2 == 0 else "fail"}
                       for i, t in enumerate(ids)]
            code, out, err = self.run_gate("--manifest", str(self.write_json("m.json", manifest)), "--runs",
                                           str(self.write_jsonl("r.jsonl", records)), "--format", "json")
            with self.subTest(tasks=tasks):
                self.assertEqual(code, 1, err)
                codes = [f["code"] for f in json.loads(out)["findings"]]
                self.assertIn("control_outside_dataset", codes)
                self.assertNotIn("control_missing", codes)
