"""What every command shares: locating records, safe output, clean failures."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
import orjson

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.remote_options import current_remote_options, remote_options
from intentus_tui.cli.stderr import echo_error, terminal_width
from intentus_tui.core.execution_ids import ExecutionIdError, ExecutionMatch, resolve_execution_id
from intentus_tui.core.fsio import NotRegularFileError, read_regular_file
from intentus_tui.core.json_indent import dumps_indented
from intentus_tui.core.paths import (
    RecordRoot,
    cannot_follow,
    layout_problem,
    nothing_at,
    resolve_root,
    shown_path,
    sibling_wal_dir,
    tidy_path,
    wal_dir_problem,
)
from intentus_tui.core.records.load import RECORD_SUFFIX, WAL_SUFFIX, parse_json_text
from intentus_tui.core.records.store import UnsafeIdError
from intentus_tui.core.remote.location import is_remote
from intentus_tui.core.sanitize import json_finite, json_text_safe, quoted, sanitize, sanitize_line

if TYPE_CHECKING:  # the roots (and remote) machinery is imported when roots are opened
    from intentus_tui.core.model import Verdict
    from intentus_tui.core.roots import OpenedRoot
    from intentus_tui.render.table import Fitting

F = TypeVar("F", bound=Callable[..., Any])


JSON_FLAG = "as_json"  # the parameter every command's --json option sets
_JSON_STARTED = "intentus_tui.json_started"  # in the click context's meta
_DECIDED = "intentus_tui.decided_exit"  # in the click context's meta: ``decided_exit``


def fail(message: str, code: int = ExitCode.USAGE) -> NoReturn:
    """One clear line on stderr, then exit: never a traceback. A newline in the message
    (a file name may hold one) is shown as ``␊``, never a line of its own. With ``--json``,
    stdout gets the error as one JSON document too (``error_document``)."""
    line = sanitize_line(in_bundle_terms(message))
    echo_error(f"intentus-tui: {line}")
    error_document(line, code)
    raise click.exceptions.Exit(code)


def error_document(message: str, code: int) -> None:
    """``{"error": MESSAGE, "exit_code": CODE}`` on stdout when the running command was
    given ``--json`` and has not begun a JSON document of its own (a refusal printed
    before it fails, or a listing cut short): a script reading stdout gets one document
    either way, never two. ``MESSAGE`` is the stderr line's, without ``intentus-tui: ``."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or not ctx.params.get(JSON_FLAG) or ctx.meta.get(_JSON_STARTED):
        return
    try:
        echo_json({"error": message, "exit_code": int(code)})
    except OSError:  # stdout is gone (the reader left): the stderr line has said it
        _stdout_to_devnull()


def json_started() -> None:
    """Note that this command's JSON document has begun on stdout (``echo_json`` notes it;
    a command writing its document by other means calls this first)."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_JSON_STARTED] = True


def dumps_json(value: Any, *, fast: bool = False) -> str:
    """One valid JSON document, terminal-safe.

    ``fast``: orjson, for big documents known to hold no floats (it would turn NaN into null).
    """
    if _bundle_places():
        value = _in_bundle_terms_json(value)
    if fast:
        try:
            return json_text_safe(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())
        except (TypeError, orjson.JSONEncodeError):
            pass
    try:
        text = dumps_indented(value, allow_nan=False)
    except ValueError:
        text = dumps_indented(json_finite(value), allow_nan=False)
    except RecursionError:
        text = json.dumps({"error": "value nested too deeply to print"})
    return json_text_safe(text)  # lone surrogates too: a file name's bytes, exactly


def echo_json(value: Any, *, fast: bool = False) -> None:
    """The command's one JSON document on stdout."""
    text = dumps_json(value, fast=fast)
    json_started()
    click.echo(text)


def echo_text(text: str) -> None:
    click.echo(sanitize(in_bundle_terms(text)))


def echo_folded(lines: Iterable[str], indent: int | None = None) -> None:
    """Each line as ``echo_text`` prints it: one line each to a pipe or a file (a program
    greps a fact's line); on a terminal, a line wider than it folded at its width, its
    continuation lines ``indent`` cells in (under its value: ``fold_line``), where the
    terminal would start them at column 0, under the labels."""
    from intentus_tui.render.fold import fold_line

    width = terminal_columns()
    for line in lines:
        shown = sanitize(in_bundle_terms(line))
        if width is not None:  # one line each: a newline (a bundle's name) shown as ␊
            shown = "\n".join(fold_line(sanitize_line(shown), width, indent))
        click.echo(shown)


