"""A record whose finalResponse is there but is not an object (a string, a number, a list,
true): a malformed response, no answer. It counted as recorded: ``replay`` advised
``--force``, and a forced replay printed ``payload: null`` with exit 0 as if that were the
answer. Every place now says what ``replay --force`` does with it: it returns none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld

KINDS = {"a string": "done", "a number": 42, "an array": [1, 2], "a boolean": True}


def malformed(real_world: RealWorld, base: Path, value: Any, *, event_too: bool) -> Path:
    """A copy of the real 1.3.0 success record whose finalResponse is ``value``; with
    ``event_too`` its FINAL_RESPONSE event still holds the response (the record contradicts
    itself: tampered), else that event is gone (only malformed)."""
    records = base / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    path = records / f"{real_world.success}.json"
    doc = json.loads(path.read_text("utf-8"))
    doc["finalResponse"] = value
    if not event_too:
        doc["events"] = [e for e in doc["events"] if e["type"] != "FINAL_RESPONSE"]
    path.write_text(json.dumps(doc), "utf-8")
    return records


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("event_too", [False, True])
def test_a_malformed_response_is_no_answer_anywhere(
    real_world: RealWorld, tmp_path: Path, kind: str, event_too: bool
) -> None:
    records = malformed(real_world, tmp_path, KINDS[kind], event_too=event_too)
    base = ("replay", real_world.success, "--dir", str(records))
    refused = cli(*base)
    assert refused.returncode == ExitCode.NOT_REPLAYABLE
    assert refused.stderr.endswith("(nothing to replay: --force returns none)\n"), refused
    nothing = f"the recorded response is {kind}, not an object, so a forced replay returns none"
    forced = cli(*base, "--force")
    assert forced.returncode == ExitCode.NOT_REPLAYABLE  # not exit 0 for a null "answer"
    assert forced.stdout.splitlines()[1] == f"nothing replayed: {nothing}"
    assert "answer" not in forced.stdout
    assert "payload is null" not in forced.stdout  # why: said once, on that line
    # --json keeps every warning (a program reads the list, not the headline).
    assert any(
        w.endswith(": payload is null") for w in doc_warnings(cli(*base, "--force", "--json"))
    )
    doc = json.loads(cli(*base, "--force", "--json").stdout)
    assert doc["response_recorded"] is False and doc["payload"] is None
    assert doc["replayed"] is False
    inspected = cli("inspect", real_world.success, "--dir", str(records)).stdout
    replayable = next(line for line in inspected.splitlines() if "replayable  " in line)
    if event_too:  # the verdict's word: the record contradicts itself
        assert replayable.endswith(
            "no (untrusted): the record fails its integrity check: investigate before replaying it"
        )
    else:
        assert replayable.endswith(
            f"no (record_corrupted): the final response is {kind}, not an object: "
            "a malformed response, no response to replay"
        ), inspected


def doc_warnings(done: Any) -> list[str]:
    return list(json.loads(done.stdout)["warnings"])
