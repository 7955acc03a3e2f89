"""``intentus-tui diff A B``: compare two executions, snapshots or Active Graph runs.

A and B are each a record file, a record id (looked up in ``--dir``), a Verist snapshot or
baseline file, or ``RUNS.db#RUN_ID`` (an Active Graph run). The comparison is the core's
(``core.compare.compare``, which the debugger's Diff tab calls too); this module reads the
arguments and prints. Two records are compared section by section, the header included, with a
summary and the first divergence of their event streams; a record against a snapshot is
compared as two snapshots (Verist's input, output and commands); two runs as their event lists,
with the lineage (fork points, shared prefix, tails) when one descends from the other or both
from a third run, and their objects and relations (shared, only in A, only in B, differing).

Paths are written one way everywhere: ``events[2].payload.agent`` (an index in brackets, an
identifier after a dot, any other key as a quoted string in brackets). An event of two runs is
named by its number in its run everywhere - the first divergence, the tails, the paths
(``#8.payload.behavior``) - as the run's positional ids count (``#8`` is ``evt_008``); the first
divergence gives each side's ``seq`` too (its row in the file: a fork's copy has its own). It is
the first event the aligned comparison sets apart (as ``--aligned`` lists and the comparison
screen's timelines show them), whether or not the listing is aligned.

Ignore rules hide the differences every two executions have (timestamps, execution, request,
trace and span ids, latencies, the header's envelope hash; ``core.compare.ignore``), plus the
user's own from ``compare.toml`` in the user config dir and ``--ignore GLOB``; the output says
how many differences they hid, and ``--all`` shows everything. Equal means equal once those are
set aside.

Exit codes: 0 equal, 1 different (or equal with a side whose evidence fails its integrity
check: ``equal, from untrusted evidence``), 2 usage error (missing file, unknown id or run, bad
``--key-by`` or ``--ignore``, unreadable database), with one line on stderr.

Each record's side comes with its execution's verdict, as ``verify`` prints it (``A  ID
verdict: outcome unknown (untrusted), integrity tampered; not replayable (untrusted)``),
and a side whose evidence fails its integrity check (tampered, a broken write-ahead log chain) with a
``warning:`` line: its differences come from that evidence. Snapshots, baselines and runs have
no verdict.

``--json`` prints one document: ``equal``, ``compared`` (``records`` | ``snapshots`` | ``runs``),
``a``/``b`` (what was read; a record's ``verdict`` as ``inspect ID --json`` gives it),
``warnings`` (one line for each untrusted side, ``[]`` when none), ``entries``
(``{path, path_text, before, after, kind}``, and ``path_in_a`` where an element aligned
with A's is at another place in A: ``path`` gives B's places, ``path_text`` both,
``events[3→2]``; a side
that is JavaScript ``undefined`` - an added or removed key - is left out of the entry, so an
``added`` entry has no ``before`` and a ``removed`` one no ``after``), ``summary``,
``first_divergence`` (``index``, ``kind`` - ``type``, ``payload``, ``length``, or, the events
being aligned as the comparison screen draws them (two records, two runs), ``only_a``/``only_b``
for an event one side has mid-stream - each side's ``seq``, ``type`` and event, and a
one-line ``description`` that the Diff tab and the comparison screen show too), ``fork`` (two related runs of one file: ``relation`` - ``parent``,
``ancestor`` or ``common-ancestor`` - the fork points down to each side, the shared prefix and
tails) and ``structure`` (two runs: object and relation counts by ``shared``/``only_a``/
``only_b``/``differs``, the ids that are not shared, and under ``activegraph`` the counts
``activegraph diff --json`` prints), ``null`` where they do not apply; ``hidden`` (how many
differences the ignore rules hid) and ``ignore_rules`` (the rules in effect, ``[]`` with
``--all``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from intentus_tui.cli.common import (
    EMPTY_TARGET,
    decided_exit,
    echo_folded,
    echo_json,
    fail,
    guarded,
    locate_execution,
    remote_options,
    typed_path,
    verdict_line,
)
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.cli.stderr import echo_error
from intentus_tui.core.activegraph import (
    ForkComparison,
    ForkPoint,
    GraphEvent,
    ItemChange,
    StructuralDiff,
)
from intentus_tui.core.compare import (
    NO_RULES,
    CompareError,
    Comparison,
    ComparisonSummary,
    Divergence,
    IgnoreRuleError,
    IgnoreRules,
    Operand,
    changed_events_text,
    changed_values_text,
    compare,
    cut_pair,
    diff_lines,
    equal_words,
    file_operand,
    from_untrusted,
    load_ignore_config,
    path_in_a,
    path_text,
    run_operand,
)
from intentus_tui.core.compare import (
    untrusted_warnings as side_warnings,
)
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verist.diff import DiffEntry, DiffError
from intentus_tui.core.verist.key_by import KeyFn
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import is_index

_TAIL_LINES = 20  # per side, in text output
# A value longer than this is cut in text output (a payload can be megabytes on one line);
# --json gives every value whole.
_VALUE_CHARACTERS = 200
_EVENT_CHARACTERS = 160  # an event's JSON on its line under the first divergence


# --------------------------------------------------------------------------- reading A and B


def read_side(target: str, directory: str | Sequence[str] | None) -> Operand:
    """Classify and read one operand, or exit 2 with one clear line. A record comes with its
    execution's verdict, made as ``inspect`` and ``verify`` make it (joined with its
    write-ahead log, found where they find it)."""
    if not target:
        fail(EMPTY_TARGET)
    path = Path(target)
    try:
        if "#" in target and not path.exists():
            db_text, _, run_id = target.rpartition("#")
            return run_operand(target, typed_path(db_text), run_id)
        if path.is_dir():
            return file_operand(target, path)
        located, wal_dir = locate_execution(target, directory, allow_wal=False)
        return file_operand(target, located, wal_dir=wal_dir)
    except CompareError as exc:
        fail(str(exc))


def parse_key_by(specs: tuple[str, ...]) -> dict[str, KeyFn]:
    """``PATH=FIELD`` options into ``key_by``'s mapping, or exit 2."""
    paths: dict[str, KeyFn] = {}
    for spec in specs:
        path, sep, key = spec.partition("=")
        if not sep or not path.strip() or not key.strip():
            fail(f"bad --key-by {spec!r}: expected PATH=FIELD, e.g. events=seq")
        if path in paths:
            fail(f"--key-by names {path!r} twice")
        paths[path] = key
    return paths


