"""A small app that opens the full-screen comparison of two executions on start, and the
deterministic pair of records the comparison tests and snapshots use."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.pilot import Pilot

from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.tui.comparing import ComparisonLauncher
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.tui.side_pane_harness import detail_from, good_record

if TYPE_CHECKING:
    from intentus_tui.tui.app import IntentusApp


def record_pair() -> tuple[dict[str, Any], dict[str, Any]]:
    """A and B: one execution run twice, B with an inserted model call, another routing
    reason, a different answer and its own times (what the ignore rules hide)."""
    a = good_record("exec-000A")
    b = copy.deepcopy(a)
    b["header"]["executionId"] = "exec-000B"
    b["routerDecision"]["timestamp"] = "2026-01-05T10:00:09.500000+00:00"
    b["routerDecision"]["reason"] = "fallback success at index 1, after a model call"
    events = b["events"]
    events.insert(3, {"type": "MODEL_CALL", "payload": {"model": "m-2", "latency_ms": 812}})
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
        if isinstance(event.get("payload"), dict) and "timestamp" in event["payload"]:
            event["payload"]["timestamp"] = "2026-01-05T10:00:09.500000+00:00"
    answer = {"summary": "a different answer"}
    b["finalResponse"]["payload"] = answer
    for event in events:
        if event["type"] == "FINAL_RESPONSE":
            event["payload"]["payload"] = answer
    return a, b


class CompareApp(ComparisonLauncher):
    """Opens ``compare_executions(a, b)`` on mount, as ``d`` does in the debugger."""

    def __init__(self, a: ExecutionDetail, b: ExecutionDetail) -> None:
        super().__init__()
        self.a = a
        self.b = b

    def on_mount(self) -> None:
        self.compare_executions(self.a, self.b)

    @property
    def comparison(self) -> ComparisonScreen:
        screen = self.screen
        assert isinstance(screen, ComparisonScreen)
        return screen


def pair_app() -> CompareApp:
    a, b = record_pair()
    return CompareApp(detail_from(a), detail_from(b))


def tampered_pair_app() -> CompareApp:
    """The pair with B's envelope payload edited after its hash was taken: B is untrusted."""
    a, b = record_pair()
    b["envelope"]["payload"] = {"text": "edited after hashing"}
    return CompareApp(detail_from(a), detail_from(b))


def debugger_on_pair(
    records_dir: Path, pair: tuple[dict[str, Any], dict[str, Any]] | None = None
) -> IntentusApp:
    """The debugger on ``records_dir`` holding A and B (``record_pair``'s, or ``pair``)."""
    from tests.factories import write_record
    from tests.tui.app_support import make_app

    for record in pair or record_pair():
        write_record(records_dir, record)
    return make_app(records_dir)


async def compare_pair(pilot: Pilot[Any]) -> None:
    """Once the list is read, A marked and compared with B (``d``), as a user does."""
    from tests.tui.app_support import mark_and_compare, settle

    await settle(pilot)
    await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
