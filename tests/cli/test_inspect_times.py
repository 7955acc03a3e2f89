"""``inspect ID`` shows when each event happened and how long each attempt took: a record
written by the real intentusnet 1.3.0, joined with a WAL written by its real ``WALWriter``."""

from __future__ import annotations

import json
import re
from datetime import UTC
from pathlib import Path

from intentusnet.wal.writer import WALWriter

from intentus_tui.core.timestamps import parse_timestamp
from tests.cli.support import cli
from tests.core.wal.support import write_in_flight
from tests.intentusnet_world import build_real_world


def _clock(text: str) -> str:
    """The text output's form: ISO-8601 UTC to the millisecond."""
    moment = parse_timestamp(text)
    assert moment is not None
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def test_inspect_shows_the_wal_times_of_events_and_attempts(tmp_path: Path) -> None:
    world = build_real_world(tmp_path)
    wal = tmp_path / ".intentusnet" / "wal"
    wal.mkdir()
    with WALWriter(str(wal), world.fallback) as w:
        started = w.execution_started("ab" * 32, "Summarize")
        first = w.step_started("s1", "fb-primary", "read_only", {}, "in-1")
        failed = w.step_failed("s1", "agent_error", "fb-primary exploded", True)
        w.fallback_triggered("fb-primary", "fb-secondary", "fb-primary exploded")
        w.step_started("s2", "fb-secondary", "read_only", {}, "in-2")
        w.step_completed("s2", "out-2", True)
        w.execution_completed("cd" * 32)
    shown = cli("inspect", world.fallback, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "  #1 " in text and f"{_clock(started.timestamp_iso)}  INTENT_RECEIVED  (wal)" in text
    assert f"{_clock(first.timestamp_iso)}  AGENT_ATTEMPT_START  (wal)" in text
    assert f"{_clock(failed.timestamp_iso)}  AGENT_ATTEMPT_END  (wal)" in text
    assert "attempt times\n    1 fb-primary           error" in text

    as_json = cli("inspect", world.fallback, "--json", cwd=tmp_path)
    doc = json.loads(as_json.stdout)
    attempt = doc["attempts"][0]
    start = parse_timestamp(first.timestamp_iso)
    end = parse_timestamp(failed.timestamp_iso)
    assert start is not None and end is not None
    assert parse_timestamp(attempt["started_at"]) == start
    assert parse_timestamp(attempt["ended_at"]) == end
    assert attempt["duration_s"] == round((end - start).total_seconds(), 6)
    assert attempt["duration_source"] == "clock"
    events = {e["index"]: e for e in doc["times"]["events"]}
    assert parse_timestamp(events[0]["at"]) == parse_timestamp(started.timestamp_iso)
    assert events[0]["source"] == "wal"


def test_inspect_of_a_record_alone_says_which_events_have_no_time(tmp_path: Path) -> None:
    """1.3.0 writes no time on its events: a dash, never a guess; the decision's own time."""
    world = build_real_world(tmp_path)
    record = json.loads((world.records_dir / f"{world.success}.json").read_text("utf-8"))
    decision = next(e for e in record["events"] if e["type"] == "ROUTER_DECISION")
    text = cli("inspect", world.success, cwd=tmp_path).stdout
    assert f"started     {_clock(record['header']['createdUtcIso'])} (header)" in text
    assert "       —  —                         INTENT_RECEIVED\n" in text
    stamp = _clock(decision["payload"]["timestamp"])
    assert f"{stamp}  ROUTER_DECISION  (event)" in text
    assert "    1 fb-secondary         ok        — → —                —\n" in text


def test_inspect_of_an_in_flight_wal_says_how_long_its_step_is_open(tmp_path: Path) -> None:
    wal = tmp_path / ".intentusnet" / "wal"
    wal.mkdir(parents=True)
    (tmp_path / ".intentusnet" / "records").mkdir()
    path = write_in_flight(wal, "irreversible")
    shown = cli("inspect", path.stem, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    line = next(x for x in shown.stdout.splitlines() if "payments-agent" in x and "open" in x)
    assert line.endswith("(in flight)") and "in_flight" in line
    doc = json.loads(cli("inspect", path.stem, "--json", cwd=tmp_path).stdout)
    charge = doc["times"]["attempts"][1]
    assert charge["status"] == "in_flight" and charge["ended_at"] is None
    assert charge["duration_s"] is None
    assert charge["open_s"] > 0  # since its start, against the clock at inspect time


def test_attempt_times_stay_in_columns_with_a_long_agent_name(tmp_path: Path) -> None:
    # "ticket-classifier-backup" pushed its row's status and times out of line.
    from intentus_tui.cli.inspect import time_lines
    from intentus_tui.core.detail import load_detail
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path / "demo").root
    found = []
    for path in sorted((base / "records").glob("*.json")):
        lines = time_lines(load_detail(path, base / "wal"))
        rows = lines[lines.index("attempt times") + 1 :] if "attempt times" in lines else []
        rows = [row for row in rows if row.startswith("    ") and row[4].isdigit()]
        if any(len(row.split()[1]) > 20 for row in rows):
            found.append(rows)
    assert found  # the demo has such an execution
    for rows in found:
        columns = {row.index(row.split()[2], 5 + len(row.split()[1])) for row in rows}
        assert len(columns) == 1, rows  # every status starts in one column


def test_attempt_times_fit_80_columns_with_an_attempt_open_for_months(tmp_path: Path) -> None:
    """``    2 payments-adyen       in_flight +2.374s → —          open 328d14h (in flight)``
    was 82 cells: an attempt started long ago and never ended. Its time goes on the next
    line, under its span; every fact is still said."""
    from rich.cells import cell_len

    from intentus_tui.cli.inspect import time_lines
    from intentus_tui.core.detail import load_detail
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path / "demo").root
    folded = []
    for path in sorted((base / "records").glob("*.json")):
        lines = time_lines(load_detail(path, base / "wal"))
        if "attempt times" not in lines:
            continue
        rows = lines[lines.index("attempt times") + 1 : lines.index("event times")]
        assert all(cell_len(row) <= 80 for row in rows), rows
        folded += [
            (path.stem, row, rows[n + 1]) for n, row in enumerate(rows) if "in_flight" in row
        ]
    assert folded  # the demo has attempts in flight since it was written, months ago
    for execution, row, time in folded:
        assert row.endswith(" → —") and "open" not in row
        assert re.fullmatch(r" {37}open \d+d\d\dh \(in flight\)", time), time
        shown = cli("inspect", execution, "--dir", str(base), cwd=tmp_path).stdout.splitlines()
        assert shown[shown.index(row) + 1] == time
        table = shown[shown.index("attempt times") :]
        table = table[: next(n for n, x in enumerate(table) if x.startswith("wal "))]
        assert all(cell_len(line) <= 80 for line in table), table


