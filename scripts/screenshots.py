"""Regenerate ``screenshots/*.svg``: the debugger on the demo world, headless.

Deterministic: the demo world is built with its fixed seed in a temp directory that becomes
the working directory, so every path shown is relative (``.intentusnet/records/...``);
no watcher, no index cache, a fixed terminal size.

Usage: ``python scripts/screenshots.py [--out screenshots] [--size 200x50]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.pilot import Pilot

from intentus_tui.core.paths import RecordRoot
from intentus_tui.demo.writer import DemoManifest, build_demo_world
from intentus_tui.tui.app import IntentusApp

Step = Callable[[IntentusApp, Pilot[Any], DemoManifest], Awaitable[None]]


async def settle(app: IntentusApp, pilot: Pilot[Any], timeout: float = 20.0) -> None:
    """Until no worker but the watcher runs and every message is handled."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < 2:
        await pilot.pause()
        busy = any(w.group != "watcher" and not w.is_finished for w in app.workers)
        quiet = 0 if busy else quiet + 1
        if busy:
            await asyncio.sleep(0.01)
        if time.monotonic() > deadline:
            raise RuntimeError("the app did not settle")


async def select(app: IntentusApp, pilot: Pilot[Any], execution_id: str, *keys: str) -> None:
    listing = app.execution_list
    key = next(k for k, s in listing.model.summaries.items() if s.execution_id == execution_id)
    assert listing.select_key(key), execution_id
    await settle(app, pilot)
    for k in keys:
        await pilot.press(k)
        await settle(app, pilot)


def first(manifest: DemoManifest, scenario: str) -> str:
    return manifest.scenarios[scenario][0]


async def overview(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    pass


async def fallback_chain(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "fallback_chain"), "enter", "f")


async def post_mortem(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "crash_mid_attempt"), "4")


async def salvaged(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "truncated_error_record"), "enter", "G")


async def wal_only(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "crash_wal_only"), "4")


async def tampered(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "tampered_envelope"))


async def diff(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, m.scenarios["fallback_chain"][0], "m")
    await select(app, pilot, m.scenarios["fallback_chain"][1], "d")
    await settle(app, pilot)


async def compare_picker(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "success"), "s", "y")  # a snapshot: listed first
    await pilot.press("D", *"sum")
    await pilot.pause(0.5)
    await settle(app, pilot)


async def times(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "fallback_chain"), "enter", "a")


async def narrow(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "fallback_chain"), "enter")


async def replay(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "success"), "r")


async def force_replay(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await select(app, pilot, first(m, "recording_failure"), "R")


async def filtered(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await pilot.press("slash", *"search")
    await settle(app, pilot)


async def help_screen(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await pilot.press("question_mark")
    await settle(app, pilot)


async def palette(app: IntentusApp, pilot: Pilot[Any], m: DemoManifest) -> None:
    await pilot.press("ctrl+p", *"exec-")
    await pilot.pause(0.5)
    await settle(app, pilot)


SHOTS: dict[str, Step | tuple[Step, tuple[int, int]]] = {
    "01-overview": overview,
    "02-fallback-chain": fallback_chain,
    "03-post-mortem": post_mortem,
    "04-salvaged-record": salvaged,
    "05-wal-only-in-flight": wal_only,
    "06-tampered-envelope": tampered,
    "07-diff": diff,
    "08-replay": replay,
    "09-force-replay-confirm": force_replay,
    "10-filter": filtered,
    "11-help": help_screen,
    "12-command-palette": palette,
    "13-compare-picker": compare_picker,
    "14-times-and-waterfall": times,
    "15-at-80x24": (narrow, (80, 24)),
}


async def shoot(
    name: str, step: Step, manifest: DemoManifest, out: Path, size: tuple[int, int]
) -> None:
    base = Path(".intentusnet")
    root = RecordRoot(base / "records", base / "wal", Path("."))
    app = IntentusApp(root, watch=False, use_cache=False, directory_label=".intentusnet/records")
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await step(app, pilot, manifest)
        app.save_screenshot(filename=f"{name}.svg", path=str(out))
    print(f"wrote {out / (name + '.svg')}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--out", default=str(Path(__file__).resolve().parent.parent / "screenshots")
    )
    parser.add_argument("--size", default="200x50")  # nothing is cut at this size
    parser.add_argument("--only", nargs="*", help="shot names to make (default: all)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        manifest = build_demo_world(tmp)
        for name, shot in SHOTS.items():
            if not args.only or name in args.only:
                step, size = shot if isinstance(shot, tuple) else (shot, (width, height))
                asyncio.run(shoot(name, step, manifest, out, size))


if __name__ == "__main__":
    main()
