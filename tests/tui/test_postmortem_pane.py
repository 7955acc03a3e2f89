"""The Post-mortem tab on WAL-only executions written by the real IntentusNet 1.3.0
``WALWriter``: a broken hash chain is shown as broken, with the first broken entry and the
trusted part, and no pane ever advises replaying a response that was never recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from tests.core.wal.support import write_incident_logs


def text_of(lines: list) -> str:
    return "\n".join(line.plain for line in lines)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_incident_logs(tmp_path_factory.mktemp("pane") / "wal")


def test_an_edited_log_is_shown_broken_from_its_first_broken_entry(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["edited"])))
    assert "State   CHAIN BROKEN (WAL)" in text
    assert "broken at line 4, seq 4 (hash_mismatch): everything from there on is untrusted" in text
    assert "in_flight (through seq 3; claims completed, untrusted)" in text
    assert "HINT: INVESTIGATE FIRST" in text and "line 4 (seq 4)" in text
    # The charge claims to be read-only in the edited entry: that claim is not counted.
    assert "unknown after it" in text
    assert "Replay the recorded response" not in text and "SAFE TO RETRY" not in text


def test_a_completed_wal_only_execution_is_not_told_to_replay(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["clean"])))
    assert "State   COMPLETED (WAL)" in text and "HINT: DO NOT RETRY" in text
    assert "no recorded response to replay" in text
    assert "Replay the recorded response" not in text
    assert "no_record — no record file was written" in text


def test_a_torn_log_is_shown_as_a_crash(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["killed"])))
    assert "State   IN FLIGHT (WAL)" in text
    assert "the last line is torn: the process died while appending it (a crash)" in text
    assert "CHAIN BROKEN" not in text
