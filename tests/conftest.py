from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import textual._wait
import textual.constants
from textual._styles_cache import StylesCache
from textual.notifications import Notification

import tests.tui.css_memo  # Textual's CSS parsed once per worker, not per app
import tests.tui.headless_frames  # noqa: F401  (a headless frame is composed when a test looks)
from tests.intentusnet_world import RealWorld, build_real_world

# Textual's pilot waits for the process to look idle after every key and pause, watching
# its CPU time in 20 ms slices: at least 40 ms a key. The app's tests do not rely on that
# guess: ``settle`` waits for the workers, the side pane, a resize still to be passed on
# and every queued message, twice over, and for any layout still to run. Slices of 4 ms
# halved the debugger's tests (the hostile walk: 39 s to 20 s); 2 ms took them from
# 159-162 s to 148 s (``pytest -n 2 tests/tui``); 1 ms from 157 s to 146 s. An idle app
# spends well under the 0.1 ms of CPU a slice allows.
textual._wait.SLEEP_GRANULARITY = 0.001
textual._wait.SLEEP_IDLE = 0.0001

# The debuggers the tests run in this process draw no animation (as with
# ``TEXTUAL_ANIMATIONS=none``, a user's choice too): a tab's underline slides for 0.3 s
# after each tab key, which ``settle`` waits out, the process idle, as it does a scroll to
# the focus. What the tests assert is where things end, which is the same. The program
# the command-line, pty and start-frame tests run keeps the default, every animation.
# ``pytest -n 2 tests/tui`` on a quiet machine, in turn: 202 s with them, 178 s without
# (the machine's idle time 158 s to 102 s; its busy time the same).
textual.constants.TEXTUAL_ANIMATIONS = "none"

# The ``sshd`` fixture: a real OpenSSH server for the remote-root tests.
pytest_plugins = ["tests.core.remote.sshd"]


def pytest_configure(config: pytest.Config) -> None:
    """The program's bytecode is written once, before any test runs (in ``-n``'s
    controller, before its workers start): the command line and the debugger run in fresh
    interpreters over a hundred times a run, and each compiled every module it imported
    again where bytecode is not kept (``PYTHONDONTWRITEBYTECODE``, a fresh clone): about
    0.1 s each, against 0.5 s to compile the whole program once."""
    if hasattr(config, "workerinput"):
        return  # a worker of ``-n``: its controller did it
    import compileall
    import re

    import intentus_tui

    compileall.compile_dir(Path(intentus_tui.__file__).parent, quiet=1)
    # The tests' own helpers too (some run in those interpreters); not the test modules,
    # which pytest rewrites and compiles itself.
    compileall.compile_dir(Path(__file__).parent, quiet=1, rx=re.compile(r"test_[^/]*\.py$"))
    if config.getoption("numprocesses", None):
        _rewrite_test_modules_once(config)


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """The test modules with pytest's asserts rewritten, compiled once here for every worker
    of ``-n``. Where bytecode is not kept (``PYTHONDONTWRITEBYTECODE``, as in CI) each
    worker rewrote all of them as it collected (about 7 of its 10 s before the first test);
    pytest reads a rewritten module kept beside it even then. Done on two cores, for the
    modules the run collects: ``pytest -n 2 --collect-only`` took 9.8 s, 5.3-5.8 s with
    this. Uses pytest's own rewriting (a private module: if it moved, this is skipped)."""
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None or not hasattr(rewrite, "_rewrite_test"):
        return  # ``--assert=plain``, or a pytest that rewrites another way
    modules: set[Path] = set()
    for arg in config.args or [str(config.rootpath)]:
        path = Path(config.invocation_params.dir, arg.split("::")[0])
        if path.is_dir():
            modules.update([*path.rglob("test_*.py"), *path.rglob("conftest.py")])
        elif path.name.startswith("test_") and path.suffix == ".py":
            modules.add(path)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    def rewrite_one(module: Path) -> None:
        pyc = rewrite.get_cache_dir(module) / f"{module.stem}{rewrite.PYC_TAIL}"
        if rewrite._read_pyc(module, pyc, state.trace) is not None:
            return  # kept from an earlier run, and still its source's
        source_stat, code = rewrite._rewrite_test(module, config)
        pyc.parent.mkdir(exist_ok=True)
        rewrite._write_pyc(state, code, source_stat, pyc)

    global _REWRITE_ONE
    _REWRITE_ONE = rewrite_one
    try:
        with ProcessPoolExecutor(2, mp_context=get_context("fork")) as pool:
            list(pool.map(_rewrite_in_child, sorted(modules), chunksize=8))
    except (OSError, ValueError):
        return  # no fork here: the workers rewrite as before


_REWRITE_ONE: Callable[[Path], None] | None = None


def _rewrite_in_child(module: Path) -> None:
    assert _REWRITE_ONE is not None
    _REWRITE_ONE(module)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the test process holds before its first test (the program, the libraries, the
    tests: some 95,000 objects) is never walked again by the collector's full passes. Each
    debugger test leaves 50,000-100,000 objects of cycles for those passes, which run about
    once a test and walked it all again: five TUI files spent 19.5 s of their 99 s in full
    passes, 16.1 s frozen (their CPU in turn-about runs moved by more than that). The app's
    own collector (``tui.startup.tuning``, ``tui.idle_collector``) is unchanged; a test of
    it that unfreezes gives this up until the next test has ended."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_logfinish() -> None:
    """Each test's garbage is collected once it has ended and torn down, and what outlives
    it (caches, modules imported on first use: 40,000 objects after 20 debugger tests,
    68,000 after 80) is frozen with the rest: the full passes while the next test runs walk
    only what it made. Six debugger files and Verist's tests (``-p`` a timing hook, one
    process, two runs each way): 7.9 s and 10.6 s in the collector before, 4.0 s after."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def real_world(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    """Records written by the real intentusnet 1.3.0 (read-only: copy before changing)."""
    return build_real_world(tmp_path_factory.mktemp("real"))


@pytest.fixture
def records_dir(tmp_path: Path) -> Path:
    path = tmp_path / "records"
    path.mkdir()
    return path


@pytest.fixture(autouse=True)
def _no_styles_kept_between_tests() -> Iterator[None]:
    """Textual caches ``StylesCache.get_inner_outer`` per widget (an ``lru_cache`` of 1,024
    on a method), which keeps every widget's styles cache and its rendered lines alive long
    after its app ended: a worker running hundreds of apps held ~40,000 more objects after
    each one, walked by every full collection (an app's run grew from 0.55 s to 1.1 s)."""
    yield
    StylesCache.get_inner_outer.cache_clear()


@pytest.fixture(autouse=True)
def _settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the user's remembered settings."""
    path = tmp_path / "settings.json"
    monkeypatch.setenv("INTENTUS_TUI_SETTINGS", str(path))
    return path


@pytest.fixture(autouse=True)
def _compare_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the user's ignore rules: the defaults, unless a test writes this file."""
    path = tmp_path / "compare.toml"
    monkeypatch.setenv("INTENTUS_TUI_COMPARE", str(path))
    return path


@pytest.fixture(autouse=True)
def _snapshot_toasts_stay(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot shows the toasts its keys raised however slow the machine: none expires
    while the test runs (a 1.5 s toast had gone from a busy machine's snapshot)."""
    if "snap_compare" in request.fixturenames:
        monkeypatch.setattr(Notification, "time_left", property(lambda self: 3600.0))