def verdict_line(verdict: Verdict) -> str:
    """The three answers on one line, as ``verify`` and ``diff`` print them (the reasons
    are in ``inspect ID``): ``outcome unknown (untrusted), integrity tampered; not
    replayable (untrusted)``."""
    replay = "replayable" if verdict.replayable else f"not replayable ({verdict.replay.value})"
    return f"outcome {verdict.outcome_words}, integrity {verdict.integrity.value}; {replay}"


def guarded(func: F) -> F:
    """Turn any unexpected exception into one clear line and exit code 2, not a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # `intentus-tui ... | head`: the reader left, nothing to say
            raise click.exceptions.Exit(reader_left()) from None
        except KeyboardInterrupt:  # ctrl-c: not 1, verify's and diff's code for a result
            fail("interrupted", ExitCode.INTERRUPTED)
        except UnsafeIdError as exc:
            fail(f"refused: {exc}")
        except OSError as exc:
            fail(os_error_line(exc))
        except ValueError as exc:
            fail(str(exc))
        except Exception as exc:  # a bug; still no traceback for the operator
            fail(f"internal error: {type(exc).__name__}: {exc}")

    return wrapper  # type: ignore[return-value]


# A name said in a message is cut to this many characters: a 5,000-character argument
# (a file name too long for the system) filled the terminal with it.
_NAME_SAID_MOST = 120


def os_error_line(exc: OSError) -> str:
    """What a system call's failure says of the file it names: ``NAME: file name too
    long``, not Python's ``[Errno 36] File name too long: 'NAME'``; a long name cut."""
    if exc.filename is None or not exc.strerror:
        return str(exc)
    name = os.fsdecode(exc.filename)
    if len(name) > _NAME_SAID_MOST:
        name = f"{name[: _NAME_SAID_MOST - 1]}… ({len(name):,} characters)"
    return f"{name}: {exc.strerror[:1].lower()}{exc.strerror[1:]}"


