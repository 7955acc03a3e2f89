"""A record with no response (an error response IntentusNet 1.3.0 cut short, an execution
that never finished): the Replay tab, its refusal, the forced-replay dialog and the forced
result say what ``replay --force`` says, that a forced replay returns none. They offered
"A forced replay is possible after a confirmation", weighed "May raise parse errors", then
showed "FROM REPLAY the recorded response" with a null payload box."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.demo.writer import DemoManifest, build_demo_world
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.tui.side_pane_harness import SidePaneApp, forced_replay, refused_replay

SIZE = (100, 50)
NONE = "no response was recorded, so a forced replay returns none"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return build_demo_world(tmp_path_factory.mktemp("demo"))


def flat(text: str) -> str:
    return " ".join(text.split())  # the pane wraps


async def _walk(path: Path, wal_dir: Path | None) -> tuple[str, str, str, str, bool]:
    """The Replay tab before a replay, after r, the dialog of R, after y; and whether the
    payload box is shown after it."""
    app = SidePaneApp(load_detail(path, wal_dir), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        pane = app.side.replay_pane
        waiting = flat(pane.text)
        refused = flat(await refused_replay(pilot))
        dialog = flat(await forced_replay(pilot))
        assert pane.outcome is not None and pane.outcome.kind == "result"
        forced = pane.text
        payload_shown = not pane.has_class("-no-payload")
    return waiting, refused, dialog, forced, payload_shown


def _assert_says_none(
    waiting: str, refused: str, dialog: str, forced: str, payload_shown: bool
) -> None:
    assert f"Nothing to replay: {NONE}." in waiting, waiting
    assert "A forced replay is possible" not in waiting
    assert "forced replay returns none" in refused, refused
    assert "returns whatever" not in refused and "after a confirmation" not in refused
    assert f"Nothing to replay: {NONE} (no status, no payload)." in dialog, dialog
    assert "risk" not in dialog  # nothing is returned: no risk to weigh
    lines = forced.splitlines()
    assert lines[0].startswith("Nothing replayed   NO RESPONSE"), forced
    assert "Status          none recorded" in forced
    assert "FROM REPLAY" not in forced and "NO STATUS" not in forced
    assert "No response was recorded, so a forced replay returns none." in flat(forced)
    assert not payload_shown


@pytest.mark.parametrize("scenario", ["truncated_error_record", "crash_mid_attempt"])
async def test_a_demo_record_with_no_response_is_never_offered_as_an_answer(
    demo: DemoManifest, scenario: str
) -> None:
    execution_id = demo.first(scenario)
    said = await _walk(demo.record_path(execution_id), demo.wal_dir)
    _assert_says_none(*said)
    # As the command line says it.
    run = cli("replay", execution_id, "--dir", str(demo.root.parent), "--force")
    assert run.returncode == 3 and "status: none recorded" in run.stdout
    run = cli("replay", execution_id, "--dir", str(demo.root.parent))
    assert "(nothing to replay: --force returns none)" in run.stderr


async def test_a_real_cut_short_error_record_says_so_too(real_world: RealWorld) -> None:
    path = real_world.records_dir / f"{real_world.error_truncated}.json"
    said = await _walk(path, None)
    _assert_says_none(*said)
    forced = flat(said[3])  # nothing returned: no answer to call partial
    assert "cut short by its writer, no response was recorded in it" in forced, forced
    assert "answer" not in forced


async def test_a_record_with_a_response_still_offers_its_forced_replay(
    real_world: RealWorld,
) -> None:
    path = real_world.records_dir / f"{real_world.invalidated}.json"
    waiting, refused, dialog, forced, payload_shown = await _walk(path, None)
    assert "A forced replay is possible after a confirmation." in waiting
    assert "A forced replay returns what was recorded anyway" in refused
    assert "Force replay risk" in dialog and "Nothing to replay" not in dialog
    assert "FROM REPLAY" in forced and payload_shown


@pytest.mark.parametrize(("value", "kind"), [("done", "a string"), (42, "a number")])
async def test_a_malformed_response_is_never_offered_as_an_answer(
    real_world: RealWorld, tmp_path: Path, value: object, kind: str
) -> None:
    """finalResponse there but not an object: the tab offered a forced replay and showed
    "FROM REPLAY" above a null payload."""
    from tests.cli.test_replay_malformed_response import malformed

    records = malformed(real_world, tmp_path, value, event_too=False)
    waiting, refused, dialog, forced, payload_shown = await _walk(
        records / f"{real_world.success}.json", None
    )
    said = f"the recorded response is {kind}, not an object, so a forced replay returns none"
    assert f"Nothing to replay: {said}." in waiting, waiting
    assert "a malformed response, no response to replay" in refused, refused
    assert f"Nothing to replay: {said} (no status, no payload)." in dialog, dialog
    assert forced.splitlines()[0].startswith("Nothing replayed   NO RESPONSE"), forced
    assert f"{said[0].upper()}{said[1:]}." in flat(forced)
    assert "FROM REPLAY" not in forced and not payload_shown
