"""Where a remote root is (``ssh://[user@]host[:port]/path``, ``s3://bucket/prefix``, any
other fsspec URL) and how to reach it (``RemoteOptions``)."""

from __future__ import annotations

import os
from typing import NamedTuple
from urllib.parse import urlsplit

S3_ENDPOINT_ENV = "INTENTUS_TUI_S3_ENDPOINT"  # AWS_ENDPOINT_URL is honoured too
DEFAULT_TIMEOUT = 10.0  # seconds: the longest a connection or one read may take
DEFAULT_PARALLEL = 8  # files read at once from one root
DEFAULT_POLL = 5.0  # seconds between two listings of a remote root in the debugger


class RemoteOptions(NamedTuple):
    """How remote roots are reached (the command line's options)."""

    accept_unknown_host: bool = False  # ssh: trust a host missing from known_hosts
    s3_endpoint: str | None = None  # an S3-compatible store's URL (else the env, else AWS)
    timeout: float = DEFAULT_TIMEOUT
    parallel: int = DEFAULT_PARALLEL
    poll_seconds: float = DEFAULT_POLL
    tar_lane: bool = True  # ssh: copy many files as one stream from the server's tar

    def endpoint(self) -> str | None:
        return (
            self.s3_endpoint
            or os.environ.get(S3_ENDPOINT_ENV)
            or os.environ.get("AWS_ENDPOINT_URL_S3")
            or os.environ.get("AWS_ENDPOINT_URL")
            or None
        )


class RemoteLocation(NamedTuple):
    """A parsed remote root URL (never holding a password)."""

    url: str  # as shown and as the local mirror is keyed: without any password
    protocol: str
    host: str  # ssh host, s3 bucket, or the URL's netloc for other protocols
    user: str | None
    port: int | None
    path: str  # the path on the remote filesystem (s3: bucket/prefix)

    @property
    def label(self) -> str:
        return self.host or self.protocol


def is_remote(spec: str) -> bool:
    """Does ``spec`` name a remote root (a URL with a scheme other than file)?"""
    scheme, sep, _ = spec.partition("://")
    return bool(sep) and scheme.isidentifier() and scheme.lower() not in ("file", "local")


def parse_remote(spec: str) -> RemoteLocation:
    """``RemoteLocation`` of a URL; ``ValueError`` (one line) when it cannot be one."""
    try:
        parts = urlsplit(spec)
    except ValueError as exc:  # the standard library's words alone name nothing
        raise ValueError(f"not a URL: {spec!r}: {exc}") from None
    protocol = parts.scheme.lower()
    if protocol in ("sftp", "ssh"):
        protocol = "ssh"
        if not parts.hostname:
            raise ValueError(f"no host in {spec!r}: expected ssh://[user@]host[:port]/path")
        try:
            port = parts.port
        except ValueError:
            raise ValueError(f"bad port in {spec!r}") from None
        path = parts.path or "."
        user = parts.username
        shown = f"ssh://{user + '@' if user else ''}{parts.hostname}"
        shown += f":{port}" if port else ""
        return RemoteLocation(shown + path, protocol, parts.hostname, user, port, path)
    if protocol in ("s3", "s3a"):
        bucket = parts.netloc
        if not bucket:
            raise ValueError(f"no bucket in {spec!r}: expected s3://bucket/prefix")
        prefix = parts.path.strip("/")
        path = f"{bucket}/{prefix}" if prefix else bucket
        return RemoteLocation(f"s3://{path}", "s3", bucket, None, None, path)
    # Any other fsspec protocol: fsspec itself reads the URL (``url_to_fs``) when it opens.
    host = parts.hostname or parts.netloc.rpartition("@")[2]
    shown = f"{protocol}://{host}{parts.path}"
    return RemoteLocation(shown, protocol, host, parts.username, None, shown)
