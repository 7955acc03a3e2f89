"""Opened before the agent first ran: when IntentusNet creates its records directory in
the directory the debugger was opened on, the debugger opens again on those records."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import App

from intentus_tui.core.paths import RecordRoot, resolve_root

if TYPE_CHECKING:
    from intentus_tui.core.model import ExecutionSummary

PROJECT_POLL_SECONDS = 1.0  # one stat of a path that does not exist yet, a second


def awaits_project(root: RecordRoot) -> bool:
    """Is ``root`` a plain directory with no ``.intentusnet`` yet, or an ``.intentusnet``
    with no ``records`` yet (where IntentusNet will write its records once the agent
    runs: ``awaited_records``)?"""
    return awaited_records(root) is not None


def awaited_records(root: RecordRoot) -> str | None:
    """Where, under the directory opened, the records ``awaits_project`` waits for will be
    (``.intentusnet/records``, or ``records`` in an ``.intentusnet``), or None."""
    requested = root.requested
    if root.records_dir != requested:
        return None  # IntentusNet's records (or logs) found there: nothing to wait for
    if requested.name == "records" and requested.parent.name == ".intentusnet":
        return None  # already IntentusNet's own records directory
    if requested.name == ".intentusnet":
        return "records"
    return None if (requested / ".intentusnet").exists() else ".intentusnet/records"


def awaited_note(root: RecordRoot) -> str:
    """What the empty list adds to "New records will appear as they are written": where
    else they will, when the project's records are awaited (``awaited_records``)."""
    awaited = awaited_records(root)
    return f", here or in {awaited}" if awaited is not None else ""


class ProjectWatch(App[None]):
    """While the list is empty, look for ``.intentusnet/records`` to appear; then close
    with ``reopen`` set to that root, for the command line to open the debugger on it (the
    app follows one directory for good). Records written into the directory itself are
    listed as they come, as in any directory."""

    reopen: RecordRoot | None = None

    def await_project(self, root: RecordRoot) -> None:
        if awaits_project(root):
            self.set_interval(PROJECT_POLL_SECONDS, partial(self._look_for_project, root))

    def _look_for_project(self, root: RecordRoot) -> None:
        if next(iter(self.all_summaries()), None) is not None:
            return  # records here already: this directory is what is being followed
        found = resolve_root(root.requested)
        if found.records_dir != root.records_dir:
            self.reopen = found
            self.exit()

    if TYPE_CHECKING:  # given by the app

        def all_summaries(self) -> Iterable[ExecutionSummary]: ...
