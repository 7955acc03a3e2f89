"""``intentus-tui demo DIR``: write a realistic demo ``.intentusnet`` tree (optionally live)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

from intentus_tui.cli.common import fail, os_error_line
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.demo.live import LiveDemo, LivePlan
from intentus_tui.demo.scenarios import SCENARIOS
from intentus_tui.demo.writer import DemoError, DemoManifest, build_demo_world


def _print_manifest(manifest: DemoManifest) -> None:
    records = sum(1 for f in manifest.files if f.startswith("records/"))
    wals = sum(1 for f in manifest.files if f.startswith("wal/"))
    click.echo(f"Demo world written to {manifest.root}")
    click.echo(f"  {records} record files, {wals} write-ahead logs")
    click.echo(f"  (--seed {manifest.seed} writes the same files again)")
    click.echo("")
    width = max(len(name) for name in SCENARIOS)
    for name, description in SCENARIOS.items():
        ids = manifest.ids(name)
        first = ids[0] if ids else "-"
        more = f" (+{len(ids) - 1})" if len(ids) > 1 else ""
        click.echo(f"  {name:<{width}}  {first}{more}")
        click.echo(f"  {'':<{width}}  {description}")
    click.echo("")
    click.echo(f"Open it with:  intentus-tui {_as_root_argument(manifest.root.parent)}")


def _as_root_argument(directory: Path) -> str:
    """``directory`` as a shell word the debugger takes for a root: a bare name (``demo``)
    would run the command of that name, and one starting with ``-`` would be an option."""
    text = str(directory)
    if os.sep not in text:
        text = f".{os.sep}{text}"
    return sanitize_line(shlex.quote(text))


@click.command("demo")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=40,
    show_default=True,
    help="Executions to write (at least one per scenario).",
)
@click.option("--seed", type=int, default=7, show_default=True, help="Same seed, same files.")
@click.option(
    "--live",
    is_flag=True,
    help="Then keep recording new executions (a few per second, some slow) until Ctrl-C.",
)
@click.option(
    "--max-executions",
    type=click.IntRange(min=0),
    default=None,
    help="With --live: stop after starting this many executions.",
)
@click.option(
    "--duration",
    type=click.FloatRange(min=0),
    default=None,
    help="With --live: stop starting executions after this many seconds.",
)
@click.option(
    "--rate",
    type=click.FloatRange(min=0.01),
    default=3.0,
    show_default=True,
    help="With --live: executions started per second, on average.",
)
@click.option("--time-scale", type=click.FloatRange(min=0), default=1.0, hidden=True)
def demo(
    directory: str,
    count: int,
    seed: int,
    live: bool,
    max_executions: int | None,
    duration: float | None,
    rate: float,
    time_scale: float,
) -> None:
    """Write a demo .intentusnet tree into DIRECTORY: every kind of execution the debugger
    knows about (successes, fallbacks, crashes, tampering, truncation, WALs). A demo
    world written there before is written anew (what --live added to it is dropped); a
    directory holding anything else is refused."""
    if not directory:  # an unset variable: it wrote the demo world into the current directory
        fail("an empty argument names no directory: give the one to write the demo world into")
    try:
        manifest = build_demo_world(Path(directory), count=count, seed=seed)
    except DemoError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write the demo world: {os_error_line(exc)}")
    _print_manifest(manifest)
    if live:
        _run_live(manifest.root, seed, rate, time_scale, max_executions, duration)


def _print_finished(plan: LivePlan, seconds: float) -> None:
    attempts = len(plan.runs)
    chain = " -> ".join(run.name for run in plan.runs)
    click.echo(
        f"  done  {plan.execution_id}  {plan.spec.name}  {attempts} attempt(s): {chain}"
        f"  ({seconds:.1f}s)"
    )


def _run_live(
    base: Path,
    seed: int,
    rate: float,
    time_scale: float,
    max_executions: int | None,
    duration: float | None,
) -> None:
    live = LiveDemo(base, seed=seed, rate=rate, time_scale=time_scale, on_finished=_print_finished)
    click.echo("")
    click.echo(f"Recording live executions into {base} (Ctrl-C to stop)...")
    interrupted = False
    try:
        live.run(max_executions=max_executions, duration=duration)
    except KeyboardInterrupt:
        interrupted = True
    while True:  # let the executions in flight finish (at once, once stopped)
        live.stop()
        try:
            live.join()
            break
        except KeyboardInterrupt:
            interrupted = True
    stats = live.stats
    why = "interrupted" if interrupted else "stopped"
    click.echo(f"Live demo {why}: {stats.started} started, {stats.finished} finished.")
    if stats.errors:
        echo_error(f"intentus-tui: {sanitize_line(str(stats.errors[0]))}")
        raise click.exceptions.Exit(ExitCode.USAGE)
