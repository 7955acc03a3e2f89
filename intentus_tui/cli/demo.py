"""``intentus-tui demo DIR``: write a realistic demo ``.intentusnet`` tree (optionally live)."""

from __future__ import annotations

from pathlib import Path

import click

from intentus_tui.core.demo import SCENARIOS, DemoError, DemoManifest, build_demo_world

EXIT_OK = 0
EXIT_USAGE = 2


def _print_manifest(manifest: DemoManifest) -> None:
    records = sum(1 for f in manifest.files if f.startswith("records/"))
    wals = sum(1 for f in manifest.files if f.startswith("wal/"))
    click.echo(f"Demo world written to {manifest.root}")
    click.echo(f"  {records} record files, {wals} write-ahead logs (seed {manifest.seed})")
    click.echo("")
    width = max(len(name) for name in SCENARIOS)
    for name, description in SCENARIOS.items():
        ids = manifest.ids(name)
        first = ids[0] if ids else "-"
        more = f" (+{len(ids) - 1})" if len(ids) > 1 else ""
        click.echo(f"  {name:<{width}}  {first}{more}")
        click.echo(f"  {'':<{width}}  {description}")
    click.echo("")
    click.echo(f"Open it with:  intentus-tui {manifest.root.parent}")


@click.command("demo")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=40,
    show_default=True,
    help="Executions to write (at least one per scenario).",
)
@click.option("--seed", type=int, default=7, show_default=True, help="Same seed, same files.")
def demo(directory: Path, count: int, seed: int) -> None:
    """Write a demo .intentusnet tree into DIRECTORY: every kind of execution the debugger
    knows about (successes, fallbacks, crashes, tampering, truncation, WALs)."""
    try:
        manifest = build_demo_world(directory, count=count, seed=seed)
    except DemoError as exc:
        click.echo(f"error: {exc}", err=True)
        raise click.exceptions.Exit(EXIT_USAGE) from exc
    except OSError as exc:
        click.echo(f"error: cannot write the demo world: {exc}", err=True)
        raise click.exceptions.Exit(EXIT_USAGE) from exc
    _print_manifest(manifest)
