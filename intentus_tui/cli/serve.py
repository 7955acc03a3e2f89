"""``intentus-tui serve [ROOT]``: the debugger in a web browser, through ``textual-serve``.

Each browser tab that connects runs its own ``intentus-tui ROOT`` process, whose screen
is drawn in the page (xterm.js) and which gets the page's keys. The server listens on
127.0.0.1 unless ``--host`` names another address: anyone who can reach it can read the
records and use every action of the debugger, and there is no log-in.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import socket
import sys

import click

from intentus_tui.cli.bundle import extracted
from intentus_tui.cli.common import fail, guarded
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.open import OpenError, opens_as_bundle, resolve_target
from intentus_tui.cli.remote_options import current_remote_options, remote_arguments, remote_options
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.remote.location import RemoteOptions, is_remote, parse_remote
from intentus_tui.core.sanitize import sanitize_line

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def debugger_command(root: str | None, demo: bool, options: RemoteOptions | None = None) -> str:
    """The shell command each browser session runs: this interpreter, this package, and
    how remote roots are reached (``options``)."""
    words = [sys.executable, "-m", "intentus_tui.cli"]
    if demo:
        words.append("--demo")
    elif root is not None:
        # A remote URL as typed (made "absolute" it named a local path that is not there).
        words.append(root if is_remote(root) else os.path.abspath(root))
    if options is not None:
        words += remote_arguments(options)
    return shlex.join(words)


def _refuse_unopenable(root: str) -> None:
    """Exit with the debugger's own line when it would refuse to open ``root``: each
    browser session runs it there, so a server started anyway shows every visitor that
    refusal alone. A bundle is read through once (exit 1 when it cannot be), a directory
    resolved as the debugger resolves it (exit 2). A remote URL the debugger could not
    parse is refused as it refuses it; one it can is not reached here: each session's
    debugger connects, and says in its page why it cannot."""
    if is_remote(root):
        try:
            parse_remote(root)
        except ValueError as exc:
            fail(str(exc))
        return
    if opens_as_bundle(root):
        with extracted(root):  # a hostile or unreadable bundle: one line, exit 1
            return
    try:
        resolve_target(root)
    except OpenError as exc:
        fail(str(exc))


def _refuse_a_taken_address(host: str, port: int) -> None:
    """One line, exit 2, when ``host:port`` cannot be listened on (a port in use, an
    address of another machine): the server announced "Serving on ... Press Ctrl+C" first,
    then failed. Bound as the server binds it (address reuse on), then let go."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
        fail(f"cannot listen on {sanitize_line(host)}:{port}: {why}")


@click.command("serve")
@click.argument("root", required=False)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),  # 0 (any free port) was served, and announced as port 0
    default=DEFAULT_PORT,
    show_default=True,
)
@click.option(
    "--host",
    default=DEFAULT_HOST,
    show_default=True,
    help="Address to listen on. Another than 127.0.0.1/localhost exposes the records.",
)
@click.option(
    "--public-url",
    help="The URL browsers reach the server by, when it is not http://HOST:PORT "
    "(behind a proxy, or listening on 0.0.0.0).",
)
@click.option("--demo", is_flag=True, help="Serve the demo world.")
@remote_options
@guarded
def serve(root: str | None, port: int, host: str, public_url: str | None, demo: bool) -> None:
    """Serve the debugger on ROOT (a record directory, a remote URL such as
    ssh://[user@]host[:port]/path, or a bundle FILE.tar.gz; default as the debugger) to a
    web browser: open http://127.0.0.1:PORT. Ctrl+C stops it."""
    if root is not None and demo:
        fail("give either ROOT or --demo, not both")
    if root is not None:
        _refuse_unopenable(root)
    try:
        from textual_serve.server import Server
    except ImportError:
        fail(
            "serving needs the textual-serve package: pip install 'intentus-tui[serve]'",
            ExitCode.USAGE,
        )
    if not is_loopback(host):
        echo_error(
            f"intentus-tui: warning: listening on {sanitize_line(host)}, not on this machine "
            "only: anyone who can reach it can read these records and act on them (no log-in)"
        )
    _refuse_a_taken_address(host, port)
    server = Server(
        debugger_command(root, demo, current_remote_options()),
        host=host,
        port=port,
        title="intentus-tui",
        public_url=public_url,
    )
    server.serve()
    raise click.exceptions.Exit(ExitCode.OK)
