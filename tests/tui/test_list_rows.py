"""A list row and the header's counts say each execution's verdict: outcome, integrity and
replayability, in every width the list pane gets."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest
from rich.cells import cell_len

from intentus_tui.core.model import ExecutionSummary, HashStatus
from intentus_tui.core.verdict import verdict_of
from intentus_tui.tui.pane_widths import list_pane_width
from intentus_tui.tui.presenters.compare_candidates import verdict_marks
from intentus_tui.tui.presenters.header_text import HeaderState, counts_parts, location_parts
from intentus_tui.tui.presenters.list_groups import Group, kind_of
from intentus_tui.tui.presenters.list_model import VIEWS, ListModel, View
from intentus_tui.tui.presenters.list_order import SORTS, Sort
from intentus_tui.tui.presenters.list_rows import (
    MAX_ID_WIDTH,
    copies_width,
    copy_label,
    group_header_text,
    id_width_for,
    list_subtitle,
    root_width_for,
    row_cells,
)
from intentus_tui.tui.presenters.verdict_cells import (
    outcome_badge,
)
from tests.tui.app_support import fixed_id
from tests.tui.test_list_model import summary

# Each verdict, and what its row says: (outcome badge, integrity word, its mark, replay cell).
CASES: dict[str, tuple[ExecutionSummary, tuple[str, str, str, str]]] = {
    "succeeded": (summary(1), ("✓ succeeded", "verified", "#✓", "↺ yes")),
    "failed": (summary(2, "failed"), ("✗ failed", "verified", "#✓", "↺ yes")),
    "in flight": (
        summary(3, "incomplete", False, replay_reason="execution_incomplete"),
        ("◌ in flight", "verified", "#✓", "✗ no resp"),
    ),
    "unknown": (
        summary(4, final_status="weird"),
        ("? unknown", "verified", "#✓", "↺ yes"),
    ),
    "tampered": (summary(5, "tampered"), ("⚠ untrusted", "TAMPERED", "#!", "✗ untrust.")),
    "edited final response": (
        summary(6, contradiction="finalResponse differs from the FINAL_RESPONSE event"),
        ("⚠ untrusted", "TAMPERED", "#!", "✗ untrust."),
    ),
    "chain broken": (
        summary(7, wal_chain_ok=False, wal_problem="entry 3 does not chain"),
        ("⚠ untrusted", "CHAIN ✗", "#✗", "✗ untrust."),
    ),
    "benign": (
        summary(8, hash_status=HashStatus.BENIGN, hash_story="numeric keys"),
        ("✓ succeeded", "benign", "#~", "↺ yes"),
    ),
    "unverifiable": (
        summary(9, hash_status=HashStatus.UNVERIFIABLE, hash_form="absent"),
        ("✓ succeeded", "unverif.", "#?", "↺ yes"),
    ),
    "invalidated": (summary(10, replayable=False), ("✓ succeeded", "verified", "#✓", "✗ operator")),
}


for _number, (_case, _) in enumerate(CASES.items()):  # UUIDs, as 1.3.0 writes them
    CASES[_case] = (replace(CASES[_case][0], execution_id=fixed_id(_number + 1)), CASES[_case][1])


def _list_width(columns: int) -> int:
    """The list's rows at a terminal ``columns`` wide: its pane, less the border and the
    scrollbar (as the start frame and the app lay it out)."""
    return list_pane_width(columns) - 3


def _row(s: ExecutionSummary, width: int) -> str:
    cells = row_cells(s, width, id_width_for([s]))
    text = "".join(t for t, _ in cells)
    assert cell_len(text) == width
    return text


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("columns", [80, 120])
def test_a_row_in_the_list_pane_shows_the_three_answers(name: str, columns: int) -> None:
    s, (outcome, word, mark, replay) = CASES[name]
    text = _row(s, _list_width(columns))
    # at 80 columns (a list 33 wide) the outcome is its mark alone, as the legend says
    assert text.startswith(f" {s.short_id} {outcome if columns == 120 else outcome[0]} ")
    # the list pane is narrow: integrity as a word at 120 columns, as its mark at 80;
    # replayability as its mark (↺ or ✗); the intent keeps its room
    assert (word if columns == 120 else mark) in text
    assert f" {replay[0]} " in text
    assert s.intent in text


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("width", [80, 120])
def test_a_wide_row_shows_the_words_the_reason_and_the_time(name: str, width: int) -> None:
    s, (outcome, word, _, replay) = CASES[name]
    text = _row(s, width)
    assert text.startswith(f" {s.short_id} {outcome}")
    assert f" {word} " in text and f" {replay} " in text
    assert "2026-01-05 10:" in text and s.intent in text


def test_no_row_says_succeeded_for_what_failed_or_cannot_be_believed() -> None:
    for name in ("failed", "tampered", "edited final response", "chain broken", "in flight"):
        s, _ = CASES[name]
        for width in (_list_width(80), 120):
            assert "succeeded" not in _row(s, width)
            assert verdict_of(s).needs_attention


def _counts(*summaries: ExecutionSummary) -> Counter:  # type: ignore[type-arg]
    return Counter(kind_of(s) for s in summaries)


def test_header_counts_what_needs_attention_in_one_line_of_80() -> None:
    rows = [CASES[name][0] for name in CASES]
    model = ListModel()
    model.replace_all(rows)
    assert model.counts == _counts(*rows)
    text = "".join(
        t for t, _ in counts_parts(HeaderState(counts=model.counts, scanning=False), 200)
    )
    assert text == (
        " 10 executions · 6 need attention: 3 untrusted (1 chain broken, 2 tampered),"
        " 1 unknown, 1 failed, 1 in flight · 4 succeeded (1 not replayable)"
        " · integrity: 1 benign, 1 unverifiable"
    )
    narrow = "".join(
        t for t, _ in counts_parts(HeaderState(counts=model.counts, scanning=False), 80)
    )
    assert cell_len(narrow) <= 80
    assert narrow == (
        " 10 executions · 6 need attention: 3 untrusted, 1 unknown, 1 failed, 1 in flight"
    )


def test_header_counts_the_example_of_a_big_directory() -> None:
    ok = summary(1)
    counts = Counter({kind_of(ok): 1201})
    counts[kind_of(CASES["tampered"][0])] = 1
    counts[kind_of(CASES["failed"][0])] = 1
    counts[kind_of(CASES["in flight"][0])] = 1
    text = "".join(t for t, _ in counts_parts(HeaderState(counts=counts, scanning=False), 80))
    assert text == (" 1,204 executions · 3 need attention: 1 untrusted, 1 failed, 1 in flight")
    assert "".join(t for t, _ in counts_parts(HeaderState(counts=counts, scanning=False), 120)) == (
        " 1,204 executions · 3 need attention: 1 untrusted (1 tampered), 1 failed,"
        " 1 in flight · 1,201 succeeded"
    )


def test_header_when_nothing_needs_attention() -> None:
    counts = _counts(summary(1), summary(2))
    text = "".join(t for t, _ in counts_parts(HeaderState(counts=counts, scanning=False), 80))
    assert text == " 2 executions · nothing needs attention · 2 succeeded"
    assert "".join(t for t, _ in counts_parts(HeaderState(), 80)) == " 0 executions"


def test_counts_made_while_the_index_is_read_say_so() -> None:
    # The first frame said "24 executions · 7 need attention" of a directory of 44.
    counts = _counts(summary(1), summary(2))
    reading = "".join(t for t, _ in counts_parts(HeaderState(counts=counts), 80))
    assert reading.startswith(" 2 executions so far · ")
    done = "".join(t for t, _ in counts_parts(HeaderState(counts=counts, scanning=False), 80))
    assert done.startswith(" 2 executions · ")


@pytest.mark.parametrize("view", VIEWS, ids=[v.name for v in VIEWS])
@pytest.mark.parametrize("sort", SORTS, ids=[s.name for s in SORTS])
def test_the_list_subtitle_keeps_the_sort_in_sight_on_a_narrow_list(view: View, sort: Sort) -> None:
    model = ListModel()
    model.view, model.sort = view, sort
    wide = list_subtitle(model, width=200)
    assert wide == f"{view.label} · sort: {sort.label}"
    narrow = list_subtitle(model, width=34)  # the list's width on an 80-column screen
    named = sort.short or sort.label
    assert narrow.endswith(f" · {named}") or narrow == wide
    if cell_len(wide) > 34 - 6:  # a corner, a rule cell and a space each side
        assert narrow == f"{view.short or view.label} · {named}"
    filtering = list_subtitle(model, width=34, filtering=True)
    assert " · filtering… · " in filtering and filtering.endswith(named)


def test_a_subtitle_as_wide_as_the_border_leaves_takes_the_short_form() -> None:
    """At 80 columns the list's border is 36 cells and shows 30 of text: the failed view's
    full subtitle (32) was drawn cut, "failed only · sort: newest fi…"."""
    assert list_subtitle(_viewing(VIEWS[5]), width=36) == "failed only · newest first"


@pytest.mark.parametrize("view", VIEWS, ids=[v.name for v in VIEWS])
@pytest.mark.parametrize("sort", SORTS, ids=[s.name for s in SORTS])
def test_every_view_and_sort_fit_the_border_of_an_80_column_list(view: View, sort: Sort) -> None:
    """At 80 columns (a border of 36 cells, 30 of text) the verdict sort was drawn cut,
    "failures first · verdict, fai…": the order the rows are in, out of sight."""
    model = ListModel()
    model.view, model.sort = view, sort
    assert cell_len(list_subtitle(model, width=36)) <= 36 - 6


def test_a_narrow_list_names_every_view_apart() -> None:
    """Where only a view's short name fits, no two views read the same: the successes that
    cannot be replayed are not "succeeded" there (the view of every success is), nor "not
    replayable" (most executions that cannot be replayed are not in that view)."""
    names = [list_subtitle(_viewing(view), width=34).split(" · ")[0] for view in VIEWS]
    assert len(set(names)) == len(VIEWS), names
    assert names[[v.name for v in VIEWS].index("not_replayable")] == "✓ no replay"


