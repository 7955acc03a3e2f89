"""``intentus-tui serve`` in a real headless browser (Debian's chromium): the page loads
the debugger through textual-serve, shows the execution list and a timeline of records
written by the real IntentusNet 1.3.0, and answers the keyboard."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.serve import debugger_command, is_loopback
from intentus_tui.core.remote.location import RemoteOptions
from tests.cli.browser import (
    INSTALL_HINT,
    Browser,
    chromium_available,
    stop_process_group,
    wait_for,
)
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, write_wal_only
from tests.system_packages import require_system_package

WAL_ONLY = "0a11c1ea-0000-4000-8000-00000000beef"
FULL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture
def served(real_world: RealWorld, tmp_path: Path) -> Iterator[str]:
    """``intentus-tui serve`` on a copy of the real records plus a WAL-only execution; its
    URL."""
    records = copy_real_world(real_world, tmp_path)
    wal_dir = records.parent / "wal"
    wal_dir.mkdir()
    write_wal_only(wal_dir, WAL_ONLY, completed=False)
    port = free_port()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "intentus_tui.cli",
            "serve",
            str(records.parent),
            "--port",
            str(port),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for("the server to answer", lambda: answers(url) or server.poll() is not None, 20)
        assert server.poll() is None, (tmp_path / "serve.log").read_text()
        yield url
    finally:
        stop_process_group(server)
        log.close()


def test_the_browser_shows_the_list_and_a_timeline(
    served: str, real_world: RealWorld, tmp_path: Path
) -> None:
    require_system_package(chromium_available(), INSTALL_HINT)
    browser = Browser()
    try:
        browser.open(served)
        ids = [real_world.success, real_world.fallback, real_world.error_truncated]
        ids += [real_world.invalidated, WAL_ONLY]

        def list_and_timeline() -> str | None:
            screen = browser.terminal_text() or ""
            shown = all(i[:8] in screen for i in ids)
            timeline = FULL_ID.search(screen) and "INTENT_RECEIVED" in screen
            return screen if shown and timeline and "Timeline" in screen else None

        try:
            screen = wait_for("the list and a timeline in the page", list_and_timeline, 25)
        finally:
            browser.screenshot(tmp_path / "page.png")
        assert "Executions" in screen
        first = FULL_ID.search(screen)
        assert first is not None and first.group() in ids

        # The keyboard reaches the debugger: the next execution's timeline replaces it.
        browser.press("ArrowDown", "ArrowDown", 40)

        def another_timeline() -> str | None:
            found = FULL_ID.search(browser.terminal_text() or "")
            return found.group() if found and found.group() != first.group() else None

        second = wait_for("the next execution's timeline", another_timeline, 10)
        assert second in ids
    finally:
        browser.close()


def test_loopback_by_default_and_a_warning_otherwise(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.7")
    run = cli("serve", "--help")
    assert "[default: 127.0.0.1]" in " ".join(run.stdout.split())  # however it wraps
    # Each browser session runs the debugger on the absolute root with this interpreter.
    command = debugger_command(str(tmp_path.name), demo=False)
    assert command.startswith(sys.executable) and str(Path(tmp_path.name).absolute()) in command


def test_serve_refuses_a_missing_root(tmp_path: Path) -> None:
    run = cli("serve", str(tmp_path / "nowhere"))
    assert run.returncode == 2
    assert run.stderr.strip() == f"intentus-tui: no such directory: {tmp_path / 'nowhere'}"


def test_serve_refuses_what_the_debugger_would_not_open(tmp_path: Path) -> None:
    """Each browser session runs the debugger on ROOT: what it refuses, serve refuses
    before listening, with its line and code (an unreadable bundle, a broken layout, a
    link that loops were served, and every visitor saw the refusal alone)."""
    garbage = tmp_path / "evidence.tar.gz"
    garbage.write_bytes(b"\x00\x01 not gzip")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".intentusnet").write_text("")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for root, code, says in (
        (garbage, ExitCode.PROBLEMS, "evidence.tar.gz: not a readable .tar.gz bundle"),
        (project, ExitCode.USAGE, f"{project / '.intentusnet'} is a file, not a directory"),
        (loop, ExitCode.USAGE, f"cannot follow {loop}: the link loops (it leads back to itself)"),
    ):
        # A server started anyway would run until the timeout: the test fails, not hangs.
        run = cli("serve", str(root), "--port", str(free_port()), timeout=30)
        assert run.returncode == code, run
        assert run.stderr.startswith(f"intentus-tui: {says}"), run.stderr
        assert len(run.stderr.splitlines()) == 1 and run.stdout == ""


def test_serve_takes_a_remote_root_as_the_debugger_does() -> None:
    """``serve ssh://...`` was refused as "no such directory" (the debugger opens remote
    roots), and each session's command named the URL as a local path under the current
    directory. Nothing is reached here: a documentation address (192.0.2.0/24) to serve
    on makes binding fail at once, after serve's check has let the root through."""
    url = "ssh://user@192.0.2.1/srv/app"
    run = cli("serve", url, "--host", "192.0.2.7", "--port", str(free_port()), timeout=30)
    assert run.returncode == 2, run
    warning, error = run.stderr.splitlines()  # the bind's failure, not the root's
    assert warning.startswith("intentus-tui: warning: listening on 192.0.2.7")
    assert "192.0.2.7" in error and "no such directory" not in run.stderr
    # Each session runs the debugger on the URL as typed, reached as serve was told.
    options = RemoteOptions(accept_unknown_host=True, timeout=3.0)
    assert debugger_command(url, demo=False, options=options) == shlex.join(
        [sys.executable, "-m", "intentus_tui.cli", url, "--accept-unknown-host", "--timeout", "3.0"]
    )
    # A URL the debugger cannot parse is refused with its line, as the debugger does.
    for command in (("serve", "ssh:///srv/app"), ("ssh:///srv/app",)):
        refused = cli(*command, timeout=30)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr == (
            "intentus-tui: no host in 'ssh:///srv/app': expected ssh://[user@]host[:port]/path\n"
        )


def test_another_host_is_warned_about(tmp_path: Path) -> None:
    """A documentation address (192.0.2.0/24) is no address of this machine: the warning
    comes first, then binding fails with one line; no traffic is sent anywhere."""
    run = cli("serve", str(tmp_path), "--host", "192.0.2.7", "--port", str(free_port()))
    assert run.returncode == 2
    warning, error = run.stderr.splitlines()
    assert warning.startswith("intentus-tui: warning: listening on 192.0.2.7, not on this")
    assert error.startswith("intentus-tui: ") and "192.0.2.7" in error
    assert "Traceback" not in run.stderr


def test_port_zero_is_refused_rather_than_announced_as_port_0(tmp_path: Path) -> None:
    run = cli("serve", "--port", "0", str(tmp_path))
    assert run.returncode == 2 and "'--port': 0 is not in the range" in run.stderr, run.stderr


def test_a_port_in_use_is_one_line_before_any_banner(tmp_path: Path) -> None:
    """It announced "Serving ... on http://127.0.0.1:PORT ... Press Ctrl+C to quit", then
    failed to bind with Python's "[Errno 98] error while attempting to bind"."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = cli("serve", str(tmp_path), "--port", str(port))
    assert run.returncode == ExitCode.USAGE
    assert run.stdout == ""
    assert (
        run.stderr == f"intentus-tui: cannot listen on 127.0.0.1:{port}: address already in use\n"
    )
