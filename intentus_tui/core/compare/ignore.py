"""Ignore rules: fields that differ between any two executions (times, ids, latencies).

A rule is a glob over a difference's path (``core.compare.notation``):

- a rule with no ``.`` and no ``[`` names a key anywhere: ``timestamp``, ``*_iso``;
- any other rule is matched against the whole path: ``*`` is any part of one key, ``**`` any
  run of keys, ``[*]`` any array index: ``events[*].payload.timestamp``,
  ``**.metadata.traceId``; in two Active Graph runs, whose paths start at an event, that
  event as it is shown too, by its number: ``#*.payload.nonce``, ``#8.payload.nonce``.

A difference whose path matches a rule is hidden, never lost: every comparison reports how
many it hid. The built-in set (``DEFAULT_IGNORE_RULES``) covers what IntentusNet 1.3.0
records, their write-ahead logs and Active Graph runs carry that changes on every run; the
user adds rules in ``compare.toml`` in the user config dir (``~/.config/intentus-tui`` on
Linux, or ``$INTENTUS_TUI_COMPARE``)::

    ignore = ["sessionToken", "events[*].payload.nonce"]
    use_default_ignore = true   # false: only the rules above
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from intentus_tui.core.compare.notation import (
    event_number,
    format_path_text,
    key_text,
    run_path_text,
)
from intentus_tui.core.verist.diff import DiffEntry, PathKey
from intentus_tui.core.verist.value import is_index

# Seen in 1.3.0 records (routerDecision.timestamp, envelope.metadata.requestId/createdAt/
# traceId, finalResponse.metadata.timestamp/traceId, header.createdUtcIso), the WAL's
# timestamp_iso, the demo's latency_ms, OpenTelemetry-style span ids and Active Graph times.
DEFAULT_IGNORE_RULES: tuple[str, ...] = (
    "timestamp",
    "*_iso",
    "*Iso",
    "*_at",
    "*At",
    "request_id",
    "requestId",
    "trace_id",
    "traceId",
    "span_id",
    "spanId",
    "parent_span_id",
    "parentSpanId",
    "execution_id",
    "executionId",
    "latency_ms",
    "latencyMs",
    "duration_ms",
    "durationMs",
    "elapsed_ms",
    "elapsedMs",
    # A digest of the whole envelope, request id and times included: it differs whenever they
    # do. The envelope's own differences are shown path by path, and the summary still says
    # whether the two hashes are the same.
    "header.envelopeHash",
)
CONFIG_ENV = "INTENTUS_TUI_COMPARE"
CONFIG_NAME = "compare.toml"


class IgnoreRuleError(ValueError):
    """A rule that is not a usable glob (one line for a person)."""


def _glob_regex(glob: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("[*]", i):
            out.append(r"\[\d+\]")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append(r"[^.\[]*")
            i += 1
        elif glob[i] == "?":
            out.append(r"[^.\[]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def _is_name_rule(glob: str) -> bool:
    return "." not in glob and "[" not in glob and "**" not in glob


def check_rule(glob: str) -> str:
    """The rule stripped, or ``IgnoreRuleError``."""
    rule = glob.strip()
    if not rule:
        raise IgnoreRuleError("an ignore rule is empty")
    if any(ord(c) < 32 for c in rule):
        raise IgnoreRuleError(f"ignore rule {rule!r} holds a control character")
    return rule


@dataclass(frozen=True)
class IgnoreRules:
    """Globs over paths; ``matches`` says whether a difference at a path is hidden."""

    patterns: tuple[str, ...] = ()
    _names: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _paths: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [_glob_regex(p) for p in self.patterns if _is_name_rule(p)]
        paths = [_glob_regex(p) for p in self.patterns if not _is_name_rule(p)]
        object.__setattr__(self, "_names", re.compile("|".join(names)) if names else None)
        object.__setattr__(self, "_paths", re.compile("|".join(paths)) if paths else None)

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: Sequence[PathKey]) -> bool:
        if not path:
            return False
        last = path[-1]
        if self._names is not None and not is_index(last) and self._names.fullmatch(str(last)):
            return True
        if self._paths is None:
            return False
        if self._paths.fullmatch(format_path_text(path)) is not None:
            return True
        # A path that starts at an event is two runs': also as it is shown, ``#8.payload.x``.
        return (
            is_index(path[0]) and self._paths.fullmatch(run_path_text(path, both=False)) is not None
        )

    def covers(self, path: Sequence[PathKey]) -> bool:
        """True when ``path`` or any of its ancestors matches (a hidden key hides its subtree).

        ``matches`` on each ancestor, done in one pass: an ancestor's text is a prefix of the
        path's, so the path is written once and each ancestor matched as a slice of it.
        Writing each ancestor anew was quadratic in the depth: a diff of two 10 KB records
        nested 900 deep, a thousand differences at the bottom, took over a minute."""
        if not path:
            return False
        names = self._names
        if names is not None and any(not is_index(k) and names.fullmatch(str(k)) for k in path):
            return True
        rule = self._paths
        if rule is None:
            return False
        parts = [key_text(key, first=i == 0) for i, key in enumerate(path)]
        if _any_prefix_matches(rule, "".join(parts), parts, len(parts[0])):
            return True
        if not is_index(path[0]):
            return False
        # A path that starts at an event: also as a run's is shown, ``#8.payload.x``.
        number = event_number(int(path[0]))
        return _any_prefix_matches(rule, number + "".join(parts[1:]), parts, len(number))

    def split(self, entries: Iterable[DiffEntry]) -> tuple[tuple[DiffEntry, ...], int]:
        """The entries left to show, and how many the rules hid."""
        if not self.patterns:
            shown = tuple(entries)
            return shown, 0
        kept: list[DiffEntry] = []
        hidden = 0
        for entry in entries:
            if self.covers(entry.path):
                hidden += 1
            else:
                kept.append(entry)
        return tuple(kept), hidden

    def plus(self, extra: Iterable[str]) -> IgnoreRules:
        seen = dict.fromkeys(self.patterns)
        seen.update(dict.fromkeys(check_rule(p) for p in extra))
        return IgnoreRules(tuple(seen))


def _any_prefix_matches(rule: re.Pattern[str], text: str, parts: list[str], first: int) -> bool:
    """Does ``rule`` match the whole of any prefix of ``text`` that ends after one of
    ``parts`` (the first of them ``first`` characters long, the others as they are)?"""
    end = first - len(parts[0])
    for part in parts:
        end += len(part)
        if rule.fullmatch(text, 0, end) is not None:
            return True
    return False


NO_RULES = IgnoreRules(())
DEFAULT_RULES = IgnoreRules(DEFAULT_IGNORE_RULES)


def compare_config_path() -> Path:
    """``$INTENTUS_TUI_COMPARE``, or ``compare.toml`` in the user config dir."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_config_path("intentus-tui") / CONFIG_NAME


