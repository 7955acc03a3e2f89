"""The filter finds executions by their agents' names, which no list row shows: the list's
title says how many of the rows shown it found that way, or a user sees rows that seem
not to match what was typed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_rows import list_title
from intentus_tui.tui.widgets import execution_list
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import list_lines, make_app, screen_text, settle, wait_for
from tests.tui.test_list_model import summary


@pytest.mark.parametrize(
    ("size", "title"),
    [
        ((80, 24), "Executions · 2 by an agent"),
        ((200, 50), "Executions · 2 of 2 matched by an agent, not shown in the rows"),
    ],
)
async def test_the_title_says_how_many_rows_an_agents_name_found(
    real_world: RealWorld, size: tuple[int, int], title: str
) -> None:
    """Real 1.3.0 records, filtered by ``fb-primary``: the failed execution that ran it
    and the fallback that ran it first. Their rows show neither agent (only "Summarize",
    as every other row); the list's title says why they are there. A term their rows
    show (the intent) leaves the title as it was."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        listing = app.execution_list
        assert str(listing.border_title) == "Executions"
        await pilot.press("slash", *"fb-primary", "enter")
        await settle(pilot)
        rows = [row for row in list_lines(app) if row.strip() and not row.startswith("──")]
        found = {real_world.fallback[:8], real_world.error_truncated[:8]}
        assert {row.split()[0] for row in rows} == found
        assert not any("fb-primary" in row for row in rows)
        assert str(listing.border_title) == title
        assert f"╭─ {title} ─" in screen_text(app)
        # The three that ran fb-secondary: the intent is on their rows, the agent not.
        await pilot.press("slash", "ctrl+u", *"summarize fb-s", "enter")
        await settle(pilot)
        assert listing.model.shown_count == 3
        assert str(listing.border_title) == title.replace("2", "3")
        await pilot.press("escape", "slash", *"summarize", "enter")
        await settle(pilot)
        assert listing.model.shown_count == 4
        assert str(listing.border_title) == "Executions"


def test_the_count_follows_the_terms_and_live_changes() -> None:
    """Only a term found in the agents alone counts: one the row's text holds too, a
    term to be absent, or a verdict word does not; an execution that comes, changes or
    goes while the filter applies is counted or dropped."""
    model = ListModel()
    model.replace_all(
        [
            summary(1),  # agent-a
            summary(2, agent="router-b", chain="router-b ✗ → backup ✓"),
            summary(3, agent="backup", chain="backup ✓"),
        ]
    )
    for query, shown, found in (
        ("backup", 2, 2),
        ("backup classify", 1, 1),  # 00002's intent, and its chain's agent
        ("00002", 1, 0),  # its id: shown by its row
        ("not backup", 1, 0),
        ("backup untrusted", 0, 0),
        ("replayable backup", 2, 2),
        ("agent", 1, 1),  # "agent-a": 00001's agent; the others hold "agent" nowhere
    ):
        model.set_query(query)
        assert (model.shown_count, model.found_unshown()) == (shown, found), query
    model.set_query("backup")
    assert model.found_unshown() == 2
    model.apply([summary(4, agent="backup", chain="backup ✓")])  # comes in
    assert model.found_unshown() == 3
    model.apply([replace(summary(4), intent="backup-job")])  # now its row shows it
    assert (model.shown_count, model.found_unshown()) == (3, 2)
    model.apply([], ["00002.json"])
    assert (model.shown_count, model.found_unshown()) == (2, 1)
    assert list_title(model, 36) == "Executions · 1 by an agent"
    assert list_title(model, 50) == "Executions · 1 of 2 matched by an agent"
    model.set_query("")
    assert model.found_unshown() == 0 and list_title(model, 36) == "Executions"


