"""The picker's candidates and their fuzzy search: lines, order, ranking, 100,000 lines."""

from __future__ import annotations

import gc
import time
import uuid
from dataclasses import replace
from pathlib import Path

from intentus_tui.core.compare.targets import CompareTarget
from intentus_tui.core.model import Integrity, Outcome, ReplayCode
from intentus_tui.tui.presenters.compare_candidates import (
    CandidateIndex,
    ExecutionLines,
    build_candidates,
    execution_candidate,
    file_candidate,
    id_width,
    verdict_marks,
)
from intentus_tui.tui.presenters.list_model import PAUSE_EVERY, ListModel
from tests.tui.test_list_model import summary

SNAPSHOT = CompareTarget(
    "snapshot",
    Path("/s/03ee958c-cf0d-4532-afcc-0d7f5f0a657e-cff9614a.json"),
    "Summarize@1.0 · route",
    execution_id="03ee958c-cf0d-4532-afcc-0d7f5f0a657e",
    when="2026-01-05T10:00:00Z",
)
BASELINE = CompareTarget(
    "baseline", Path("/b/doc-a.json"), "verify-doc@1.0.0 · extract", note="golden"
)


def test_lines_say_kind_id_time_and_what() -> None:
    line = file_candidate(SNAPSHOT).line
    # what tells two files of one execution apart (the name) before what they share
    # what tells two files of one execution apart (the name, its id shortened: it is in
    # the id column) before what they share
    assert line.startswith("snapshot 03ee958c 2026-01-05 10:00:00 03ee958c…-cff9614a.json · ")
    assert line.endswith(" · Summarize@1.0 · route")
    assert CandidateIndex([file_candidate(SNAPSHOT)]).search(SNAPSHOT.path.name)[0]
    assert file_candidate(SNAPSHOT, saved=True).line.startswith("saved    03ee958c")
    assert file_candidate(BASELINE).line == (
        "baseline          " + " " * 20 + "golden · doc-a.json · verify-doc@1.0.0 · extract"
    )
    s = summary(1, "failed")
    model = ListModel()
    model.replace_all([s])
    execution = execution_candidate(s, model.kind(s))
    assert execution.line == "exec     00001    2026-01-05 10:01:07 ✗ #✓ ↺ translate"
    assert (execution.kind, execution.key, execution.path) == ("execution", s.key, None)


def test_verdict_marks_are_the_lists() -> None:
    assert verdict_marks((Outcome.SUCCEEDED, Integrity.VERIFIED, ReplayCode.REPLAYABLE)) == (
        "✓ #✓ ↺"
    )
    assert verdict_marks((Outcome.SUCCEEDED, Integrity.TAMPERED, ReplayCode.UNTRUSTED)) == (
        "⚠ #! ✗"
    )


def test_hostile_text_is_made_visible() -> None:
    hostile = replace(SNAPSHOT, title="[b]x\x1b[2J\u202e", note="a\nb")
    line = file_candidate(hostile).line
    assert "\x1b" not in line and "\u202e" not in line and "\n" not in line
    assert "[b]x" in line  # shown literally by the screen (Content, never markup)


def test_just_saved_first_newest_first_then_kinds_then_executions(tmp_path: Path) -> None:
    older = replace(SNAPSHOT, path=tmp_path / "older.json")
    newer = replace(SNAPSHOT, path=tmp_path / "newer.json")
    other = replace(SNAPSHOT, path=tmp_path / "other.json")
    s = summary(2)
    model = ListModel()
    model.replace_all([s])
    execution = execution_candidate(s, model.kind(s))
    out = build_candidates([other, older, newer, BASELINE], [older.path, newer.path], [execution])
    assert [(c.kind, c.path) for c in out] == [
        ("saved", newer.path),
        ("saved", older.path),
        ("snapshot", other.path),
        ("baseline", BASELINE.path),
        ("execution", None),
    ]


def test_search_is_fuzzy_ranks_exact_first_and_gives_offsets() -> None:
    s1 = replace(summary(1), intent="Summarize")
    s2 = replace(summary(2), intent="Refund", key="00002.json", execution_id="exec-00002")
    model = ListModel()
    model.replace_all([s1, s2])
    index = CandidateIndex(
        [file_candidate(SNAPSHOT), *(execution_candidate(s, model.kind(s)) for s in (s1, s2))]
    )
    hits, more = index.search("SUM")
    assert not more
    assert [h.candidate.kind for h in hits] == ["snapshot", "execution"]
    for hit in hits:
        assert hit.candidate.line[hit.offsets[0] : hit.offsets[-1] + 1].lower() == "sum"
    # Letters in order, anywhere: "rfnd" finds Refund only; spaces are ignored.
    hits, _ = index.search("r f n d")
    assert [h.candidate.line.split()[-1] for h in hits] == ["Refund"]
    assert "".join(hits[0].candidate.line[o] for o in hits[0].offsets).lower() == "rfnd"
    assert index.search("zzzz") == ([], False)
    assert [h.candidate.kind for h in index.search("")[0]] == ["snapshot", "execution", "execution"]


