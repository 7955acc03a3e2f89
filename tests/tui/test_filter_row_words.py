"""What a list row shows of its verdict (``unverif.``, ``✗ corrupt``, ``✗ operator``, the
narrow row's ``#?``) finds it when typed in the filter, as the verdict's words
(``record_corrupted``, ``manually invalidated``) always did."""

from __future__ import annotations

import pytest

from intentus_tui.tui.presenters.list_model import ListModel
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import list_lines, make_app, settle
from tests.tui.test_list_model import summary


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        # the cut record's row: "✗ failed  unverif. ✗ corrupt"
        ("unverif.", "error_truncated"),
        ("✗ corrupt", "error_truncated"),
        ("#?", "error_truncated"),
        ("record_corrupted", "error_truncated"),  # its words: as before
        # the invalidated one's: "✓ succeeded verified ✗ operator"
        ("✗ operator", "invalidated"),
        ("manually invalidated", "invalidated"),
    ],
)
async def test_what_a_row_shows_of_its_verdict_finds_it(
    real_world: RealWorld, typed: str, found: str
) -> None:
    """Real 1.3.0 records, the list wide enough for its columns' words: typed as the row
    shows it, its verdict's cells find the row (``unverif.`` found nothing, ``✗ corrupt``
    was found by the ✗ of an agent's chain, the title saying so), and no other row."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *typed, "enter")
        await settle(pilot)
        rows = [row for row in list_lines(app) if row.strip() and not row.startswith("──")]
        assert [row.split()[0] for row in rows] == [getattr(real_world, found)[:8]]
        assert str(app.execution_list.border_title) == "Executions"  # found by what it shows


def test_each_cell_of_a_row_finds_it_and_the_verdict_words_still_do() -> None:
    """Every abbreviation the list's columns use, typed, finds the rows that show it."""
    model = ListModel()
    invalidated = summary(1, replayable=False)
    incomplete = summary(
        2, "incomplete", replayable=False, final_status=None, replay_reason="execution_incomplete"
    )
    failure = summary(3, replayable=False, replay_reason="recording_failure")
    tampered = summary(4, "tampered")
    fine = summary(5)
    model.replace_all([invalidated, incomplete, failure, tampered, fine])

    def found(query: str) -> set[str]:
        model.set_query(query)
        return {k for row in range(len(model)) if (k := model.key_at(row)) is not None}

    assert found("operator") == {invalidated.key}
    assert found("no resp") == {incomplete.key}
    assert found("rec.fail") == {failure.key}
    assert found("untrust.") == {tampered.key}
    assert found("#!") == {tampered.key}
    assert found("↺ yes") == {fine.key}
    assert found("recording failure") == {failure.key}  # the words: as before
    assert found("trusted") == {invalidated.key, incomplete.key, failure.key, fine.key}
