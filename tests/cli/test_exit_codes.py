"""The exit codes are part of the interface: the README's table and ``ExitCode`` agree."""

from __future__ import annotations

import re
from pathlib import Path

from intentus_tui.cli.exit_codes import ExitCode

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_numbers_are_the_documented_ones() -> None:
    assert {code.name: int(code) for code in ExitCode} == {
        "OK": 0,
        "PROBLEMS": 1,
        "USAGE": 2,
        "NOT_REPLAYABLE": 3,
        "MISMATCH": 4,
        "UNTRUSTED": 5,
        "READER_LEFT": 141,
    }


def test_the_readme_table_lists_every_code() -> None:
    text = README.read_text("utf-8")
    section = text[text.index("### Exit codes") :]
    section = section[: section.index("\n### ", 1)]
    documented = {int(n) for n in re.findall(r"^\| (\d+) \|", section, flags=re.M)}
    assert documented == {int(code) for code in ExitCode}
