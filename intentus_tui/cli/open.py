"""``intentus-tui [DIR]`` and ``intentus-tui --demo``: open the debugger."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.sanitize import sanitize_line

P = ParamSpec("P")

if TYPE_CHECKING:
    from textual.app import App

    from intentus_tui.core.bundle.read import ExtractedBundle
    from intentus_tui.core.paths import RecordRoot
    from intentus_tui.core.remote.location import RemoteOptions
    from intentus_tui.tui.app import IntentusApp


# The app ``ran`` runs, for a signal to close.
_RUNNING: App[Any] | None = None
_CLOSING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _close(signum: int, _frame: object) -> None:
    app = _RUNNING
    loop = app._loop if app is not None else None
    if app is not None and loop is not None and loop.is_running():
        # As ``q`` closes it; from a signal handler, through the loop's thread-safe door.
        loop.call_soon_threadsafe(partial(app.exit, return_code=128 + signum))
        return
    raise SystemExit(128 + signum)  # not running yet: what was opened closes on the way out


def closed_by_signals(open_it: Callable[P, int]) -> Callable[P, int]:
    """SIGTERM and SIGHUP (``kill``, a closed terminal) close the debugger as ``q`` does,
    with 128 + the signal's number, whenever they come: they killed it with the terminal
    left in its alternate screen and a bundle's private copy left behind."""

    @wraps(open_it)
    def opening(*args: P.args, **kwargs: P.kwargs) -> int:
        before = {signum: signal.signal(signum, _close) for signum in _CLOSING_SIGNALS}
        try:
            return open_it(*args, **kwargs)
        finally:
            for signum, handler in before.items():
                signal.signal(signum, handler)

    return opening


class OpenError(Exception):
    """Why the debugger cannot be opened (shown as one line, exit code 2)."""


def demo_directory() -> Path:
    """Where ``--demo`` keeps its world: the user cache dir."""
    import platformdirs

    return platformdirs.user_cache_path("intentus-tui") / "demo"


def _demo_world_exists(target: Path) -> bool:
    """An earlier ``--demo`` left its world (its manifest, and a records directory)."""
    from intentus_tui.demo.writer import MANIFEST_NAME

    base = target / ".intentusnet"
    return (base / MANIFEST_NAME).is_file() and (base / "records").is_dir()


def resolve_target(directory: str | None, demo: bool = False, fresh: bool = False) -> RecordRoot:
    """The records to open: ``directory``'s, or the demo world's (built on first use and
    kept between runs, so what the user did in it stays; ``fresh`` builds it again);
    ``OpenError`` if there are none."""
    if demo or fresh:
        if directory is not None:
            raise OpenError("give either a directory or --demo, not both")
        from intentus_tui.demo.writer import DemoError, build_demo_world

        target = demo_directory()
        try:
            if fresh or not _demo_world_exists(target):
                target.mkdir(parents=True, exist_ok=True)
                build_demo_world(target)
        except (DemoError, OSError) as exc:
            raise OpenError(f"cannot build the demo world in {target}: {exc}") from None
        directory = str(target)
    if directory == "":
        from intentus_tui.core.roots import EMPTY_ROOT

        raise OpenError(EMPTY_ROOT)
    if directory is not None:
        path = Path(directory)
        if not path.exists():
            if os.path.lexists(path):  # a link
                from intentus_tui.core.paths import cannot_follow

                raise OpenError(cannot_follow(directory))
            raise OpenError(f"no such directory: {directory}")
        if not path.is_dir():
            raise OpenError(f"not a directory: {directory}")
    from intentus_tui.core.paths import layout_problem, resolve_root

    root = resolve_root(directory)
    problem = layout_problem(root)
    if problem is not None:
        raise OpenError(problem)
    return root


def make_app(root: RecordRoot, *, watch: bool = True, **options: Any) -> IntentusApp:
    """The app on ``root``, with the user's key map (``options``: more of the app's)."""
    from intentus_tui.tui.app import IntentusApp
    from intentus_tui.tui.keymap import load_keymap

    keymap, problem = load_keymap()
    return IntentusApp(root, watch=watch, keymap=keymap, keymap_problem=problem, **options)


def opens_as_bundle(path: str) -> bool:
    """``intentus-tui PATH`` names an evidence bundle file (``.tar.gz``/``.tgz``)."""
    from intentus_tui.core.bundle.layout import is_bundle_name

    return is_bundle_name(path) and os.path.lexists(path) and not os.path.isdir(path)


def bundle_label(bundle: ExtractedBundle, path: str) -> str:
    """The header's name for a bundle: ``bundle NAME``, then why it cannot be believed
    (``(1 file differs from its manifest: run verify)``, or its manifest does not match its
    seal); the header keeps its start."""
    label = f"bundle {Path(path).name}"
    note = bundle_note(bundle)
    return label if note is None else f"{label} ({note})"


def bundle_note(bundle: ExtractedBundle) -> str | None:
    """Why a bundle's files cannot be believed as they are, or None when they can."""
    from intentus_tui.core.bundle.seal import breaks_the_seal

    if bundle.ok:
        return None
    if any(breaks_the_seal(problem) for problem in bundle.problems):  # no file is vouched for
        return "its manifest does not match its seal: run verify"
    count = len(bundle.problems)
    differ = f"{count:,} file differs" if count == 1 else f"{count:,} files differ"
    return f"{differ} from its manifest: run verify"


def bundle_app(bundle: ExtractedBundle, path: str) -> IntentusApp:
    """The app on the extracted bundle ``path``: read-only, not watched, named by
    ``bundle_label`` in the header."""
    from intentus_tui.cli.bundle import bundle_root

    return make_app(
        bundle_root(bundle, path),
        watch=False,
        directory_label=bundle_label(bundle, path),
        label_is_name=True,
        use_cache=False,
    )


