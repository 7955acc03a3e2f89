"""Text cut by its widget's max-height ends its last row with "…" (a timeline summary cut
after "final response:" read as if that were all it said)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.content import Content

from intentus_tui.tui.widgets.clamped_text import MAX_LINE_ROWS, ClampedText

TEXT = "first line\nsecond line that goes on\nthird line: the one cut"


class ClampApp(App[None]):
    CSS = """
    #cut { max-height: 2; width: 30; }
    #whole { max-height: 5; width: 30; }
    #narrow { max-height: 2; width: 12; }
    #flat { max-height: 2; width: 30; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def compose(self) -> ComposeResult:
        for name in ("cut", "whole", "narrow", "flat"):
            yield ClampedText(Content(TEXT), id=name)


def _rows(app: App[None], name: str) -> list[str]:
    widget = app.query_one(f"#{name}", ClampedText)
    return [strip.text.rstrip() for strip in widget.render_lines(widget.region.reset_offset)]


async def test_the_last_row_shown_says_that_more_was_cut() -> None:
    app = ClampApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert _rows(app, "cut") == ["first line", "second line that goes on…"]
        assert _rows(app, "whole") == TEXT.splitlines()  # it fits: nothing added
        narrow = _rows(app, "narrow")  # wrapped, and the row cut to make room for "…"
        assert narrow == ["first line", "second line…"]
        assert _rows(app, "flat") == ["first line", "second line that goes on…"]


class HangingApp(App[None]):
    CSS = "#hanging { width: 30; max-height: 4; } #short { width: 30; max-height: 2; }"

    def compose(self) -> ComposeResult:
        yield ClampedText(id="hanging")
        yield ClampedText(id="short")

    def on_mount(self) -> None:
        lines = [Content("id-1  Summarize"), Content("outcome   ✓ succeeded — the final response")]
        for name in ("hanging", "short"):
            self.query_one(f"#{name}", ClampedText).show(lines, [0, 10])


async def test_a_label_s_text_wraps_beside_the_label_and_a_cut_still_says_so() -> None:
    # A verdict's reason went back to the left edge, under its label.
    app = HangingApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert _rows(app, "hanging") == [
            "id-1  Summarize",
            "outcome   ✓ succeeded — the",
            "          final response",
        ]
        # Cut, a row filled as far as it goes, saying so.
        assert _rows(app, "short") == ["id-1  Summarize", "outcome   ✓ succeeded — the f…"]
        widget = app.query_one("#hanging", ClampedText)
        widget.update(Content("plain text, given whole"))  # no longer hangs
        await pilot.pause()
        assert _rows(app, "hanging") == ["plain text, given whole"]


def test_rows_to_spare_go_to_the_verdict_s_reasons_before_the_lines_after_them() -> None:
    """At 200x50 the three reasons were cut to a row each while the chain and a fallback
    line below them wrapped whole."""
    long = "word " * 30
    lines = [
        (Content("id-1  Summarize  ✓ succeeded"), 0),
        (Content(f"outcome   ✓ succeeded — {long}"), 10),
        (Content(f"integrity verified — {long}"), 10),
        (Content("replay    ↺ yes"), 10),
        (Content(f"chain {long}"), 6),
        (Content(f"seq 4 fallback a → b: {long}"), 0),
    ]
    rows, cut = ClampedText._fitted(lines, 40, 10, keep=4)
    plain = [row.plain for row in rows]
    assert cut
    # Every line has its row; the four rows to spare went to the outcome's reason, first.
    assert plain == [
        "id-1  Summarize  ✓ succeeded",
        "outcome   ✓ succeeded — word word word",
        *["          word word word word word word"] * 3,
        "          word word word word word word…",
        "integrity verified — word word word wor…",
        "replay    ↺ yes",
        "chain word word word word word word wor…",
        "seq 4 fallback a → b: word word word wo…",  # filled: no room left unused
    ]


def test_the_integrity_s_reason_can_be_given_its_rows_before_the_outcome_s() -> None:
    """An untrusted execution's outcome reason (advice to investigate) took the rows while
    its integrity reason, what broke, was cut."""
    advice = "cannot be believed: investigate before trusting anything recorded in it"
    lines = [
        (Content("id-1  Summarize"), 0),
        (Content(f"outcome   ⚠ untrusted — {advice}"), 10),
        (Content("integrity chain broken — WAL hash chain broken at line 3 (seq 3)"), 10),
        (Content("replay    ✗ no (untrusted)"), 10),
    ]
    rows, _ = ClampedText._fitted(lines, 40, 6, keep=4, first=(2,))
    assert [row.plain for row in rows] == [
        "id-1  Summarize",
        "outcome   ⚠ untrusted — cannot be",
        "          believed: investigate before…",  # what is left after the integrity's
        "integrity chain broken — WAL hash chain",
        "          broken at line 3 (seq 3)",
        "replay    ✗ no (untrusted)",
    ]


class LongLineApp(App[None]):
    CSS = "#long { width: 30; height: auto; }"

    def compose(self) -> ComposeResult:
        yield ClampedText(id="long")

    def on_mount(self) -> None:
        # A hostile 1 MB intent in a summary's title: wrapped whole, 0.5 s each time.
        line = Content("intent " + "x" * 1_000_000)
        self.query_one("#long", ClampedText).show([line], [7])


async def test_a_line_of_a_megabyte_is_drawn_as_its_first_rows_and_says_it_was_cut() -> None:
    app = LongLineApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        widget = app.query_one("#long", ClampedText)
        height = widget.size.height
        assert 100 <= height <= 2 * MAX_LINE_ROWS  # not the 43,479 rows it wraps to
        rows = [strip.text.rstrip() for strip in widget.render_lines(widget.region.reset_offset)]
        assert rows[0] == "intent " + "x" * 23
        assert rows[1] == " " * 7 + "x" * 23  # still hung beside its label
        assert rows[-1].endswith("x…")
