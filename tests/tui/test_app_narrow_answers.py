"""What a user meets at 80x24 (found by a user test on the demo): an untrusted execution's
post-mortem and Invalidate dialog say the verdict first and the same as the list; ``d``
with nothing to compare says why; the header keeps its two lines, the mark's short id
and the counts, and cuts what does not fit with ``…``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from intentus_tui.demo.writer import build_demo_world
from intentus_tui.tui.diffing import nothing_compared
from intentus_tui.tui.presenters.header_text import HeaderState, counts_parts, location_parts
from intentus_tui.tui.presenters.list_groups import kind_of
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log
from tests.factories import write_record
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import (
    fixed_id,
    list_lines,
    make_app,
    screen_text,
    settle,
    wait_for,
    write_world,
)
from tests.tui.side_pane_harness import tampered_record
from tests.tui.test_confirm_screen import fitted, to_the_end
from tests.tui.test_list_model import summary
from tests.tui.test_list_rows import CASES

NARROW = (80, 24)


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """``.intentusnet/records``: a few executions and one whose WAL was edited."""
    base = tmp_path / ".intentusnet"
    write_world(base / "records")
    write_record_with_edited_log(base)
    return base / "records"


def _notes(app: object) -> list[str]:
    return [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]


async def _select_edited(app: Any, pilot: Any) -> None:
    await settle(pilot)
    assert app.execution_list.select_key(f"{RECORD_WITH_EDITED_LOG}.json")
    await settle(pilot)


async def test_the_post_mortem_of_a_broken_log_opens_on_the_verdict(edited: Path) -> None:
    app = make_app(edited)
    async with app.run_test(size=NARROW) as pilot:
        await _select_edited(app, pilot)
        await pilot.press("4")
        await settle(pilot)
        shown = screen_text(app)
        pane = app.side_pane.postmortem_pane.text
    # on screen at 80x24: the verdict and the hint, not the state the record claims
    assert "Verdict   ⚠ UNTRUSTED" in shown and "HINT: INVESTIGATE FIRST" in shown
    assert "Claimed" not in shown and "no attempt was left open" not in shown
    assert pane.startswith("Verdict   ⚠ UNTRUSTED \n  chain broken · ✗ no (untrusted)\n")
    assert pane.index("HINT: INVESTIGATE FIRST") < pane.index("Claimed ")
    # what broke is explained once, in the verdict: the hint and the WAL facts only point at it
    assert pane.count("does not hash to its entry_hash") == 1


async def test_invalidate_says_what_the_verdict_says(edited: Path) -> None:
    app = make_app(edited)
    async with app.run_test(size=NARROW) as pilot:
        await _select_edited(app, pilot)
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        body = app.screen.body_text
        shown = screen_text(app)
        await pilot.press("n")
    assert "Currently: replayable" not in body
    assert (
        "Currently: not replayable (untrusted — the write-ahead log fails its integrity "
        "check: investigate before replaying it; its header says replayable)"
    ) in body
    # the longer text scrolls: the buttons and the keys stay on a 24-line screen
    assert any("Cancel" in line and "Invalidate" in line for line in shown.splitlines())
    assert "y: confirm" in shown


async def test_d_with_nothing_to_compare_says_why(records_dir: Path) -> None:
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert _notes(app)[-1:] == [
            "Nothing marked: mark an execution with m first, then press d on another"
        ]
        assert app.execution_list.select_key(f"{ids['ok']}.json")
        await settle(pilot)
        await pilot.press("m", "d")
        await settle(pilot)
        assert _notes(app)[-1] == "This is the marked execution: select another one, then press d"
        assert not app.diff_shown
        assert app.check_action("diff", ()) is None  # still dimmed in the footer


async def test_the_comparison_keys_with_nothing_compared_say_why(records_dir: Path) -> None:
    """``n``, ``N`` and ``f`` before any comparison did nothing and said nothing (hidden from
    the footer until there is one, they looked broken to a user who read the help)."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        selected = app.execution_list.selected_key
        for key in ("n", "N", "f"):
            await pilot.press(key)
            await settle(pilot)
            said = FULL_SCREEN_ON_THE_LIST if key == "f" else nothing_compared()
            assert _notes(app)[-1:] == [said], key
            assert app.screen is app.screen_stack[0] and not app.diff_shown
        assert app.execution_list.selected_key == selected
        assert len(_notes(app)) == 3
        assert "n Next diff" not in screen_text(app)  # still out of the footer
        await pilot.press("m", "j", "d")
        await settle(pilot)
        assert app.diff_shown
        await pilot.press("f")
        await settle(pilot)
        assert type(app.screen).__name__ == "ComparisonScreen"