@closed_by_signals
def open_bundle(path: str) -> int:
    """Open the evidence bundle ``path`` read-only: extracted into a private temporary
    directory (removed when the debugger closes); the writing actions are refused there.
    A hostile or unreadable bundle: one line, exit 1."""
    from intentus_tui.cli.bundle import extracted

    try:
        with extracted(path) as bundle:
            if not has_a_terminal():  # what is wrong with the bundle is said first
                return ExitCode.USAGE
            app = bundle_app(bundle, path)
            app.prepare_start()
            return ran(app)
    except OSError as exc:
        echo_error(f"intentus-tui: cannot open the bundle: {sanitize_line(str(exc))}")
        return ExitCode.PROBLEMS


def build_app(directory: str | None, demo: bool = False, *, watch: bool = True) -> IntentusApp:
    """The app for ``directory`` (or the demo world); ``OpenError`` if there is none."""
    return make_app(resolve_target(directory, demo), watch=watch)


@closed_by_signals
def open_debugger(
    directory: str | None, demo: bool = False, *, watch: bool = True, fresh_demo: bool = False
) -> int:
    """Open the app on ``directory`` (or the demo world). Returns the exit code.

    An empty directory still opens (the app says so); one whose records cannot be listed
    is refused in one line, as the commands refuse it. A directory's first rows are read
    first and drawn at once (the start frame), before Textual is imported; the app's first
    frame replaces them.
    """
    from intentus_tui.tui.startup.tuning import pause_collector_for_start, resume_collector

    pause_collector_for_start()  # the app turns it back on after its first frame
    try:
        root = resolve_target(directory, demo, fresh=fresh_demo)
    except OpenError as exc:
        resume_collector(freeze=False)
        echo_error(f"intentus-tui: {sanitize_line(str(exc))}")
        return ExitCode.USAGE
    if not has_a_terminal():
        return ExitCode.USAGE
    from intentus_tui.tui.settings import load_settings
    from intentus_tui.tui.startup.first_rows import first_look, first_row_count
    from intentus_tui.tui.startup.start_frame import StartFrame

    # Where the app will draw the list (platformdirs' import, 3-10 ms, comes before the
    # first rows now: the app read the settings 0.1 s later, and moved the rows there).
    layout = load_settings().get("layout")

    reopen: RecordRoot | None = root
    code: int = ExitCode.OK
    while reopen is not None:  # opened again when the project's records appear
        first = first_look(reopen.records_dir, first_row_count(), reopen.wal_dir)
        frame = StartFrame.show(
            str(reopen.records_dir), first.rows, watch=watch, total=first.total, layout=layout
        )
        try:
            app = make_app(reopen, watch=watch)
            if frame is not None:
                from intentus_tui.tui.startup.start_driver import take_over_start_frame

                take_over_start_frame(app)
            app.prepare_start(first)  # before the app captures stdio: the process pool
            code = ran(app)
        finally:
            if frame is not None:
                frame.close()
        reopen = app.reopen if code == ExitCode.OK else None
    return code


@closed_by_signals
def open_several(specs: list[str], options: RemoteOptions) -> int:
    """Open the app on several roots (or remote ones): one merged list. A root that
    cannot be opened says so in one line (and in the header) while the others load;
    exit 2 when none opens. A remote root shows its mirror at once and is synced by a
    poller while the app runs."""
    from intentus_tui.cli.bundle import bundle_among_roots
    from intentus_tui.core.roots import open_roots
    from intentus_tui.tui.roots import RootSet
    from intentus_tui.tui.startup.first_rows import FirstLook, first_look, first_row_count

    opened = open_roots(specs, options, sync=False, open_bundle=bundle_among_roots)
    for entry in opened:
        if entry.root is None:
            label = f"root {entry.label}: " if len(opened) > 1 else ""
            echo_error(f"intentus-tui: {label}{sanitize_line(entry.problem or '')}")
    roots = RootSet(opened, options)
    if not roots.working or not has_a_terminal():
        return ExitCode.USAGE
    first_root = roots.working[0].root
    assert first_root is not None
    from intentus_tui.tui.app import IntentusApp
    from intentus_tui.tui.keymap import load_keymap

    keymap, problem = load_keymap()
    app = IntentusApp(first_root, keymap=keymap, keymap_problem=problem, roots=roots)
    # Several roots: no preview of one root's first rows (their keys are not the merged ones).
    preview = first_look(
        first_root.records_dir,
        0 if roots.several else first_row_count(),
        first_root.wal_dir,
    )
    app.prepare_start(FirstLook([], preview.wants_pool) if roots.several else preview)
    return ran(app)


def has_a_terminal() -> bool:
    """Whether the debugger has a terminal to draw on, or else one line saying so: with
    standard input or output not one (a pipe, a file, a cron job) it drew its screen into
    the pipe and ran until killed. A browser session of ``serve`` has its own driver
    (``TEXTUAL_DRIVER``)."""
    if os.environ.get("TEXTUAL_DRIVER") or (sys.stdin.isatty() and sys.stdout.isatty()):
        return True
    echo_error(
        "intentus-tui: the debugger needs a terminal (standard input and output are not "
        "both one); for scripts: intentus-tui inspect --list [ROOT ...]"
    )
    return False


def ran(app: App[Any]) -> int:
    """Run ``app``; its exit code: not 0 when it ended on an error (Textual printed the
    traceback), so that a script or a shell sees it crashed."""
    global _RUNNING
    _RUNNING = app
    try:
        app.run()
    finally:
        _RUNNING = None
    return app.return_code or ExitCode.OK
