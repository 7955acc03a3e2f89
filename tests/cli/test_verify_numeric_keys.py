"""``verify`` and ``inspect`` on real 1.3.0 records whose payloads had numeric dict keys."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.intentusnet_payloads import write_real_records

NUMERIC_PAYLOAD = {
    "items": {1: "one", 2: "two", 10: "ten"},
    "scores": {-1: "low", 2.5: "mid", 1e16: "big", math.inf: "top"},
    "nested": {"by_rank": {3: {20: "a", 3: "b"}}},
}


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, str, str]:
    ids = write_real_records(tmp_path, {"numbers": NUMERIC_PAYLOAD, "edited": NUMERIC_PAYLOAD})
    edited = tmp_path / ".intentusnet" / "records" / f"{ids['edited']}.json"
    data = json.loads(edited.read_text(encoding="utf-8"))
    data["envelope"]["payload"]["items"]["10"] = "TEN"
    edited.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return tmp_path, ids["numbers"], ids["edited"]


def test_verify_calls_numeric_keys_benign_and_an_edit_tampering(
    world: tuple[Path, str, str],
) -> None:
    base, numbers, edited = world
    records = base / ".intentusnet" / "records"
    alone = cli("verify", str(records / f"{numbers}.json"))
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert f"ok    {numbers}.json  hash mismatch (benign)" in alone.stdout
    assert "numeric dict keys (payload.items: 1, 2, 10;" in alone.stdout
    assert "tampering" not in alone.stdout and "FAIL" not in alone.stdout

    both = cli("verify", cwd=base)
    assert both.returncode == 1
    assert f"FAIL  {edited}.json  hash mismatch" in both.stdout
    assert (
        "possible tampering" in both.stdout
        and "2 checked (2 records, 0 WALs), 1 failed" in both.stdout
    )

    doc = json.loads(cli("verify", str(records), "--json").stdout)
    by_stem = {Path(f["file"]).stem: f for f in doc["files"]}
    benign = by_stem[numbers]
    assert benign["ok"] is True and benign["problems"] == []
    assert benign["hash"]["status"] == "mismatch"
    assert "payload.scores: -1, 2.5, 1e+16, Infinity" in benign["hash"]["benign"]
    assert "payload.nested.by_rank[3]: 3, 20" in benign["notes"][0]
    assert by_stem[edited]["ok"] is False and by_stem[edited]["hash"]["benign"] is None


def test_inspect_shows_the_benign_story(world: tuple[Path, str, str]) -> None:
    base, numbers, edited = world
    text = cli("inspect", numbers, cwd=base)
    assert text.returncode == 0, text.stderr
    hash_line = next(line for line in text.stdout.splitlines() if line.startswith("hash"))
    assert "benign" in hash_line and "numeric dict keys" in hash_line
    assert "tampering" not in text.stdout and "problem" not in text.stdout
    doc = json.loads(cli("inspect", numbers, "--json", cwd=base).stdout)
    assert doc["hash"]["benign"] is not None and "tampering" not in doc["hash"]["explanation"]
    tampered = cli("inspect", edited, cwd=base)
    assert "possible tampering" in tampered.stdout
    # a tampered record has a post-mortem too, led by what broke and the hint
    pm = tampered.stdout.split("post-mortem\n", 1)[1].splitlines()
    assert pm[0].startswith("  untrusted        the record fails its integrity check:")
    assert pm[1].startswith("  hint             investigate first:")


def test_a_directory_with_numeric_keys_among_ordinary_records_verifies(tmp_path: Path) -> None:
    payloads = {
        f"r{i}": (
            {"rank": {i: "x", 100 + i: "y", -i: "z", 9: "w"}} if i % 4 == 0 else {"text": f"{i}"}
        )
        for i in range(1, 13)
    }
    write_real_records(tmp_path, payloads)
    out = cli("verify", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stdout
    doc = json.loads(out.stdout)
    assert (doc["checked"], doc["failed"]) == (12, 0)
    benign = [f for f in doc["files"] if f["hash"]["benign"] is not None]
    assert len(benign) == 3 and all("payload.rank" in f["notes"][0] for f in benign)


def test_the_listing_calls_numeric_keys_benign_with_the_story(
    world: tuple[Path, str, str],
) -> None:
    base, numbers, edited = world
    for extra in (["--no-cache"], [], []):  # no cache, a first open, a warm one
        doc = json.loads(cli("inspect", "--list", "--json", *extra, cwd=base).stdout)
        rows = {row["execution_id"]: row for row in doc["executions"]}
        benign = rows[numbers]
        assert (benign["integrity"], benign["hash_status"]) == ("benign", "benign")
        assert "numeric dict keys (payload.items: 1, 2, 10;" in benign["integrity_reason"]
        assert benign["outcome"] == "succeeded" and benign["replayable"] is True
        assert benign["problems"] == 0 and not benign["needs_attention"]
        assert rows[edited]["integrity"] == "tampered" and rows[edited]["outcome"] == "unknown"
        assert doc["counts"]["integrity.benign"] == 1
