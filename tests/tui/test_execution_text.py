"""The text the dialogs and panes say about one execution (``presenters.execution_text``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.core.records.replay import EXECUTION_INCOMPLETE
from intentus_tui.tui.presenters.execution_text import clip, explain_reason, force_replay_lines
from intentus_tui.tui.widgets.pane_text import safe
from tests.tui.side_pane_harness import detail_from, good_record, salvaged_detail, tampered_record


def test_clip_cuts_huge_text_and_says_how_much_is_left_out() -> None:
    assert clip("x" * 310) == "x" * 300 + "… (10 more characters)"
    assert clip("short") == "short"


def test_clip_makes_escape_sequences_inert() -> None:
    shown = clip("id\x1b[31mred\x07")
    assert "\x1b" not in shown and "\x07" not in shown and "red" in shown


def test_pane_values_are_clipped_the_same_way_with_their_own_limit() -> None:
    assert safe("y" * 700) == clip("y" * 700, 600)
    assert safe(12) == "12"


def test_explain_reason_says_what_a_documented_reason_means() -> None:
    assert explain_reason(EXECUTION_INCOMPLETE).startswith(
        "execution_incomplete — no final response"
    )
    unknown = explain_reason("made_up\x1b")  # shown as recorded, made inert
    assert unknown.startswith("made_up") and "\x1b" not in unknown and "—" not in unknown
    assert explain_reason(None) == "no reason recorded"


def _tampered_and_incomplete() -> ExecutionDetail:
    record = tampered_record()
    record["header"].update(replayable=False, replayableReason="execution_incomplete")
    return detail_from(record)


# Each execution's force-replay risks: its verdict's replayability code first, then what
# its header says, each once; the three documented risks keep their words.
RISKS: dict[str, tuple[Callable[[], ExecutionDetail], list[str]]] = {
    "untrusted": (
        lambda: detail_from(tampered_record()),
        ["Untrusted record: May return an answer that was altered after it was recorded"],
    ),
    # (a header's reason: with no response recorded, there is no risk to name)
    "execution_incomplete": (
        lambda: detail_from(good_record(replayable=False, reason="execution_incomplete")),
        ["Incomplete execution: May return null payload"],
    ),
    "recording_failure": (
        lambda: detail_from(good_record(replayable=False, reason="recording_failure")),
        ["Recording failure: May return partial/corrupt data"],
    ),
    "record_corrupted": (
        lambda: detail_from(good_record(replayable="yes")),  # not a boolean: malformed
        ["Corrupted record: May raise parse errors"],
    ),
    "manually_invalidated": (
        lambda: detail_from(good_record(replayable=False, reason="manually_invalidated")),
        ["Invalidated record: May return an answer an operator withdrew from replay"],
    ),
    "marked_not_replayable": (
        lambda: detail_from(good_record(replayable=False, reason="quota_exceeded")),
        ["Marked not replayable: May return a response its writer said not to replay"],
    ),
    "untrusted and incomplete": (
        _tampered_and_incomplete,
        [
            "Untrusted record: May return an answer that was altered after it was recorded",
            "Incomplete execution: May return null payload",
        ],
    ),
}


@pytest.mark.parametrize("case", RISKS)
def test_force_replay_names_the_risks_of_this_execution_only(case: str) -> None:
    make, expected = RISKS[case]
    detail = make()
    code = case.split(" and ")[0]
    assert detail.verdict is not None and detail.verdict.replay.value == code
    lines = force_replay_lines(detail)
    heading = "Force replay risk:" if len(expected) == 1 else "Force replay risks:"
    start = lines.index(heading)
    assert lines[start + 1 : start + 1 + len(expected)] == [f" ▶ {risk}" for risk in expected]
    assert lines[start + 1 + len(expected)] == ""  # nothing more: no generic table
    assert sum("▶" in line for line in lines) == len(expected)


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: detail_from(good_record(final_status=None)), "no response was recorded"),
        # damaged before its response: one may have been recorded, and lost with the end
        (salvaged_detail, "no response could be read from the file"),
    ],
)
def test_forcing_a_record_with_no_response_says_it_returns_none(
    make: Callable[[], ExecutionDetail], why: str
) -> None:
    lines = force_replay_lines(make())
    assert (
        f"Nothing to replay: {why}, so a forced replay returns none (no status, no payload)."
    ) in lines
    assert not any("risk" in line or "▶" in line for line in lines)


def test_forcing_a_replayable_execution_lists_no_risk() -> None:
    lines = force_replay_lines(detail_from(good_record()))
    assert "This record is replayable: a forced replay returns the same as a normal one." in lines
    assert not any("risk" in line or "▶" in line for line in lines)
    # Nor a mark the result will not carry: forcing a replayable record warns of nothing.
    assert not any("Forced replay of non-replayable record" in line for line in lines)
    assert lines[-1] == (
        "Replay returns what was recorded; it never runs agent code or calls a model."
    )


def test_a_broken_log_chain_names_the_log_not_the_record_as_altered(tmp_path: Path) -> None:
    from intentus_tui.core.detail import load_detail
    from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log

    base = tmp_path / ".intentusnet"
    write_record_with_edited_log(base)
    detail = load_detail(base / "records" / f"{RECORD_WITH_EDITED_LOG}.json", base / "wal")
    assert detail.verdict is not None and detail.verdict.integrity.value == "chain_broken"
    lines = force_replay_lines(detail)
    assert (
        " ▶ Untrusted log: May return an answer whose execution's log was altered: nothing "
        "vouches for it"
    ) in lines
    assert not any("altered after it was recorded" in line for line in lines)


def test_a_reason_is_explained_in_the_words_of_the_execution_s_verdict() -> None:
    """The dialogs and panes say what a header's reason means as the verdict (the list,
    ``inspect``, ``verify``) words it: one reason, the same words on every screen."""
    from dataclasses import replace

    from intentus_tui.core.verdict import verdict_of
    from tests.tui.test_list_model import summary

    for reason in ("execution_incomplete", "recording_failure", "manually_invalidated"):
        verdict = verdict_of(replace(summary(1), replayable=False, replay_reason=reason))
        assert explain_reason(reason) == f"{reason} — {verdict.replay_reason}"
    corrupted = verdict_of(replace(summary(2), replayable=False, replay_reason="record_corrupted"))
    assert explain_reason("record_corrupted").endswith(corrupted.replay_reason)
    wal_only = verdict_of(replace(summary(3), source="wal", replay_reason="no_record"))
    assert explain_reason("no_record") == f"no_record — {wal_only.replay_reason}"


def test_a_writer_s_own_reason_is_given_with_the_verdict_s_code_and_words() -> None:
    """The force-replay dialog says why as the Replay tab and ``inspect`` say it: the code
    ``marked_not_replayable`` and the verdict's words, not the writer's text bare."""
    record = good_record()
    record["header"].update(replayable=False, replayableReason="operator said no")
    detail = detail_from(record)
    assert detail.verdict is not None
    line = next(line for line in force_replay_lines(detail) if line.startswith("Not replayable"))
    assert line == f"Not replayable: marked_not_replayable — {detail.verdict.replay_reason}"
    assert detail.verdict.replay_reason.endswith("operator said no")