def test_a_query_with_regex_characters_is_literal() -> None:
    index = CandidateIndex([file_candidate(replace(SNAPSHOT, title="a.b[c]*(d)\\e^f-g$"))])
    for query in ("[c]", "(d)", "\\e^", "f-g$", "a.b", "*"):
        assert len(index.search(query)[0]) == 1, query
    assert index.search("a*d")[0]  # fuzzy: "a", later "*", later "d"
    assert not index.search("ab]]")[0]


def _many(n: int) -> list:
    return [
        replace(
            summary(i),
            key=f"{i:06d}.json",
            execution_id=str(uuid.UUID(int=i * 7919 + 12345)),
            created=f"2026-01-{1 + i % 28:02d}T10:{i % 60:02d}:{(i * 7) % 60:02d}+00:00",
        )
        for i in range(n)
    ]


def test_100000_executions_are_indexed_newest_first_and_lines_reused() -> None:
    summaries = _many(100_000)
    model = ListModel()
    model.replace_all(summaries)
    lines = ExecutionLines()
    executions = lines.candidates(model.summaries.values(), model.kind)
    index = CandidateIndex(build_candidates([SNAPSHOT], [], executions))
    assert len(index) == 100_001
    assert executions[0].line[9:17] in {s.execution_id[:8] for s in summaries}
    # newest first: the 28th of January before the 1st
    assert executions[0].line[18:28] == "2026-01-28" and executions[-1].line[18:28] == "2026-01-01"
    # At most the asked-for hits, whatever matches (bench/bench_picker.py times the search).
    for query in ("s", "sum", "2026-01-05", "zzzq", "trn0105", "0f3a", "✓ #✓"):
        hits, _ = index.search(query, 200)
        assert len(hits) <= 200
    # A second opening reuses the lines of unchanged summaries (the very same strings: a
    # timing would fail whenever a garbage collection of the whole test run lands in it).
    again = lines.candidates(model.summaries.values(), model.kind)
    assert again == executions
    assert all(a.line is b.line for a, b in zip(again, executions, strict=True))


def test_a_pathological_query_does_not_backtrack() -> None:
    # Many repeats of the query's letters in every line but the last one missing: a lazy
    # ``a.*?b.*?c`` would try every combination per line.
    line_text = "a" * 60 + "b" * 60
    index = CandidateIndex(
        [file_candidate(replace(SNAPSHOT, title=line_text)) for _ in range(5000)]
    )
    start = time.perf_counter()
    assert index.search("ab" * 20 + "z")[0] == []
    assert time.perf_counter() - start < 1.0


def test_a_changed_execution_gets_a_new_line_the_others_keep_theirs() -> None:
    summaries = _many(50)
    model = ListModel()
    model.replace_all(summaries)
    lines = ExecutionLines()
    first = lines.candidates(model.summaries.values(), model.kind)
    changed = replace(summaries[7], intent="Refund everything")
    model.replace_all([*summaries[:7], changed, *summaries[8:]])
    again = lines.candidates(model.summaries.values(), model.kind)
    by_key = {c.key: c for c in again}
    assert by_key[changed.key].line.endswith("Refund everything")
    assert [c for c in again if c.key != changed.key] == [c for c in first if c.key != changed.key]
    # The lines kept between openings are numbers and strings only: never walked by the
    # garbage collector, whatever the number of executions.
    assert not gc.is_tracked(lines.lines)


def test_pause_is_called_as_the_lines_and_the_index_are_made() -> None:
    summaries = _many(PAUSE_EVERY * 3)
    model = ListModel()
    model.replace_all(summaries)
    pauses: list[int] = []
    executions = ExecutionLines().candidates(
        model.summaries.values(), model.kind, pause=lambda: pauses.append(1)
    )
    assert len(pauses) == 3 and len(executions) == len(summaries)
    index = CandidateIndex(executions, pause=lambda: pauses.append(2))
    assert pauses.count(2) == 2 and len(index) == len(summaries)
    assert index.candidates == executions
    hits, _ = index.search("summarize", len(executions))  # the text searched is every line's
    assert len(hits) == sum(c.line.endswith("Summarize") for c in executions) > 0