# --------------------------------------------------------------------------- summary lines


def _yes(value: bool | None) -> str:
    return "unknown" if value is None else ("yes" if value else "no")


def _agents_text(agents: tuple[str, ...]) -> str:
    return " → ".join(agents) if agents else "(no attempts)"


def _record_summary_lines(summary: ComparisonSummary) -> list[str]:
    intent = _yes(summary.same_intent)
    if not summary.same_intent:
        intent += f" ({summary.intent_a or '?'} / {summary.intent_b or '?'})"
    path = _yes(summary.same_agent_path)
    if not summary.same_agent_path:
        path += f" ({_agents_text(summary.agent_path_a)} / {_agents_text(summary.agent_path_b)})"
    return [
        f"same intent: {intent}",
        f"same agent path: {path}",
        f"same response: {_yes(summary.same_response)}",
        f"same recorded envelope hash: {_yes(summary.same_envelope_hash)}",
    ]


def summary_lines(comparison: Comparison) -> list[str]:
    if comparison.records is not None:
        return _record_summary_lines(comparison.records.summary)
    if comparison.snapshots is not None:
        snapshots = comparison.snapshots
        commands = snapshots.same_commands
        lines = [
            f"same input: {_yes(snapshots.same_input)}",
            f"same output: {_yes(snapshots.same_output)}",
            "same commands: " + ("n/a (no commands)" if commands is None else _yes(commands)),
        ]
        if snapshots.same_header is None:
            return [*lines, "same record header: n/a (a side has no IntentusNet record header)"]
        return [
            *lines,
            f"same record header: {_yes(snapshots.same_header)}",
            f"same recorded envelope hash: {_yes(snapshots.same_envelope_hash)}",
        ]
    if comparison.runs is not None:
        runs = comparison.runs
        return [
            f"events: {runs.events_a} / {runs.events_b}",
            f"same event types: {_yes(runs.same_types)}",
        ]
    return []


