"""A file that holds no record, as ``verify``'s line says it: in words ("hash not checked
(not readable JSON)"), not the loader's code ("hash not_json"), for every such file of the
hostile corpus."""

from __future__ import annotations

import re
from pathlib import Path

from intentus_tui.core.model import LoadStatus
from tests.cli.support import cli
from tests.hostile.corpus import build_corpus


def test_a_garbage_file_is_said_in_words(tmp_path: Path) -> None:
    garbage = tmp_path / "x.json"
    garbage.write_text("not json {", "utf-8")
    done = cli("verify", str(garbage))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "FAIL  x.json  hash not checked (not readable JSON)"
    assert lines[1].startswith("      - Not a readable record: invalid JSON at byte 0")


def test_no_line_of_the_hostile_corpus_gives_a_code(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path)
    done = cli("verify", str(corpus.intentusnet))
    codes = {status.value for status in LoadStatus if "_" in status.value}
    said = [
        line.rsplit("  hash ", 1)[1]
        for line in done.stdout.splitlines()
        if re.match(r"(ok  |FAIL)  ", line) and "  hash " in line
    ]
    assert any(words.startswith("not checked (") for words in said), said
    assert not [words for words in said if set(re.findall(r"\w+", words)) & codes], said
