"""The crash view of one execution: record, WAL, or both."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.demo.writer import build_demo_world
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    return build_demo_world(tmp_path_factory.mktemp("pm"))


def test_crash_mid_attempt_names_the_attempt_in_flight_and_its_side_effect(demo) -> None:
    execution_id = demo.first("crash_mid_attempt")
    detail = load_detail(demo.record_path(execution_id), demo.wal_dir)
    pm = detail.postmortem
    assert pm is not None and pm.sources == ("record", "wal")
    assert pm.state == "incomplete" and pm.in_flight
    assert pm.last_event is not None and "AGENT_ATTEMPT_START" in pm.last_event
    assert pm.side_effect in ("read_only", "reversible", "irreversible")
    assert (
        pm.hint.verdict in ("safe_to_retry", "investigate_first", "do_not_retry") and pm.hint.reason
    )


def test_wal_only_execution(demo) -> None:
    execution_id = demo.first("crash_wal_only")
    detail = load_detail(demo.wal_path(execution_id), demo.wal_dir)
    doc = detail_to_json(detail)
    assert doc["execution_id"] == execution_id and doc["status"] == "incomplete"
    assert doc["load_status"] == "no_record" and doc["replayable_reason"] == "no_record"
    assert doc["last_event"]["source"] == "wal"
    assert doc["postmortem"]["sources"] == ["wal"] and doc["wal"]["state"] == "in_flight"


def test_record_without_wal_gets_a_cautious_hint(tmp_path: Path) -> None:
    data = make_record(agents=(("a", "error"), ("b", "ok")), final_status=None)
    data["events"] = data["events"][:-1]
    path = write_record(tmp_path, data)
    pm = load_detail(path).postmortem
    assert pm is not None and pm.hint.verdict == "investigate_first"
    assert pm.in_flight and pm.in_flight[0].startswith("b ")
    assert pm.completed_before == ("a error",)


def test_completed_record_says_replay_not_retry(tmp_path: Path) -> None:
    pm = load_detail(write_record(tmp_path, make_record())).postmortem
    assert pm is not None and pm.hint.verdict == "do_not_retry" and "Replay" in pm.hint.reason


def test_inspect_cli_shows_the_post_mortem_and_lists_wal_only(demo) -> None:
    run = [sys.executable, "-m", "intentus_tui.cli"]
    listing = json.loads(
        subprocess.run(
            [*run, "inspect", "--list", str(demo.root), "--json", "--no-cache"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    wal_only = demo.first("crash_wal_only")
    row = next(e for e in listing["executions"] if e["execution_id"] == wal_only)
    assert row["status"] == "incomplete" and row["source"] == "wal"
    text = subprocess.run(
        [*run, "inspect", demo.first("crash_mid_attempt"), "--dir", str(demo.root)],
        capture_output=True,
        text=True,
    )
    assert text.returncode == 0 and "post-mortem" in text.stdout and "hint" in text.stdout
    assert "not a decision" in text.stdout


def test_a_tampered_record_is_never_advised_for_replay(tmp_path: Path) -> None:
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path)
    path = world.records_dir / f"{world.success}.json"
    pm = load_detail(path).postmortem
    assert pm is not None and "Replay the recorded response" in pm.hint.reason  # intact
    data = json.loads(path.read_text(encoding="utf-8"))
    data["envelope"]["payload"] = {"text": "a different question"}
    path.write_text(json.dumps(data), encoding="utf-8")
    detail = load_detail(path)
    assert detail.verdict is not None and detail.verdict.integrity.value == "tampered"
    pm = detail.postmortem
    assert pm is not None and pm.hint.verdict == "investigate_first"
    assert pm.untrusted is not None and "the record fails its integrity check" in pm.untrusted
    assert pm.hint.reason.startswith("Do not replay its response")  # what broke: said once
    assert "Replay the recorded response" not in pm.hint.reason


def test_a_record_that_may_not_be_replayed_is_never_advised_for_replay(tmp_path: Path) -> None:
    """A completed execution whose record an operator invalidated (through intentusnet), or
    whose response was not recorded properly: the hint says not to retry, and names why its
    response may not be replayed rather than advising a replay the verdict refuses."""
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path)
    detail = load_detail(world.records_dir / f"{world.invalidated}.json")
    verdict, pm = detail.verdict, detail.postmortem
    assert verdict is not None and verdict.replay.value == "manually_invalidated"
    assert pm is not None and pm.hint.verdict == "do_not_retry"
    assert "Replay the recorded response" not in pm.hint.reason
    assert f"may not be replayed either ({verdict.replay_reason})" in pm.hint.reason

    data = make_record()
    data["finalResponse"] = {}  # an empty final response: a recording failure
    detail = load_detail(write_record(tmp_path, data))
    assert detail.verdict is not None and detail.verdict.replay.value == "recording_failure"
    assert detail.postmortem is not None
    assert "Replay the recorded response" not in detail.postmortem.hint.reason
    assert "may not be replayed either" in detail.postmortem.hint.reason


def test_a_damaged_record_beside_its_completed_log_is_not_said_to_be_missing(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # The hint said "No record was written" of a record that was written, then cut short;
    # inspect's agents line said "(no attempts recorded)" of what was lost.
    from tests.cli.support import cli
    from tests.intentusnet_world import with_lost_attempt_end

    base = with_lost_attempt_end(real_world, tmp_path)
    record = base / "records" / f"{real_world.fallback}.json"
    record.write_bytes(record.read_bytes()[:900])  # cut among its first sections
    detail = load_detail(record, base / "wal")
    hint = detail.postmortem.hint
    assert hint is not None and hint.verdict == "do_not_retry"
    assert "No record was written" not in hint.reason
    assert "may not be replayed" in hint.reason
    shown = cli("inspect", real_world.fallback, "--dir", str(base)).stdout
    assert "agents      (none in what was recovered)" in shown
    assert "No record was written" not in shown


def test_what_the_record_says_behind_a_broken_log_is_marked_claimed(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # Under "untrusted: the write-ahead log fails its integrity check", the record's
    # attempts were listed as "completed before ..." like facts.
    from tests.intentusnet_world import with_broken_wal_chain

    base = with_broken_wal_chain(real_world, tmp_path)
    detail = load_detail(base / "records" / f"{real_world.success}.json", base / "wal")
    pm = detail.postmortem
    assert pm is not None and pm.untrusted is not None
    assert pm.completed_before and all(x.endswith(" (claimed)") for x in pm.completed_before)


def test_a_trusted_execution_lists_what_completed_plainly(real_world: RealWorld) -> None:
    detail = load_detail(real_world.records_dir / f"{real_world.fallback}.json")
    pm = detail.postmortem
    assert pm is not None and pm.untrusted is None
    assert pm.completed_before and not any("claimed" in x for x in pm.completed_before)