# --------------------------------------------------------------------------- JSON output


def _plain(value: Any) -> Any:
    """A JSON-ready copy: MISSING nested in a value becomes null."""
    if value is MISSING:
        return None
    if not isinstance(value, dict | list):
        return value
    try:
        return json.loads(json.dumps(value, default=lambda o: None if o is MISSING else str(o)))
    except RecursionError:  # str() would recurse as deep
        return "(nested too deeply to show)"
    except ValueError:
        return str(value)


def entry_json(entry: DiffEntry, *, runs: bool = False) -> dict[str, Any]:
    """``runs``: an entry of two runs, whose ``path_text`` names its event by number."""
    out: dict[str, Any] = {
        "path": [int(key) if is_index(key) else key for key in entry.path],
        "path_text": path_text(entry, runs=runs),
        "kind": entry.kind,
    }
    if (in_a := path_in_a(entry.path)) is not None:  # an element at another place in A
        out["path_in_a"] = in_a
    if entry.before is not MISSING:
        out["before"] = _plain(entry.before)
    if entry.after is not MISSING:
        out["after"] = _plain(entry.after)
    if entry.array_op is not None:
        out["array_op"] = entry.array_op
    return out


def graph_event_json(event: GraphEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "id": event.id,
        "type": event.type,
        "actor": event.actor,
        "caused_by": event.caused_by,
        "frame_id": event.frame_id,
        "timestamp": event.timestamp,
        "run_id": event.run_id,
        "payload": _plain(event.payload),
    }


def _event_json(event: Any) -> Any:
    return graph_event_json(event) if isinstance(event, GraphEvent) else _plain(event)


def divergence_json(divergence: Divergence[Any] | None) -> dict[str, Any] | None:
    if divergence is None:
        return None
    payload = divergence.payload_diff
    return {
        "index": divergence.index,
        "kind": divergence.kind,
        "seq_a": divergence.seq_a,
        "seq_b": divergence.seq_b,
        "type_a": divergence.type_a,
        "type_b": divergence.type_b,
        "event_a": _event_json(divergence.event_a),
        "event_b": _event_json(divergence.event_b),
        "payload_entries": [entry_json(e) for e in payload.entries] if payload else [],
        "description": divergence.describe(),
    }


def _fork_point_json(fork: ForkPoint) -> dict[str, Any]:
    return {
        "parent_run_id": fork.parent_run_id,
        "fork_run_id": fork.fork_run_id,
        "at_event_id": fork.event_id,
        "index": fork.index,
    }


def fork_json(fork: ForkComparison | None) -> dict[str, Any] | None:
    if fork is None:
        return None
    relation = fork.relation
    out: dict[str, Any] = {
        "parent_run_id": fork.parent.run_id,
        "fork_run_id": fork.fork.run_id,
        "forked_at_event_id": fork.fork.forked_at_event_id,
        "fork_point_index": fork.fork_point_index,
        "shared_prefix_len": fork.shared_prefix_len,
        "prefix_intact": fork.prefix_intact,
        "parent_tail": [graph_event_json(e) for e in fork.parent_tail],
        "fork_tail": [graph_event_json(e) for e in fork.fork_tail],
        "first_divergence": divergence_json(fork.first_divergence),
    }
    if relation is not None:
        out.update(
            relation=relation.kind,
            description=relation.describe(),
            common_ancestor_run_id=relation.common_ancestor.run_id,
            inherited_len=relation.inherited_len,
            fork_points_a=[_fork_point_json(f) for f in relation.forks_a],
            fork_points_b=[_fork_point_json(f) for f in relation.forks_b],
        )
    return out


def _item_json(item: ItemChange) -> dict[str, Any]:
    return {
        "id": item.id,
        "status": item.status,
        "summary": item.summary(),
        "a": _plain(item.in_a),
        "b": _plain(item.in_b),
    }