def _viewing(view: View) -> ListModel:
    model = ListModel()
    model.view = view
    return model


def _rows_of(model: ListModel, width: int) -> dict[str, str]:
    """Each execution's row as the list draws it: copies name their files."""
    names = copies_width(model.copies())
    id_width = id_width_for(list(model.summaries.values()))
    rows = {}
    for s in model.summaries.values():
        cells = row_cells(s, width, id_width, copy=s in model.shared_ids, names_width=names)
        rows[s.key] = "".join(t for t, _ in cells)
        assert cell_len(rows[s.key]) == width
    return rows


@pytest.mark.parametrize("columns", [80, 120])
def test_copies_of_one_id_name_their_files_and_the_others_stay_as_they_were(
    columns: int,
) -> None:
    """``cp e3151288-….json aaaaaaaa.json``: two rows with one id (and a truncated third)
    told apart by their files' names in the id column; an id in one file keeps its row."""
    original, _ = CASES["succeeded"]
    original = replace(original, key=f"{original.execution_id}.json")
    other, _ = CASES["failed"]
    other = replace(other, key=f"{other.execution_id}.json")
    copies = [replace(original, key="aaaaaaaa.json"), replace(original, key="trunc-01.json")]
    width = _list_width(columns)
    before = ListModel()
    before.replace_all([original, other])
    alone = _rows_of(before, width)
    model = ListModel()
    model.replace_all([original, other, *copies])
    rows = _rows_of(model, width)
    assert rows["aaaaaaaa.json"].startswith(" aaaaaaaa.json ")
    assert rows["trunc-01.json"].startswith(" trunc-01.json ")
    # the original's long name is cut in its middle: the id's first letters, then its end
    shown = rows[original.key].split()[0]
    assert shown.startswith(original.short_id[:5] + "…") and shown.endswith("01.json")
    assert len({row.split()[0] for row in rows.values()}) == len(rows)  # every row differs
    # the id column widens for the names, the same for every row (they stay aligned) ...
    badge = {re.search("[✓✗◌?⚠]", row).start() for row in rows.values()}  # type: ignore[union-attr]
    assert len(badge) == 1
    # ... leaving the intent its first letters, even in the narrow list of 80 columns
    assert rows[other.key].split()[0] == other.short_id
    assert other.intent[:5] in rows[other.key]
    assert alone[other.key].split()[0] == other.short_id
    # the copy deleted: back to the ids
    model.apply([], [c.key for c in copies])
    assert _rows_of(model, width) == alone