async def test_many_rows_are_counted_once_the_typing_pauses(
    real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above a few thousand rows shown, counting them on each key would slow the typing
    (a pass over each row's text): the title waits for a pause, then says the count."""
    monkeypatch.setattr(execution_list, "COUNT_AT_ONCE", 1)  # 2 rows shown: "many"
    monkeypatch.setattr(execution_list, "COUNT_AFTER_SECONDS", 2.0)  # a slow machine's keys
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("slash", *"fb-primar")
        await pilot.pause()
        assert listing.model.shown_count == 2 and not listing.model.unshown_counted
        assert str(listing.border_title) == "Executions"
        await pilot.press("y", "enter")
        await wait_for(pilot, lambda: listing.model.unshown_counted, "counted after a pause")
        await pilot.pause()
        assert str(listing.border_title) == "Executions · 2 by an agent"


@pytest.mark.parametrize(
    ("typed", "title"),
    [
        # the rest of an id its row cuts to 8 characters
        (
            lambda w: w.success[9:18],
            "Executions · 1 of 1 matched by the full id, not shown in the rows",
        ),
        # the file's name: every record's ends in .json
        (lambda w: ".json", "Executions · 4 of 4 matched by the file name, not shown in the rows"),
        # the source: every one of these is a record's (the cut one's row says
        # record_corrupted)
        (lambda w: "record", "Executions · 3 of 4 matched by the source, not shown in the rows"),
        # both at once, each row named by the first term found only there
        (
            lambda w: f"{w.success[9:18]} fb-secondary",
            "Executions · 1 of 1 matched by the full id, not shown in the rows",
        ),
        # what the rows show (the short id): nothing to explain
        (lambda w: w.success[:6], "Executions"),
    ],
)
async def test_the_title_says_what_unshown_text_a_filter_matched(
    real_world: RealWorld, typed: object, title: str
) -> None:
    """Real 1.3.0 records filtered by text no row shows (the full id past its first 8
    characters, the file's name, the source): the rows found seemed to match nothing
    visible, and the title said nothing."""
    text = typed(real_world)  # type: ignore[operator]
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("slash", *text, "enter")
        await settle(pilot)
        rows = [row for row in list_lines(app) if row.strip() and not row.startswith("──")]
        assert rows
        if "id" in title or "file" in title:  # found in no row's text: the title says why
            assert not any(text in row for row in rows)
        assert str(listing.border_title) == title
        assert f"╭─ {title} ─" in screen_text(app)


def test_rows_found_by_different_unshown_parts_are_named_together() -> None:
    model = ListModel()
    model.replace_all(
        [
            replace(summary(1), source="record+wal"),  # "wal" in its source only
            summary(2, agent="walker", chain="walker ✓"),  # in its agent only
            summary(3),
        ]
    )
    model.set_query("wal")
    assert (model.shown_count, model.found_unshown()) == (2, 2)
    assert list_title(model) == (
        "Executions · 2 of 2 matched by the source or an agent, not shown in the rows"
    )
    assert list_title(model, 40) == "Executions · 2 by source/agent"
    model.set_query("0000")  # the id as its row shows it: nothing to explain
    assert (model.shown_count, list_title(model)) == (3, "Executions")


def test_a_file_name_the_row_shows_is_not_said_unshown() -> None:
    """A copy of a record (two files, one id) and a misnamed record show their file names
    in their rows: found by that name, they match what is shown. A row that shows only its
    id is still said found by its file's name."""
    model = ListModel()
    model.replace_all(
        [
            summary(1),
            replace(summary(1), key="backup-copy.json"),  # a copy: both rows name their file
            replace(summary(2), key="renamed-backup.json"),  # misnamed: its row names it
            summary(3),
        ]
    )
    model.set_query("backup")
    assert (model.shown_count, model.found_unshown()) == (2, 0)
    model.set_query("json")  # in every file's name; only 00003's row shows no file name
    assert (model.shown_count, model.found_unshown()) == (4, 1)
    assert (
        list_title(model) == "Executions · 1 of 4 matched by the file name, not shown in the rows"
    )


def test_a_copy_arriving_makes_the_original_row_name_its_file_too() -> None:
    model = ListModel()
    model.replace_all([summary(1), summary(3)])
    model.set_query("json")
    assert model.found_unshown() == 2  # neither row shows its file's name
    model.apply([replace(summary(1), key="00001-copy.json")])  # now 00001 has a copy
    assert (model.shown_count, model.found_unshown()) == (3, 1)
