"""The options saying how remote roots are reached, shared by the debugger and every
command that takes a root (kept light: the command line's start imports it)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from intentus_tui.core.remote.location import DEFAULT_TIMEOUT, S3_ENDPOINT_ENV, RemoteOptions

F = TypeVar("F", bound=Callable[..., Any])


def remote_options(func: F) -> F:
    """The options saying how remote roots (ssh://, s3://, ...) are reached."""
    options = [
        click.option(
            "--accept-unknown-host",
            is_flag=True,
            help="ssh: connect to a host whose key is not in ~/.ssh/known_hosts.",
        ),
        click.option(
            "--s3-endpoint",
            metavar="URL",
            help=f"s3: an S3-compatible store's endpoint (or ${S3_ENDPOINT_ENV}).",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.5),
            default=DEFAULT_TIMEOUT,
            show_default=True,
            help="Seconds a remote connection or read may take before it is given up.",
        ),
    ]
    for option in reversed(options):
        func = option(func)

    @wraps(func)
    def wrapper(
        *args: Any,
        accept_unknown_host: bool,
        s3_endpoint: str | None,
        timeout: float,
        **kwargs: Any,
    ) -> Any:
        ctx = click.get_current_context()
        ctx.meta["remote_options"] = RemoteOptions(
            accept_unknown_host=accept_unknown_host, s3_endpoint=s3_endpoint, timeout=timeout
        )
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def remote_arguments(options: RemoteOptions) -> list[str]:
    """The command-line options that give another intentus-tui command ``options`` (those
    left at their defaults left out)."""
    words: list[str] = []
    if options.accept_unknown_host:
        words.append("--accept-unknown-host")
    if options.s3_endpoint is not None:
        words += ["--s3-endpoint", options.s3_endpoint]
    if options.timeout != DEFAULT_TIMEOUT:
        words += ["--timeout", repr(options.timeout)]
    return words


def current_remote_options() -> RemoteOptions:
    ctx = click.get_current_context(silent=True)
    found = ctx.meta.get("remote_options") if ctx is not None else None
    return found if isinstance(found, RemoteOptions) else RemoteOptions()
