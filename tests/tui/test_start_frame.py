"""The start frame: a big directory's first rows drawn before Textual has loaded.

It must draw what the app's first frame then draws, where it draws it; carry no record
text raw to the terminal; keep the keys typed meanwhile for the app; and leave the
terminal exactly as it found it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.tui.pane_widths import list_pane_width
from intentus_tui.tui.settings import load_settings
from intentus_tui.tui.startup.first_rows import first_look
from intentus_tui.tui.startup.start_frame import (
    ENTER,
    Span,
    StartFrame,
    frame_lines,
    render,
)
from tests.factories import make_record, write_record
from tests.hostile.corpus import HOSTILE_STRINGS, hostile_record, safe_name
from tests.hostile.harness import raw_controls
from tests.tui.app_support import SIZE, created, fixed_id, make_app, screen_text, write_world
from tests.tui.test_app_pty import _read_until
from tests.tui.test_app_scan import GatedIndex

COLUMNS, LINES = SIZE
# What the start frame itself writes: cursor moves, SGR, the alternate screen, clearing.
OWN_SEQUENCE = re.compile(r"\x1b\[[0-9;?]*[HJmhl]")


def plain(line: list[Span]) -> str:
    return "".join(span.text for span in line)


def big_world(records: Path, extra: int = 60) -> None:
    """Every group (``write_world``) and more executions than a screen holds."""
    write_world(records)
    for n in range(10, 10 + extra):
        write_record(
            records,
            make_record(
                execution_id=fixed_id(n),
                created=created(n),
                intent=("Summarize", "Translate", "A very long intent " * 5)[n % 3],
                replayable=n % 7 != 0,
                reason="manually_invalidated",
            ),
        )


@pytest.mark.parametrize("layout", ["columns", "stacked"])
@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 45)])
async def test_the_app_s_first_frame_draws_the_same_rows_in_the_same_places(
    records_dir: Path, size: tuple[int, int], layout: str, _settings_file: Path
) -> None:
    """Under 128 columns the start frame drew the list 44 columns wide (at 80x24) or 48
    (at 120x36), and the app's first frame moved it to 36 or 54: the rows jumped. With
    the stacked layout remembered, the frame drew the list on the left, the whole height,
    and the app's first frame moved it across the top third."""
    COLUMNS, LINES = size
    _settings_file.write_text(json.dumps({"layout": layout}))
    big_world(records_dir)
    first = first_look(records_dir, LINES)
    assert len(first.rows) == LINES
    frame = [
        plain(line)
        for line in frame_lines(
            "records",
            first.rows,
            watch=False,
            columns=COLUMNS,
            lines=LINES,
            total=first.total,
            layout=load_settings().get("layout"),
        )
    ]
    app = make_app(records_dir)
    index = GatedIndex(app.root, [[]])
    app.feeder.index = index  # type: ignore[assignment]  # yields nothing while the test looks
    app.prepare_start(first)
    try:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            shown = screen_text(app).splitlines()
    finally:
        index.open()
    assert app.pane_layout == layout
    list_width = list_pane_width(COLUMNS) if layout == "columns" else COLUMNS
    # everything but the footer; stacked, the list's third of it
    below = LINES - 3 if layout == "columns" else (LINES - 3) // 3
    assert len(frame) == 2 + below
    assert [line.rstrip() for line in shown[:2]] == [line.rstrip() for line in frame[:2]]
    # The first rows were read: so far, as many are indexed as are counted, of every
    # record file the first look listed.
    assert f"indexing {LINES}/66" in frame[0] and f" {LINES} executions so far" in frame[1]
    if layout == "stacked":
        assert shown[2 + below].startswith("╭")  # the timeline's box, under the list's
    for y in range(2, 2 + below):
        # the scrollbar's column is drawn with Textual's own glyphs: the rest must match
        app_line, frame_line = shown[y][:list_width], frame[y]
        assert len(frame_line) == list_width
        scrollbar = list_width - 2
        assert (
            app_line[:scrollbar] + app_line[scrollbar + 1 :]
            == frame_line[:scrollbar] + frame_line[scrollbar + 1 :]
        ), f"line {y}"
    assert sum(fixed_id(0)[:4] in line or "0000000" in line for line in frame) > below * 3 // 4 - 3