async def test_the_answers_with_nothing_compared_say_the_keymap_keys(records_dir: Path) -> None:
    """A keymap that moves ``m``, ``d`` and ``D``: what ``n``, ``f`` and the diff key say
    with nothing compared names the keys that do it now (it said m, d and D, which did
    nothing or something else)."""
    write_world(records_dir)
    keymap = {"mark-for-diff": "M", "diff": "ctrl+d", "diff-file": "C"}
    app = make_app(records_dir, keymap=keymap)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("ctrl+d")
        await settle(pilot)
        notes = _notes(app)
    how = "mark an execution with M and press ^d on another, or press C"
    assert notes[0] == f"Nothing compared yet: {how}"
    assert "M marks, ^d compares (or C)" in notes[1] and " m " not in notes[1]  # short: f's
    assert notes[2] == "Nothing marked: mark an execution with M first, then press ^d on another"


async def test_the_timeline_keys_on_the_list_say_where_they_work(records_dir: Path) -> None:
    """``t``, ``a``, ``e`` (and their shifted twins) on the list did nothing and said
    nothing: each now says it works in a timeline and how to open one, and moves nothing.
    A key the list or the app binds keeps its own answer (``f``: nothing compared, and
    what it does in a timeline)."""
    write_world(records_dir)
    app = make_app(records_dir, keymap={"timeline.next-error": "x"})
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.focused is app.execution_list
        selected = app.execution_list.selected_key
        for key, does in (
            ("t", "Time: offset/clock"),
            ("a", "Next attempt"),
            ("A", "Prev attempt"),
            ("x", "Next error"),  # the key the user's keymap gives it
            ("E", "Prev error"),
            ("F", "Prev fallback"),
        ):
            await pilot.press(key)
            await settle(pilot)
            assert _notes(app)[-1] == (
                f"{key} ({does}) works in an execution's timeline: open one first (enter)"
            )
        assert app.execution_list.selected_key == selected
        assert app.focused is app.execution_list
        count = len(_notes(app))
        await pilot.press("e")  # moved away by the keymap: no timeline key now
        await pilot.press("f")
        await settle(pilot)
        assert _notes(app)[count:] == [FULL_SCREEN_ON_THE_LIST]


FULL_SCREEN_ON_THE_LIST = (
    "Nothing compared yet: m marks, d compares (or D). In a timeline, f is next fallback "
    "(enter opens one)"
)


async def test_f_with_nothing_compared_says_it_follows_fallbacks_in_a_timeline(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """On the list, ``f`` (full screen) with nothing marked said only "Nothing compared
    yet": a user pressing it there to follow a fallback never learnt that ``f`` does so in
    a timeline. It says both now; in the timeline of the real fallback execution it steps
    to the fallback; from a side tab there is no "open one first"; a keymap that parts the
    two keys leaves the comparison's answer alone."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.focused is app.execution_list and app.marked is None
        await pilot.press("f")
        await settle(pilot)
        assert _notes(app)[-1] == FULL_SCREEN_ON_THE_LIST
        assert app.screen is app.screen_stack[0] and not app.diff_shown
        assert app.execution_list.select_key(f"{real_world.fallback}.json")
        await pilot.press("enter")
        await settle(pilot)
        assert app.focused is app.timeline.lines
        count = len(_notes(app))
        before = app.timeline.lines.cursor
        await pilot.press("f")  # the timeline's: to the fallback, no word of a comparison
        await settle(pilot)
        assert app.timeline.lines.cursor != before
        assert not any("comparison" in note for note in _notes(app)[count:])
        await pilot.press("escape", "tab", "tab")  # the event's pane takes the focus
        await settle(pilot)
        assert app.focused is not None and app.event_detail in app.focused.ancestors_with_self
        await pilot.press("f")
        await settle(pilot)
        assert _notes(app)[-1] == FULL_SCREEN_ON_THE_LIST.removesuffix(" (enter opens one)")
    parted = make_app(real_world.records_dir, keymap={"timeline.next-fallback": "x"})
    async with parted.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert _notes(parted)[-1] == nothing_compared()
    both = make_app(
        real_world.records_dir, keymap={"timeline.next-fallback": "x", "diff.full-screen": "x"}
    )
    async with both.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert _notes(both)[-1] == FULL_SCREEN_ON_THE_LIST.replace("f is", "x is")


async def test_f_with_nothing_compared_leaves_the_side_pane_in_sight(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """At 80x24 its toast took 8 rows (six of words) over the event's pane: three at most
    now, each key's answer still in it."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=NARROW, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await wait_for(pilot, lambda: bool(app.screen.query("Toast")), "its toast")
        await settle(pilot)
        (toast,) = app.screen.query("Toast")
        text = screen_text(app).splitlines()[toast.region.y : toast.region.bottom]
        said = [row[toast.region.x : toast.region.right].strip(" ▌") for row in text]
    assert len([row for row in said if row]) <= 3, said
    assert " ".join(" ".join(said).split()) == FULL_SCREEN_ON_THE_LIST


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (200, 50)])
async def test_the_header_keeps_two_lines_with_a_mark(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    manifest = build_demo_world(tmp_path)  # the user's world: 40 executions, UUIDs among them
    app = make_app(manifest.root)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, timeout=20)
        header = app.query_one("HeaderBar")
        before = screen_text(app).splitlines()[:2]
        uuid_key = next(k for k in app.execution_list.model.summaries if len(k) == 41)
        assert app.execution_list.select_key(uuid_key)
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert header.region.height == 2
        location, counts = screen_text(app).splitlines()[:2]
        notes = _notes(app)
    # the toast names it as the list and the header do
    assert f"Marked {uuid_key[:8]}: select another execution and press d" in notes
    assert location.rstrip().endswith(f"marked for diff: {uuid_key[:8]}")
    assert uuid_key.removesuffix(".json") not in location
    assert counts == before[1]  # the mark took nothing from the counts
    # the sum, and every reason in sight: at 80 columns the breakdowns give way
    assert counts.startswith(" 40 executions · 10 need attention: 4 untrusted")
    assert ", 2 failed, 4 in flight" in counts


