"""Evidence bundles: the records, write-ahead logs and snapshots of chosen executions in one
``.tar.gz`` with a manifest (each file's sha256 and size, the tool's version, when it was
made, and each execution's verdict at that time), read back safely and checked offline.

- ``layout``: which paths a bundle may hold (``manifest.json``, ``records/``, ``wal/``,
  ``snapshots/``) and why any other is refused;
- ``manifest``: the manifest's model, its JSON and its strict reading;
- ``write``: collect an execution's files and write a bundle (deterministic, atomic);
- ``read``: extract a bundle into a private directory, refusing anything hostile, and
  compare what it holds with its manifest;
- ``seal``: which records of the extracted copy are not what the manifest sealed, told to
  every reader of the copy (their verdicts say it).

The package itself imports nothing: ``intentus-tui PATH`` asks ``layout`` whether PATH is a
bundle on the way to the first frame, and the writer's imports cost ~40 ms.
"""
