"""``export`` on every hostile file (damaged, wrong types, deep, huge numbers, NaN,
terminal escapes, symlinks out, FIFOs, unreadable, WALs torn or tampered): every line
written is valid (OTLP lines proved against opentelemetry-proto), inert in a terminal, each
file either exported or named on stderr in one line; never a traceback, nothing written
into the corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.sanitize import sanitize_line
from tests.core.export.support import attrs, prove_otlp_line, root_of
from tests.hostile.corpus import Corpus, build_corpus
from tests.hostile.harness import deadline, raw_controls, tree_digest


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = build_corpus(tmp_path_factory.mktemp("export"))
    before = tree_digest(built.root)
    yield built
    assert tree_digest(built.root) == before, "export wrote into the corpus"


def export(corpus: Corpus, fmt: str) -> tuple[int, bytes, str]:
    with deadline(120, f"export --format {fmt}"):
        result = CliRunner().invoke(
            main, ["export", "--format", fmt, str(corpus.intentusnet), "-o", "-"]
        )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert not raw_controls(result.stderr), result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith("intentus-tui: "), line
    return result.exit_code, result.stdout_bytes, result.stderr


def test_otlp_export_of_the_corpus(corpus: Corpus) -> None:
    code, out, err = export(corpus, "otlp")
    assert code in (0, 1)
    lines = out.splitlines(keepends=True)
    assert not raw_controls(out.decode("utf-8"))
    exported = set()
    for line in lines:
        root = root_of(prove_otlp_line(line))
        exported.add(attrs(root)["intentus.file"])
    skipped = [line for line in err.splitlines() if " skipped " in line]
    assert code == (1 if skipped else 0)
    assert f"exported {len(lines)} execution" in err.splitlines()[-1]
    # Every file in the corpus is accounted for: exported, or skipped with its reason.
    for name in corpus.records:
        path = corpus.records_dir / name
        if path.is_dir() or name.startswith("."):
            continue
        shown = sanitize_line(name)  # a name is shown inert, as everywhere
        assert shown in exported or any(shown in s for s in skipped), name


def test_json_export_of_the_corpus(corpus: Corpus) -> None:
    code, out, _ = export(corpus, "json")
    assert code in (0, 1)
    assert not raw_controls(out.decode("utf-8"))
    docs = [json.loads(line) for line in out.splitlines()]
    assert docs and all(isinstance(doc, dict) and "verdict" in doc for doc in docs)
    names = {Path(doc["file"]).name for doc in docs}
    assert "good-1.json" in names
