"""The execution marked for diff (``m``) follows its file while the directory is watched:
changed, it is read again and every comparison showing it shows what the file says now
(its verdict as its list row and ``intentus-tui diff`` give it); removed, the header and a
toast say so and ``d`` will not compare against what it held. Found by a user walk on
real 1.3.0 records: an edited A still read "succeeded · verified" in ``d`` and the Diff tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.model import Integrity
from intentus_tui.core.verdict import verdict_of
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld, build_real_world
from tests.tui.app_support import make_app, screen_lines, screen_text, settle, wait_for

SIZE = (80, 24)


@pytest.fixture
def real(tmp_path: Path) -> RealWorld:
    return build_real_world(tmp_path)


def _tamper(path: Path) -> None:
    """The user walk's ``sed -i``: the envelope's text edited, its recorded hash kept."""
    text = path.read_text(encoding="utf-8")
    edited = text.replace('"text": "héllo wörld"', '"text": "héllo wörld!"')
    assert edited != text
    path.write_text(edited, encoding="utf-8")


def _toasts(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _mark_then_select(pilot: Any, app: Any, real: RealWorld) -> Path:
    """Mark the successful execution, select the fallback one (watching live); the marked
    record's file."""
    await wait_for(pilot, lambda: app.scan_done and app.side_pane.ready, "scan and side pane")
    await settle(pilot)
    assert app.execution_list.select_key(f"{real.success}.json")
    await settle(pilot)
    await pilot.press("m")
    assert app.execution_list.select_key(f"{real.fallback}.json")
    await settle(pilot)
    return real.records_dir / f"{real.success}.json"


async def _wait_listed_tampered(pilot: Any, app: Any, real: RealWorld) -> None:
    model = app.execution_list.model
    await wait_for(
        pilot,
        lambda: verdict_of(model.summaries[f"{real.success}.json"]).integrity is Integrity.TAMPERED,
        "the edited record listed as tampered",
    )
    await settle(pilot)


async def test_an_edited_marked_record_is_compared_as_it_now_reads(real: RealWorld) -> None:
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        marked = await _mark_then_select(pilot, app, real)
        _tamper(marked)
        await _wait_listed_tampered(pilot, app, real)
        # The Diff tab, opened now: A as its file reads, tampered.
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        shown = screen_text(app)
        a_title = next(line for line in screen_lines(app) if line.lstrip().startswith("A "))
        assert "tampered" in a_title and "succeeded · verified" not in a_title
        assert "A is untrusted" in shown
        assert "héllo wörld!" in shown  # the edited text, as a difference
        await pilot.press("escape")
        await settle(pilot)
        diff_tab = str(app.side_pane.diff_pane.query_one("#diff-title").content)
        paths = app.side_pane.diff_pane.outcome.paths
    assert "tampered" in diff_tab and "A is untrusted" in diff_tab
    assert any(path.endswith("payload.text") for path in paths)


async def test_a_comparison_open_on_screen_follows_the_edited_marked_record(
    real: RealWorld,
) -> None:
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        marked = await _mark_then_select(pilot, app, real)
        await pilot.press("d")
        await settle(pilot)
        assert "A is untrusted" not in screen_text(app)
        _tamper(marked)
        await _wait_listed_tampered(pilot, app, real)
        await wait_for(pilot, lambda: "A is untrusted" in screen_text(app), "the screen redone")
        await settle(pilot)
        shown = screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        diff_tab = str(app.side_pane.diff_pane.query_one("#diff-title").content)
    assert "héllo wörld!" in shown
    assert "tampered" in diff_tab and "A is untrusted" in diff_tab  # the tab under it too