def test_header_lines_are_cut_with_an_ellipsis() -> None:
    state = HeaderState(directory="/srv/agents/.intentusnet/records", marked="x" * 60)
    text = "".join(t for t, _ in location_parts(state, 80))
    assert cell_len(text) == 80 and text.endswith("…")
    counts: Counter[tuple[object, ...]] = Counter()
    for n, name in enumerate(("tampered", "unknown", "failed", "in flight")):
        counts[kind_of(CASES[name][0])] = 3 + n
    counts[kind_of(summary(99))] = 20
    text = "".join(t for t, _ in counts_parts(HeaderState(counts=counts, scanning=False), 70))
    assert cell_len(text) == 70 and text.endswith("…")


async def test_a_huge_record_opened_gets_one_verdict_everywhere(tmp_path: Path) -> None:
    # Listed from its head and tail (too large to hash in the listing), then read whole when
    # opened: from then on the row, the header, the timeline and the tabs say the same.
    from intentus_tui.core.model import LoadStatus
    from intentus_tui.core.records.load import HUGE_FILE_BYTES
    from tests.factories import make_record, write_record

    records = tmp_path / "records"
    write_world(records)
    record = make_record(execution_id="0b16b16b-0000-4000-8000-00000000b16b")
    record["finalResponse"]["payload"] = {"blob": "x" * (HUGE_FILE_BYTES + 1000)}
    final_event = next(e for e in record["events"] if e["type"] == "FINAL_RESPONSE")
    final_event["payload"] = record["finalResponse"]  # as recorded
    key = write_record(records, record).name
    app = make_app(records)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        listed = app.execution_list.model.summaries[key]
        assert listed.load_status is LoadStatus.HEAD_ONLY  # the listing read head and tail
        assert app.execution_list.select_key(key)
        await settle(pilot, timeout=30)
        await pilot.press("1")
        await settle(pilot)
        row = app.execution_list.model.summaries[key]
        shown = screen_text(app)
        verify = app.side_pane.verify_pane.text
    assert row.load_status is LoadStatus.OK  # the whole file's summary is listed now
    assert "too large to hash" not in shown and "too large to hash" not in verify
    assert "0b16b16b ✓ succeeded verified ↺ Summarize" in shown  # the row, from the whole file
    assert verify.startswith("Integrity   VERIFIED \n")  # the verdict above the checks agrees


@pytest.fixture
def refusing(records_dir: Path) -> dict[str, str]:
    """``write_world`` and an execution whose envelope was edited: two that ``r`` refuses
    (in flight, untrusted): name -> execution id."""
    ids = write_world(records_dir)
    ids["tampered"] = fixed_id(7)
    write_record(records_dir, tampered_record(ids["tampered"]))
    return ids