def structure_json(structure: StructuralDiff | None) -> dict[str, Any] | None:
    """Objects and relations (counts, and every id that is not shared) and the event counts."""
    if structure is None:
        return None
    return {
        "events": {
            "shared": structure.shared_events,
            "only_a": structure.a_only_events,
            "only_b": structure.b_only_events,
        },
        "objects": dict(structure.object_counts),
        "relations": dict(structure.relation_counts),
        "divergent_objects": [_item_json(i) for i in structure.divergent_objects],
        "divergent_relations": [_item_json(i) for i in structure.divergent_relations],
        "activegraph": structure.activegraph_summary(),
    }


def untrusted_warnings(a: Operand, b: Operand) -> list[str]:
    """One warning for each side whose verdict is untrusted (tampered, chain broken), with
    the verdict's integrity reason: the core's words, the debugger's too."""
    return side_warnings(a, b, one_line=False)


def comparison_json(a: Operand, b: Operand, comparison: Comparison) -> dict[str, Any]:
    return {
        "equal": comparison.equal,
        "compared": comparison.compared,
        "a": a.describe(),
        "b": b.describe(),
        "warnings": [sanitize_line(text) for text in untrusted_warnings(a, b)],
        "entries": [entry_json(e, runs=comparison.compared == "runs") for e in comparison.entries],
        "summary": comparison.summary_json(),
        "first_divergence": divergence_json(comparison.divergence),
        "fork": fork_json(comparison.fork),
        "structure": structure_json(comparison.structure),
        "notes": list(comparison.notes),
        # The text's last line counts: ``different: 11 changed values, 5 changed events``
        # (null where the events were not compared one by one).
        "changed_values": len(comparison.entries),
        "changed_events": comparison.changed_events,
        "hidden": comparison.hidden,
        "ignore_rules": list(comparison.ignore.patterns),
    }


# --------------------------------------------------------------------------- text output


def _line(text: str) -> None:
    echo_folded([sanitize_line(text)])


def _compact(value: Any, limit: int = _EVENT_CHARACTERS) -> str:
    text = _json_text(value)
    return cut_pair(text, text, limit)[0]


def _json_text(value: Any) -> str:
    try:
        return json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return repr(value)


def _event_head(event: Any) -> str:
    """What an event's line says before its payload (a run's event; a record's has none)."""
    if not isinstance(event, GraphEvent):
        return ""
    cause = f" ← {event.caused_by}" if event.caused_by else ""
    return f"{event.id} {event.type} by {event.actor or '-'}{cause} "


def _event_body(event: Any) -> Any:
    return event.payload if isinstance(event, GraphEvent) else event


def _event_line(event: Any) -> str:
    return _event_head(event) + _compact(_event_body(event))


def _event_lines(a: Any, b: Any, missing: str) -> tuple[str, str]:
    """A's and B's event at the first divergence, each on one line (``missing`` for a side
    that has none), cut where they differ: cut at their end, two events that differ past it
    read the same."""
    if a is not None and b is not None:
        body_a, body_b = cut_pair(
            _json_text(_event_body(a)), _json_text(_event_body(b)), _EVENT_CHARACTERS
        )
        return _event_head(a) + body_a, _event_head(b) + body_b
    line_a, line_b = (missing if event is None else _event_line(event) for event in (a, b))
    return line_a, line_b


def _print_divergence(divergence: Divergence[Any] | None, title: str) -> None:
    if divergence is None:
        _line(f"{title}: none")
        return
    _line(f"{title}: {divergence.describe()}")
    # A side with no event here has ended (``length``), or goes on with events the other
    # side's event is not among (``only_a``/``only_b``): it has none like it at this place.
    missing = "(ended)" if divergence.kind == "length" else "(no such event here: it goes on)"
    line_a, line_b = _event_lines(divergence.event_a, divergence.event_b, missing)
    _line(f"    A: {line_a}")
    _line(f"    B: {line_b}")
    if divergence.payload_diff is not None:
        for text in diff_lines(divergence.payload_diff.entries, _VALUE_CHARACTERS):
            _line(f"    {text}")


def _print_tail(name: str, events: tuple[GraphEvent, ...], start: int) -> None:
    _line(f"{name} tail ({len(events)} events):")
    for offset, event in enumerate(events[:_TAIL_LINES]):
        _line(f"  #{start + offset + 1} {_event_line(event)}")
    if len(events) > _TAIL_LINES:
        _line(f"  … {len(events) - _TAIL_LINES} more")


