"""Text tables fitted to a terminal: which columns go, which are cut, and ids shortened
to prefixes that still name one execution."""

from __future__ import annotations

from rich.cells import cell_len

from intentus_tui.render.table import Fitting, fit_table, short_ids, table_lines

HEADER = ["EXECUTION", "CREATED", "INTENT", "OUTCOME", "EVENTS", "WAL"]
ROW = ["exec-1", "2026-01-05T09:00:56Z", "SummarizeDocument", "succeeded", "5", "completed"]


def widest(rows: list[list[str]]) -> int:
    return max(cell_len(line) for line in table_lines(rows))


def test_a_table_that_fits_is_left_whole() -> None:
    fitted = fit_table([HEADER, ROW], 200, Fitting(leave_out=["EVENTS"], flexible={"INTENT": 8}))
    assert fitted.rows == [HEADER, ROW] and not fitted.left_out and not fitted.cut


def test_flexible_columns_are_cut_before_any_column_is_left_out() -> None:
    whole = widest([HEADER, ROW])
    fitted = fit_table(
        [HEADER, ROW], whole - 5, Fitting(leave_out=["EVENTS"], flexible={"INTENT": 8})
    )
    assert fitted.rows[0] == HEADER and fitted.left_out == ()
    assert fitted.cut == ("INTENT",)
    assert fitted.rows[1][2] == "SummarizeDo…"  # 12 cells of 17: the ellipsis is one of them
    assert widest(fitted.rows) == whole - 5


def test_columns_are_left_out_in_the_order_given_and_the_cut_is_undone_when_room_is_made() -> None:
    fitted = fit_table(
        [HEADER, ROW], 40, Fitting(leave_out=["EVENTS", "WAL", "CREATED"], flexible={"INTENT": 8})
    )
    assert fitted.left_out == ("CREATED", "EVENTS", "WAL")  # said in the table's order
    assert fitted.rows == [
        ["EXECUTION", "INTENT", "OUTCOME"],
        ["exec-1", "SummarizeDocument", "succeeded"],  # room enough again: whole
    ]
    assert widest(fitted.rows) <= 40


def test_a_table_too_wide_for_any_fitting_is_as_narrow_as_it_can_be() -> None:
    fitted = fit_table([HEADER, ROW], 10, Fitting(leave_out=["WAL"], flexible={"INTENT": 8}))
    assert fitted.left_out == ("WAL",)
    assert fitted.rows[1][2] == "Summari…"  # its least width, never less


def test_wide_characters_are_measured_in_terminal_cells() -> None:
    row = [*ROW[:2], "要約する文書の処理", *ROW[3:]]  # 18 cells in 9 characters
    whole = widest([HEADER, row])
    fitted = fit_table([HEADER, row], whole - 6, Fitting(flexible={"INTENT": 8}))
    assert widest(fitted.rows) <= whole - 6
    assert cell_len(fitted.rows[1][2]) <= 12


def test_columns_are_shortened_first_and_the_note_says_all_that_was_done() -> None:
    fitting = Fitting(
        shorten={"EXECUTION": lambda text: text[:4]},
        flexible={"INTENT": 8},
        leave_out=["EVENTS", "WAL", "CREATED"],
    )
    fitted = fit_table([HEADER, ROW], 30, fitting)
    assert fitted.rows == [["EXECUTION", "INTENT", "OUTCOME"], ["exec", "Summari…", "succeeded"]]
    assert fitted.note(30) == [
        "(fitted to 30 columns:",
        "EXECUTION shortened; INTENT",
        "cut; CREATED, EVENTS, WAL left",
        "out. Piped, every column is",
        "whole.)",
    ]
    assert fit_table([HEADER, ROW], 200, fitting).note(200) == []  # fits: nothing shortened


def test_uuids_are_shown_by_the_shortest_prefix_no_other_id_shares() -> None:
    ids = [
        "0d011abf-0000-4000-8000-000000000001",
        "0d011abf-1111-4000-8000-000000000002",  # shares the first 8 with the one above
        "7ae0a297-efde-4434-8919-1f192ee50208",
        "exec-2e05319a",
    ]
    short = short_ids(ids)
    assert short(ids[0]) == "0d011abf-0" and short(ids[1]) == "0d011abf-1"
    assert short(ids[2]) == "7ae0a297"
    assert short(ids[3]) == "exec-2e05319a"  # not a UUID: whole
    assert short("not-listed") == "not-listed"


def test_a_column_is_said_shortened_only_when_a_cell_is() -> None:
    fitting = Fitting(shorten={"EXECUTION": short_ids(["exec-1"])}, flexible={"INTENT": 8})
    fitted = fit_table([HEADER, ROW], 60, fitting)
    assert fitted.shortened == () and fitted.cut == ("INTENT",)
    assert "shortened" not in " ".join(fitted.note(60))


def test_a_table_that_cannot_fit_says_so_rather_than_fitted() -> None:
    fitted = fit_table([HEADER, ROW], 10, Fitting(leave_out=["WAL"], flexible={"INTENT": 8}))
    assert " ".join(fitted.note(10)).startswith("(still wider than 10 columns after:")
    fits = fit_table([HEADER, ROW], 75, Fitting(flexible={"INTENT": 8}))
    assert " ".join(fits.note(75)).startswith("(fitted to 75 columns:")


def test_words_are_said_shorter_only_when_nothing_is_left_to_leave_out() -> None:
    header = ["EXECUTION", "FILE", "REPLAY", "EVENTS"]
    rows = [
        header,
        ["a", "0123456789abcdef.json", "no (manually_invalidated)", "5"],
        ["a", "0123456789abcdef.trunc.json", "no (record_corrupted)", "1"],
    ]
    fitting = Fitting(
        flexible={"FILE": 12},
        leave_out=["EVENTS"],
        abbreviate={"REPLAY": {"manually_invalidated": "invalidated", "record_corrupted": "x"}},
        cut_middle=frozenset({"FILE"}),
    )
    roomy = fit_table(rows, 55, fitting)  # leaving EVENTS out is enough: words whole
    assert roomy.left_out == ("EVENTS",) and not roomy.abbreviated
    assert roomy.rows[1][2] == "no (manually_invalidated)"
    narrow = fit_table(rows, 45, fitting)
    assert widest(narrow.rows) <= 45
    assert [row[2] for row in narrow.rows[1:]] == ["no (invalidated)", "no (x)"]
    # Cut in the middle, the copies' names still differ (at their end, they did not).
    assert narrow.rows[1][1] != narrow.rows[2][1]
    assert narrow.rows[2][1].endswith("trunc.json") and "…" in narrow.rows[2][1]
    note = " ".join(narrow.note(200))
    assert "REPLAY said shorter: invalidated = manually_invalidated, x = record_corrupted" in note