@pytest.mark.parametrize("hostile", ["\x1b[2J.json", "[b]x[/b].json", "\u202ecopy.json"])
def test_a_copys_file_name_is_shown_inert(hostile: str) -> None:
    s, _ = CASES["succeeded"]
    label = copy_label(replace(s, key=hostile))
    assert "\x1b" not in label and "\u202e" not in label
    assert cell_len(label) == MAX_ID_WIDTH


def test_a_long_file_name_is_cut_in_its_middle_keeping_its_end() -> None:
    s, _ = CASES["succeeded"]
    assert copy_label(replace(s, key="a-long-copy-of-the-record.json"), 16) == "a-lon…ecord.json"
    # narrow, the end before the head: the id's first letter, what tells copies apart
    assert copy_label(replace(s, key="a-long-copy-of-the-record.json"), 12) == "a…ecord.json"
    assert copy_label(replace(s, key="a-long-copy-of-the-record.json"), 8) == "a…d.json"
    assert copy_label(replace(s, key="root/x.json"), 8) == "x.json  "  # the root's label left out


@pytest.mark.parametrize("width", [12, 14, 16])
def test_copies_named_after_their_id_stay_apart_when_cut(width: int) -> None:
    """A record and its truncated copy ``<id>.trunc.json`` read the same once cut at the
    end (``e3151288….json`` twice, one ``⚠`` and one ``✓``, at 80 columns): their names
    share the id and differ at their end, which the cut now keeps."""
    s, _ = CASES["succeeded"]
    uuid = "e3151288-62aa-4bcd-9e0f-0123456789ab"
    record, copy = (
        copy_label(replace(s, key=f"{uuid}{end}"), width) for end in (".json", ".trunc.json")
    )
    assert record != copy and cell_len(record) == cell_len(copy) == width
    # the end first ("trunc.json" whole), the rest to the id's first letters (one at least)
    assert record.startswith(uuid[: max(1, width - 11)]) and copy.endswith("trunc.json")


