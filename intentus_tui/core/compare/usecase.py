"""``compare(a, b)``: the comparison picked from the operands' kinds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.compare.operands import CompareError, Operand
from intentus_tui.core.compare.records import compare_records
from intentus_tui.core.compare.result import Comparison
from intentus_tui.core.compare.runs import compare_runs
from intentus_tui.core.compare.snapshots import compare_snapshot_operands
from intentus_tui.core.verist.diff import diff
from intentus_tui.core.verist.key_by import KeyFn
from intentus_tui.core.verist.missing import MISSING


def compare(
    a: Operand,
    b: Operand,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
    ignore: IgnoreRules = NO_RULES,
) -> Comparison:
    """Compare A with B by their kinds (see the package docstring); differences at paths
    ``ignore`` covers are counted in ``hidden``, not shown.

    Raises ``CompareError`` (a run against a record or snapshot; a record no snapshot can be
    made of) and ``DiffError`` (a bad ``key_by_paths`` key).
    """
    kinds = {a.kind, b.kind}
    if kinds == {"record"}:
        assert a.record is not None and b.record is not None
        records = compare_records(
            a.record, b.record, key_by_paths=key_by_paths, aligned=aligned, ignore=ignore
        )
        return Comparison(
            "records",
            records.equal,
            records.entries,
            hidden=records.hidden,
            records=records,
            divergence=records.first_divergence,
            ignore=ignore,
            changed_events=records.changed_events,
        )
    if "run" in kinds:
        if kinds != {"run"}:
            raise CompareError("cannot compare an Active Graph run with a record or snapshot")
        return compare_runs(a, b, key_by_paths, aligned, ignore)
    return compare_snapshot_operands(a, b, key_by_paths, aligned, ignore)


WHOLE_RECORD = "record"


def compare_record_section(a: Operand, b: Operand, section: str) -> Comparison:
    """Two records' raw ``section`` (a top-level key, or ``WHOLE_RECORD``), diffed as it is.

    For looking at one section whole, with no ignore rules (the header's ids and times too).
    """
    before: Any = MISSING if a.record is None else a.record
    after: Any = MISSING if b.record is None else b.record
    if section != WHOLE_RECORD:
        before = before.get(section, MISSING) if isinstance(before, Mapping) else MISSING
        after = after.get(section, MISSING) if isinstance(after, Mapping) else MISSING
    result = diff(before, after)
    return Comparison("values", result.equal, result.entries)


def compare_plain_values(a: Any, b: Any) -> Comparison:
    """Two JSON values, as they are."""
    result = diff(a, b)
    return Comparison("values", result.equal, result.entries)