def test_attempt_times_on_a_narrow_terminal_are_folded_once(tmp_path: Path) -> None:
    """On a 60- or 40-column terminal an attempt's row is laid out at its width: its time
    ``open 328d14h (in flight)`` stands whole on one line (it was folded at 80 columns and
    then again at the terminal's, its ``(in flight)`` alone on a third line), and no line
    printed is wider than the terminal, for the demo's and the real intentusnet's records."""
    from rich.cells import cell_len

    from intentus_tui.cli.inspect import time_lines
    from intentus_tui.core.detail import load_detail
    from intentus_tui.demo.writer import build_demo_world
    from tests.cli.support import run_in_pty

    base = build_demo_world(tmp_path / "demo").root
    world = build_real_world(tmp_path / "real")
    in_flight = [
        path.stem
        for path in sorted((base / "records").glob("*.json"))
        if any("in_flight" in line for line in time_lines(load_detail(path, base / "wal")))
    ]
    shown = 0
    for columns in (60, 40):
        for root, execution in [
            *((base, e) for e in in_flight),
            (world.records_dir, world.fallback),
        ]:
            out = run_in_pty(
                "inspect", execution, "--dir", str(root), cwd=tmp_path, columns=columns
            )
            lines = out.decode().replace("\r\n", "\n").splitlines()
            assert all(cell_len(line) <= columns for line in lines), [
                line for line in lines if cell_len(line) > columns
            ]
            times = [line for line in lines if "(in flight)" in line and "open" in line]
            for line in times:
                assert re.fullmatch(r" +open \d+d\d\dh \(in flight\)", line), line
            shown += len(times)
            assert not any(line.strip() == "flight)" for line in lines), lines
    assert shown  # the demo has attempts in flight since it was written, months ago


def test_event_times_on_a_40_column_terminal_take_a_line_or_two_each(tmp_path: Path) -> None:
    """At 40 columns the terminal folded each event's row into its offset, its time and its
    type, one under the other. Now its offset and type share a line, its time and source
    (when one was recorded) are whole on the next; piped, each row stays one line."""
    from rich.cells import cell_len

    from tests.cli.support import run_in_pty

    world = build_real_world(tmp_path)
    record = json.loads((world.records_dir / f"{world.fallback}.json").read_text("utf-8"))
    types = [event["type"] for event in record["events"]]
    out = run_in_pty(
        "inspect", world.fallback, "--dir", str(world.records_dir), cwd=tmp_path, columns=40
    )
    lines = out.decode().replace("\r\n", "\n").splitlines()
    rows = lines[lines.index("event times") + 1 :]
    assert all(cell_len(line) <= 40 for line in rows), rows
    heads = [line for line in rows if line.startswith("  #")]
    assert [line.split()[-1] for line in heads] == types, rows
    clock = re.compile(r" +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z  \((event|response)\)")
    for head, after in zip(rows, [*rows[1:], ""], strict=True):
        if not head.startswith("  #"):
            assert clock.fullmatch(head), rows  # a whole time and its source, nothing else
        elif re.match(r"  #\d+ +—  ", head):  # no time recorded: one line
            assert after.startswith("  #") or not after, rows
        else:
            assert re.fullmatch(r"  #\d+ +\+\d+\.\d+s  [A-Z_]+", head), head
            assert clock.fullmatch(after), rows
    assert len(rows) <= 2 * len(types)
    piped = cli("inspect", world.fallback, "--dir", str(world.records_dir), cwd=tmp_path).stdout
    piped_rows = piped.splitlines()[piped.splitlines().index("event times") + 1 :]
    assert len(piped_rows) == len(types)