def test_hostile_record_text_reaches_the_frame_only_made_visible(tmp_path: Path) -> None:
    rows = []
    for n, text in enumerate(HOSTILE_STRINGS):
        execution_id = f"{safe_name(text)}-{n}"
        path = write_record(tmp_path, hostile_record(text, execution_id))
        rows.append(summarize_path(path))
    directory = "/tmp/\x1b]0;evil\x07/\u202erecords"
    output = render(frame_lines(directory, rows, watch=True, columns=COLUMNS, lines=LINES))
    assert output.startswith(ENTER)
    text = OWN_SEQUENCE.sub("", output)
    assert not raw_controls(text), "raw control characters in the start frame"
    assert "␛]0;evil␇" in text  # the directory is shown, made visible
    assert "intent" in text


def test_no_colour_keeps_only_bold_and_dim(tmp_path: Path) -> None:
    write_world(tmp_path)
    rows = [summarize_path(p) for p in sorted(tmp_path.glob("*.json"))]
    frame = frame_lines("records", rows, watch=True, columns=COLUMNS, lines=LINES)
    colours = set(re.findall(r"\x1b\[([0-9;]*)m", render(frame, color=False)))
    assert colours <= {"0", "1", "2", "1;2", "2;1"}
    assert any("32" in c for c in re.findall(r"\x1b\[([0-9;]*)m", render(frame)))


def test_no_frame_without_a_terminal_or_rows(tmp_path: Path) -> None:
    write_world(tmp_path)
    rows = [summarize_path(p) for p in sorted(tmp_path.glob("*.json"))]
    # pytest captures stdout: not a terminal
    assert StartFrame.show("records", rows, watch=True) is None
    assert StartFrame.show("records", [], watch=True) is None