async def _open(app: Any, pilot: Any, execution_id: str) -> None:
    await settle(pilot)
    assert app.execution_list.select_key(f"{execution_id}.json")
    await settle(pilot)


@pytest.mark.parametrize("which", ["incomplete", "tampered"])
async def test_a_refused_replay_takes_the_whole_pane(
    records_dir: Path, refusing: dict[str, str], which: str
) -> None:
    """No payload to show: the summary has the pane's height, not a small box that cuts
    the refusal mid-sentence above empty rows."""
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await _open(app, pilot, refusing[which])
        await pilot.press("2", "r")
        await settle(pilot)
        pane = app.side_pane.replay_pane
        assert pane.outcome is not None and pane.outcome.kind == "refused"
        assert pane.has_class("-no-payload")
        summary = pane.query_one("#replay-summary-scroll")
        shown = screen_text(app)
        heights = summary.region.height, pane.content_region.height
        cut = summary.max_scroll_y
    assert heights[0] == heights[1]  # the whole pane
    assert cut == 0  # every line of it in sight: nothing to scroll to
    # the note's last word (no response was recorded: "a forced replay returns none.")
    last = "confirmation." if which == "tampered" else "none."
    assert last in shown.split()


async def test_a_forced_replay_of_a_short_answer_gives_the_summary_the_rest_of_the_pane(
    records_dir: Path, refusing: dict[str, str]
) -> None:
    """An invalidated execution forced: its payload is three lines, shown in a box of
    its size, and the summary's warnings take the rows an empty box held (at 80x24 the
    first warning was cut after "Forced replay of", the rest scrolled out of sight)."""
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await _open(app, pilot, refusing["invalidated"])
        await pilot.press("R")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        pane = app.side_pane.replay_pane
        assert pane.outcome is not None and pane.outcome.kind == "result"
        payload = pane.query_one("#replay-payload")
        summary = pane.query_one("#replay-summary-scroll")
        assert payload.region.height == 5  # its three lines and its border
        assert payload.region.bottom == pane.content_region.bottom
        # the summary down to the payload's title (and the blank row above it)
        assert summary.region.bottom + 2 == payload.region.y, (summary.region, payload.region)


async def test_after_a_short_answer_the_next_refusal_takes_the_whole_pane(
    records_dir: Path, refusing: dict[str, str]
) -> None:
    """A short payload left the summary the rows above it; the next execution's refusal
    and its forced replay with no response kept that height, cut mid-sentence above
    empty rows at 80x24."""
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await _open(app, pilot, refusing["ok"])
        await pilot.press("2", "r")
        await settle(pilot)
        pane = app.side_pane.replay_pane
        assert not pane.has_class("-no-payload")  # its three lines, in a box below
        await _open(app, pilot, refusing["incomplete"])
        heights = []
        for keys in (("r",), ("R", "y")):
            await pilot.press(*keys)
            await settle(pilot)
            summary = pane.query_one("#replay-summary-scroll")
            heights.append((summary.region.height, summary.max_scroll_y))
        room = pane.content_region.height
    assert heights == [(room, 0), (room, 0)], (heights, room)


