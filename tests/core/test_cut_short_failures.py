"""A record cut short after every attempt failed, as IntentusNet 1.3.0 leaves every error
response (its writer cannot serialize the ErrorInfo in the final response), says how the
execution ended: failed, not unknown; a record cut short before a success is still
unknown. On files written by the real 1.3.0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.core.model import Integrity, Outcome, ReplayCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld, all_attempts_failing, no_agent_for_the_intent


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("failing")
    return base / ".intentusnet" / "records", all_attempts_failing(base)


def test_a_direct_error_response_is_failed(real_world: RealWorld) -> None:
    detail = load_detail(real_world.records_dir / f"{real_world.error_truncated}.json")
    verdict, pm = detail.verdict, detail.postmortem
    assert verdict is not None and pm is not None
    assert verdict.outcome is Outcome.FAILED
    assert verdict.outcome_reason.startswith("every attempt failed (fb-primary ✗)")
    # The cut is said as what 1.3.0 does, not as damage to the disk; nothing is replayed.
    assert verdict.integrity is Integrity.UNVERIFIABLE
    assert verdict.integrity_reason.startswith(
        "cut short after every attempt failed, as IntentusNet 1.3.0 leaves every error response"
    )
    assert (
        "file ends at byte" in verdict.integrity_reason
        and "the file is damaged" not in verdict.integrity_reason
        and "not damaged afterwards" in verdict.integrity_reason
    )
    assert verdict.replay is ReplayCode.RECORD_CORRUPTED
    assert verdict.replay_reason.startswith("the record was never written whole")
    # The hint is a failure's (side effects unknown), not "the state cannot be determined".
    assert pm.hint.verdict == "investigate_first" and "cannot be determined" not in pm.hint.reason


@pytest.mark.parametrize("strategy", ["fallback", "broadcast", "parallel"])
def test_every_strategy_that_gave_up_is_failed(
    failing: tuple[Path, dict[str, str]], strategy: str
) -> None:
    records, ids = failing
    path = records / f"{ids[strategy]}.json"
    assert f'"agent": "{strategy}"' in path.read_text("utf-8")  # 1.3.0 names the strategy
    verdict = load_detail(path).verdict
    assert verdict is not None and verdict.outcome is Outcome.FAILED, verdict


def test_a_record_cut_before_its_success_is_unknown(real_world: RealWorld, tmp_path: Path) -> None:
    # The fallback run: fb-primary failed, fb-secondary answered. Cut right after the
    # first attempt's end, only a failure survives, but the router's decision names
    # fb-secondary: the success was lost with the rest of the file.
    data = (real_world.records_dir / f"{real_world.fallback}.json").read_bytes()
    end = data.index(b'"AGENT_ATTEMPT_END"')
    cut = data.index(b"},", data.index(b"}", end) + 1) + 2
    path = tmp_path / f"{real_world.fallback}.json"
    path.write_bytes(data[:cut])
    detail = load_detail(path)
    assert detail.timeline is not None and detail.timeline.chain == "fb-primary ✗"
    verdict = detail.verdict
    assert verdict is not None and verdict.outcome is Outcome.UNKNOWN


def test_the_listing_says_failed(failing: tuple[Path, dict[str, str]]) -> None:
    records, ids = failing
    listed = cli("inspect", "--list", "--dir", str(records))
    assert listed.returncode == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines()[1:]]
    assert {row[0]: row[3] for row in rows} == dict.fromkeys(ids.values(), "failed")


def test_an_error_response_with_no_attempt_before_it_is_failed(tmp_path: Path) -> None:
    """No agent for the intent: 1.3.0 is cut inside the FINAL_RESPONSE event that says
    ``"status": "error"``, with no attempt before it. It was "unknown: the file is
    damaged"; what the event began to write says how it ended."""
    execution = no_agent_for_the_intent(tmp_path)
    path = tmp_path / ".intentusnet" / "records" / f"{execution}.json"
    text = path.read_text("utf-8")
    assert text.rstrip().endswith('"error":') and '"status": "error"' in text  # as 1.3.0 cuts
    verdict = load_detail(path).verdict
    assert verdict is not None
    assert verdict.outcome is Outcome.FAILED
    assert verdict.outcome_reason.startswith("the final response is an error: the file ends")
    assert verdict.integrity is Integrity.UNVERIFIABLE
    assert verdict.integrity_reason.startswith(
        "cut short inside its error, as IntentusNet 1.3.0 leaves every error response"
    )
    assert verdict.replay is ReplayCode.RECORD_CORRUPTED
    assert verdict.replay_reason.startswith("the record was never written whole")
    listed = cli("inspect", "--list", "--json", "--no-cache", "--dir", str(path.parent))
    (row,) = json.loads(listed.stdout)["executions"]
    assert (row["outcome"], row["integrity"]) == ("failed", "unverifiable")


def test_a_file_cut_inside_a_success_is_still_unknown(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """Cut inside a FINAL_RESPONSE event that says success: its payload is lost, and a cut
    there is damage, not 1.3.0's way with errors: unknown, as any damaged file."""
    data = (real_world.records_dir / f"{real_world.success}.json").read_bytes()
    final = data.index(b'"FINAL_RESPONSE"')
    cut = data.index(b'"payload"', data.index(b'"status"', final)) + len(b'"payload":')
    path = tmp_path / f"{real_world.success}.json"
    path.write_bytes(data[:cut])
    verdict = load_detail(path).verdict
    assert verdict is not None and verdict.outcome is Outcome.UNKNOWN, verdict
