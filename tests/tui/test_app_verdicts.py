"""The verdict on records written by the real intentusnet 1.3.0, as the debugger shows it:
a failed execution, a tampered envelope and an edited final response are each listed for
what they are (never "✓ succeeded"), first in the list, and counted in the header; the
timeline header and the Verify tab give the same verdict with its reasons."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

from intentusnet import IntentusRuntime
from intentusnet.core.agent import BaseAgent
from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
from intentusnet.protocol.agent import Capability
from intentusnet.protocol.enums import RoutingStrategy
from intentusnet.protocol.intent import IntentEnvelope

from tests.intentusnet_world import _envelope, _new_id, build_real_world, with_a_copy
from tests.tui.app_support import (
    WIDE,
    list_lines,
    make_app,
    screen_text,
    settle,
    timeline_summary,
)


def _failed_execution(base: Path, records: Path) -> str:
    """A whole record whose agent answered with an error: final status "error"."""

    class Refuser(BaseAgent):
        def handle_intent(self, env: IntentEnvelope) -> AgentResponse:
            return AgentResponse(version="1.0", status="error", payload=None, metadata={})

    definition = AgentDefinition(
        name="refuser",
        nodePriority=1,
        capabilities=[Capability(intent=IntentRef(name="Summarize", version="1.0"))],
    )
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    old_cwd = os.getcwd()
    os.chdir(base)  # 1.3.0 writes relative to the current directory
    try:
        runtime = IntentusRuntime(record_dir=str(records))
        runtime.register_agent(lambda router: Refuser(definition, router))
        before = {p.stem for p in records.glob("*.json")}
        runtime.router.route_intent(_envelope(RoutingStrategy.DIRECT, [], "refuser"))
        return _new_id(records, before)
    finally:
        os.chdir(old_cwd)


def _edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")


def _row(lines: list[str], execution_id: str) -> str:
    return next(line for line in lines if execution_id[:8] in line)


async def test_real_failed_tampered_and_edited_records_are_listed_and_counted(
    tmp_path: Path,
) -> None:
    world = build_real_world(tmp_path)
    records = world.records_dir
    failed = _failed_execution(tmp_path, records)
    saved = json.loads((records / f"{failed}.json").read_text(encoding="utf-8"))
    assert saved["finalResponse"]["status"] == "error"  # as the real library wrote it

    def edit_envelope(record: dict) -> None:  # type: ignore[type-arg]
        record["envelope"]["payload"]["text"] = "something else"

    def edit_final_response(record: dict) -> None:  # type: ignore[type-arg]
        record["finalResponse"]["payload"] = {"by": "fb-secondary", "echo": "forged"}

    _edit(records / f"{world.fallback}.json", edit_envelope)
    _edit(records / f"{world.success}.json", edit_final_response)

    app = make_app(records)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        lines = list_lines(app)
        titles = [line.split(" (")[0] for line in lines if line.startswith("──")]
        assert titles == [
            "── Untrusted: tampered or chain broken",
            "── Failed",
            "── Succeeded, not replayable",
        ]
        tampered = _row(lines, world.fallback)
        assert "⚠ untrusted" in tampered and "TAMPERED" in tampered
        assert "✗ untrust." in tampered  # not replayable: investigate first
        edited = _row(lines, world.success)
        assert "⚠ untrusted" in edited and "TAMPERED" in edited
        failed_row = _row(lines, failed)
        assert "✗ failed" in failed_row and "verified" in failed_row
        assert "✓ succeeded" not in "\n".join((tampered, edited, failed_row))
        truncated = _row(lines, world.error_truncated)  # 1.3.0 died writing the error
        assert "✗ failed" in truncated and "unverif." in truncated
        assert "✓ succeeded" in _row(lines, world.invalidated)
        text = screen_text(app)
        assert (
            "5 executions · 4 need attention: 2 untrusted (2 tampered), 2 failed"
            " · 1 succeeded (1 not replayable)" in text
        )

        # the first row is the first that needs attention; its header and Verify tab agree
        listing = app.execution_list
        assert listing.selected_key in (f"{world.fallback}.json", f"{world.success}.json")
        assert listing.select_key(f"{world.success}.json")
        await settle(pilot)
        summary = timeline_summary(app)
        assert "⚠ untrusted" in summary
        assert (
            "integrity tampered — the record contradicts itself: finalResponse differs from the FINAL_RESPONSE event"
            in (summary)
        )
        assert "replay    ✗ no (untrusted)" in summary
        await pilot.press("1")
        await settle(pilot)
        verify = app.side_pane.verify_pane.text.splitlines()
        assert verify[0].split() == ["Integrity", "TAMPERED"]
        assert "finalResponse differs from the FINAL_RESPONSE event in payload" in verify[1]
        # The whole verdict, as the timeline says it: its two other answers and reasons.
        assert verify[2].split(" — ")[0].split() == ["Outcome", "⚠", "untrusted"]
        assert "cannot be believed: the record claims succeeded" in verify[2]
        assert verify[3].split(" — ")[0].split() == ["Replay", "✗", "no", "(untrusted)"]
        assert "the record fails its integrity check" in verify[3]
        # What to do is said once, at the end of the outcome's reason (it came twice).
        assert verify[2].endswith(
            "investigate before trusting or replaying anything recorded in it"
        )
        assert sum("investigate before trusting" in line for line in verify) == 1

        assert listing.select_key(f"{failed}.json")
        await settle(pilot)
        summary = timeline_summary(app)
        assert "✗ failed" in summary and "the final response is an error" in summary
        assert "integrity verified" in summary

        # "!" shows the failures-first view from any other and puts the cursor on top
        await pilot.press("v", "v")
        await settle(pilot)
        assert not listing.model.view.grouped
        await pilot.press("exclamation_mark")
        await settle(pilot)
        assert listing.model.view.name == "grouped"
        assert listing.cursor_row == 1


async def test_a_copy_is_verified_with_a_note_and_a_record_filed_as_another_is_tampered(
    tmp_path: Path,
) -> None:
    """A copy of a real record kept beside it (``ID.copy.json``) was ``⚠ untrusted ·
    TAMPERED``: "the record contradicts itself" for its file's name, though every byte of
    the record is as 1.3.0 wrote it. It is believed now, and the Verify tab notes its name.
    A record filed as another execution (its file named by that execution's id: the store
    would hand it out as that one's) is still tampered."""
    world = build_real_world(tmp_path / "real")
    records = tmp_path / "records"
    copy = with_a_copy(world, records)
    filed = f"{world.invalidated[:-1]}{'0' if world.invalidated[-1] != '0' else '1'}.json"
    shutil.copy(records / f"{world.fallback}.json", records / filed)
    app = make_app(records)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        lines = list_lines(app)
        # Two files hold the copied id, and another's id names a file: rows by file name.
        copy_row = next(line for line in lines if ".copy.json" in line)
        assert "✓ succeeded verified ↺ yes" in copy_row, lines
        (filed_row,) = [line for line in lines if filed[-10:] in line]
        assert "⚠ untrusted TAMPERED ✗ untrust." in filed_row, lines
        assert app.execution_list.select_key(copy)
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        verify = " ".join(app.side_pane.verify_pane.text.split())
        assert verify.startswith("Integrity VERIFIED"), verify
        assert "every check passed; its file is not named by its id (see Structure)" in verify
        assert f"differs from the file name '{copy.removesuffix('.json')}': a copy" in verify
        assert app.execution_list.select_key(filed)
        await settle(pilot)
        verify = " ".join(app.side_pane.verify_pane.text.split())
        assert verify.startswith("Integrity TAMPERED"), verify
        assert f"differs from the file name '{filed.removesuffix('.json')}'" in verify
