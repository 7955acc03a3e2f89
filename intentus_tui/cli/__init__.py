"""The ``intentus-tui`` command line. Built on ``intentus_tui.core`` only.

``intentus-tui [DIR]`` opens the debugger; ``intentus-tui COMMAND ...`` runs a command.
Each command lives in its own module here and is registered in ``_COMMANDS``.
Exit codes: ``cli.exit_codes.ExitCode``.
"""

from __future__ import annotations

import gc
import importlib
import os
import shlex
import sys
from collections.abc import Sequence
from typing import Any

import click

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.remote_options import current_remote_options, remote_options
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.remote.location import DEFAULT_POLL, is_remote

# command name -> "module:attribute" (imported lazily so `--help` and the TUI start fast)
_COMMANDS: dict[str, str] = {
    "bundle": "intentus_tui.cli.bundle:bundle",
    "demo": "intentus_tui.cli.demo:demo",
    "diff": "intentus_tui.cli.diff:diff",
    "export": "intentus_tui.cli.export:export",
    "snapshot": "intentus_tui.cli.snapshot:snapshot",
    "inspect": "intentus_tui.cli.inspect:inspect",
    "replay": "intentus_tui.cli.replay:replay",
    "serve": "intentus_tui.cli.serve:serve",
    "verify": "intentus_tui.cli.verify:verify",
}


_VALUE_OPTIONS = frozenset({"--s3-endpoint", "--timeout", "--poll"})


class _DebuggerGroup(click.Group):
    """A group whose first positional argument may be a directory instead of a command."""

    _whole_process = False  # run as the program itself, not called by another (``main``)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        module = importlib.import_module(module_name)
        command: click.Command = getattr(module, attr)
        if self._whole_process:
            # What is imported by now lives until the process ends: frozen, no collection
            # walks it again, the one at the interpreter's exit included (a listing's exit
            # took 23-35 ms, frozen 12-25 ms). Not inside another program (a test's
            # runner): its garbage not yet collected would be frozen too, and never freed.
            gc.freeze()
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's ``main``; a usage error that click finds while it parses the arguments
        (an unknown option, a missing argument) also prints ``{"error", "exit_code"}`` on
        stdout when ``--json`` was given, as every other usage error does."""
        self._whole_process = args is None  # the program itself: its arguments from sys.argv
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        _stand_in_for_closed_streams()
        argv = list(sys.argv[1:] if args is None else args)
        try:
            result = super().main(argv, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            _hint_diff_of_a_directory(exc, argv)
            message = " ".join(exc.format_message().split())  # one line
            message = message[:1].lower() + message[1:]  # as every other line begins
            if isinstance(exc, click.UsageError):
                # One line, as every other refusal (click's own is three: usage, a "try"
                # line and the error), with where to read how the command is used.
                names: list[str] = []
                ctx = exc.ctx
                while ctx is not None and ctx.parent is not None:  # the commands, not the program
                    names.insert(0, ctx.info_name or "")
                    ctx = ctx.parent
                where = " ".join(["intentus-tui", *names])
                echo_error(f"intentus-tui: {message} (see {where} --help)")
            else:
                exc.show()
            _json_error(argv, message, exc.exit_code)
            sys.exit(exc.exit_code)
        except click.Abort:  # ctrl-c out of a command (``guarded`` says it in one), or EOF
            echo_error("intentus-tui: interrupted")
            _json_error(argv, "interrupted", ExitCode.INTERRUPTED)
            sys.exit(_flushed(ExitCode.INTERRUPTED))
        except BrokenPipeError:  # outside a command (its --help | head): the reader left
            result = ExitCode.READER_LEFT
        sys.exit(_flushed(result if isinstance(result, int) else 0))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Roots (directories, remote URLs) may come before or among the options, up to
        a command's name."""
        rest: list[str] = []
        roots: list[str] = []
        arguments = iter(args)
        for arg in arguments:
            if arg in _COMMANDS and not roots:
                rest.append(arg)
                rest.extend(arguments)
                break
            if arg.startswith("-"):
                rest.append(arg)
                value = next(arguments, None) if arg in _VALUE_OPTIONS else None
                if value is not None:
                    rest.append(value)
                continue
            roots.append(arg)
        if roots:
            ctx.meta["intentus_dir"] = roots[0]
            ctx.meta["intentus_roots"] = roots
        return super().parse_args(ctx, rest)


def _json_error(argv: list[str], message: str, code: int) -> None:
    """With ``--json`` (before any ``--``), the one JSON document on stdout is the error's,
    as every other failure's is. (Out of any command: none of its own has begun.)"""
    from intentus_tui.cli.common import echo_json

    if "--json" in argv[: argv.index("--") if "--" in argv else None]:
        echo_json({"error": message, "exit_code": code})


def _stand_in_for_closed_streams() -> None:
    """Started with standard output or error closed (``>&-``), the first write was a
    traceback (no stream, or one on a descriptor since closed), and a file opened later
    could take the closed descriptor's number and get the messages meant for it. Each
    closed one of 0, 1 and 2 is taken at once: standard output by a pipe no one reads (a
    command that writes there ends as when its reader left, exit 141; one that does not,
    ``export -o FILE``, as usual), the others by the null device."""
    for fd in (0, 1, 2):
        if _usable(fd):
            continue
        if fd == 1:
            read_end, stand_in = os.pipe()
            os.close(read_end)
        else:
            stand_in = os.open(os.devnull, os.O_RDWR)
        if stand_in != fd:
            os.dup2(stand_in, fd)
            os.close(stand_in)
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115


