"""A text far longer than its row (a hostile 1 MB intent or agent name) is cut to the row
by its start: measured whole, each row that drew it held the debugger's screen for most of
a second, the list's, the events' and each form of the timeline's chain."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from intentus_tui.core.detail import load_detail
from intentus_tui.render import cells
from intentus_tui.render.cells import fit
from intentus_tui.tui.presenters import timeline_summary
from tests.factories import make_record, write_record

# Non-ASCII, with bidi controls (no width) among the letters: measured cell by cell.
HUGE = "é\u202e" * 500_000


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each text measured in cells by the row fitting and the chain."""
    lengths: list[int] = []

    def measuring(text: str) -> int:
        lengths.append(len(text))
        return cell_len(text)

    monkeypatch.setattr(cells, "cell_len", measuring)
    return lengths


def test_a_megabyte_name_is_cut_to_its_row_by_its_start(measured: list[int]) -> None:
    assert fit(HUGE, 10) == "é\u202e" * 9 + "…"
    assert fit(HUGE, 10, align_right=True) == "é\u202e" * 9 + "…"
    assert max(measured) < 100


def test_a_start_of_no_width_is_measured_whole() -> None:
    # Nothing shown is left out: its width comes after a long run of bidi controls.
    text = "\u202e" * 1_000 + "abc"
    assert fit(text, 5) == text + "  "


def test_the_chain_cuts_a_megabyte_agent_name_by_its_start(
    records_dir: Path, measured: list[int]
) -> None:
    record = make_record(execution_id="huge-agent", agents=(("A" + HUGE, "ok"),))
    detail = load_detail(write_record(records_dir, record))
    timeline = detail.timeline
    assert timeline is not None
    forms = timeline_summary.chain_forms(timeline)
    cut = [form for form in forms if form.name_cells is not None]
    assert cut
    for form in cut:
        chain = timeline_summary.chain_content(timeline, form=form).plain
        assert chain.startswith("A") and "…" in chain and len(chain) < 100
    assert max(measured) < 1_000


def test_the_whole_chain_cuts_a_megabyte_agent_name_after_its_first_thousands(
    records_dir: Path,
) -> None:
    record = make_record(execution_id="huge-agent", agents=(("A" + HUGE, "ok"),))
    detail = load_detail(write_record(records_dir, record))
    assert detail.timeline is not None
    chain = timeline_summary.chain_content(detail.timeline).plain
    assert chain.startswith("Aé⟨U+202E⟩") and chain.endswith("… ✓")
    assert len(chain) < timeline_summary.CHAIN_NAME_MOST + 10  # not its 1,000,001