@pytest.mark.parametrize("columns", [80, 120])
def test_several_roots_keep_each_rows_verdict_whole_at_80_columns(columns: int) -> None:
    """With several roots, the root column is as wide as their labels (not a fixed 12
    cells), and the columns are chosen for what the label leaves: the verdict's three
    answers are never cut (at 80 columns, as marks: ``⚠ #! ✗``), and the intent keeps some
    room."""
    cases = [s for s, _ in CASES.values()]
    rows = [replace(s, root=("demo", "real")[i % 2]) for i, s in enumerate(cases)]
    roots = root_width_for(rows)
    assert roots == 4
    width = _list_width(columns)
    for s in rows:
        text = "".join(t for t, _ in row_cells(s, width, id_width_for(rows), root_width=roots))
        assert cell_len(text) == width
        assert text.startswith(f" {s.root} ")
        verdict = verdict_of(s)
        badge = outcome_badge(verdict, False)[0]
        if columns == 80:  # the three answers' marks, as the comparison picker shows them
            marks = verdict_marks((verdict.outcome, verdict.integrity, verdict.replay))
            assert f" {marks} " in text, (marks, text)
        else:
            assert badge in text, (badge, text)


def test_with_several_roots_and_long_ids_a_row_never_overflows_its_list() -> None:
    """At 80 columns a list of 34 cells, 13-cell ids and a root column: the verdict as its
    three marks and the intent cut, with ``…``, rather than pushed past the list's edge
    (where the screen showed ``C`` and no sign of the cut)."""
    s, _ = CASES["succeeded"]
    row = replace(s, root="demo", execution_id="exec-3580bf82", intent="ClassifyTicket")
    text = "".join(t for t, _ in row_cells(row, 34, 13, root_width=4))
    assert cell_len(text) == 34, text
    assert text == " demo exec-3580bf82 ✓ #✓ ↺ Classi…", text


def test_several_roots_too_long_for_the_line_each_keep_their_end_and_count() -> None:
    """Roots whose labels share a long start: each is cut at its start alike, so both show
    where they differ and their counts; the first is not cut away for the last."""
    roots = ("incident-2026-11-28-payments-eu-west 40", "incident-2026-11-28-payments-us-east 38")
    state = HeaderState(directory=" · ".join(roots), roots=roots)
    line = "".join(text for text, _ in location_parts(state, 80))
    assert cell_len(line) <= 80
    assert "-eu-west 40 · …" in line and line.endswith("-us-east 38  ● live  listing files…")
    assert line.split("● live")[0].count("…") == 2
    short = ("a 1", "incident-2026-11-28-payments-us-east-and-a-much-longer-tail 38")
    line = "".join(text for text, _ in location_parts(HeaderState(directory="", roots=short), 80))
    assert "▸ a 1 · …" in line and line.split("● live")[0].count("…") == 1  # a short one: whole
    wide = "".join(text for text, _ in location_parts(state, 200))
    assert " · ".join(roots) in wide  # room enough: nothing cut


def test_a_failed_root_keeps_its_label_and_failed_when_cut_at_80_columns() -> None:
    # It was cut at its start: "…uch directory: /tmp/walk2/nonexist", no label, no FAILED.
    roots = ("live 59", "demo1 40", "nonexist FAILED: no such directory: /tmp/walk2/nonexist")
    state = HeaderState(directory=" · ".join(roots), roots=roots)
    line = "".join(text for text, _ in location_parts(state, 80))
    assert cell_len(line) <= 80
    assert "live 59 · demo1 40 · nonexist FAILED: " in line, line
    assert "…  ● live" in line  # what is cut is the end of why