def _print_fork(fork: ForkComparison) -> None:
    relation = fork.relation
    if relation is not None:
        _line(f"lineage: {relation.describe()}")
    point = "?" if fork.fork_point_index is None else f"#{fork.fork_point_index + 1}"
    if relation is not None and relation.kind != "parent":
        inherited = "?" if relation.inherited_len is None else str(relation.inherited_len)
        _line(f"inherited from {relation.common_ancestor.run_id}: {inherited} events (to {point})")
    else:
        label = f" ({fork.fork.label})" if fork.fork.label else ""
        _line(
            f"fork: {fork.fork.run_id}{label} forked from {fork.parent.run_id} "
            f"at {fork.fork.forked_at_event_id} (event {point})"
        )
    intact = "" if fork.prefix_intact else " — the inherited prefix differs between the runs!"
    _line(f"shared prefix: {fork.shared_prefix_len} events{intact}")
    older = "parent" if relation is None or relation.kind == "parent" else "older run"
    younger = "fork" if relation is None or relation.kind != "common-ancestor" else "other run"
    if relation is not None and relation.kind == "common-ancestor":
        older, younger = "A", "B"
    _print_tail(f"{older} ({fork.parent.run_id})", fork.parent_tail, fork.shared_prefix_len)
    _print_tail(f"{younger} ({fork.fork.run_id})", fork.fork_tail, fork.shared_prefix_len)


def _counts_text(counts: Mapping[str, int]) -> str:
    return (
        f"{counts['shared']} shared, {counts['only_a']} only in A, "
        f"{counts['only_b']} only in B, {counts['differs']} differ"
    )


def _print_structure(structure: StructuralDiff) -> None:
    _line(
        f"events as activegraph diff counts them: {structure.shared_events} shared, "
        f"{structure.a_only_events} only in A, {structure.b_only_events} only in B"
    )
    for title, counts, items in (
        ("objects", structure.object_counts, structure.divergent_objects),
        ("relations", structure.relation_counts, structure.divergent_relations),
    ):
        _line(f"{title}: {_counts_text(counts)}")
        for item in items[:_TAIL_LINES]:
            _line(f"  - {item.summary()}")
        if len(items) > _TAIL_LINES:
            _line(f"  … {len(items) - _TAIL_LINES} more")


def _ident(side: Operand) -> str | None:
    described = side.describe()
    ident = described.get("execution_id") or described.get("run_id") or described.get("workflow_id")
    return ident if isinstance(ident, str) else None


def _file_text(side: Operand, copies: bool) -> str:
    """``, file NAME`` for one of two records with one id, unless its label names the file."""
    if not copies or side.path is None or Path(side.label).name in (side.path.name, side.path.stem):
        return ""
    return f", file {side.path.name}"


def print_text(a: Operand, b: Operand, outcome: Comparison) -> None:
    idents = (_ident(a), _ident(b))
    # Two copies of one record share an id: their file names tell them apart.
    copies = a.kind == b.kind == "record" and idents[0] is not None and idents[0] == idents[1]
    for name, side, ident in (("A", a, idents[0]), ("B", b, idents[1])):
        where = _file_text(side, copies)
        _line(f"{name}: {side.label} ({side.noun}{f' {ident}' if ident else ''}{where})")
        if side.note:
            _line(f"   note: {side.note}")
    # Each record's verdict, in verify's words; a snapshot, baseline or run has none.
    for name, side, ident in (("A", a, idents[0]), ("B", b, idents[1])):
        if side.verdict is not None:
            _line(f"{name}  {ident or side.label}  verdict: {verdict_line(side.verdict)}")
    for warning in untrusted_warnings(a, b):
        _line(f"warning: {warning}")
    for text in summary_lines(outcome):
        _line(text)
    if outcome.compared != "snapshots":
        _print_divergence(outcome.divergence, "first divergence")
    if outcome.fork is not None:
        _print_fork(outcome.fork)
    if outcome.structure is not None:
        _print_structure(outcome.structure)
    for note in outcome.notes:
        _line(f"note: {note}")
    _line("")
    for text in diff_lines(outcome.entries, _VALUE_CHARACTERS, runs=outcome.compared == "runs"):
        _line(text)
    if outcome.hidden:
        _line(hidden_line(outcome.hidden))
    _line(result_line(outcome, a, b))