def decided_exit(code: int) -> None:
    """Note the code this command is to exit with, known before its output is all written
    (``verify`` found a failure, ``diff`` a difference, ``replay`` refuses): when the
    reader of standard output leaves early, that code is kept rather than 141."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_DECIDED] = int(code)


def reader_left() -> int:
    """Standard output's reader has gone (``| head``), so it did not get the whole answer:
    the code to exit with, quietly. The one the command had already decided when it is not
    0, else 141 (128 + SIGPIPE), as ``cat`` and ``git`` exit; what is left unwritten goes to
    /dev/null so that nothing is said at interpreter exit."""
    _stdout_to_devnull()
    ctx = click.get_current_context(silent=True)
    decided = ctx.meta.get(_DECIDED, 0) if ctx is not None else 0
    return decided or ExitCode.READER_LEFT


def _stdout_to_devnull() -> None:
    """Standard output whose reader has gone: what is left unflushed goes nowhere, and the
    interpreter says nothing about it at exit."""
    with contextlib.suppress(OSError, ValueError):  # no descriptor (a test's capture)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def typed_path(text: str) -> Path:
    """A file path the user typed, as it is read: a symlink is followed, like ``cat`` follows
    it, wherever it leads; its target then names the file everywhere (its name, the WAL
    directory beside it, what is shown). Links found while scanning a directory are not
    followed out of it (``core.fsio.open_confined``). A broken or looping link is left
    as typed, for the loader to say what it is; ``..`` is folded (``tidy_path``)."""
    path = Path(text)
    if path.is_symlink() and os.path.exists(text):
        return Path(os.path.realpath(text))
    return tidy_path(path)  # ``..`` folded where that is the same file


# Links followed, one by one, to find whether a path typed leads to a store's entry: as
# many as the kernel follows before it says the link loops (ELOOP).
_HOPS = 40


def store_entry(text: str, directory: str | None) -> tuple[RecordRoot, Path] | None:
    """(the store, its entry) when the path typed is a link that is a record file (or a
    write-ahead log) of the store being looked at (``--dir``'s, else the one ``open_root``
    finds from the current directory), or a link
    leading, link by link, to one of them: that entry is answered as its id is, a link out
    of the store not followed (``inspect X.json`` in the records directory read
    /etc/passwd where ``inspect X`` said "not followed"). None for a path anywhere else,
    read as ``typed_path`` reads it, and for a link that loops or leads nowhere: nothing is
    read through it, and it is said as a missing path is."""
    if not os.path.exists(text):
        return None
    if directory is not None and (is_remote(directory) or not os.path.isdir(directory)):
        return None
    root = resolve_root(directory)
    stores = {RECORD_SUFFIX: root.records_dir}
    if root.wal_dir is not None:
        stores[WAL_SUFFIX] = root.wal_dir
    real = {suffix: os.path.realpath(place) for suffix, place in stores.items()}
    hop = text
    for _ in range(_HOPS):
        parent, name = os.path.split(hop)
        suffix = RECORD_SUFFIX if name.endswith(RECORD_SUFFIX) else WAL_SUFFIX
        in_store = name.endswith(suffix) and os.path.realpath(parent or ".") == real.get(suffix)
        if not os.path.islink(hop):
            # A directory named like a record, typed, is a directory wherever it is typed
            # from (it was the store's unreadable record only from the store's directory).
            return None
        if in_store:
            return root, stores[suffix] / name
        try:
            hop = os.path.join(parent, os.readlink(hop))
        except OSError:
            return None
    return None


def open_root(directory: str | None, *, bundle: bool = True) -> RecordRoot:
    """Resolve DIR (default ./.intentusnet/records or the current directory; a remote URL
    is read through its local mirror; an evidence bundle, unless ``bundle`` is false,
    through its read-only copy: ``cli.bundle.opened_bundle``) or exit 2."""
    if directory is not None and is_remote(directory):
        return _one_root(directory)
    if directory == "":
        from intentus_tui.core.roots import EMPTY_ROOT

        fail(EMPTY_ROOT)
    if directory is not None:
        path = Path(directory)
        if not path.exists():
            if os.path.lexists(path):  # a link
                fail(cannot_follow(directory))
            fail(f"no such directory: {shown_path(directory)}")
        if not path.is_dir():
            from intentus_tui.core.bundle.layout import is_bundle_name

            if bundle and is_bundle_name(directory):
                from intentus_tui.cli.bundle import opened_bundle

                return opened_bundle(directory)
            hint = ""
            if is_bundle_name(directory):  # what reads a bundle
                hint = f" (a bundle: `intentus-tui {shlex.quote(directory)}` opens it, `verify` checks it)"
            fail(f"not a directory: {shown_path(directory)}{hint}")
    root = resolve_root(directory)
    if not root.records_dir.is_dir() and not root.records_to_come:
        fail(f"no such directory: {root.records_dir}")
    problem = layout_problem(root)
    if problem is not None:
        fail(problem)
    note = wal_dir_problem(root)  # the records are read, their logs unchecked
    if note is not None:
        echo_error(f"intentus-tui: {sanitize_line(note)}")
    return root


# In the running command's click context meta: the bundles it opened, by their real path:
# (the path as given, its read-only root), by ``cli.bundle.opened_bundle``.
OPENED_BUNDLES = "intentus_tui.opened_bundles"


def _opened() -> dict[str, tuple[str, RecordRoot]]:
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(OPENED_BUNDLES, {}) if ctx is not None else {}


def opened_bundles() -> list[Path]:
    """The bundle files the running command opened (an output must not replace one)."""
    return [Path(key) for key in _opened()]


def in_a_bundle(root: RecordRoot) -> bool:
    """Whether ``root`` is a bundle the running command opened (never indexed in the cache:
    its copy is gone when the command ends)."""
    return any(root.records_dir == bundled.records_dir for _, bundled in _opened().values())


def _bundle_places() -> list[tuple[str, str]]:
    """(private copy's directory, the bundle as given) of each bundle opened."""
    return [(str(root.records_dir.parent), given) for given, root in _opened().values()]


def in_bundle_terms(text: str) -> str:
    """``text`` with a file of a bundle's private copy (gone when the command ends) named
    as ``verify`` names it, ``BUNDLE:records/x.json``, and the copy itself as the bundle."""
    for directory, given in _bundle_places():
        text = text.replace(directory + os.sep, f"{given}:").replace(directory, given)
    return text


def _in_bundle_terms_json(value: Any) -> Any:
    if isinstance(value, str):
        return in_bundle_terms(value)
    if isinstance(value, dict):
        return {key: _in_bundle_terms_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_in_bundle_terms_json(item) for item in value]
    return value


def is_bundle_file(path: str) -> bool:
    """Whether ``path`` names an evidence bundle there is (``FILE.tar.gz``, not a
    directory): read as a root of records, never as a record."""
    from intentus_tui.core.bundle.layout import is_bundle_name

    return is_bundle_name(path) and os.path.isfile(path)


def _inspect_hint(target: str, directory: str | Sequence[str] | None) -> str:
    """``intentus-tui inspect TARGET`` with the roots the user gave, quoted for the shell:
    the hint works when copied."""
    roots = [directory] if isinstance(directory, str) else list(directory or ())
    words = ["intentus-tui", "inspect", target, *(w for root in roots for w in ("--dir", root))]
    return " ".join(shlex.quote(word) for word in words)


EMPTY_TARGET = "an empty argument names nothing: give an execution id or a file"


def names_a_file(target: str) -> bool:
    """Whether a RECORD argument is a file's path (``x.json``, ``x.wal``, anything with a
    ``/``) rather than an execution id or a prefix of one."""
    return target.endswith((RECORD_SUFFIX, WAL_SUFFIX)) or "/" in target


def locate_execution(
    target: str,
    directory: str | Sequence[str] | None,
    *,
    allow_wal: bool = True,
    no_record: int = ExitCode.USAGE,
    refuse: Callable[[str, int, Path | None], NoReturn] | None = None,
    opened: Sequence[OpenedRoot] | None = None,
) -> tuple[Path, Path | None]:
    """(file, WAL directory) for a path, an execution id or a unique prefix of one; an id
    may name a WAL-only execution (its log is the file) when ``allow_wal``, else that is
    one line and exit ``no_record`` (by ``refuse``, told the log too; ``fail`` unless
    given). With several directories (or a remote one), ``LABEL:ID`` names an execution in
    one root; ``opened``: those directories opened already (``open_many``), by a caller
    that names several executions in them (each would open them again)."""

    def refused(message: str, log: Path | None) -> NoReturn:
        if refuse is None:
            fail(message, no_record)
        refuse(message, no_record, log)

    def by_id(root: RecordRoot, name: str | None = None) -> tuple[Path, Path | None]:
        """What ``target`` (or ``name``) names in ``root``: a whole id, a file name or a
        prefix."""
        try:
            match = resolve_execution_id(root, name or target)
        except ExecutionIdError as exc:
            fail(str(exc))
        _note_copies(root, match)
        if match.record is not None:
            return match.record, root.wal_dir
        if allow_wal and match.wal is not None:
            return match.wal, root.wal_dir
        refused(
            f"execution {match.execution_id} has no record file, only a write-ahead log "
            f"({match.wal}): inspect it with `{_inspect_hint(match.execution_id, directory)}`",
            match.wal,
        )

    if not target:  # Path("") is ".": it was "'.' is a directory"
        fail(EMPTY_TARGET)

    if is_bundle_file(target):  # not a record ("Not UTF-8 text"): a root of records
        shown = shlex.quote(shown_path(target))
        fail(
            f"{shown_path(target)} is a bundle, not a record file or execution id "
            f"(`intentus-tui inspect --list {shown}` lists its executions, "
            f"`--dir {shown} ID` names one of them)"
        )
    in_bundle = bundled_file(target)
    if in_bundle is not None:  # ``FILE.tar.gz:records/X.json``, as ``verify`` names it
        if not in_bundle.name.endswith(WAL_SUFFIX):
            return in_bundle, sibling_wal_dir(in_bundle)
        record = _record_beside_log(in_bundle)
        if record is not None:  # the log's execution has a record: that is the execution
            return record, in_bundle.parent
        if not allow_wal:
            refused(
                f"{target} is a write-ahead log, not a record: no response was recorded in "
                f"it; inspect it with `{_inspect_hint(target, None)}`",
                in_bundle,
            )
        return in_bundle, in_bundle.parent
    looks_like_path = names_a_file(target)
    # ``LABEL:FILE`` (``d2:copy.json``, as a comparison's title names a side) is a file of
    # one of several roots, not a path of this directory.
    labelled_file = looks_like_path and ":" in target and "/" not in target
    if (
        directory is not None
        and not isinstance(directory, str)
        and (not looks_like_path or (labelled_file and len(directory) > 1))
    ):
        if len(directory) > 1 or (directory and is_remote(directory[0])):
            path, wal_dir = locate_across(target, directory, opened)
            if not allow_wal and path.name.endswith(WAL_SUFFIX):
                refused(
                    f"{target} has no record file, only a write-ahead log ({path}): "
                    f"inspect it with `{_inspect_hint(target, directory)}`",
                    path,
                )
            return path, wal_dir
        directory = directory[0] if directory else None
    elif directory is not None and not isinstance(directory, str):
        directory = directory[0] if directory else None
    if directory is not None and is_remote(directory) and not looks_like_path:
        return locate_execution(
            target, [directory], allow_wal=allow_wal, no_record=no_record, refuse=refuse
        )
    if looks_like_path and (entry := store_entry(target, directory)) is not None:
        # A link in the store, typed as a path (``inspect X.json`` in the records
        # directory), is the store's file: answered as its id is, never followed out.
        # A log's is its execution's (with its record, when there is one).
        name = entry[1].name
        return by_id(open_root(directory), name.removesuffix(WAL_SUFFIX))
    path = Path(target)
    here = os.path.lexists(target)  # a file (or link) of that name in this directory
    if "/" not in target and looks_like_path and (directory is not None or not here):
        # A file name as the list's FILE column shows it: that root's file (it was "no
        # such file" unless the current directory held one of that name). Without --dir,
        # a file of that name here is still the one read; with it, when the root has none
        # (a snapshot saved here: "no such file" in the root).
        root = open_root(directory)
        in_root = root.path_of(target)
        if not (here and not os.path.lexists(in_root)):
            if in_root.is_symlink() and in_root.parent == root.records_dir:
                # A link in the store, named by its name, is resolved as its id is (and
                # listed), not followed as a typed path is: one leading nowhere or out
                # of the store is a record that cannot be read, not a missing path. A
                # directory named like a record is a directory, as its path is.
                return by_id(root)
            path = in_root
            target = str(path)
    # With --dir, a bare name is an id there, not a file of the current directory that
    # happens to share it (``replay ID --dir D > ID`` made the next ``inspect ID --dir D``
    # read that output).
    if looks_like_path or (directory is None and path.exists()):
        if not path.exists():
            # A link typed is followed (``typed_path``): one that loops or leads nowhere
            # has nothing there, as a missing path has not, and is said as verify says it.
            fail(nothing_at(target))
        if path.is_dir():
            shown = shown_path(target)
            hint = f"--dir {shown} ID names one of its executions"
            context = click.get_current_context(silent=True)
            if context is not None and context.info_name == "inspect":
                hint = f"--list lists its executions, {hint}"
            fail(f"{shown} is a directory, not a record file or execution id ({hint})")
        path = typed_path(target)
        record = _record_beside_log(path)
        if record is not None:  # the log's execution has a record: that is the execution
            return record, path.parent
        if not allow_wal and path.name.endswith(WAL_SUFFIX):  # not "invalid JSON at byte N"
            refused(
                f"{path} is a write-ahead log, not a record: no response was recorded in "
                f"it; inspect it with `{_inspect_hint(target, None)}`",
                path,
            )
        return path, sibling_wal_dir(path)
    return by_id(open_root(directory))


def _bundle_and_member(target: str) -> tuple[str, str] | None:
    """(bundle, path inside it) when ``target`` is ``FILE.tar.gz:PATH`` (or ``.tgz``), the
    bundle a file there and no file of the whole name: a file of a bundle as ``verify``,
    ``inspect`` and ``diff`` name it. None for anything else, and for a PATH without a
    ``/``: ``FILE.tar.gz:ID`` and ``FILE.tar.gz:X.json`` name an execution or a file of
    the bundle as one of several roots, by its label (``locate_across``)."""
    from intentus_tui.core.bundle.layout import is_bundle_name

    if ":" not in target or os.path.lexists(target):
        return None
    start = 0
    while (colon := target.find(":", start)) > 0:
        bundle, member = target[:colon], target[colon + 1 :]
        if "/" in member and is_bundle_name(bundle) and os.path.isfile(bundle):
            return bundle, member
        start = colon + 1
    return None


def bundled_file(target: str) -> Path | None:
    """The file of the read-only copy of a bundle that ``target`` names as
    ``FILE.tar.gz:PATH`` (``records/X.json``, ``wal/X.wal``, ``snapshots/X.json``), the
    bundle opened as ``--dir FILE.tar.gz`` opens it (once a command); None when ``target``
    is no such name; exit 2 with one line when PATH is no file of the bundle, or unsafe."""
    found = _bundle_and_member(target)
    if found is None:
        return None
    bundle, member = found
    from intentus_tui.cli.bundle import opened_bundle
    from intentus_tui.core.bundle.layout import bundle_path, member_problem

    name = bundle_path(member)
    problem = member_problem(name)
    if problem is None and "/" not in name:  # ./manifest.json
        problem = "the bundle's manifest, not a record, log or snapshot"
    shown = f"{shown_path(bundle)}:{member}"
    if problem is not None:
        fail(f"refused: {shown}: {problem}")
    copy = opened_bundle(bundle).records_dir.parent
    path = copy / name
    if not path.is_file():
        listing = shlex.quote(shown_path(bundle))
        fail(
            f"no such file in bundle {shown_path(bundle)}: {name} "
            f"(`intentus-tui verify --json {listing}` names each of its files)"
        )
    return path


def _record_beside_log(path: Path) -> Path | None:
    """The record of the execution whose write-ahead log ``path`` is (``wal/X.wal`` and
    ``records/X.json`` of one ``.intentusnet``), if there is one. Named by its log, an
    execution was judged from the log alone: "no record file", "not replayable", where
    its id gave the record's verdict."""
    if not path.name.endswith(WAL_SUFFIX) or path.parent.name != "wal":
        return None
    record = path.parent.parent / "records" / (path.name[: -len(WAL_SUFFIX)] + RECORD_SUFFIX)
    return record if record.is_file() else None


def read_json_file(path_text: str, what: str) -> Any:
    """The JSON value in the file ``path_text`` (a ``what``: "envelope"), or exit 2 with
    one plain line saying why it cannot be read: no codec or parser jargon."""
    prefix = f"cannot read {what} file {shown_path(path_text)}"
    try:
        data, _ = read_regular_file(typed_path(path_text))
    except FileNotFoundError:
        fail(f"{prefix}: no such file")
    except NotRegularFileError as exc:
        fail(f"{prefix}: it is {exc.kind}, not a file")
    except PermissionError:
        fail(f"{prefix}: permission denied")
    except OSError as exc:
        fail(f"{prefix}: {exc.strerror or type(exc).__name__}")
    if not data.strip():
        fail(f"{prefix}: the file is empty")
    if b"\x00" in data:
        fail(f"{prefix}: it holds binary data, not JSON text")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is harmless
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start]
        fail(f"{prefix}: it is not UTF-8 text (byte {exc.start + 1} is 0x{bad:02x})")
    try:
        return parse_json_text(text)
    except json.JSONDecodeError as exc:
        fail(f"{prefix}: not valid JSON at line {exc.lineno}, column {exc.colno}")
    except RecursionError:
        fail(f"{prefix}: nested too deeply to read")
    except ValueError:
        fail(f"{prefix}: not valid JSON")


