"""The use cases the debugger and the command line call (``core.actions``), on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core import actions
from intentus_tui.core.records.replay import MANUALLY_INVALIDATED
from tests.factories import make_envelope, make_record, write_record
from tests.intentusnet_world import RealWorld


def _detail(tmp_path: Path, **kwargs: object) -> actions.ExecutionDetail:
    return actions.load_detail(write_record(tmp_path, make_record(**kwargs)))  # type: ignore[arg-type]


def test_replay_returns_the_recorded_response(tmp_path: Path) -> None:
    detail = _detail(tmp_path, execution_id="exec-1")
    outcome = actions.replay(detail.result)
    assert outcome.kind == "result" and outcome.result is not None
    assert outcome.result.fromReplay and outcome.result.originalExecutionId == "exec-1"
    assert outcome.result.status == "success"


def test_replay_refuses_a_non_replayable_record_unless_forced(tmp_path: Path) -> None:
    detail = _detail(tmp_path, final_status=None, replayable=False, reason="execution_incomplete")
    refused = actions.replay(detail.result)
    assert (refused.kind, refused.reason, refused.result) == (
        "refused",
        "execution_incomplete",
        None,
    )
    forced = actions.replay(detail.result, force=True)
    assert forced.kind == "result" and forced.forced and forced.result is not None
    assert actions.FORCED_WARNING in forced.result.warnings


def test_replay_with_another_envelope_is_a_mismatch(tmp_path: Path) -> None:
    detail = _detail(tmp_path)
    outcome = actions.replay(detail.result, envelope=make_envelope("Translate"))
    assert outcome.kind == "mismatch" and outcome.result is None
    assert outcome.recorded and outcome.provided and outcome.recorded != outcome.provided


def test_a_strict_replay_of_an_untrusted_record_is_refused_with_its_problems(
    tmp_path: Path, real_world: RealWorld
) -> None:
    source = real_world.records_dir / f"{real_world.success}.json"
    record = json.loads(source.read_text("utf-8"))
    record["finalResponse"]["payload"] = {"by": "attacker"}
    path = tmp_path / source.name
    path.write_text(json.dumps(record), "utf-8")
    detail = actions.load_detail(path)
    assert [p.kind for p in actions.replay_integrity(detail)] == ["final_response_mismatch"]
    refused = actions.replay(detail.result, report=detail.verify)  # its verdict: untrusted
    assert refused.kind == "refused" and refused.result is None
    assert refused.reason == "untrusted" and refused.message == detail.verdict.replay_reason
    lenient = actions.replay(detail.result, report=detail.verify, force=True)
    assert lenient.kind == "result" and lenient.result is not None
    assert lenient.result.untrusted == actions.replay_integrity(detail)
    strict = actions.replay(detail.result, strict=True)
    assert strict.kind == "untrusted" and strict.result is None
    assert strict.problems == actions.replay_integrity(detail)
    clean = actions.load_detail(source)
    assert actions.replay_integrity(clean) == ()
    assert actions.replay(clean.result, strict=True).kind == "result"


def test_replay_of_a_file_with_no_record_fails_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("not json at all", "utf-8")
    outcome = actions.replay(actions.load_detail(path).result, force=True)
    assert outcome.kind == "failed" and outcome.message.startswith("Nothing to replay")


def test_postmortem_is_the_details_own_unless_another_log_is_given(tmp_path: Path) -> None:
    detail = _detail(tmp_path)
    assert actions.postmortem(detail) is detail.postmortem
    assert actions.postmortem(detail).hint.verdict


def test_compare_view_narrows_two_records_to_a_raw_section(tmp_path: Path) -> None:
    a = actions.detail_operand(_detail(tmp_path, execution_id="exec-a"))
    b = actions.detail_operand(_detail(tmp_path, execution_id="exec-b"))
    what_happened = actions.compare_view(actions.VIEW_WHAT_HAPPENED, a, b)
    header = actions.compare_view("header", a, b)
    assert what_happened.equal and what_happened.records is not None  # ids are left out
    assert ("executionId",) in [e.path for e in header.entries]
    values = actions.compare_view(actions.VIEW_WHAT_HAPPENED, a_value={"x": 1}, b_value={"x": 2})
    assert [actions.path_text(e) for e in values.entries] == ["x"]


def test_an_execution_without_a_record_compares_as_empty_and_says_why(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("not json at all", "utf-8")
    empty = actions.detail_operand(actions.load_detail(broken))
    whole = actions.detail_operand(_detail(tmp_path))
    comparison = actions.compare(empty, whole)
    assert empty.note and not comparison.equal
    assert {e.kind for e in comparison.entries} == {"added"}


def test_invalidate_rewrites_the_header_and_refuses_a_damaged_file(tmp_path: Path) -> None:
    detail = _detail(tmp_path, execution_id="exec-inv")
    actions.invalidate(detail)
    header = json.loads(detail.path.read_text("utf-8"))["header"]
    assert header["replayable"] is False and header["replayableReason"] == MANUALLY_INVALIDATED
    truncated = tmp_path / "exec-cut.json"
    truncated.write_text(detail.path.read_text("utf-8")[:-40], "utf-8")
    with pytest.raises(actions.ActionError):
        actions.invalidate(actions.load_detail(truncated))


def test_save_snapshot_writes_one_file_per_content(tmp_path: Path) -> None:
    detail = _detail(tmp_path / "records", execution_id="exec-snap")
    first = actions.save_snapshot(detail, tmp_path / "snapshots")
    again = actions.save_snapshot(detail, tmp_path / "snapshots")
    assert first == again and first.name.startswith("exec-snap-")
    assert json.loads(first.read_text("utf-8"))["stepName"] == "route"
    pinned = actions.file_operand(first.name, first, prefer="snapshot")
    assert actions.compare(actions.detail_operand(detail), pinned).equal


@pytest.mark.parametrize("renamed", [False, True])
def test_a_hostile_id_never_names_a_saved_snapshot(tmp_path: Path, renamed: bool) -> None:
    """``ls`` of the snapshots would act on a name holding escapes: the file is named after
    a safe name (the file's stem, else "record"), as the ``snapshot`` command names it."""
    hostile = "evil\x1b]0;TITLE\x07\x1b[32mid\u202e"
    name = "plain-name.json" if renamed else None
    path = write_record(tmp_path / "records", make_record(execution_id=hostile), name)
    saved = actions.save_snapshot(actions.load_detail(path), tmp_path / "snapshots")
    assert saved.name.startswith("plain-name-" if renamed else "record-")
    assert [p.name for p in (tmp_path / "snapshots").iterdir()] == [saved.name]


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError):
        actions.NoSuchThing  # noqa: B018


def test_every_exported_name_resolves() -> None:
    """The facade's list and its lazily resolved names stay in step."""
    missing = [name for name in actions.__all__ if not hasattr(actions, name)]
    assert missing == []
