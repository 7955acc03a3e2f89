"""Compare A with B: the one "A vs B" use case of the command line and the debugger.

An operand (``Operand``) is a record (with its execution's verdict), a Verist snapshot or
baseline, or an Active Graph run;
``compare(a, b)`` picks the comparison from their kinds and returns one ``Comparison``:

- two records: ``compare_records`` below (every section, the header's ids, times and hash
  under the ignore rules; a summary; the first event divergence);
- a snapshot or baseline on either side: Verist's three-part snapshot comparison (input,
  output, commands; ``compare_snapshot_operands``), a record taking part as the snapshot
  ``snapshot_from_record`` makes of it, plus the record header and router decision when both
  sides carry one (a record marked not replayable since its snapshot differs from it);
- two runs: their event lists, normalized as ``core.activegraph`` documents; their lineage
  when both are in one database and related (one is the other's parent or any older ancestor,
  or both descend from a third run: fork points, the shared prefix, each side's tail); and what
  they built (objects and relations shared, only in A, only in B, differing, with the event
  counts ``activegraph diff`` prints). Two runs are equal when their normalized events and
  their objects and relations are.

Every entry's path is relative to the operand (``input.intent.name``, ``events[3].payload``)
and is written with ``path_text`` (``notation``: one JavaScript-like form) wherever it is
shown. Ignore rules (``ignore``) hide the differences every two executions have (times, ids,
latencies), and every comparison says how many they hid. ``side_by_side`` lays A and B out
for the full-screen comparison: the two timelines aligned event by event, the values aligned
by path with unchanged runs folded, and the positions of the differences.

The modules: ``operands`` (reading A and B), ``records``, ``snapshots``, ``runs`` (one kind of
comparison each), ``divergence`` and ``events`` (event streams), ``ignore``, ``notation``,
``result`` (``Comparison``), ``usecase`` (``compare``), ``aligned`` (``side_by_side``).

Nothing here raises on a malformed record: a missing section is ``MISSING``, a section of the
wrong type is compared as it is, and events that are not objects are compared whole.

Differences are counted in one unit everywhere (``changed_values_text``): one per entry, a
value changed, added or removed; the comparison screen steps through the same entries, one
``n`` each. Where events are compared event by event, how many differ is counted too
(``changed_events_text``), never under the same name.
"""

from intentus_tui.core.compare.divergence import (
    Divergence,
    DivergenceKind,
    find_divergence,
    first_divergence,
)
from intentus_tui.core.compare.ignore import (
    DEFAULT_IGNORE_RULES,
    DEFAULT_RULES,
    NO_RULES,
    IgnoreConfig,
    IgnoreRuleError,
    IgnoreRules,
    compare_config_path,
    load_ignore_config,
)
from intentus_tui.core.compare.notation import (
    cut_pair,
    diff_lines,
    entry_line,
    format_path_text,
    path_in_a,
    path_text,
)
from intentus_tui.core.compare.operands import (
    UNTRUSTED_DIFFERENCES,
    UNTRUSTED_EVIDENCE,
    CompareError,
    Operand,
    OperandKind,
    equal_words,
    file_operand,
    from_untrusted,
    load_result_operand,
    path_problem,
    record_operand,
    run_operand,
    untrusted_warning,
    untrusted_warnings,
)
from intentus_tui.core.compare.records import (
    RECORD_SECTIONS_COMPARED,
    ComparisonSummary,
    RecordComparison,
    agent_path,
    compare_records,
    compare_values,
)
from intentus_tui.core.compare.result import (
    Compared,
    Comparison,
    RunSummary,
    SnapshotSummary,
    changed_events_text,
    changed_values_text,
)
from intentus_tui.core.compare.snapshots import compare_snapshot_operands
from intentus_tui.core.compare.usecase import (
    WHOLE_RECORD,
    compare,
    compare_plain_values,
    compare_record_section,
)

__all__ = [
    "DEFAULT_IGNORE_RULES",
    "DEFAULT_RULES",
    "NO_RULES",
    "RECORD_SECTIONS_COMPARED",
    "UNTRUSTED_DIFFERENCES",
    "UNTRUSTED_EVIDENCE",
    "WHOLE_RECORD",
    "CompareError",
    "Compared",
    "Comparison",
    "ComparisonSummary",
    "Divergence",
    "DivergenceKind",
    "IgnoreConfig",
    "IgnoreRuleError",
    "IgnoreRules",
    "Operand",
    "OperandKind",
    "RecordComparison",
    "RunSummary",
    "SnapshotSummary",
    "agent_path",
    "changed_events_text",
    "changed_values_text",
    "compare",
    "compare_config_path",
    "compare_plain_values",
    "compare_record_section",
    "compare_records",
    "compare_snapshot_operands",
    "compare_values",
    "cut_pair",
    "diff_lines",
    "entry_line",
    "equal_words",
    "file_operand",
    "find_divergence",
    "first_divergence",
    "format_path_text",
    "from_untrusted",
    "load_ignore_config",
    "load_result_operand",
    "path_in_a",
    "path_problem",
    "path_text",
    "record_operand",
    "run_operand",
    "untrusted_warning",
    "untrusted_warnings",
]