async def test_the_force_replay_dialog_shows_all_its_text_and_this_records_risk(
    records_dir: Path, refusing: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await _open(app, pilot, refusing["tampered"])
        await pilot.press("R")
        await settle(pilot)
        await fitted(pilot)
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        body_text = screen.body_text
        body = screen.query_one("#confirm-body")
        buttons = screen.query_one("#confirm-buttons")
        assert body.region.bottom < buttons.region.y  # the text ends above the buttons
        first = screen_text(app)
        await to_the_end(pilot, body)  # what does not fit scrolls, from the keyboard
        assert body.scroll_y == body.max_scroll_y
        last = screen_text(app)
        await pilot.press("n")
    for shown in (first, last):  # the buttons and the keys stay
        assert any("Cancel" in line and "Force replay" in line for line in shown.splitlines())
        assert "y: confirm" in shown
    assert "Execution: " + refusing["tampered"] in first
    assert 'record".' in last.split()  # the text's last words: ...non-replayable record".
    assert (
        "Force replay risk:\n"
        " ▶ Untrusted record: May return an answer that was altered after it was recorded\n"
    ) in body_text
    assert "Incomplete execution" not in body_text and "Corrupted record" not in body_text


async def test_copies_of_one_record_are_told_apart_by_their_files(records_dir: Path) -> None:
    """``cp ID.json aaaaaaaa.json`` (the id inside stays) and a truncated copy: at 80x24
    their rows name their files where the others show the short id; when the copies go,
    the row of the record shows its id again."""
    ids = write_world(records_dir)
    original = records_dir / f"{ids['ok']}.json"
    (records_dir / "aaaaaaaa.json").write_bytes(original.read_bytes())
    (records_dir / "trunc-01.json").write_bytes(original.read_bytes()[:900])
    short = ids["ok"][:8]
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        listing = app.execution_list
        shown: dict[str, str] = {}
        for name in ("aaaaaaaa.json", "trunc-01.json", original.name):
            assert listing.select_key(name)
            await settle(pilot)
            row = list_lines(app)[listing.cursor_row - round(listing.scroll_y)]
            assert row in screen_text(app)  # on screen
            shown[name] = row
        listing.apply_changes([], ["aaaaaaaa.json", "trunc-01.json"])  # deleted
        assert listing.select_key(original.name)
        await settle(pilot)
        after = list_lines(app)[listing.cursor_row - round(listing.scroll_y)]
    assert shown["aaaaaaaa.json"].startswith(" aaaaaaaa.json ")
    assert shown["trunc-01.json"].startswith(" trunc-01.json ")
    # the record's own file: its long name cut in its middle, the id's first letters, its end
    label = shown[original.name].split()[0]
    head, _, end = label.partition("…")
    assert short.startswith(head) and original.name.endswith(end) and end != ".json"
    assert after.split()[0] == short  # no copy left: the short id again


def test_a_name_keeps_its_start_a_path_its_end() -> None:
    """A root named by its opener (a bundle and why it fails) is cut at its end; a path
    keeps its end, the most specific part."""
    named = HeaderState(directory="bundle b.tar.gz (3 files differ from its manifest)" * 2)
    named.named = True
    text = "".join(t for t, _ in location_parts(named, 80))
    assert text.startswith(" intentus-tui ▸ bundle b.tar.gz (3 files differ") and "…" in text
    path = HeaderState(directory="/srv/" + "a" * 80 + "/records")
    text = "".join(t for t, _ in location_parts(path, 80))
    assert "▸ …" in text and "a/records  ● live" in text
    # Every root's path ends in .intentusnet/records: cut, the project's directory stays in
    # sight (it read "▸ …net/records" once something was marked and followed).
    state = HeaderState(directory="/srv/incidents/host-17/.intentusnet/records")
    state.following, state.marked = True, "2e5281a1"
    state.live = "paused"
    text = "".join(t for t, _ in location_parts(state, 80))
    assert len(text) <= 80 and "/host-17/…  ❚❚ paused" in text, text
    assert "records" not in text and "▸ …" in text


async def test_a_side_tab_chosen_by_number_takes_the_focus_from_the_tab_it_hides(
    tmp_path: Path,
) -> None:
    """At 80x24, the focus in the Post-mortem text (to scroll it), then ``1``: the Verify
    tab is shown and the keys reach it (they scrolled the hidden Post-mortem; the next Tab
    went to the filter box)."""
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        await pilot.press("4")
        await settle(pilot)
        side = app.side_pane
        postmortem = side.query_one("#postmortem")
        inside = next(w for w in postmortem.query("*") if w.focusable)
        inside.focus()
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        focused = app.screen.focused
        assert focused is not None and side.query_one("#verify") in focused.ancestors, focused
        await pilot.press("4")
        await settle(pilot)
        focused = app.screen.focused
        assert focused is not None and postmortem in focused.ancestors, focused


async def test_tab_reaches_the_side_pane_text_and_j_k_g_scroll_it(edited: Path) -> None:
    """At 80x24 an untrusted execution's Verify tab runs past the screen: tab goes to its
    text (not to the tab strip, where no key scrolled), and j/k and g/G scroll it as they
    move the list and the timeline."""
    app = make_app(edited)
    async with app.run_test(size=NARROW) as pilot:
        await _select_edited(app, pilot)
        await pilot.press("1")
        await settle(pilot)
        pane = app.side_pane.verify_pane
        assert pane.max_scroll_y > 2, "the test needs a Verify tab longer than the screen"
        await pilot.press("tab")
        await settle(pilot)
        assert app.focused is pane
        await pilot.press("j", "j")
        await settle(pilot)
        assert pane.scroll_y == 2
        await pilot.press("k")
        await settle(pilot)
        assert pane.scroll_y == 1
        await pilot.press("G")
        await settle(pilot)
        assert pane.scroll_y == pane.max_scroll_y
        await pilot.press("g")
        await settle(pilot)
        assert pane.scroll_y == 0
        # Typed fast (one burst from the terminal): a line each (it moved one in all).
        from textual import events

        for _ in range(2):
            app.post_message(events.Key("j", "j"))
        await settle(pilot)
        assert pane.scroll_y == 2


async def test_the_side_pane_names_its_execution_where_it_takes_the_timeline_s_place(
    edited: Path,
) -> None:
    """At 80x24 a tab shows in the timeline's place, and only the list's cursor said which
    execution it was about: the side pane's border names it, as it loads and once read."""
    app = make_app(edited)
    async with app.run_test(size=NARROW) as pilot:
        await _select_edited(app, pilot)
        await pilot.press("1")
        await settle(pilot)
        assert app.side_pane.border_title == RECORD_WITH_EDITED_LOG[:8]
        assert RECORD_WITH_EDITED_LOG[:8] in screen_text(app).splitlines()[2]
        await pilot.press("j")
        await settle(pilot)
        summary = app.execution_list.selected_summary
        assert summary is not None and app.side_pane.border_title == summary.short_id


async def test_an_untrusted_executions_words_are_whole_or_abbreviated_at_80x24(
    records_dir: Path,
) -> None:
    """A tampered execution at 80x24: the timeline's verdict line read ``✗ untrust`` (a
    word cut with no mark), and the untrusted view's border ``untrusted or unknown only ·
    n…`` (the sort cut). Both now read whole: ``✗ untrust.`` (abbreviated as ``unverif.``)
    and ``untrust./unkn. · newest first``."""
    ids = write_world(records_dir)
    tampered = fixed_id(40)
    write_record(records_dir, tampered_record(tampered))
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{tampered}.json")
        await settle(pilot)
        verdict = next(line for line in screen_text(app).splitlines() if "TAMPERED ·" in line)
        await pilot.press(*"v" * 7)  # the views in turn, to "untrusted or unknown only"
        await settle(pilot)
        border = screen_text(app).splitlines()[-2]
    assert ids and "⚠ untrusted · TAMPERED · ✗ untrust. " in verdict, verdict
    assert "untrust./unkn. · newest first" in border, border


async def test_the_demo_groups_at_80_columns_are_named_by_whole_words(tmp_path: Path) -> None:
    """The demo at 80x24 headed its groups "Untrusted: tampered or c… (4)" and "In flight
    (crashed or st… (4)": words cut where the group's name fitted whole."""
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot, timeout=20)
        headers = [line.strip() for line in list_lines(app) if line.lstrip().startswith("──")]
        titles = [header.rstrip("─ ") for header in headers]
        assert "── Untrusted (4)" in titles and "── In flight (4)" in titles, headers
        assert not any("…" in header for header in headers), headers


