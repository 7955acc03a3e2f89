"""The escape key: a lone ESC is a key within the escape delay, not Textual's 0.1 s later;
an escape sequence whose bytes arrive a moment apart is still one key; ``ESCDELAY`` wins."""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from textual import constants, events
from textual.app import App
from textual.message import Message

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Textual's Linux driver")

if sys.platform != "win32":
    from intentus_tui.tui.startup.escape_key import (
        DEFAULT_ESCAPE_DELAY_MS,
        PromptEscapeDriver,
        answer_escape_promptly,
        escape_delay_seconds,
    )


def test_the_delay_is_the_users_escdelay_else_the_default() -> None:
    assert escape_delay_seconds({}) == DEFAULT_ESCAPE_DELAY_MS / 1000
    assert escape_delay_seconds({"ESCDELAY": "150"}) == 0.150
    assert escape_delay_seconds({"ESCDELAY": "0"}) == 0.001  # Textual's least: 1 ms
    assert escape_delay_seconds({"ESCDELAY": "soon"}) == DEFAULT_ESCAPE_DELAY_MS / 1000


def test_the_app_runs_the_prompt_driver_unless_another_was_chosen() -> None:
    from textual.drivers.linux_driver import LinuxDriver
    from textual.drivers.web_driver import WebDriver

    app: App[None] = App(driver_class=LinuxDriver)
    answer_escape_promptly(app)
    assert app.driver_class is PromptEscapeDriver
    chosen: App[None] = App(driver_class=WebDriver)
    answer_escape_promptly(chosen)
    assert chosen.driver_class is WebDriver


@contextmanager
def _input_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[int, queue.Queue[tuple[float, Message]]]]:
    """The driver's input loop reading a pipe: yields the pipe's write end and the events
    the loop produced, each with when it produced it."""
    read_end, write_end = os.pipe()
    stdin = os.fdopen(read_end, "rb", buffering=0)
    monkeypatch.setattr(sys, "__stdin__", stdin)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    saved_delay = constants.ESCAPE_DELAY
    driver = PromptEscapeDriver(App())
    got: queue.Queue[tuple[float, Message]] = queue.Queue()
    driver.process_message = lambda message: got.put((time.monotonic(), message))  # type: ignore[method-assign]
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    thread.start()
    try:
        yield write_end, got
    finally:
        driver.exit_event.set()
        thread.join(2)
        os.close(write_end)
        stdin.close()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        setattr(constants, "ESCAPE_DELAY", saved_delay)  # noqa: B010


def _keys(got: queue.Queue[tuple[float, Message]], count: int) -> list[tuple[float, str]]:
    keys = []
    while len(keys) < count:
        when, message = got.get(timeout=2)
        if isinstance(message, events.Key):
            keys.append((when, message.key))
    return keys


async def test_a_lone_escape_is_a_key_within_the_escape_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ESCDELAY", raising=False)
    with _input_thread(monkeypatch) as (write_end, got):
        latencies = []
        for _ in range(5):
            sent = time.monotonic()
            os.write(write_end, b"\x1b")
            ((when, key),) = _keys(got, 1)
            assert key == "escape"
            latencies.append(when - sent)
            time.sleep(0.03)
    # Textual's own loop: at least 0.1 s every time (its delay, then its 0.1 s select).
    assert min(latencies) >= DEFAULT_ESCAPE_DELAY_MS / 1000
    assert sorted(latencies)[2] < 0.075, latencies


async def test_a_sequence_arriving_in_pieces_within_the_delay_is_one_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ESCDELAY", raising=False)
    with _input_thread(monkeypatch) as (write_end, got):
        os.write(write_end, b"\x1b")
        time.sleep(0.005)
        os.write(write_end, b"[A")
        assert [key for _, key in _keys(got, 1)] == ["up"]


async def test_the_users_escdelay_is_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ESCDELAY", "300")
    with _input_thread(monkeypatch) as (write_end, got):
        os.write(write_end, b"\x1b")
        time.sleep(0.1)  # within the user's delay: still one sequence
        sent = time.monotonic()
        os.write(write_end, b"[B")
        ((when, key),) = _keys(got, 1)
        assert key == "down" and when - sent < 0.2
