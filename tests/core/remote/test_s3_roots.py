"""Remote roots in object storage: moto's standalone S3 server on 127.0.0.1 as the
endpoint of an S3-compatible store, holding real intentusnet 1.3.0 records and a WAL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import open_roots
from tests.core.remote.sshd import free_port
from tests.intentusnet_world import RealWorld
from tests.roots_world import WAL_ONLY_ID, copy_host

moto_server = pytest.importorskip("moto.server", reason="needs moto[server] (the test extra)")


@pytest.fixture
def s3_endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    port = free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


def upload(endpoint: str, bucket: str, prefix: str, base: Path) -> None:
    import boto3

    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    client.create_bucket(Bucket=bucket)
    for path in base.rglob("*"):
        if path.is_file():
            client.upload_file(str(path), bucket, f"{prefix}/{path.relative_to(base)}")


def test_s3_root_lists_records_and_wals(
    s3_endpoint: str, real_world: RealWorld, tmp_path: Path
) -> None:
    host = copy_host(real_world, tmp_path / "host")
    upload(s3_endpoint, "incidents", "eu-1/.intentusnet", host.base / ".intentusnet")
    options = RemoteOptions(s3_endpoint=s3_endpoint, timeout=5)
    [entry] = open_roots(["s3://incidents/eu-1"], options)
    assert entry.problem is None and entry.root is not None
    assert entry.label == "incidents"
    keys = {s.key for s in scan_root(entry.root, use_cache=False)}
    assert keys == {f"{i}.json" for i in host.ids} | {f"{WAL_ONLY_ID}.wal"}
    assert entry.mirror is not None
    assert entry.mirror.sync().read_bytes == 0  # unchanged: nothing read again


def test_missing_bucket_is_one_line(s3_endpoint: str) -> None:
    options = RemoteOptions(s3_endpoint=s3_endpoint, timeout=5)
    [entry] = open_roots(["s3://no-such-bucket/x"], options)
    assert entry.problem is not None
    assert entry.problem.startswith("s3://no-such-bucket/x: ")
    assert "\n" not in entry.problem