# Lines written at once: a write a line was a sixth of a 100,000-row listing's time.
TABLE_LINES_A_WRITE = 1024


def print_table(
    rows: list[list[str]],
    out: Callable[[str], None] | None = None,
    fitting: Fitting | None = None,
) -> None:
    """An aligned, space-separated table, one execution a line (``inspect --list``).
    Printed to a terminal narrower than the table, it is fitted to it as ``fitting`` says
    (``fit_table``), and its last lines say what was done; piped, every column is whole."""
    from intentus_tui.render.table import fit_table, table_lines, table_width

    if not rows:
        return
    write = out or click.echo
    width = terminal_columns()
    lines: Iterator[str] = table_lines(rows)
    if fitting is not None and width is not None and table_width(rows) > width:
        fitted = fit_table(rows, width, fitting)
        lines = itertools.chain(fitted.lines(), fitted.note(width))
    while batch := list(itertools.islice(lines, TABLE_LINES_A_WRITE)):
        write("\n".join(batch))


def terminal_columns() -> int | None:
    """The width of the terminal standard output is, or None when it is not one."""
    return terminal_width(sys.stdout)


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


# ------------------------------------------------------------------ several roots, remote roots

__all__ = ["remote_options"]  # re-exported for the commands


def open_many(specs: Sequence[str], *, others: bool = False) -> list[OpenedRoot]:
    """Every root named (remote ones synced into their local mirrors); a root that fails
    says so in one line on stderr while the others are used. Exit 2 when none opens,
    unless ``others``: something else named beside the roots is still to be used."""
    from intentus_tui.cli.bundle import bundle_among_roots
    from intentus_tui.core.roots import open_roots

    opened = open_roots(specs, current_remote_options(), open_bundle=bundle_among_roots)
    several = len(opened) > 1
    lines: list[str] = []
    for entry in opened:
        if entry.problem is not None:
            prefix = f"root {entry.label}: " if several else ""
            note = entry.bundle or entry.logs_unlisted
            what = "failed" if entry.failed else "note" if note else "incomplete"
            line = f"{prefix}{entry.problem}" if not several else f"{prefix}{what}: {entry.problem}"
            lines.append(sanitize_line(line))
            echo_error(f"intentus-tui: {lines[-1]}")
    if not others and all(entry.failed for entry in opened):
        error_document("; ".join(lines), ExitCode.USAGE)
        raise click.exceptions.Exit(ExitCode.USAGE)
    return opened