def test_with_several_roots_each_execution_names_its_root() -> None:
    """The same execution in two roots is two lines, each with its root's label in a
    column, and is named ``LABEL:ID`` as side B; one root has no such column."""
    from intentus_tui.tui.presenters.compare_candidates import root_width

    alpha = replace(summary(1), key="alpha/00001.json", root="alpha")
    beta = replace(summary(1), key="beta/00001.json", root="beta")
    model = ListModel()
    model.replace_all([alpha, beta])
    width = root_width(["alpha", "beta"])
    assert width == 5 and root_width(["alpha"]) == 0
    lines = ExecutionLines().candidates([alpha, beta], model.kind, roots=width)
    assert [c.line for c in lines] == [
        "exec     alpha 00001    2026-01-05 10:01:07 ✓ #✓ ↺ translate",
        "exec     beta  00001    2026-01-05 10:01:07 ✓ #✓ ↺ translate",
    ]
    assert [c.label for c in lines] == ["alpha:00001", "beta:00001"]
    assert [c.key for c in lines] == ["alpha/00001.json", "beta/00001.json"]
    assert execution_candidate(beta, model.kind(beta), width).line == lines[1].line
    assert execution_candidate(beta, model.kind(beta), width).label == "beta:00001"
    hits, _ = CandidateIndex(lines).search("beta")
    assert [hit.candidate.key for hit in hits] == ["beta/00001.json"]
    # Typed as the command line and side B name it (it found nothing: ":" is on no line).
    for typed in ("beta:00001", "beta:0000", "BETA:00001"):
        hits, _ = CandidateIndex(lines).search(typed)
        assert [hit.candidate.key for hit in hits] == ["beta/00001.json"], typed


def test_one_id_column_a_long_id_cut_and_lines_made_again_for_another_width() -> None:
    long_id = "exec-very-long-identifier-0001"
    s = replace(summary(1), execution_id=long_id)
    model = ListModel()
    model.replace_all([s])
    target = replace(SNAPSHOT, execution_id=long_id)
    assert id_width([target], 8) == 16  # as wide as the longest, up to the list's limit
    assert id_width([SNAPSHOT], 13) == 13  # a UUID's 8: the list's width stands
    lines = ExecutionLines()
    [narrow] = lines.candidates([s], model.kind, ids=13)
    [wide] = lines.candidates([s], model.kind, ids=16)  # the kept line is not reused
    assert narrow.line.startswith("exec     exec-very-lo… 2026-01-05")
    assert wide.line.startswith("exec     exec-very-long-… 2026-01-05")
    assert file_candidate(target, ids=16).line.startswith("snapshot exec-very-long-… 2026")


def test_a_whole_id_finds_the_line_that_shows_it_shortened_or_cut() -> None:
    """A UUID's line shows its first 8 characters and a long id is cut with "…": pasted
    whole (or its end typed), the id still finds its line; what is marked is on the line."""
    long_id = "exec-very-long-identifier-0001"
    uuid_id = "681f325e-0000-4000-8000-00000000abcd"
    s1 = replace(summary(1), execution_id=long_id)
    s2 = replace(summary(2), execution_id=uuid_id, key="00002.json")
    model = ListModel()
    model.replace_all([s1, s2])
    index = CandidateIndex(
        [
            file_candidate(SNAPSHOT),
            *(execution_candidate(s, model.kind(s), ids=13) for s in (s1, s2)),
        ]
    )
    for query, key in (
        (long_id, "00001.json"),
        ("identifier-0001", "00001.json"),
        (uuid_id, "00002.json"),
        ("00000000abcd", "00002.json"),
    ):
        hits, _ = index.search(query)
        assert [h.candidate.key for h in hits] == [key], query
        line, offsets = hits[0].candidate.line, hits[0].offsets
        marked = "".join(line[o] for o in offsets)  # the part of the id the line shows
        assert marked in (long_id[:12], uuid_id[:8]), (query, marked)
    named = replace(summary(3), execution_id="exec-[b]x[/b]", key="exec-boldid.json")
    index = CandidateIndex(
        [execution_candidate(named, model.kind(named), ids=13), *index.candidates]
    )
    for query in ("exec-boldid.json", "boldid", "00002.json"):  # a record file's name
        hits, _ = index.search(query)
        assert [h.candidate.key for h in hits][:1] == [
            "exec-boldid.json" if "boldid" in query else "00002.json"
        ], query
    hits, _ = index.search("0d7f5f0a657e")  # the snapshot's id, past its 8 characters
    assert [h.candidate.kind for h in hits] == ["snapshot"]
    assert "identifier-0001" not in hits[0].candidate.line  # shown as before


def test_an_execution_known_only_from_its_log_is_listed_but_unavailable() -> None:
    """Every execution is a line; one with no record says so first (a narrow picker cuts
    the end of a line) and why it cannot be chosen, as ``intentus-tui diff`` refuses it."""
    recorded = summary(1)
    logged = replace(summary(2), key="00002.wal", source="wal", intent="Refund")
    model = ListModel()
    model.replace_all([recorded, logged])
    lines = ExecutionLines().candidates(model.summaries.values(), model.kind)
    assert [c.key for c in lines] == ["00002.wal", "00001.json"]  # newest first, both
    assert lines[0].line.endswith("✗ no record to compare · Refund")
    assert lines[0].unavailable == (
        "00002 has no record file, only a write-ahead log: there is nothing to compare"
    )
    assert lines[1].unavailable == ""
    assert execution_candidate(logged, model.kind(logged)) == lines[0]
    assert CandidateIndex(lines).unavailable() == 1
