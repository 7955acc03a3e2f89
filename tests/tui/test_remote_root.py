"""The debugger on a remote root over a real OpenSSH server: rows arrive as the poller
copies files, a file written later on the remote shows up at the next poll, a server
that goes away is one line in the header (the rows stay), and invalidating is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import open_roots
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.roots import RootSet
from tests.core.remote.sshd import SshServer
from tests.core.wal.support import write_completed
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host
from tests.tui.app_support import screen_lines

LATER_ID = "0c0ffee0-1111-4222-8333-944455556666"


async def _until(pilot, condition, seconds: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


async def test_remote_rows_arrive_update_and_survive_the_server_going(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    options = RemoteOptions(timeout=3, poll_seconds=0.3)
    opened = open_roots([sshd.url(host.base)], options, sync=False)
    roots = RootSet(opened, options)
    root = roots.working[0].root
    assert root is not None
    app = IntentusApp(root, roots=roots, watch=True)
    async with app.run_test(size=(160, 40)) as pilot:
        summaries = app.execution_list.model.summaries
        count = len(host.ids) + 1
        assert await _until(pilot, lambda: len(summaries) == count)
        assert app.header_state.directory == opened[0].spec
        write_completed(host.wal, LATER_ID)  # written on the remote after the open
        assert await _until(pilot, lambda: f"{LATER_ID}.wal" in summaries)
        sshd.stop()
        assert await _until(pilot, lambda: "⚠" in app.header_state.directory)
        # what is wrong, after the root's name (not its location again)
        assert app.header_state.directory.startswith(f"{opened[0].spec} ⚠ connection ")
        assert len(summaries) == count + 1  # what was read stays
        app.execution_list.select_key(f"{real_world.success}.json")
        assert await _until(pilot, lambda: app.detail is not None)
        await pilot.press("I", "y")  # the write is refused with one line, before any dialog
        assert await _until(
            pilot,
            lambda: any(
                "Invalidate refused: the records are a local copy of the remote root"
                in str(n.message)
                for n in app._notifications
            ),
        )
    record = (host.records / f"{real_world.success}.json").read_bytes()
    assert b"manually_invalidated" not in record


async def test_a_remote_root_that_cannot_be_reached_is_named_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A remote root whose host refuses: the list said "No execution records (*.json) in
    /root/.cache/intentus-tui/remote/f8058a…/records", its local mirror, a path the user
    never typed, and not why. It names the root as typed and what is wrong with it."""
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    url = "ssh://root@127.0.0.1:1/tmp/nowhere"  # port 1: refused at once, no server needed
    options = RemoteOptions(timeout=3, poll_seconds=0.3, accept_unknown_host=True)
    roots = RootSet(open_roots([url], options, sync=False), options)
    root = roots.working[0].root
    assert root is not None
    app = IntentusApp(root, roots=roots, watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        listing = app.execution_list

        def said() -> str:
            return " ".join(str(listing.empty_message).split())

        assert await _until(pilot, lambda: url in said() and "⚠" in app.header_state.directory)
        assert f"No execution records (*.json) in {url}: " in said(), said()
        assert str(tmp_path / "cache") not in said() and ".cache" not in said()


async def test_a_failing_remote_roots_header_says_what_is_wrong_at_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, real_world: RealWorld
) -> None:
    """Beside a local root, at 80 columns, the header read "127.0.0.1 0 ⚠
    ssh://root@127.0.0.1:1/tmp/x:…": the root's location again, after its name, and not
    what was wrong. It says what is wrong."""
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    local = copy_host(real_world, tmp_path / "here")
    url = "ssh://root@127.0.0.1:1/tmp/x"  # port 1: refused at once, no server needed
    options = RemoteOptions(timeout=3, poll_seconds=0.3, accept_unknown_host=True)
    roots = RootSet(open_roots([str(local.base), url], options, sync=False), options)
    root = roots.working[0].root
    assert root is not None
    app = IntentusApp(root, roots=roots, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await _until(pilot, lambda: "⚠" in app.header_state.directory)
        # The local root's index may still be drawing its progress beside it, which leaves
        # the root's line less room ("⚠ conne…") until it is done.
        said = "127.0.0.1 0 ⚠ connection refused by 127.0.0.1"
        assert await _until(pilot, lambda: said in screen_lines(app)[0]), screen_lines(app)[0]
        assert "ssh://" not in screen_lines(app)[0]
