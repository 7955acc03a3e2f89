"""The cyclic garbage collector's full passes, moved out of the keys into idle moments;
and thread workers that step aside while keys are pressed (``yield_to_keys``).

Python runs a full pass (its oldest generation) by itself after every tenth middle one:
in the middle of whatever allocates then, which in a Textual app is a key's layout and
render. At 100,000 executions a full pass walks the list model's orders (lists of 100,000
summaries) and Textual's caches of rendered lines: 25 ms to over 100 ms (more with the
picker's lines kept), landing inside ``L``, ``z`` or an escape one key in a few.

So full passes are not left to Python (its threshold for them is set out of reach); the
young generations are still collected by Python as it allocates, as before (they cost a few
milliseconds at most). A full pass runs when the user has not touched a key or the mouse
for ``IDLE_SECONDS`` and Python would have run one by now (``PENDING_PASSES`` middle
passes since the last one); also, idle or not, once ``OVERDUE_SECONDS`` have gone by since
the last, so memory held in cycles cannot grow without bound under a held-down key. Never
sooner than ``SPACING`` times the last pass's length after it: while the debugger fills a
list of a million rows the collector is on and the user often idle, and passes of a second
each would otherwise follow one another. While the collector is off, no pass runs.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App

# A full pass only when the user has left the keys and the mouse alone this long: longer
# than the pauses between the keys of one thought (a pass of 40-90 ms at 100,000
# executions, begun just before the next key, is that key's wait).
IDLE_SECONDS = 1.0
# A thread worker's long loop waits (``yield_to_keys``) while a key came this recently...
KEYS_BUSY_SECONDS = 0.2
# ... but no longer than this each time: its result is wanted too.
LONGEST_YIELD_SECONDS = 1.0
# How often the app looks whether a full pass is due.
CHECK_SECONDS = 0.25
# A full pass, idle or not, this long after the previous one at the latest.
OVERDUE_SECONDS = 60.0
# Middle-generation passes since the last full one before a full one is worth it (Python's
# own default threshold for the oldest generation).
PENDING_PASSES = 10
# The oldest generation's threshold while the app decides: never reached by itself.
NEVER = 1 << 30
# After a full pass, none for this many times as long as it took: at most a twentieth of
# the time goes to them. Python spaces its own by the objects that survived since (its
# quarter rule), which this module cannot see; without any spacing, an idle debugger
# filling 1,000,000 rows ran a pass of ~1 s four times a second and took 109 s, not 53.
SPACING = 20


class IdleCollector:
    """When to run a full pass. ``clock``: seconds (``time.monotonic``; a test's own)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        collect: Callable[[], object] = gc.collect,
    ) -> None:
        self._clock = clock
        self._collect = collect
        self._last_input = clock()
        self._last_pass = clock()
        self._next_allowed = clock()  # not before: ``SPACING`` times the last pass
        self._thresholds: tuple[int, int, int] | None = None
        self._holds = 0  # screens open that asked for no idle pass (``hold``)
        self.passes = 0  # full passes run (for tests and benchmarks)

    def take_over(self) -> None:
        """From now on, full passes run only when ``tick`` says so."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, NEVER)

    def give_back(self) -> None:
        """Python runs full passes by itself again (its thresholds as they were)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def hold(self) -> None:
        """No idle full pass until ``release`` (an overdue one still runs): for a screen
        that holds many objects for as long as it is open, freed by their reference counts
        when it closes. The compare picker's 100,000 candidates are tuples the collector
        walks: an idle pass took 220-260 ms with it open, and the key that closes it waited
        for that pass to end."""
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)

    def input_seen(self) -> None:
        self._last_input = self._clock()

    def keys_busy(self) -> bool:
        """Whether a key (or the mouse) was used in the last ``KEYS_BUSY_SECONDS``."""
        return self._clock() - self._last_input < KEYS_BUSY_SECONDS

    def due(self) -> bool:
        """Whether a full pass should run now."""
        if not gc.isenabled() or gc.get_count()[2] < PENDING_PASSES:
            return False
        now = self._clock()
        if now < self._next_allowed:
            return False
        idle = now - self._last_input >= IDLE_SECONDS and not self._holds
        return idle or now - self._last_pass >= OVERDUE_SECONDS

    def tick(self) -> bool:
        """Run a full pass if one is due; whether it did."""
        if not self.due():
            return False
        started = self._clock()
        self._collect()
        self._last_pass = self._clock()
        self._next_allowed = self._last_pass + SPACING * (self._last_pass - started)
        self.passes += 1
        return True


class IdleCollecting(App[Any]):
    """A base of the app: it notes every key and mouse event for the ``IdleCollector``
    and lets it run its passes (``start_idle_collector``, once the first frame is out)."""

    idle_collector: IdleCollector | None = None

    def start_idle_collector(self) -> None:
        if self.idle_collector is None:
            self.idle_collector = IdleCollector()
            self.idle_collector.take_over()
            self.set_interval(CHECK_SECONDS, self.idle_collector.tick, name="idle collector")

    def yield_to_keys(self) -> None:
        """For a thread worker's long loop, between two steps of a few milliseconds: while
        keys are being pressed, wait (up to ``LONGEST_YIELD_SECONDS``) and leave the
        interpreter to the app's thread. The interpreter's lock is shared by every thread,
        and a thread that keeps it is made to give it up only every 5 ms: each step of a
        key's answer (dozens: every turn of the event loop gives the lock up) would wait
        that long."""
        collector = self.idle_collector
        if collector is None:
            return
        deadline = time.monotonic() + LONGEST_YIELD_SECONDS
        while collector.keys_busy() and time.monotonic() < deadline:
            time.sleep(KEYS_BUSY_SECONDS / 4)

    async def on_event(self, event: events.Event) -> None:
        collector = self.idle_collector
        if collector is not None and isinstance(event, events.InputEvent):
            collector.input_seen()
        await super().on_event(event)

    def on_unmount(self) -> None:
        if self.idle_collector is not None:
            self.idle_collector.give_back()