def result_line(outcome: Comparison, a: Operand, b: Operand) -> str:
    """``different: 27 changed values, 13 changed events``: counted as the Diff tab and the
    comparison screen count them (one per entry; events where compared event by event);
    ``equal``, or ``equal, from untrusted evidence`` (``equal_words``) as they say it."""
    if outcome.equal:
        return equal_words(a, b)
    text = f"different: {changed_values_text(len(outcome.entries))}"
    if outcome.changed_events is not None:
        text += f", {changed_events_text(outcome.changed_events)}"
    return text


def hidden_line(hidden: int) -> str:
    return f"{changed_values_text(hidden)} hidden by the ignore rules (--all shows them)"


def ignore_rules(show_all: bool, extra: tuple[str, ...]) -> IgnoreRules:
    """The rules in effect: none with ``--all``; else the defaults, the user's, ``--ignore``."""
    if show_all:
        return NO_RULES
    try:
        config = load_ignore_config(extra=extra)
    except IgnoreRuleError as exc:
        fail(f"--ignore: {exc}")
    if config.problem:
        echo_error(f"intentus-tui: {sanitize_line(config.problem)}")
    return config.rules


# --------------------------------------------------------------------------- the command


@click.command("diff")
@click.argument("a")
@click.argument("b")
@click.option(
    "--dir",
    "directory",
    multiple=True,
    help="Record directory or remote URL for ids (repeatable: LABEL:ID picks a root).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--key-by",
    "key_by_specs",
    multiple=True,
    metavar="PATH=FIELD",
    help="Compare the array at dot-PATH as a map keyed by FIELD (repeatable).",
)
@click.option(
    "--aligned", is_flag=True, help="Align arrays on content: an insertion is one change."
)
@click.option(
    "--all",
    "--no-ignore",
    "show_all",
    is_flag=True,
    help="Show every difference: no ignore rules (timestamps, ids, latencies are hidden by default).",
)
@click.option(
    "--ignore",
    "ignore_globs",
    multiple=True,
    metavar="GLOB",
    help="Also hide differences at paths matching GLOB: a key name (traceId, *_iso) or a path "
    "(events[*].payload.nonce, **.metadata.x) (repeatable).",
)
@remote_options
@guarded
def diff(
    a: str,
    b: str,
    directory: tuple[str, ...],
    as_json: bool,
    key_by_specs: tuple[str, ...],
    aligned: bool,
    show_all: bool,
    ignore_globs: tuple[str, ...],
) -> None:
    """Compare A and B: records (file, id or unique id prefix), snapshot/baseline files,
    or RUNS.db#RUN_ID.

    Timestamps, request/trace/span ids and latencies are hidden by default (the count is
    printed); --all shows them. Your own rules: ignore = ["GLOB", ...] in compare.toml in
    the user config dir. Exit 0 when equal, 1 when different (or equal with an untrusted
    side), 2 on a usage error.
    """
    key_paths = parse_key_by(key_by_specs)
    rules = ignore_rules(show_all, ignore_globs)
    side_a = read_side(a, directory)
    side_b = read_side(b, directory)
    try:
        comparison = compare(side_a, side_b, key_by_paths=key_paths, aligned=aligned, ignore=rules)
    except CompareError as exc:
        fail(str(exc))
    except DiffError as exc:
        fail(f"--key-by: {exc}")
    # Equal from untrusted evidence is no clean result: a script must not take it for one.
    clean = comparison.equal and not from_untrusted(side_a, side_b)
    decided_exit(ExitCode.OK if clean else ExitCode.PROBLEMS)
    if as_json:
        echo_json(comparison_json(side_a, side_b, comparison))
    else:
        print_text(side_a, side_b, comparison)
    raise click.exceptions.Exit(ExitCode.OK if clean else ExitCode.PROBLEMS)
