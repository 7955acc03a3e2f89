"""``fit_pair``: two texts in their cells, cut where they differ, never wider or narrower."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from intentus_tui.render.cells import clip_pair, fit_pair

SHARED = "the ledger was checked by the second agent " * 3


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (SHARED + "and emailed", SHARED + "and called"),
        (SHARED, SHARED + " and more"),  # one is how the other begins
        ("表" * 40 + "甲", "表" * 40 + "乙"),  # two cells each
        ("  " + '"key": ' + SHARED + "x", "  " + '"key": ' + SHARED + "y"),
    ],
)
@pytest.mark.parametrize(("width_a", "width_b"), [(36, 36), (30, 31), (9, 9)])
def test_each_side_keeps_its_width_and_shows_the_difference(
    a: str, b: str, width_a: int, width_b: int
) -> None:
    cut_a, cut_b = fit_pair(a, b, width_a, width_b, head=9 if a.startswith("  ") else 0)
    assert (cell_len(cut_a), cell_len(cut_b)) == (width_a, width_b)
    # Not the same cut (the plain one: ``fit``, cut at the end, read the same).
    assert cut_a.rstrip(" …") != cut_b.rstrip(" …")
    assert cut_a.startswith(("…", '"key": …', '  "key": …')) and "…" in cut_b
    clipped = clip_pair(a, b, width_a)
    assert all(cell_len(text) <= width_a for text in clipped) and clipped[0] != clipped[1]


def test_texts_that_differ_early_are_cut_at_their_end() -> None:
    assert fit_pair("A" + SHARED, "B" + SHARED, 20, 20) == (
        "A" + SHARED[:18] + "…",
        "B" + SHARED[:18] + "…",
    )
