"""Two executions untrusted for different reasons (a tampered envelope; a final response
that contradicts its event), made from a real 1.3.0 record, and the debugger comparing them
full screen (``m`` on one, ``d`` on the other), as the comparison tests open it."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.core.wal.support import write_record_with_edited_log
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, mark_and_compare, settle

TAMPERED = "aaaaaaaa-tamp-4e10-9904-3c4ce275832d"
EDITED = "0f0f0f0f-edit-4e10-9904-3c4ce275832d"
ENVELOPE_WHY = "the envelope does not hash to the recorded envelopeHash"
EDITED_WHY = "the record contradicts itself: finalResponse differs from the FINAL_RESPONSE event"


def write_every_kind(base: Path, real_world: RealWorld) -> Path:
    """Under ``base`` (an ``.intentusnet`` directory): every record of the real world,
    ``TAMPERED`` and ``EDITED`` (``write_pair``) and a record whose log was edited. Returns
    the records directory."""
    records = base / "records"
    shutil.copytree(real_world.records_dir, records)
    write_pair(records, real_world.success)
    write_record_with_edited_log(base)
    return records


def write_pair(records: Path, source: str) -> None:
    """``TAMPERED`` and ``EDITED`` in ``records``, each a changed copy of ``source``."""
    record = json.loads((records / f"{source}.json").read_text())
    tampered = json.loads(json.dumps(record))
    tampered["header"]["executionId"] = TAMPERED
    tampered["envelope"]["payload"] = {"text": "changed"}  # its envelopeHash kept
    (records / f"{TAMPERED}.json").write_text(json.dumps(tampered, indent=2))
    edited = json.loads(json.dumps(record))
    edited["header"]["executionId"] = EDITED
    edited["finalResponse"]["metadata"]["agent"] = "someone-else"
    (records / f"{EDITED}.json").write_text(json.dumps(edited, indent=2))


@asynccontextmanager
async def comparing_the_pair(
    tmp_path: Path, real_world: RealWorld, size: tuple[int, int]
) -> AsyncIterator[tuple[IntentusApp, Pilot[Any]]]:
    """The debugger at ``size`` on the real world and the pair, ``TAMPERED`` marked and
    compared with ``EDITED``: the comparison's screen is open and settled."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    write_pair(records, real_world.success)
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{TAMPERED}.json", f"{EDITED}.json")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        yield app, pilot
