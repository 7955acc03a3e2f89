"""With ``--json``, a usage error (exit 2) is one JSON document on stdout too,
``{"error": ..., "exit_code": 2}``, beside the unchanged line on stderr; without it stdout
stays empty. A command that has already printed its own document (replay's refusals)
prints no second one."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from intentus_tui.cli import _COMMANDS
from intentus_tui.cli.common import JSON_FLAG, echo_json, fail, guarded
from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli

PREFIX = "intentus-tui: "


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[str, ...]]]:
    """A demo ``.intentusnet`` (records, WAL-only executions) and its scenarios' ids."""
    from intentus_tui.demo.writer import build_demo_world

    manifest = build_demo_world(tmp_path_factory.mktemp("json-errors"), count=3)
    return manifest.root, manifest.scenarios


def one_document(stdout: str) -> Any:
    """stdout is exactly one JSON document (json.loads refuses a second one after it)."""
    return json.loads(stdout)


def usage_errors(base: Path, scenarios: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    ids = [i for ids in scenarios.values() for i in ids]
    shared = "exec-"  # the documented-form demo ids all start so: an ambiguous prefix
    assert sum(i.startswith(shared) for i in set(ids)) > 1
    not_json = base.parent / "notes.txt"
    not_json.write_text("these are notes, not JSON\n", encoding="utf-8")
    record = next(base.joinpath("records").glob("*.json"))
    return {
        "unknown id": ["inspect", "no-such-execution", "--dir", str(base)],
        "ambiguous prefix": ["inspect", shared, "--dir", str(base)],
        "missing path": ["verify", str(base.parent / "missing")],
        "not JSON": ["diff", str(not_json), str(record)],
        "replay of an unknown id": ["replay", "no-such-execution", "--dir", str(base)],
        "snapshot of an unknown id": ["snapshot", "no-such-execution", "--dir", str(base)],
        "no root opens": ["inspect", "--list", str(base / "nope-1"), str(base / "nope-2")],
    }


@pytest.mark.parametrize(
    "case",
    [
        "unknown id",
        "ambiguous prefix",
        "missing path",
        "not JSON",
        "replay of an unknown id",
        "snapshot of an unknown id",
        "no root opens",
    ],
)
def test_a_usage_error_is_one_json_document_with_json(
    world: tuple[Path, dict[str, tuple[str, ...]]], case: str
) -> None:
    base, scenarios = world
    args = usage_errors(base, scenarios)[case]
    plain = cli(*args)
    as_json = cli(*args, "--json")
    assert plain.returncode == as_json.returncode == ExitCode.USAGE, as_json.stderr
    # stderr is the same with --json or without; without it, stdout stays empty.
    assert as_json.stderr == plain.stderr and plain.stderr.startswith(PREFIX)
    assert plain.stdout == ""
    assert "Traceback" not in as_json.stderr
    doc = one_document(as_json.stdout)
    lines = [line.removeprefix(PREFIX) for line in as_json.stderr.splitlines()]
    assert doc == {"error": "; ".join(lines), "exit_code": 2}


def test_the_cases_the_brief_names_say_what_they_are(
    world: tuple[Path, dict[str, tuple[str, ...]]],
) -> None:
    base, scenarios = world
    cases = usage_errors(base, scenarios)
    expected = {
        "unknown id": "no execution 'no-such-execution'",
        "ambiguous prefix": "id prefix 'exec-' is ambiguous",
        "missing path": "no such file or directory: ",
        "not JSON": f"{base.parent / 'notes.txt'}: Not a readable record: invalid JSON",
    }
    for case, start in expected.items():
        doc = one_document(cli(*cases[case], "--json").stdout)
        assert doc["error"].startswith(start), (case, doc)


def test_replay_refusals_are_one_document_not_two(
    world: tuple[Path, dict[str, tuple[str, ...]]],
) -> None:
    base, scenarios = world
    (wal_only,) = scenarios["crash_wal_only"]
    not_a_record = base.parent / "list.json"
    not_a_record.write_text("[1, 2]", encoding="utf-8")
    for args, reason in (
        (["replay", wal_only, "--dir", str(base)], "no_record"),
        (["replay", str(not_a_record)], "record_corrupted"),
        (["replay", str(base / "wal" / f"{wal_only}.wal")], "no_record"),
    ):
        run = cli(*args, "--json")
        assert run.returncode == ExitCode.NOT_REPLAYABLE, run.stderr
        doc = one_document(run.stdout)  # the refusal only: no error document after it
        assert doc["replayed"] is False and doc["reason"] == reason
        assert "error" not in doc and run.stderr == ""  # nor the refusal again on stderr


def test_every_json_option_sets_the_parameter_fail_reads() -> None:
    """``fail`` knows --json from the parameter's name: every command must use that name."""
    with_json = []
    for target in _COMMANDS.values():
        module_name, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module_name), attr)
        for param in command.params:
            if "--json" in param.opts:
                assert param.name == JSON_FLAG, (command.name, param.name)
                with_json.append(command.name)
    assert {"inspect", "verify", "replay", "diff", "snapshot", "bundle"} <= set(with_json)


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.option("--after-document", is_flag=True)
@click.option("--crash", is_flag=True)
@guarded
def _probe(as_json: bool, after_document: bool, crash: bool) -> None:
    if after_document and as_json:
        echo_json({"partial": True})
    if crash:
        raise RuntimeError("boom")
    fail("it went wrong", ExitCode.USAGE)


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        ([], ""),
        (["--json"], {"error": "it went wrong", "exit_code": 2}),
        (["--json", "--after-document"], {"partial": True}),  # never a second document
        (["--json", "--crash"], {"error": "internal error: RuntimeError: boom", "exit_code": 2}),
    ],
)
def test_fail_prints_the_error_document_once(args: list[str], stdout: Any) -> None:
    result = CliRunner().invoke(_probe, args)
    assert result.exit_code == ExitCode.USAGE
    assert result.stderr.startswith(PREFIX) and len(result.stderr.splitlines()) == 1
    assert (one_document(result.stdout) if stdout else result.stdout) == stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["inspect", "--list", "--bogus"], "no such option '--bogus'."),
        (["diff"], "missing argument 'A'."),
        (["verify", "--timeout", "soon"], "invalid value for '--timeout'"),
    ],
)
def test_a_command_line_click_cannot_parse_is_one_json_document_with_json(
    args: list[str], message: str
) -> None:
    """Refused before the command runs (an unknown option, a missing argument, a bad
    value): one line on stderr naming the command's help (click's own was three), exit 2;
    with --json, the document on stdout."""
    plain = cli(*args)
    as_json = cli(*args, "--json")
    assert plain.returncode == as_json.returncode == ExitCode.USAGE
    assert plain.stdout == "" and as_json.stderr == plain.stderr
    (line,) = plain.stderr.splitlines()
    assert line.startswith(f"intentus-tui: {message}")
    assert line.endswith(f"(see intentus-tui {args[0]} --help)")
    doc = one_document(as_json.stdout)
    assert doc["exit_code"] == 2 and doc["error"].startswith(message)


def test_help_and_version_still_exit_zero_with_nothing_but_their_text() -> None:
    for args in (["--help"], ["inspect", "--help"], ["--version"]):
        done = cli(*args)
        assert done.returncode == 0 and done.stderr == "" and done.stdout
