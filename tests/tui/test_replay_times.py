"""A record's time, one way on every screen and the command line: UTC to the second. The
Replay tab's "Original time" showed it as the record wrote it (``2026-01-05T09:01:41.010083
+00:00`` for IntentusNet 1.3.0's runtime form, ``...Z`` for the documented form) where
``replay`` says ``recorded 2026-01-05T09:01:41Z``; the list showed a time written with
another offset at that offset's clock."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.demo.writer import DemoManifest, build_demo_world
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import list_lines, make_app, settle
from tests.tui.side_pane_harness import SidePaneApp, finish_workers

UTC_SECOND = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return build_demo_world(tmp_path_factory.mktemp("demo"))


def recorded(execution_id: str, directory: Path) -> str:
    """The time ``replay`` gives: ``replay of ID (recorded T)``."""
    run = cli("replay", execution_id, "--dir", str(directory))
    assert run.returncode == 0, run.stderr
    found = re.search(r"\(recorded (\S+)\)", run.stdout.splitlines()[0])
    assert found is not None, run.stdout
    return found.group(1)


async def original_time(path: Path) -> str:
    """The Replay tab's "Original time" after ``r``."""
    app = SidePaneApp(load_detail(path), tab="replay")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("r")
        await finish_workers(pilot)
        text = app.side.replay_pane.text
    found = re.search(r"Original time +(\S+)", text)
    assert found is not None, text
    return found.group(1)


@pytest.mark.parametrize("form", ["runtime_form", "documented_form"])
async def test_the_replay_tab_shows_a_records_time_as_replay_does(
    demo: DemoManifest, form: str
) -> None:
    execution_id = next(i for i in demo.ids(form) if i in demo.ids("success"))
    shown = await original_time(demo.record_path(execution_id))
    assert UTC_SECOND.fullmatch(shown), shown
    assert shown == recorded(execution_id, demo.records_dir)


async def test_a_time_written_at_another_offset_is_shown_in_utc_everywhere(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """The real 1.3.0 record, its time written at +02:00 (the same instant) as another
    writer may: the list, the Replay tab and the command line say the same UTC time."""
    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    path = records / f"{real_world.success}.json"
    record = json.loads(path.read_text("utf-8"))
    when = datetime.fromisoformat(record["header"]["createdUtcIso"])
    record["header"]["createdUtcIso"] = when.astimezone(timezone(timedelta(hours=2))).isoformat()
    path.write_text(json.dumps(record), "utf-8")
    utc = when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert recorded(real_world.success, records) == utc
    assert await original_time(path) == utc
    app = make_app(records)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        row = next(line for line in list_lines(app) if real_world.success[:8] in line)
    assert row.rstrip().endswith(f"{utc[:10]} {utc[11:19]}"), row