def _one_root(directory: str) -> RecordRoot:
    entry = open_many([directory])[0]
    assert entry.root is not None
    return entry.root


def locate_across(
    target: str, directories: Sequence[str], opened: Sequence[OpenedRoot] | None = None
) -> tuple[Path, Path | None]:
    """(file, WAL directory) of ``LABEL:ID`` or an id or prefix only one root has, in the
    ``directories`` (``opened``: those opened already)."""
    from intentus_tui.core.roots import resolve_across, split_label

    if opened is None:
        opened = open_many(directories)
    label, name = split_label(target, [entry.label for entry in opened])
    if label is not None and names_a_file(name):  # LABEL:FILE, a file of that root
        entry = next(entry for entry in opened if entry.label == label)
        if entry.root is None:
            fail(f"root {label} could not be opened: {entry.problem}")
        path = entry.root.path_of(name)
        if not os.path.lexists(path):
            fail(f"no such file in root {label}: {shown_path(str(path))}")
        return _whole(entry.root, path, entry)
    try:
        entry, match = resolve_across(opened, target)
    except ExecutionIdError as exc:
        fail(str(exc))
    assert entry.root is not None
    _note_copies(entry.root, match, entry.label)
    return (
        _whole(entry.root, match.record, entry)
        if match.record
        else (
            match.wal or entry.root.records_dir,
            entry.root.wal_dir,
        )
    )