async def test_a_comparison_open_on_screen_follows_the_edited_selected_record(
    real: RealWorld,
) -> None:
    # B, the execution under the cursor, edited while its comparison is open: the Diff
    # tab under the screen was compared again, the screen went on showing B as it was.
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await _mark_then_select(pilot, app, real)
        await pilot.press("d")
        await settle(pilot)
        _tamper(real.records_dir / f"{real.fallback}.json")
        await wait_for(pilot, lambda: "B is untrusted" in screen_text(app), "the screen redone")
        await settle(pilot)
        b_title = next(line for line in screen_lines(app) if line.lstrip().startswith("B "))
        shown = screen_text(app)
    assert "tampered" in b_title
    assert "héllo wörld!" in shown


async def test_a_removed_marked_record_is_said_and_not_compared(real: RealWorld) -> None:
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        marked = await _mark_then_select(pilot, app, real)
        await pilot.press("d", "escape")  # a comparison kept in the Diff tab
        await settle(pilot)
        short = real.success[:8]
        app.clear_notifications()
        held = marked.read_bytes()
        marked.unlink()
        await wait_for(
            pilot,
            lambda: f"{real.success}.json" not in app.execution_list.model.summaries,
            "the removed record's row gone",
        )
        await settle(pilot)
        header = "\n".join(screen_lines(app)[:2])
        toasts = _toasts(app)
        diff_tab = str(app.side_pane.diff_pane.query_one("#diff-title").content)
        app.clear_notifications()
        await pilot.press("d")
        await settle(pilot)
        after_d = _toasts(app)
        screen = app.screen
        # Written again (an editor's save can remove and write a file): marked as it was.
        marked.write_bytes(held)
        await wait_for(
            pilot,
            lambda: "(removed)" not in screen_lines(app)[0],
            "the mark no longer said removed",
        )
        await settle(pilot)
        diff_back = str(app.side_pane.diff_pane.query_one("#diff-title").content)
        await pilot.press("d")
        await settle(pilot)
        back = app.screen
        a_title = next(line for line in screen_lines(app) if line.lstrip().startswith("A "))
    assert f"marked for diff: {short} (removed)" in header
    assert f"Marked execution {short} was removed: mark another with m" in toasts
    # The kept comparison: A's file is said to be removed, its verdict from when it was
    # marked no longer shown (nor a comparison against nothing: see below).
    assert "A's file was removed: nothing to compare; mark another with m" in diff_tab
    assert not [line for line in diff_tab.splitlines() if line.startswith("A ")]
    assert not isinstance(screen, ComparisonScreen)  # d compares nothing that is gone
    assert after_d == [f"Marked execution {short} was removed: mark another with m"]
    assert isinstance(back, ComparisonScreen) and "succeeded · verified" in a_title
    a_back = next(line for line in diff_back.splitlines() if line.startswith("A "))
    assert "succeeded" in a_back and "file vanished" not in diff_back


def _diff_tab_shown(app: Any) -> str:
    """What the Diff tab shows: its title, and its summary and differences when displayed."""
    pane = app.side_pane.diff_pane
    parts = [str(pane.query_one("#diff-title").content)]
    summary = pane.query_one("#diff-summary")
    if summary.display:
        parts.append(str(summary.content))
    if pane.view.display:
        parts.extend(pane.outcome.paths if pane.outcome is not None else [])
    return "\n".join(parts)


AGAINST_NOTHING = ("record_corrupted", "unknown", "differs", "first divergence", "vanished")


async def test_the_diff_tab_says_a_removed_marked_file_rather_than_compare_to_nothing(
    real: RealWorld,
) -> None:
    # The user walk: m, move, d, Esc, 3 for the Diff tab, then rm the marked record. The tab
    # listed "A ? unknown · unverifiable · ✗ no (record_corrupted)", "intent ✗ differs …",
    # "first divergence: events[0] … A ends": differences against an empty side.
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        marked = await _mark_then_select(pilot, app, real)
        await pilot.press("d", "escape", "3")
        await settle(pilot)
        held = marked.read_bytes()
        marked.unlink()
        await wait_for(
            pilot,
            lambda: f"{real.success}.json" not in app.execution_list.model.summaries,
            "the removed record's row gone",
        )
        await settle(pilot)
        gone = _diff_tab_shown(app)
        on_screen = screen_text(app)
        app.clear_notifications()
        await pilot.press("n")
        await settle(pilot)
        n_says = _toasts(app)
        back = await _written_back(pilot, app, marked, held)
    note = "A's file was removed: nothing to compare; mark another with m"
    assert note in gone and "A's file was removed" in on_screen
    assert not [word for word in AGAINST_NOTHING if word in gone]
    assert n_says == [note]
    a_back = next(line for line in back.splitlines() if line.startswith("A "))
    assert "succeeded" in a_back and "intent ✓ same" in back


