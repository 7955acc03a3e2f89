"""The load message of a record IntentusNet 1.3.0 cut short writing its error response,
as ``inspect`` and ``verify`` print it: "Cut short by its writer: file ends at …", the
story its verdict tells (most likely cut by its writer, not damaged afterwards). It said
"Damaged record: file ends at …" beside that verdict. A file damaged afterwards (a
success cut short) still says "Damaged record: …"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.intentusnet_world import RealWorld, write_cut_and_damaged

WHERE = "file ends at byte "
CUT = f"Cut short by its writer: {WHERE}"
DAMAGED = f"Damaged record: {WHERE}"


@pytest.fixture
def records(real_world: RealWorld, tmp_path: Path) -> Path:
    """The writer's cut error record, and a success record cut short since (by the test)."""
    return write_cut_and_damaged(real_world, tmp_path / "records")


def test_inspect_says_its_writer_cut_it_short(real_world: RealWorld, records: Path) -> None:
    done = cli("inspect", str(records / f"{real_world.error_truncated}.json"))
    assert done.returncode == 0, done.stderr
    problems = [line for line in done.stdout.splitlines() if line.startswith("problem ")]
    assert len(problems) == 1 and problems[0].startswith(f"problem     {CUT}"), problems
    assert "Damaged record" not in done.stdout
    assert "most likely cut by its writer, not damaged afterwards" in done.stdout
    # Its status and where it breaks in the same words (they said "corrupted", "damage").
    assert "status      corrupted (most likely cut short by its writer)" in done.stdout
    assert f"cut short   {WHERE}" in done.stdout and "damage " not in done.stdout
    # A file damaged afterwards (a success cut short by the test) still says so.
    damaged = cli("inspect", str(records / f"{real_world.success}.json"))
    assert f"problem     {DAMAGED}" in damaged.stdout
    assert "Cut short by its writer" not in damaged.stdout
    assert "status      corrupted\n" in damaged.stdout and f"damage      {WHERE}" in damaged.stdout


def test_inspect_json_keeps_its_fields_and_says_the_same(
    real_world: RealWorld, records: Path
) -> None:
    doc = json.loads(
        cli("inspect", "--json", str(records / f"{real_world.error_truncated}.json")).stdout
    )
    assert doc["message"].startswith(CUT), doc["message"]
    assert doc["problems"] == [doc["message"]]
    assert "Damaged record" not in json.dumps(doc)
    damaged = cli("inspect", "--json", str(records / f"{real_world.success}.json")).stdout
    assert json.loads(damaged)["message"].startswith(DAMAGED)


def test_verify_json_and_the_listing_say_the_same(real_world: RealWorld, records: Path) -> None:
    path = records / f"{real_world.error_truncated}.json"
    doc = json.loads(cli("verify", "--json", str(path)).stdout)
    assert "Damaged record" not in json.dumps(doc)
    assert CUT in json.dumps(doc)
    listed = json.loads(
        cli("inspect", "--list", "--json", "--no-cache", "--dir", str(records)).stdout
    )
    messages = {row["execution_id"]: row["message"] for row in listed["executions"]}
    assert messages[real_world.error_truncated].startswith(CUT)
    assert messages[real_world.success].startswith(DAMAGED)


def test_diff_notes_what_was_recovered_as_the_same_story(
    real_world: RealWorld, records: Path
) -> None:
    """It noted "damaged record, compared what was recovered: Damaged record: …"."""
    other = real_world.records_dir / f"{real_world.fallback}.json"
    cut = cli("diff", str(other), str(records / f"{real_world.error_truncated}.json"))
    assert f"note: cut short by its writer, compared what was recovered: {WHERE}" in (cut.stdout), (
        cut.stdout
    )
    assert "Damaged record" not in cut.stdout and "damaged record" not in cut.stdout
    damaged = cli("diff", str(other), str(records / f"{real_world.success}.json"))
    assert f"note: damaged record, compared what was recovered: {WHERE}" in (damaged.stdout), (
        damaged.stdout
    )
