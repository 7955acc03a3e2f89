"""``intentus-tui [DIR]`` and ``intentus-tui --demo``: open the debugger."""

from __future__ import annotations

from pathlib import Path

import click

from intentus_tui.core.sanitize import sanitize_line

EXIT_OK = 0
EXIT_USAGE = 2


def _error(message: str) -> int:
    click.echo(f"intentus-tui: {sanitize_line(message)}", err=True)
    return EXIT_USAGE


def demo_directory() -> Path:
    """Where ``--demo`` builds its world: the user cache dir, rebuilt on every run."""
    import platformdirs

    return platformdirs.user_cache_path("intentus-tui") / "demo"


def open_debugger(directory: str | None, demo: bool = False, *, watch: bool = True) -> int:
    """Open the app on ``directory`` (or the demo world). Returns the exit code."""
    if demo:
        if directory is not None:
            return _error("give either a directory or --demo, not both")
        from intentus_tui.core.demo import DemoError, build_demo_world

        target = demo_directory()
        try:
            target.mkdir(parents=True, exist_ok=True)
            build_demo_world(target)
        except (DemoError, OSError) as exc:
            return _error(f"cannot build the demo world in {target}: {exc}")
        directory = str(target)
    if directory is not None:
        path = Path(directory)
        if not path.exists():
            return _error(f"no such directory: {directory}")
        if not path.is_dir():
            return _error(f"not a directory: {directory}")
    from intentus_tui.core.index import resolve_root
    from intentus_tui.tui.app import IntentusApp
    from intentus_tui.tui.keymap import load_keymap

    root = resolve_root(directory)
    keymap, problem = load_keymap()
    app = IntentusApp(root, watch=watch, keymap=keymap, keymap_problem=problem)
    app.run()
    return EXIT_OK