async def _written_back(pilot: Any, app: Any, path: Path, held: bytes) -> str:
    """``path`` written again with ``held``: the Diff tab's text once it compares again."""
    path.write_bytes(held)
    await wait_for(
        pilot,
        lambda: (
            "was removed" not in _diff_tab_shown(app)
            and app.side_pane.diff_pane.outcome is not None
        ),
        "compared again",
    )
    await settle(pilot)
    return _diff_tab_shown(app)


async def test_a_comparison_on_screen_says_a_removed_marked_file(real: RealWorld) -> None:
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        marked = await _mark_then_select(pilot, app, real)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        held = marked.read_bytes()
        marked.unlink()
        await wait_for(pilot, lambda: "was removed" in screen_text(app), "the screen says it")
        await settle(pilot)
        gone = screen_text(app)
        marked.write_bytes(held)
        await wait_for(
            pilot,
            lambda: "was removed" not in screen_text(app) and app.screen.compared is not None,
            "compared again",
        )
        await settle(pilot)
        a_title = next(line for line in screen_lines(app) if line.lstrip().startswith("A "))
    assert "A's file was removed: nothing to compare; mark another with m" in gone
    assert not [word for word in AGAINST_NOTHING if word in gone]
    assert "succeeded · verified" in a_title


async def test_a_removed_selected_file_is_said_where_its_comparison_is_shown(
    real: RealWorld,
) -> None:
    # B, the execution under the cursor, removed while its comparison is on screen: the
    # cursor moves on, and the screen and the Diff tab kept showing the old B silently.
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await _mark_then_select(pilot, app, real)
        await pilot.press("d")
        await settle(pilot)
        selected = real.records_dir / f"{real.fallback}.json"
        held = selected.read_bytes()
        selected.unlink()
        await wait_for(pilot, lambda: "was removed" in screen_text(app), "the screen says it")
        await settle(pilot)
        gone = screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        tab_gone = _diff_tab_shown(app)
        back = await _written_back(pilot, app, selected, held)
    assert "B's file was removed: nothing to compare" in gone
    assert "B's file was removed: nothing to compare" in tab_gone
    assert not [word for word in AGAINST_NOTHING if word in tab_gone]
    b_back = next(line for line in back.splitlines() if line.startswith("B "))
    assert "succeeded" in b_back


async def test_the_header_names_a_marked_copy_by_the_end_that_tells_it_apart(
    real: RealWorld, tmp_path: Path
) -> None:
    # At 80 columns "marked for diff: 033fbd0e-52e4-4742-9dbc-…" cut off exactly the part
    # that tells `<id>.json` from `<id>.copy.json`.
    import shutil

    from tests.real_ids import copy_real_world

    records = copy_real_world(real, tmp_path / "copies")
    original, copy = f"{real.success}.json", f"{real.success}.copy.json"
    shutil.copy(records / original, records / copy)
    app = make_app(records, watch=True)
    headers = {}
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await settle(pilot)
        for key in (copy, original):
            assert app.execution_list.select_key(key)
            await wait_for(pilot, lambda key=key: app.detail_key == key, "detail loaded")
            await pilot.press("m")
            await settle(pilot)
            headers[key] = screen_lines(app)[0].rstrip()
        # Removed, the original is still named by its file: by the id alone, it read as
        # if the copy (which holds that id too) had gone.
        app.clear_notifications()
        (records / original).unlink()
        await wait_for(pilot, lambda: "(removed)" in screen_lines(app)[0], "said removed")
        await settle(pilot)
        removed = screen_lines(app)[0].rstrip()
        toasts = _toasts(app)
    gone = removed.partition("marked for diff: ")[2]
    assert gone.endswith(".json (removed)") and "…" in gone and "copy" not in gone
    assert f"Marked execution {original} was removed: mark another with m" in toasts
    marked = {key: line.partition("marked for diff: ")[2] for key, line in headers.items()}
    assert marked[copy] != marked[original]
    assert marked[copy].endswith("copy.json") and marked[copy].startswith(real.success[:4])
    assert marked[original].endswith(".json") and "copy" not in marked[original]
    assert all(len(line) <= SIZE[0] for line in headers.values())