@contextlib.contextmanager
def _pty_stdio(columns: int, lines: int) -> Iterator[tuple[int, int]]:
    """stdin and stdout on a fresh pseudo-terminal of that size: (master, slave) fds."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    saved = sys.stdin, sys.stdout
    sys.stdin = open(slave, closefd=False)  # noqa: SIM115
    sys.stdout = open(slave, "w", closefd=False)  # noqa: SIM115
    try:
        yield master, slave
    finally:
        sys.stdin, sys.stdout = saved
        os.close(master)
        os.close(slave)


def _drain(fd: int) -> bytes:
    """What the terminal got and was not read yet (waiting a little for more)."""
    return _read_until(fd, b"\x00never", timeout=0.3)


@pytest.fixture
def rows_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ExecutionSummary]:
    """A few rows to draw, and a terminal type that can show them."""
    monkeypatch.setenv("TERM", "xterm-256color")
    write_world(tmp_path)
    return [summarize_path(p) for p in sorted(tmp_path.glob("*.json"))]


def test_a_terminal_too_small_gets_no_frame_and_keeps_its_settings(
    rows_on_a_terminal: list[ExecutionSummary],
) -> None:
    rows = rows_on_a_terminal
    with _pty_stdio(40, 10) as (master, slave):
        before = termios.tcgetattr(slave)
        assert StartFrame.show("records", rows, watch=True) is None
        assert termios.tcgetattr(slave) == before
        assert _drain(master) == b""


def test_the_frame_quiets_the_terminal_and_close_restores_it(
    rows_on_a_terminal: list[ExecutionSummary],
) -> None:
    rows = rows_on_a_terminal
    with _pty_stdio(COLUMNS, LINES) as (master, slave):
        before = termios.tcgetattr(slave)
        frame = StartFrame.show("records", rows, watch=True)
        assert frame is not None
        quiet = termios.tcgetattr(slave)
        assert not quiet[3] & (termios.ECHO | termios.ICANON)  # typed keys: not shown
        assert quiet[3] & termios.ISIG  # ctrl+c still interrupts
        os.write(master, b"jk")  # typed during the frame, never read: dropped at close
        drawn = _drain(master)
        assert drawn.startswith(ENTER.encode()) and b"Succeeded" in drawn
        frame.close()
        assert termios.tcgetattr(slave) == before
        assert _drain(master).endswith(b"\x1b[?1049l\x1b[?25h")  # normal screen, cursor
        assert not select.select([slave], [], [], 0)[0]  # the typed keys are gone


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_the_real_program_draws_the_frame_first_and_the_app_takes_over(tmp_path: Path) -> None:
    """In a real pseudo-terminal: the start frame comes before anything Textual draws; the
    app takes the screen over without entering the alternate screen again; a key typed
    while the frame is up is answered by the app; the terminal ends as it began."""
    records = tmp_path / "records"
    big_world(records)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    before = termios.tcgetattr(slave)
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache"),
        "INTENTUS_TUI_KEYMAP": str(tmp_path / "none.toml"),
    }
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "intentus_tui.cli", str(records)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    output = b""

    def read_until(needle: bytes, timeout: float = 30) -> bool:
        nonlocal output
        deadline = time.monotonic() + timeout
        while needle not in output and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                output += os.read(master, 65536)
        return needle in output

    try:
        assert read_until(b"Succeeded"), "no start frame"
        assert b"Timeline" not in output  # the app had drawn nothing yet
        os.write(master, b"?")  # typed while the start frame is up (or just after)
        assert read_until(b"Keys"), "the key typed during the start frame was lost"
        assert output.startswith(ENTER.encode())
        assert output.index(b"Succeeded") < output.index(b"Timeline")
        os.write(master, b"\x1b")  # close the help (alone: ESC then q would be alt+q)
        read_until(b"\x00never", timeout=1.0)
        os.write(master, b"q")
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:
            output += _drain(master)  # a full terminal buffer would block the app
        assert process.wait(timeout=1) == 0
        output += _drain(master)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        after = termios.tcgetattr(slave)
        os.close(master)
        os.close(slave)
    assert output.count(b"\x1b[?1049h") == 1, "the app entered the alternate screen again"
    assert output.rindex(b"\x1b[?1049l") > output.rindex(b"Keys")
    assert after == before


async def test_the_side_pane_is_blank_until_its_tabs_are_built() -> None:
    """The app's first frames show the side pane before its tabs exist: blank, not
    Textual's placeholder (the widget's class and id)."""
    from textual.app import App, ComposeResult

    from intentus_tui.tui.widgets.side_pane import SidePane

    class PaneOnly(App[None]):
        def compose(self) -> ComposeResult:
            yield SidePane(id="side-pane", lazy=True)

    app = PaneOnly()
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        text = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert not app.query_one(SidePane).ready
    assert "SidePane" not in text and not text.strip()


def test_the_first_rows_show_each_record_with_its_log(tmp_path: Path) -> None:
    """The rows read before the index (a big directory's first screen) are joined with
    their write-ahead logs as the index joins them: a record whose log's chain breaks is
    never first shown succeeded and verified."""
    from intentus_tui.core.model import Integrity
    from intentus_tui.core.verdict import verdict_of
    from intentus_tui.tui.startup.first_rows import first_look, preview_summaries
    from tests.core.wal.support import write_record_with_edited_log

    base = tmp_path / ".intentusnet"
    for n in range(3):
        write_record_with_edited_log(base, f"0a11ed17-0000-4000-8000-00000000000{n}")
    for rows in (
        first_look(base / "records", 2, base / "wal").rows,
        preview_summaries(base / "records", 2, base / "wal"),
    ):
        assert len(rows) == 2
        assert {verdict_of(row).integrity for row in rows} == {Integrity.CHAIN_BROKEN}
    unjoined = first_look(base / "records", 2).rows  # no log asked for: the record alone
    assert {verdict_of(row).integrity for row in unjoined} != {Integrity.CHAIN_BROKEN}


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_a_tiny_directory_s_rows_come_before_textual_has_loaded(tmp_path: Path) -> None:
    """Four records written by IntentusNet 1.3.0: the start frame shows every one of them
    (and that these are all of its files) before the app draws anything. It showed none:
    a small directory's rows waited for Textual's import and the app's first frame, most
    of a second, several on a loaded machine, longer than 100,000 records' first rows."""
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path / "real")
    ids = [world.success, world.fallback, world.error_truncated, world.invalidated]
    assert len(list(world.records_dir.glob("*.json"))) == 4
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache"),
        "INTENTUS_TUI_KEYMAP": str(tmp_path / "none.toml"),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "intentus_tui.cli", str(world.records_dir)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    try:
        output = _read_until(master, b"Timeline", timeout=60)  # the app's first frame
        assert b"Timeline" in output, "the app never drew"
        before_the_app = output[: output.index(b"Timeline")]
        assert before_the_app.startswith(ENTER.encode()), "no start frame"
        for execution_id in ids:
            assert execution_id[:8].encode() in before_the_app, execution_id
        assert b"indexing 4/4 " in before_the_app
        os.write(master, b"q")
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:
            _drain(master)
        assert process.wait(timeout=1) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
        os.close(slave)
