"""A record damaged before its final response (cut in the middle of its events, not the
way IntentusNet 1.3.0 leaves an error response): a forced replay returns none, and says
that none could be read from the damaged file. It said "no response was recorded", then,
two lines down, "damaged record, no response could be read from it": the execution may
well have answered, and the answer was lost with the file's end. (IntentusNet 1.3.0's own
cut of an error response is not damage: none was recorded, as tests/cli/test_replay.py
says of it.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.detail import load_detail
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld

DAMAGED = "no response could be read from the file"


def _cut_in_its_events(real_world: RealWorld, tmp_path: Path) -> Path:
    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    path = records / f"{real_world.success}.json"
    text = path.read_text("utf-8")
    events = json.loads(text)["events"]
    assert len(events) > 2
    path.write_text(text[: text.index('"AGENT_ATTEMPT_END"')], "utf-8")  # mid-events
    return records


def test_a_forced_replay_of_a_damaged_record_says_no_response_could_be_read(
    real_world: RealWorld, tmp_path: Path
) -> None:
    records = _cut_in_its_events(real_world, tmp_path)
    base = ("replay", real_world.success, "--dir", str(records), "--force")
    forced = cli(*base)
    assert forced.returncode == ExitCode.NOT_REPLAYABLE
    lines = forced.stdout.splitlines()
    assert lines[1] == f"nothing replayed: {DAMAGED}, so a forced replay returns none", lines
    assert "no response was recorded" not in forced.stdout
    as_json = cli(*base, "--json")
    assert as_json.returncode == ExitCode.NOT_REPLAYABLE
    warnings = json.loads(as_json.stdout)["warnings"]
    assert "No final response could be read from the file: payload is null" in warnings
    assert not any("was recorded" in warning for warning in warnings), warnings
    assert as_json.stderr == (
        f"intentus-tui: nothing replayed: {DAMAGED}, so a forced replay returns none\n"
    )
    # The debugger's Replay tab and dialog say it in the same words.
    detail = load_detail(records / f"{real_world.success}.json")
    assert detail.no_response_text == f"{DAMAGED}, so a forced replay returns none"