def _note_copies(root: RecordRoot, match: ExecutionMatch, label: str | None = None) -> None:
    """A note on stderr when the record read is the one named after its id and the index's
    cache knows other files of ``root`` that record that execution (copies under other
    names): the id chose ``X.json`` by its name, and the others are named. Nothing is read
    for it but the cache (none with ``--no-cache``, or before the directory was listed)."""
    if match.record is None or match.record.name != f"{match.execution_id}{RECORD_SUFFIX}":
        return
    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("no_cache"):
        return
    if in_a_bundle(root):  # never indexed: its copy lives as long as the command
        return
    noted: set[Path] = context.meta.setdefault("intentus_tui.noted", set()) if context else set()
    if match.record in noted:  # ``diff X X``: said once a command
        return
    noted.add(match.record)
    from intentus_tui.core.index.copies import known_copies

    others = known_copies(root, match.execution_id)
    if not others:
        return
    where = f"{label}:" if label is not None else ""
    how = "LABEL:FILE" if label is not None else "its path, or its name with --dir"
    names = ", ".join(f"{where}{name}" for name in others)
    echo_error(
        sanitize_line(
            f"intentus-tui: note: read {where}{match.record.name}; execution "
            f"{quoted(match.execution_id)} is also recorded in {names}, as the index last "
            f"listed the directory (name the file to read one: {how})"
        )
    )


def _whole(root: RecordRoot, record: Path, entry: OpenedRoot | None) -> tuple[Path, Path | None]:
    """A record of a remote root, read whole first if only its head and tail were."""
    mirror = entry.mirror if entry is not None else None
    if mirror is not None and mirror.is_partial(record):
        problem = mirror.fetch_whole(record)
        if problem is not None:
            fail(problem)
    return record, root.wal_dir
