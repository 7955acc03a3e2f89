"""intentus-tui: a terminal debugger for recorded AI-agent executions."""

__version__ = "0.1.0"