def test_remote_roots_cut_at_80_columns_keep_their_labels_and_counts() -> None:
    """Two remote roots of one host at 80 columns read "…0 (remote) · …4 (remote)": their
    kind took the room, neither label nor count (40) was left. The kind gives way first."""
    roots = ("127.0.0.1 40 (remote)", "127.0.0.1#2 4 (remote)")
    state = HeaderState(directory=" · ".join(roots), roots=roots)
    line = "".join(text for text, _ in location_parts(state, 80))
    assert cell_len(line) <= 80
    assert "▸ 127.0.0.1 40 · 127.0.0.1#2 4  ● live" in line, line
    failing = (*roots, "127.0.0.1#3 0 (remote) ⚠ ssh://root@127.0.0.1:1/x: connection refused")
    line = "".join(t for t, _ in location_parts(HeaderState(directory="", roots=failing), 80))
    assert "7.0.0.1 40 · " in line and "0.0.1#2 4 · 127.0.0.1#" in line, line
    wide = "".join(text for text, _ in location_parts(state, 200))
    assert " · ".join(roots) in wide  # room enough: each says what it is


def test_two_roots_of_one_host_read_apart_in_a_narrow_list() -> None:
    """Two paths on one SSH server are labelled ``127.0.0.1`` and ``127.0.0.1#2``: at 80
    columns both rows' root cells read ``127.0.0…``. A label is cut in its middle now, as a
    copy's file name is, and keeps the end where the two differ."""
    # ids known only from their logs, 13 characters: the root column gets less room
    a = replace(CASES["succeeded"][0], root="127.0.0.1", execution_id="exec-2e05319a")
    b = replace(a, root="127.0.0.1#2")
    id_width = id_width_for([a, b])
    width = _list_width(80)
    cells_a, cells_b = (row_cells(s, width, id_width, root_width=12) for s in (a, b))
    root_a, root_b = cells_a[1][0], cells_b[1][0]
    assert len(root_a) == len(root_b) < len("127.0.0.1#2 "), (root_a, root_b)
    assert root_a != root_b and root_b.rstrip().endswith("#2"), (root_a, root_b)
    assert cell_len("".join(t for t, _ in cells_a)) == width


def test_a_row_with_no_intent_says_what_is_wrong_or_nothing() -> None:
    # A whole record with no intent (an envelope of the wrong type) has nothing to say in
    # that column ("-", as inspect --list); a broken file says what is wrong with it.
    from intentus_tui.core.model import LoadStatus

    whole = replace(summary(1), intent="", message="Record parsed")
    broken = replace(
        summary(2),
        intent="",
        load_status=LoadStatus.SALVAGED,
        message="Damaged record: invalid JSON at byte 264",
    )
    assert "Record parsed" not in _row(whole, 60) and " - " in _row(whole, 60)
    assert "Damaged recor" in _row(broken, 80)


def test_the_count_indexed_is_never_behind_the_executions_counted() -> None:
    # "indexing 256/100,000" beside "305 executions so far": the first rows shown were
    # read before the scan reached them.
    counts = _counts(*(summary(n) for n in range(305)))
    state = HeaderState(directory="d", counts=counts, scanned=256, total=100_000)
    line = "".join(text for text, _ in location_parts(state, 200))
    assert "indexing 305/100,000" in line
    said = "".join(text for text, _ in counts_parts(state, 200))
    assert said.startswith(" 305 executions so far")


def test_a_group_header_too_wide_cuts_its_title_and_keeps_its_count() -> None:
    """At 80 columns the list is 34 cells wide: "── Untrusted: tampered or chain …"
    had lost the count of the group, the one figure a narrow list had of it."""
    assert group_header_text(Group.FAILED, 54_095, 40) == "── Failed (54,095) " + "─" * 21
    narrow = group_header_text(Group.UNTRUSTED, 40_000, 20)
    assert cell_len(narrow) == 20
    assert narrow.startswith("── Untrus") and narrow.endswith("… (40,000) ")
    tiny = group_header_text(Group.UNTRUSTED, 1_234, 8)  # no room for both: cut as before
    assert cell_len(tiny) == 8 and tiny.startswith("── Un")


def test_a_group_title_too_wide_gives_its_first_words_whole() -> None:
    """At 80 columns the list showed "── Untrusted: tampered or c… (4)" and "── In flight
    (crashed or st… (4)": an explanation cut mid-word where the group's name fits whole."""
    assert group_header_text(Group.UNTRUSTED, 4, 32) == "── Untrusted (4) " + "─" * 15
    assert group_header_text(Group.IN_FLIGHT, 16, 32) == "── In flight (16) " + "─" * 14
    wide = group_header_text(Group.UNTRUSTED, 4, 60)  # room for it: the whole title
    assert wide.startswith("── Untrusted: tampered or chain broken (4) ")