async def test_comparing_again_never_brings_back_a_word_the_titles_gave_up(
    real: RealWorld,
) -> None:
    """At 120 columns B, tampered, left no room for "execution": both titles read "A
    12f55013 · …". B written back as it was and compared again, A's title grew to "A
    execution 12f55013 · …" though A had not changed: one name for it while the screen is
    this wide."""
    selected = real.records_dir / f"{real.fallback}.json"
    genuine = selected.read_bytes()
    _tamper(selected)
    app = make_app(real.records_dir, watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await _mark_then_select(pilot, app, real)
        await pilot.press("d")
        await settle(pilot)
        assert "B is untrusted" in screen_text(app)

        def titles() -> list[str]:
            screen = app.screen
            assert isinstance(screen, ComparisonScreen)
            return [str(screen.query_one(side).content) for side in ("#side-a", "#side-b")]

        before = titles()
        assert before[0].startswith(f"A {real.success[:8]} · ✓ succeeded"), before
        selected.write_bytes(genuine)
        await wait_for(pilot, lambda: "B is untrusted" not in screen_text(app), "compared again")
        await settle(pilot)
        after = titles()
    assert after[0] == before[0]
    assert after[1].startswith(f"B {real.fallback[:8]} · ✓ succeeded"), after


async def test_a_kept_comparison_follows_its_edited_b_after_the_cursor_left_it(
    real: RealWorld,
) -> None:
    # A user walk: m, move to B, d, Esc, move on to a third execution, then tamper with B's
    # file. Its row turned tampered; the Diff tab, and the comparison f opened from it, went
    # on saying B "succeeded · verified" (only B's removal and return were followed).
    app = make_app(real.records_dir, watch=True)
    b_file = real.records_dir / f"{real.fallback}.json"
    async with app.run_test(size=SIZE) as pilot:
        await _mark_then_select(pilot, app, real)
        model = app.execution_list.model
        await pilot.press("d", "escape")
        await settle(pilot)
        assert app.execution_list.select_key(f"{real.invalidated}.json")
        await settle(pilot)
        assert "B is untrusted" not in _diff_tab_shown(app)
        _tamper(b_file)
        await wait_for(
            pilot,
            lambda: verdict_of(model.summaries[b_file.name]).integrity is Integrity.TAMPERED,
            "B listed as tampered",
        )
        await wait_for(pilot, lambda: "B is untrusted" in _diff_tab_shown(app), "the tab redone")
        await settle(pilot)
        tab = _diff_tab_shown(app)
        # On screen (f), with the cursor still elsewhere: edited again, it is compared again.
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        b_file.write_text(
            b_file.read_text(encoding="utf-8").replace("héllo wörld!", "héllo wörld?"),
            encoding="utf-8",
        )
        await wait_for(pilot, lambda: "héllo wörld?" in screen_text(app), "the screen redone")
        await settle(pilot)
        b_title = next(line for line in screen_lines(app) if line.lstrip().startswith("B "))
        shown = screen_text(app)
    b_line = next(line for line in tab.splitlines() if line.startswith("B "))
    assert "tampered" in b_line and "succeeded · verified" not in b_line
    assert any(path.endswith("payload.text") for path in tab.splitlines())
    assert "tampered" in b_title and "B is untrusted" in shown