async def test_at_120_columns_an_untrusted_uuid_s_first_line_keeps_its_answer_whole(
    tmp_path: Path,
) -> None:
    """The timeline's first line of a demo execution with a UUID and a long intent read
    ``65587ebf-…  ClassifyTicket  ⚠ untru…`` at 120 columns: the verdict's word was cut,
    the intent's name whole. Where the line does not fit, the whole id keeps its answer
    (the list's row names the intent); narrower, the id is shown as the list shows it,
    then the answer and the intent (``5a000002  ✓ succeeded  Summarize``: see
    test_snapshot_parallel_fan_out_at_80_columns)."""
    manifest = build_demo_world(tmp_path)
    (execution_id,) = manifest.scenarios["tampered_final_response"][:1]
    app = make_app(manifest.root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{execution_id}.json")
        await settle(pilot)
        (shown,) = [line for line in screen_text(app).splitlines() if execution_id in line]
        assert shown.split("││")[1].startswith(f" {execution_id}  ⚠ untrusted "), shown


async def test_a_cut_records_post_mortem_keeps_its_replay_answer_on_one_line(
    real_world: RealWorld,
) -> None:
    """At 80x24 the answers line wrapped inside its replay answer: ``✗ no`` on one line and
    ``(record_corrupted)`` alone on the next."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{real_world.error_truncated}.json")
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        shown = screen_text(app)
    assert "Verdict   ✗ FAILED" in shown
    assert "✗ no (record_corrupted)" in shown
    assert "\u00a0" not in shown