def _usable(fd: int) -> bool:
    """Whether ``fd`` is open, for writing too if it is standard output or error (a
    launcher script may leave its own file, open for reading, in a closed one's place)."""
    try:
        import fcntl  # not on Windows

        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except ImportError:
        return True
    except OSError:
        return False
    return fd == 0 or mode != os.O_RDONLY


def _hint_diff_of_a_directory(exc: click.ClickException, argv: list[str]) -> None:
    """``diff DIR A B`` (three arguments, the first a directory): say how to name two
    executions of a directory, rather than only that one argument is too many."""
    if not isinstance(exc, click.UsageError) or "unexpected extra argument" not in exc.message:
        return
    if "diff" not in argv:
        return
    given = [arg for arg in argv[argv.index("diff") + 1 :] if not arg.startswith("-")]
    if len(given) == 3 and os.path.isdir(given[0]):
        where, a, b = (shlex.quote(arg) for arg in given)
        exc.message += f" (two executions of a directory: intentus-tui diff --dir {where} {a} {b})"


def _flushed(code: int) -> int:
    """``code``, once what is left in standard output's buffer is written; when its reader
    has gone, quietly (no "Exception ignored" at interpreter exit): the code already
    decided when it is not 0, else 141 (128 + SIGPIPE), as ``common.reader_left`` says."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        from intentus_tui.cli.common import reader_left

        left = reader_left()
        return code or left
    except (OSError, ValueError):
        pass  # closed, or no descriptor at all: nothing more can be said there
    return code


def version_line() -> str:
    """``intentus-tui VERSION (native helpers: ...)``: which native helpers are active, or
    why none are."""
    from intentus_tui import __version__
    from intentus_tui.core import native

    return f"intentus-tui {__version__} (native helpers: {native.native_status()})"


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        try:
            click.echo(version_line())
            sys.stdout.flush()
        except BrokenPipeError:  # as every command ends when its reader left
            from intentus_tui.cli.common import reader_left

            ctx.exit(reader_left())
        ctx.exit(ExitCode.OK)


@click.group(cls=_DebuggerGroup, invoke_without_command=True)
@click.option(
    "--demo",
    is_flag=True,
    help="Open the debugger on the demo world (built on first use, then kept between runs).",
)
@click.option(
    "--fresh-demo", is_flag=True, help="Build the demo world again (undoing changes) and open it."
)
@click.option(
    "--poll",
    type=click.FloatRange(min=0.2),
    default=DEFAULT_POLL,
    show_default=True,
    help="Seconds between two listings of a remote root while the debugger is open.",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version, and whether the native helpers are active, and exit.",
)
@remote_options
@click.pass_context
def main(ctx: click.Context, demo: bool, fresh_demo: bool, poll: float) -> None:
    """A terminal debugger for recorded AI-agent executions.

    \b
    intentus-tui [ROOT ...]   open the debugger on ROOTs (default ./.intentusnet)
    intentus-tui FILE.tar.gz  open an evidence bundle, read-only (see bundle)
    intentus-tui --demo       open it on a generated demo world (kept between runs)
    intentus-tui COMMAND ...  run a scriptable command (see below)

    \b
    A ROOT is a directory or a remote URL, read-only:
      ssh://[user@]host[:port]/path   (pip install 'intentus-tui[ssh]')
      s3://bucket/prefix              (pip install 'intentus-tui[s3]')
    Several roots show as one list with a root column. The debugger watches
    them live: records written, changed or removed while it is open show at
    once (a remote root every --poll seconds); p pauses and resumes watching.
    """
    if ctx.invoked_subcommand is not None:
        return
    roots = ctx.meta.get("intentus_roots") or []
    _refuse_a_mistyped_command(ctx, roots)
    if len(roots) > 1 or any(is_remote(root) for root in roots):
        from intentus_tui.cli.open import open_several

        options = current_remote_options()._replace(poll_seconds=poll)
        ctx.exit(open_several(roots, options))
    directory = ctx.meta.get("intentus_dir")
    from intentus_tui.cli.open import open_bundle, opens_as_bundle

    if directory is not None and opens_as_bundle(directory):
        ctx.exit(open_bundle(directory))
    if directory is not None and not os.path.isdir(directory):
        from intentus_tui.core.records.load import broken_link

        what = (
            "not a directory"
            if os.path.exists(directory)
            else broken_link(directory)  # as a listing says which
            if os.path.lexists(directory)
            else "no such command or directory"
        )
        hint = "try --help"
        if os.path.isfile(directory):  # a record or a log: what opens one is a command
            hint = f"inspect it with `intentus-tui inspect {directory!r}`, or open its directory"
        echo_error(f"intentus-tui: {what}: {directory!r} ({hint})")
        ctx.exit(ExitCode.USAGE)
    from intentus_tui.cli.open import open_debugger

    ctx.exit(open_debugger(directory, demo=demo, fresh_demo=fresh_demo))


def _refuse_a_mistyped_command(ctx: click.Context, roots: list[str]) -> None:
    """``intentus-tui veriyf DIR``: the first word is no path and is close to a command's
    name, so a command was meant; it opened the debugger on DIR (after one line saying
    that no root ``veriyf`` exists)."""
    import difflib

    word = roots[0] if roots else ""
    if not word or os.path.lexists(word) or is_remote(word) or "/" in word or "." in word:
        return
    close = difflib.get_close_matches(word, list(_COMMANDS), n=1, cutoff=0.6)
    if close:
        echo_error(
            f"intentus-tui: no such command: {word!r} (did you mean {close[0]!r}? see --help)"
        )
        ctx.exit(ExitCode.USAGE)


def run(argv: list[str] | None = None) -> Any:
    """Entry point for tests: run the CLI in-process and return its exit code."""
    try:
        return main.main(args=argv, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return ExitCode.USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
