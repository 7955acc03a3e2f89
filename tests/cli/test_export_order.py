"""``export`` orders the files of one execution as the listings do: the record named after
its id first, then its copies by name, wherever their names would put them. Records
written by the real IntentusNet 1.3.0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli.support import cli
from tests.intentusnet_world import RealWorld

# A copy named after another (made-up) id, whose name sorts after every real id.
MISNAMED = "ffffffff-ffff-4fff-8fff-ffffffffffff.json"


def test_a_copy_comes_right_after_its_record_whatever_its_name(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """``export`` ordered files by the id their names give: a copy of X saved as
    ``huge.json`` came last, one saved as ``0.json`` first, where ``inspect --list --json``
    puts both right after ``X.json``. The id inside each file places it now."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    record = records / f"{real_world.fallback}.json"
    for name in ("huge.json", "0.json", MISNAMED, f"{real_world.fallback}.copy.json"):
        shutil.copy(record, records / name)
    (records / "alias.json").symlink_to(record.name)  # a link in the store: a copy too
    # Rewritten with its keys sorted: the id is no longer in its first bytes.
    sorted_keys = json.dumps(json.loads(record.read_bytes()), sort_keys=True, indent=1)
    (records / "1-sorted.json").write_text(sorted_keys, encoding="utf-8")
    (records / "bom.json").write_bytes(b"\xef\xbb\xbf" + record.read_bytes())
    # Its header names two ids: the parse keeps the last, so do the listings.
    header = f'"executionId": "{real_world.fallback}"'
    two_ids = record.read_text("utf-8").replace(header, f'"executionId": "0", {header}', 1)
    (records / "dup-key.json").write_text(two_ids, encoding="utf-8")
    (records / "zz-broken.json").write_text("{ this is not json", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    export = cli("export", "--format", "json", str(records), "-o", str(out))
    assert export.returncode == 1, export.stderr  # zz-broken.json is skipped
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    exported = [(doc["execution_id"], doc["file"]) for doc in lines]
    listing = json.loads(cli("inspect", "--list", str(records), "--json").stdout)
    listed = [(row["execution_id"], row["file"]) for row in listing["executions"]]
    # The listing's order within each execution's files is export's.
    group = [file for ident, file in listed if ident == real_world.fallback]
    copies = ["0.json", "1-sorted.json", "alias.json", "bom.json", "dup-key.json", "huge.json"]
    copies.append(MISNAMED)
    copies.append(f"{real_world.fallback}.copy.json")
    assert group == [f"{real_world.fallback}.json", *sorted(copies)]
    assert [file for ident, file in exported if ident == real_world.fallback] == group
    # ... and the files of one execution come one after another, in execution-id order.
    start = exported.index((real_world.fallback, group[0]))
    assert exported[start : start + len(group)] == [(real_world.fallback, f) for f in group]
    ids = [ident for ident, _ in exported]
    assert ids == sorted(ids)
    assert sorted(exported) == sorted(p for p in listed if p[1] != "zz-broken.json")