@dataclass(frozen=True)
class IgnoreConfig:
    """The rules in effect, where the user's came from, and a problem to report (or None)."""

    rules: IgnoreRules
    user_rules: tuple[str, ...]
    path: Path | None
    problem: str | None = None


def load_ignore_config(path: Path | None = None, *, extra: Iterable[str] = ()) -> IgnoreConfig:
    """The default rules, the user's from ``path`` (default ``compare_config_path()``) and
    ``extra``. A missing file means the defaults; a broken one the defaults and a problem."""
    path = path or compare_config_path()
    use_defaults = True
    user: list[str] = []
    problem = None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        data = {}
        problem = f"ignore rules in {path} not used: {exc}"
    listed = data.get("ignore", [])
    if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
        problem = f'ignore rules in {path} not used: "ignore" must be a list of strings'
        listed = []
    try:
        user = [check_rule(r) for r in listed]
    except IgnoreRuleError as exc:
        problem = f"ignore rules in {path} not used: {exc}"
        user = []
    flag = data.get("use_default_ignore", True)
    if isinstance(flag, bool):
        use_defaults = flag
    else:
        problem = f'{path}: "use_default_ignore" must be true or false'
    base = DEFAULT_RULES if use_defaults else NO_RULES
    rules = base.plus(user).plus(extra)
    return IgnoreConfig(rules, tuple(user), path, problem)
