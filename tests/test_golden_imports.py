"""Every importer's words and figures, held whole: each registry row's sample input (the one the trust-rule tests
use) is imported and its draft checked, and what a user reads -- the import's notes, the draft manifest, the
ledger's digest and the check's text card -- must equal tests/fixtures/golden/imports.json, line for line.

The other tests pin a rule each; this one pins the rest: a figure or a word that changes in any note, draft or card
fails here, naming the row and the part. After a deliberate change, rewrite the file and read its diff before
committing it:

    BENCHGATE_REGEN_GOLDEN=1 python3 -m unittest tests.test_golden_imports

Paths are written relative to the test's temporary folder, the fixtures and the repository; the card's manifest
digest is left out, since the draft it digests names the temporary folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

from tests.realfiles import RealFileCase, sample_inputs
from tests.support import FIXTURES, ROOT, placeholders

GOLDEN = FIXTURES / "golden" / "imports.json"
_MANIFEST_DIGEST = re.compile(r"^(manifest\s*: sha256 )[0-9a-f]{64}$", re.MULTILINE)


class EveryImportAsTheUserReadsIt(RealFileCase):
    def relative(self, text: str) -> str:
        text = placeholders(text, [(self.dir, "<tmp>"), (FIXTURES, "<fixtures>"), (ROOT, "<root>")])
        return _MANIFEST_DIGEST.sub(r"\1<the draft's, which names the temporary folder>", text)

    def read(self) -> dict[str, dict[str, Any]]:
        seen = {}
        for fmt, args in sorted(sample_inputs(self).items()):
            imp = self.import_ok(fmt, *args, name=fmt)
            code, card, err = self.run_gate("check", "--manifest", str(imp.draft_path), "--runs", str(imp.runs))
            self.assertEqual(err, "")
            seen[fmt] = {"notes": self.relative(imp.err).splitlines(),
                         "draft": json.loads(self.relative(json.dumps(imp.draft))),
                         "ledger": {"records": len(imp.records),
                                    "sha256": hashlib.sha256(imp.runs.read_bytes()).hexdigest()},
                         "check": {"exit": code, "card": self.relative(card).splitlines()}}
        return seen

    def test_every_row_reads_as_it_did(self) -> None:
        seen = self.read()
        if os.environ.get("BENCHGATE_REGEN_GOLDEN"):  # a run that writes the file compares nothing: never a pass
            GOLDEN.write_text(json.dumps(seen, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            self.skipTest(f"{GOLDEN} rewritten: read its diff before committing it")
        golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
        self.assertEqual(sorted(seen), sorted(golden), "a row without a golden entry, or an entry without a row: "
                                                       "regenerate (see the module's docstring)")
        self.maxDiff = None
        for fmt in sorted(seen):
            for part in ("notes", "draft", "ledger", "check"):
                with self.subTest(fmt=fmt, part=part):
                    self.assertEqual(seen[fmt][part], golden[fmt][part])
