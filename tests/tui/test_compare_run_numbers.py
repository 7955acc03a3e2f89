"""Two Active Graph runs name each event one way - by its number in its run, ``#8`` (its
positional id ``evt_008``) - in ``intentus-tui diff``, the Diff tab and the comparison screen;
the first divergence gives the ``seq`` (its row in the file) of each side's event with it. The command line
named one event ``events[7] (seq 8 / 30)``, ``#8`` and ``[7]``."""

from __future__ import annotations

import json

import pytest

from intentus_tui.cli import run
from intentus_tui.core.actions import run_operand
from intentus_tui.core.activegraph import run_events
from intentus_tui.tui.comparing import ComparisonLauncher
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.activegraph_world import NotesWorld, notes_world
from tests.tui.side_pane_harness import SidePaneApp, finish_workers


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))


class RunsApp(ComparisonLauncher):
    def __init__(self, notes: NotesWorld) -> None:
        super().__init__()
        self.notes = notes

    def on_mount(self) -> None:
        world = self.notes
        self.open_comparison(
            run_operand("parent", world.path, world.parent),
            run_operand("grandchild", world.path, world.grandchild),
        )


def _numbered(text: str) -> bool:
    """``#8 evt_008 …``: the number a row gives its event is the one in the run's id."""
    number, event_id = text.split()[:2]
    return number.startswith("#") and event_id == f"evt_{int(number[1:]):03d}"


async def test_an_event_has_one_number_in_the_cli_and_the_comparison_screen(
    notes: NotesWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    parent, grandchild = (
        run_events(notes.path, notes.parent),
        run_events(notes.path, notes.grandchild),
    )
    # The runs first part at their eighth event: one id, a row of its own in the file each;
    # aligned, the parent's #8 has no twin in the grandchild (whose #8 is its runtime.idle).
    assert parent[7].id == grandchild[7].id == "evt_008" and parent[7].seq != grandchild[7].seq
    expected = f"event #8 (A seq {parent[7].seq})"

    run(["diff", notes.ref(notes.parent), notes.ref(notes.grandchild)])
    lines = capsys.readouterr().out.splitlines()
    assert f"first divergence: {expected}: only in A (behavior.completed)" in lines
    assert any(line.startswith("  #8 evt_008 behavior.completed by runtime") for line in lines)
    assert '  #8.type: "behavior.completed" → "runtime.idle"' in lines
    assert any(line.startswith("+ #14: ") for line in lines)
    assert not [line for line in lines if "events[" in line or line[2:].startswith("[")]

    run(["diff", notes.ref(notes.parent), notes.ref(notes.grandchild), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["first_divergence"]["description"].startswith(expected)
    assert doc["first_divergence"]["index"] == 7  # the JSON's paths and indexes stay 0-based
    assert all(e["path_text"].startswith("#") for e in doc["entries"])
    assert doc["entries"][0]["path"][0] == 7 and doc["entries"][0]["path_text"].startswith("#8.")

    app = RunsApp(notes)
    async with app.run_test(size=(200, 50)) as pilot:
        await finish_workers(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert f"first divergence: {expected}" in str(screen.query_one("#compare-status").render())
        assert screen.compared is not None
        rows = screen.compared.timeline
        assert all(_numbered(text) for row in rows for text in (row.a, row.b) if text is not None)
        # The first difference: A's event #8 (the aligned timelines give it no twin in B).
        assert str(screen.query_one("#compare-current").render()).startswith("at #8  removed")
        # An event at another place in B: both numbers, as the timelines show them.
        await pilot.press("n")
        assert str(screen.query_one("#compare-current").render()).startswith(
            "at #10→#9.payload.object.data.text  changed"
        )

    side = SidePaneApp(None, tab="diff")
    async with side.run_test(size=(200, 50)) as pilot:
        left = run_operand("parent", notes.path, notes.parent)
        right = run_operand("grandchild", notes.path, notes.grandchild)
        side.side.show_comparison("parent", left, "grandchild", right)
        await finish_workers(pilot)
        outcome = side.side.diff_pane.outcome
        assert outcome is not None and outcome.paths[0].startswith("#8.")
        assert all(path.startswith("#") for path in outcome.paths)


def test_a_run_path_as_shown_is_an_ignore_rule(
    notes: NotesWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``diff`` shows (``#8.type``) can be typed back as a rule, a number or ``#*``."""
    refs = [notes.ref(notes.parent), notes.ref(notes.grandchild)]
    run(["diff", *refs, "--json"])
    shown = [e["path_text"] for e in json.loads(capsys.readouterr().out)["entries"]]
    run(["diff", *refs, "--json", "--ignore", "#8.type", "--ignore", "#*.actor"])
    doc = json.loads(capsys.readouterr().out)
    kept = [e["path_text"] for e in doc["entries"]]
    hidden = [p for p in shown if p == "#8.type" or p.endswith(".actor")]
    assert hidden and doc["hidden"] == len(hidden)
    assert kept == [p for p in shown if p not in hidden]
