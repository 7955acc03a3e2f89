"""``inspect --list --json`` rows: one line each, inert in a terminal, null for nothing."""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.core.verdict import COUNT_KEYS
from intentus_tui.render.rows import LISTING_ROWS, listing_counts, row_line, summary_to_json
from tests.factories import make_record, write_record


def test_a_row_is_one_indented_line_of_the_summary(tmp_path: Path) -> None:
    path = write_record(
        tmp_path, make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
    )
    summary = summarize_path(path)
    line = row_line(summary)
    assert line.startswith(b"    {") and b"\n" not in line
    row = json.loads(line)
    assert row == json.loads(json.dumps(summary_to_json(summary)))
    assert row["file"] == "e1.json" and row["status"] == "completed"
    assert row["agent_chain"] == "a ✗ → b ✓" and row["hash_status"] == "match"
    assert LISTING_ROWS.row(summary) == line


def test_a_row_escapes_what_a_terminal_would_act_on_and_writes_nothing_as_null(
    tmp_path: Path,
) -> None:
    name = "e\u202e\u009b2.json"  # a bidi override and a C1 CSI in the file name
    path = write_record(tmp_path, make_record(execution_id="x", intent=""), name=name)
    line = row_line(summarize_path(path))
    assert "\u202e".encode() not in line and "\u009b".encode() not in line
    assert b"\\u202e" in line and b"\\u009b" in line
    row = json.loads(line)
    assert row["file"] == name  # the same value, escaped only in its spelling
    assert row["intent"] is None and row["created"] is not None


def test_counts_are_the_fixed_verdict_vocabulary_sorted(tmp_path: Path) -> None:
    summaries = [
        summarize_path(write_record(tmp_path, make_record(execution_id=f"r{i}", final_status=s)))
        for i, s in enumerate(["success", None, "success", "error"])
    ]
    (tmp_path / "bad.json").write_bytes(b"{")
    summaries.append(summarize_path(tmp_path / "bad.json"))
    counts = listing_counts(summaries)
    assert tuple(counts) == COUNT_KEYS  # every key, zero or not: no free-text keys
    nonzero = {key: n for key, n in counts.items() if n}
    assert nonzero == {
        "executions": 5,
        "needs_attention": 3,  # the incomplete, the failed and the unreadable one
        "outcome.succeeded": 2,
        "outcome.in_flight": 1,
        "outcome.failed": 1,
        "outcome.unknown": 1,
        "integrity.verified": 4,
        "integrity.unverifiable": 1,
        "replay.replayable": 3,
        "replay.execution_incomplete": 1,
        "replay.record_corrupted": 1,
    }
    assert list(counts) == sorted(counts)
    assert LISTING_ROWS.counts(summaries) == counts
    # The workers make rows and counts together (each verdict once): the same answers.
    made, together = LISTING_ROWS.rows_and_counts(summaries)
    assert together == counts
    assert made == [row_line(summary) for summary in summaries]
    assert [json.loads(row)["outcome"] for row in made] == [
        "succeeded",
        "in_flight",
        "succeeded",
        "failed",
        "unknown",
    ]


def test_a_rows_verdict_members_are_the_verdicts_own_answers(tmp_path: Path) -> None:
    """The verdict's members of a row (read once for the verdict most rows share) are its
    answers, for that shared verdict and every other one."""
    from intentus_tui.core.verdict import CLEAN_VERDICT, verdict_of
    from tests.hostile.corpus import build_corpus

    corpus = build_corpus(tmp_path)
    summaries = [summarize_path(path) for path in corpus.record_paths()]
    summaries.append(summarize_path(write_record(tmp_path, make_record(execution_id="ok"))))
    verdicts = [verdict_of(s) for s in summaries]
    assert any(v is CLEAN_VERDICT for v in verdicts) and len(set(verdicts)) > 5
    for summary in summaries:
        v = verdict_of(summary)
        row = summary_to_json(summary, v)
        assert row["outcome"] is v.outcome and row["outcome_reason"] == v.outcome_reason
        assert row["integrity"] is v.integrity and row["integrity_reason"] == v.integrity_reason
        assert row["replayable"] is v.replayable
        assert row["replayable_reason"] == (None if v.replayable else v.replay)
        assert row["replayable_detail"] == v.replay_reason
        assert row["needs_attention"] is v.needs_attention
        assert list(row)[:12] == [
            *("execution_id", "file", "created", "intent", "outcome", "outcome_reason"),
            *("integrity", "integrity_reason", "replayable", "replayable_reason"),
            *("replayable_detail", "needs_attention"),
        ]
